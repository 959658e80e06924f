#!/usr/bin/env bash
# Before/after in one call: the same `parmst bench` run for several source trees in turn.
#
#   SUITE=ecl-gpu SOLVERS='ecl/gpu,ecl/cpu' THREADS=16 REPEAT=5 bash benchmarks/trees_device_run.sh BEFORE . BEFORE .
#
# Each TREE is a folder holding src/ (a `git archive OLD src | tar -x -C BEFORE` copy of an
# earlier commit, carried to the device machine, or `.` for the working tree). Naming the
# trees alternately (A B A B) measures the noise between two identical runs in the same call.
# One graph cache serves every run; reports land in $OUT as bench_r<i>_<tree>.json and .md.
# PYTHON names the interpreter (default python3, the device machine's own).
set -uo pipefail
OUT=${OUT:-/tmp/trees_out}
mkdir -p "$OUT"
export PYTHONUNBUFFERED=1 NUMBA_CUDA_LOW_OCCUPANCY_WARNINGS=0 NUMBA_NUM_THREADS=${THREADS:-16}
cache=${CACHE:-/tmp/parmst_trees_cache}
mkdir -p "$cache"
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$OUT/env.txt"
i=0
for tree in "$@"; do
    i=$((i + 1))
    name=$(basename "$(cd "$tree" && pwd)")
    [[ $tree == . ]] && name=head
    PYTHONPATH=$tree/src:benchmarks/device_shim timeout "${T:-300}" "${PYTHON:-python3}" -m parmst bench \
        --suite "${SUITE:-ecl-gpu}" --solver "${SOLVERS:-ecl/gpu,ecl/cpu}" --threads "${THREADS:-16}" \
        --peers none --repeat "${REPEAT:-5}" --cache-dir "$cache" --out "$OUT/run$i" \
        --name "r${i}_$name" --no-plots --no-progress 2>&1 | grep -v '^|' | tail -3
    mv "$OUT/run$i"/* "$OUT/" 2>/dev/null
    rmdir "$OUT/run$i" 2>/dev/null
done

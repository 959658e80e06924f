#!/usr/bin/env bash
# Issue 30's device bars for point sets, one step per call on the GPU machine (16 cores):
#
#   bash benchmarks/emst_device_run.sh exact     # boruvka-bvh/gpu's pairs against the CPU's
#   bash benchmarks/emst_device_run.sh gpu       # emst-gpu at 1 M and 10 M points
#   bash benchmarks/emst_device_run.sh bar       # emst-gpu at 37 M points (the 0.5 s bar)
#   bash benchmarks/emst_device_run.sh sweep     # 37 M device points: boruvka-bvh/gpu's options
#   bash benchmarks/emst_device_run.sh scaling   # emst-scaling: /cpu at 1..16 threads, 10 M 3-D
#
# Each step has its own timeout (STEP_TIMEOUT, seconds, default 540) and writes at most
# five files under $OUT: env.txt, the step's log, and `parmst bench`'s report
# (bench_<suite>.json and .md; no plots). Every bench run checks each tree against the
# reference pairs, so a wrong GPU tree fails the step. Runs from the source tree.
set -uo pipefail
STEP=${1:?usage: emst_device_run.sh exact|gpu|bar|sweep|scaling}
OUT=${OUT:-/tmp/emst_out}
LIMIT=${STEP_TIMEOUT:-540}
mkdir -p "$OUT"
export PYTHONPATH=src:benchmarks/device_shim PYTHONUNBUFFERED=1 NUMBA_CUDA_LOW_OCCUPANCY_WARNINGS=0
PY=${PYTHON:-python3}
{ nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv; nproc; uptime
  $PY -c "import numpy, numba, importlib.metadata as m; print('numpy', numpy.__version__, 'numba', numba.__version__, 'numba-cuda', m.version('numba-cuda'))"
} > "$OUT/env.txt" 2>&1
bench() {  # parmst bench with the step's settings; --time-limit keeps finished graphs
    timeout "$LIMIT" $PY -m parmst bench --out "$OUT" --no-progress --no-plots \
        --time-limit $(( LIMIT * 2 / 3 )) "$@" 2>&1 | tee "$OUT/$STEP.log" | grep -v "^|" | tail -30
    return "${PIPESTATUS[0]}"
}
case $STEP in
    exact)  # 20,000-point uniform, clustered, duplicated and lattice sets, plain and min_samples
        timeout "$LIMIT" $PY -m pytest -q -rs -p no:cacheprovider tests/solvers/gpu/points_cases.py \
            2>&1 | tee "$OUT/$STEP.log" | tail -15
        exit "${PIPESTATUS[0]}" ;;
    gpu)
        bench --suite emst-gpu --only cosmology-1M-3d,cosmology-10M-3d --repeat 3 ;;
    bar)
        bench --suite emst-gpu --only cosmology-37M-3d --solver boruvka-bvh/gpu --repeat 3 ;;
    sweep)  # boruvka-bvh/gpu's list length, pair sort and Morton bounds, from a CuPy array
        bench --suite emst-gpu --only cosmology-37M-3d --placement device --repeat 3 \
            --solver 'boruvka-bvh/gpu[neighbours=0]' --solver 'boruvka-bvh/gpu[neighbours=2]' \
            --solver 'boruvka-bvh/gpu[neighbours=4]' --solver boruvka-bvh/gpu \
            --solver 'boruvka-bvh/gpu[pair_sort=radix]' \
            --solver 'boruvka-bvh/gpu[morton_bounds=false]' \
            --solver 'boruvka-bvh/gpu[neighbours=0,morton_bounds=false]' ;;
    scaling)
        bench --suite emst-scaling --repeat 1 ;;
    *)
        echo "unknown step $STEP: exact, gpu, bar, sweep or scaling" >&2; exit 2 ;;
esac

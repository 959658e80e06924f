#!/usr/bin/env bash
# One call on a four-GPU machine (nvidia-h100-x4) for ecl/multigpu at scale (issue 29 item 4):
# graphs of 10^9 edges and more generated as parts on the GPUs, solved on 1, 2 and 4 of them.
#
#   bash benchmarks/multigpu_scale_device_run.sh [GRAPH ...]
#
# GRAPH: graphs of the multigpu-scale suite (parmst.bench.multigpu_scale.SCALE_GRAPHS),
# rmat-2e26 by default. One call fits about two 10^9-edge graphs, or the 4.3e9-edge one:
#   bash benchmarks/multigpu_scale_device_run.sh rmat-2e26 random-degree-2e26
#   bash benchmarks/multigpu_scale_device_run.sh uniform-1e9 road-1e9
#   bash benchmarks/multigpu_scale_device_run.sh rmat-2e28          # checked by ecl/cpu
#   bash benchmarks/multigpu_scale_device_run.sh rmat-2e28-verify   # if that ran out of time
# Steps, each under its own timeout (seconds; the call has 600 in all):
#   1. the machine (ENV_TIMEOUT, 60): GPUs, topology, versions -> env.txt
#   2. the tests of the parts path on the GPUs (TESTS_TIMEOUT, 120): multigpu_cases.py and
#      the host tests, PARMST_REQUIRE_GPU=1 -> tests.log; prints MULTIGPU SCALE TESTS: PASS|FAIL
#   3. the bench (BENCH_TIMEOUT, 400): parmst bench --suite multigpu-scale --only GRAPHS
#      --repeat REPEAT (3) -> bench.log, bench_multigpu-scale.{md,json,png}; prints the
#      headline, the per-GPU table and the graphs' check; MULTIGPU SCALE BENCH: PASS|FAIL
# Six files under $OUT. NVLink multicast stays off (ecl/multigpu uses no NCCL).
set -uo pipefail
OUT=${OUT:-/tmp/multigpu_scale_out}
mkdir -p "$OUT"
export PYTHONPATH=src:benchmarks/device_shim PYTHONUNBUFFERED=1 NUMBA_CUDA_LOW_OCCUPANCY_WARNINGS=0
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
PY=${PYTHON:-python3}
GRAPHS=$(IFS=,; echo "${*:-rmat-2e26}")

{
    nvidia-smi --query-gpu=index,name,driver_version,memory.total --format=csv
    nvidia-smi topo -m
    nproc; free -g | head -2
    timeout "${ENV_TIMEOUT:-60}" $PY -c "import sys, numpy, numba, importlib.metadata as m; print(sys.version.split()[0], 'numpy', numpy.__version__, 'numba', numba.__version__, 'numba-cuda', m.version('numba-cuda'))"
    timeout "${ENV_TIMEOUT:-60}" $PY -m parmst info 2>&1 | grep -E "^  (cuda|ecl/)"
} > "$OUT/env.txt" 2>&1
head -8 "$OUT/env.txt"

PARMST_REQUIRE_GPU=1 timeout "${TESTS_TIMEOUT:-120}" $PY -m pytest -q -rs -p no:cacheprovider \
    tests/solvers/gpu/multigpu_cases.py tests/solvers/multigpu \
    -k "parts_on_the_devices or ties_across or 2_31 or too_big or malformed or multigpu_host" \
    > "$OUT/tests.log" 2>&1
tests=$?
tail -5 "$OUT/tests.log"
if [[ $tests == 0 ]]; then echo "MULTIGPU SCALE TESTS: PASS"; else echo "MULTIGPU SCALE TESTS: FAIL (pytest exit $tests)"; fi

timeout "${BENCH_TIMEOUT:-400}" $PY -m parmst bench --suite multigpu-scale --only "$GRAPHS" \
    --repeat "${REPEAT:-3}" --no-cache --no-progress --out "$OUT" \
    --label "$(nvidia-smi --query-gpu=name --format=csv,noheader | sort | uniq -c | xargs)" \
    --time-limit "$(( ${BENCH_TIMEOUT:-400} / 2 ))" > "$OUT/bench.log" 2>&1
bench=$?
if [[ $bench == 0 ]]; then echo "MULTIGPU SCALE BENCH: PASS ($GRAPHS)"; else echo "MULTIGPU SCALE BENCH: FAIL (exit $bench, 124: timed out; tail of bench.log below)"; tail -20 "$OUT/bench.log"; fi
# The headline (compute-only M edges/s), the per-GPU table and the graphs with their check.
for report in "$OUT"/bench_*.md; do
    [[ -e $report ]] && sed -n '/^| graph | edges/,/^$/p;/^## Per GPU/,/^## Phases/p;/^## Graphs/,/^$/p' "$report"
done
exit $(( tests || bench ))

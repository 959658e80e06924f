#!/usr/bin/env bash
# One call on a GPU machine for ecl/multigpu (issue 16): its tests, then `parmst bench`.
#
#   bash benchmarks/multigpu_device_run.sh [parmst bench args...]
#
# Default bench: `--suite multigpu-small --repeat 3` (ecl/gpu against ecl/multigpu[parts=2]:
# on one GPU both parts run there, one after the other). On two GPUs (nvidia-h200-x2), the
# seven families in one call of at most 600 s:
#   BENCH_TIMEOUT=420 TESTS_TIMEOUT=150 bash benchmarks/multigpu_device_run.sh --suite multigpu \
#       --solver ecl/gpu,ecl/multigpu --repeat 5 --only grid2d,road,delaunay,seed000-sparse,seed000-dense,random-degree,rmat
# The two ~2e9-edge graphs (--only rmat-2e26, --only random-degree-2e27) need more than one
# such call each: generating them and the serial reference forest take minutes on the host.
# Tests: tests/solvers/gpu/multigpu_cases.py with PARMST_REQUIRE_GPU=1 (a missing device
# fails instead of skipping; the two-device cases skip on a one-GPU machine, naming why)
# and the host tests of tests/solvers/multigpu. Prints "MULTIGPU TESTS: PASS" or "FAIL",
# then the bench report. Writes logs, JUnit XML and the bench's md/json/png under $OUT.
# NVLink multicast stays off (ecl/multigpu uses no NCCL; the variables guard anything else).
set -uo pipefail
OUT=${OUT:-/tmp/multigpu_out}
mkdir -p "$OUT"
export PYTHONPATH=src:benchmarks/device_shim PYTHONUNBUFFERED=1 NUMBA_CUDA_LOW_OCCUPANCY_WARNINGS=0
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
PY=${PYTHON:-python3}
nvidia-smi --query-gpu=index,name,driver_version,memory.total --format=csv | tee "$OUT/env.txt"
nvidia-smi topo -m >> "$OUT/env.txt" 2>&1
$PY -c "import sys, numpy, numba, importlib.metadata as m; print(sys.version.split()[0], 'numpy', numpy.__version__, 'numba', numba.__version__, 'numba-cuda', m.version('numba-cuda'))" | tee -a "$OUT/env.txt"
$PY -m parmst info 2>&1 | grep -E "^  (cuda|ecl/)" | tee -a "$OUT/env.txt"

PARMST_REQUIRE_GPU=1 timeout "${TESTS_TIMEOUT:-300}" $PY -m pytest -q -rs -p no:cacheprovider \
    --junitxml="$OUT/multigpu_tests.xml" tests/solvers/gpu/multigpu_cases.py \
    tests/solvers/multigpu 2>&1 | tee "$OUT/multigpu_tests.log" | tail -15
tests=${PIPESTATUS[0]}
if [[ $tests == 0 ]]; then echo "MULTIGPU TESTS: PASS"; else echo "MULTIGPU TESTS: FAIL (pytest exit $tests)"; fi

if [[ $# == 0 ]]; then set -- --suite multigpu-small --repeat 3; fi
timeout "${BENCH_TIMEOUT:-200}" $PY -m parmst bench --out "$OUT" --no-progress \
    --time-limit "$(( ${BENCH_TIMEOUT:-200} * 2 / 3 ))" "$@" > "$OUT/bench.log" 2>&1
bench=$?
if [[ $bench == 0 ]]; then echo "MULTIGPU BENCH: PASS"; else echo "MULTIGPU BENCH: FAIL (exit $bench; tail of bench.log below)"; tail -20 "$OUT/bench.log"; fi
# The headline (compute-only M edges/s), the phases (the merge's share) and the times.
for report in "$OUT"/bench_*.md; do
    [[ -e $report ]] && sed -n '/^| graph | edges/,/^$/p;/^## Phases/,/^## Graphs/p' "$report"
done
exit $(( tests || bench ))

#!/usr/bin/env bash
# One call on the GPU machine (issue 5): real-GPU tests, then `parmst bench`.
#
#   bash benchmarks/gpu_device_run.sh MODE [parmst bench args...]
#   e.g. bash benchmarks/gpu_device_run.sh all --suite ecl-gpu --solver 'ecl/gpu,boruvka-edge/gpu'
#
# MODE: "tests" (gpu_cases.py), "conformance" (the shared suite, gpu solvers only),
# "bench" (`parmst bench ARGS --out $OUT`), "all" (all three). Writes logs and results
# under $OUT (the device tool's output folder). The same script runs CPU-only suites there
# (NUMBA_NUM_THREADS=16 bash benchmarks/gpu_device_run.sh bench --suite cpu-scaling).
# Runs from the source tree (PYTHONPATH=src) with the machine's own numpy/numba/numba-cuda.
# Optional environment: TESTS_K / CONFORMANCE_K (pytest -k expressions; defaults: all
# of gpu_cases.py, "gpu"), TESTS_TIMEOUT / CONFORMANCE_TIMEOUT / BENCH_TIMEOUT (seconds).
set -uo pipefail
MODE=${1:-all}
shift || true
OUT=${OUT:-/tmp/gpu_out}
mkdir -p "$OUT"
export PYTHONPATH=src:benchmarks/device_shim PYTHONUNBUFFERED=1 NUMBA_CUDA_LOW_OCCUPANCY_WARNINGS=0
PY=${PYTHON:-python3}
nvidia-smi --query-gpu=name,driver_version,memory.total,memory.used --format=csv | tee "$OUT/env.txt"
$PY -c "import sys, numpy, numba, importlib.metadata as m; print(sys.version.split()[0], 'numpy', numpy.__version__, 'numba', numba.__version__, 'numba-cuda', m.version('numba-cuda'), 'scipy', m.version('scipy'))" | tee -a "$OUT/env.txt"
status=0
if [[ $MODE == tests || $MODE == all ]]; then
    # Also the required test_gpu_device.py (warp intrinsics, rank keys on the device): with
    # PARMST_REQUIRE_GPU=1 it fails, never skips, without a real device.
    PARMST_REQUIRE_GPU=1 timeout "${TESTS_TIMEOUT:-300}" $PY -m pytest -q -rs -p no:cacheprovider \
        --junitxml="$OUT/gpu_tests.xml" tests/solvers/gpu/test_gpu_device.py \
        tests/solvers/gpu/gpu_cases.py ${TESTS_K:+-k "$TESTS_K"} 2>&1 | tee "$OUT/gpu_tests.log" | tail -25
    status=${PIPESTATUS[0]}
    # The warp-path tests are required: fail loudly unless every one of them ran and passed.
    $PY - "$OUT/gpu_tests.xml" <<'CHECK' || status=1
import sys
import xml.etree.ElementTree as ET

try:
    cases = [c for c in ET.parse(sys.argv[1]).iter("testcase")
             if c.get("classname", "").endswith("test_gpu_device")]
except (OSError, ET.ParseError) as exc:
    sys.exit(f"REQUIRED GPU TESTS DID NOT RUN: no readable JUnit report ({exc})")
bad = [f"{c.get('name')}: {o.tag} {o.get('message', '')[:200]}" for c in cases
       for o in c if o.tag in ("skipped", "failure", "error")]
if not cases or bad:
    sys.exit("REQUIRED GPU TESTS (tests/solvers/gpu/test_gpu_device.py) DID NOT ALL PASS: "
             + ("none ran" if not cases else f"{len(bad)} of {len(cases)}: " + "; ".join(bad[:3])))
print(f"required GPU tests: all {len(cases)} of test_gpu_device.py passed")
CHECK
fi
if [[ $MODE == conformance || $MODE == all ]]; then
    timeout "${CONFORMANCE_TIMEOUT:-200}" $PY -m pytest -q -p no:cacheprovider \
        -rs -o faulthandler_timeout=60 tests/conformance -k "${CONFORMANCE_K:-gpu}" 2>&1 | tee "$OUT/gpu_conformance.log" | tail -25
    status=$(( status || PIPESTATUS[0] ))
fi
if [[ $MODE == bench || $MODE == all ]]; then
    # --time-limit keeps the reports of the graphs measured before the timeout.
    timeout "${BENCH_TIMEOUT:-3600}" $PY -m parmst bench --out "$OUT" --no-progress \
        --time-limit "$(( ${BENCH_TIMEOUT:-3600} * 2 / 3 ))" "$@" 2>&1 | tee "$OUT/bench.log" | grep -v "^|" | tail -40
    status=$(( status || PIPESTATUS[0] ))
    cat "$OUT"/bench_*.md 2>/dev/null
fi
exit $status

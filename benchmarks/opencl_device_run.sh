#!/usr/bin/env bash
# One call on the GPU machine (issue 11): the OpenCL tests on NVIDIA's OpenCL, then the benchmark.
#
#   bash benchmarks/opencl_device_run.sh WHEELS_DIR
#
# pyopencl is not installed there: WHEELS_DIR holds pyopencl 2026.1.4 (cp312 manylinux),
# pytools, platformdirs and siphash24 wheels. Only PoCL is registered with the ICD loader
# there; a vendors folder naming libnvidia-opencl.so.1 makes the H100 visible instead.
# Writes logs and results under $OUT.
set -uo pipefail
WHEELS=${1:?wheels folder}
OUT=${OUT:-/tmp/opencl_out}
mkdir -p "$OUT"
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
    --target /tmp/site "$WHEELS"/*.whl || exit 1
mkdir -p /tmp/icd && echo libnvidia-opencl.so.1 > /tmp/icd/nvidia.icd
export OCL_ICD_VENDORS=/tmp/icd PYTHONUNBUFFERED=1 NUMBA_CUDA_LOW_OCCUPANCY_WARNINGS=0
export PYTHONPATH=/tmp/site:src:benchmarks/device_shim
python3 -c "from parmst.opencl import device_rows; print(device_rows())" | tee "$OUT/env.txt"
status=0
timeout "${TESTS_TIMEOUT:-150}" python3 -m pytest -q -p no:cacheprovider tests/solvers/opencl \
    2>&1 | tee "$OUT/opencl_tests.log" | tail -6
status=${PIPESTATUS[0]}
timeout "${CONFORMANCE_TIMEOUT:-100}" python3 -m pytest -q -p no:cacheprovider tests/conformance \
    -k opencl 2>&1 | tee "$OUT/opencl_conformance.log" | tail -6
status=$(( status || PIPESTATUS[0] ))
timeout "${BENCH_TIMEOUT:-240}" python3 benchmarks/opencl_bench.py --out "$OUT" \
    --label "${LABEL:-h100-nvidia-opencl}" "${@:2}" 2>&1 | tee "$OUT/opencl_bench.log" \
    | grep -v "^|" | tail -30
status=$(( status || PIPESTATUS[0] ))
cat "$OUT"/opencl_*.md 2>/dev/null
exit $status

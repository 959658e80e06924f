#!/usr/bin/env bash
# One call on the GPU machine (issue 11): OpenCL tests on NVIDIA's OpenCL, then `parmst bench` runs.
#
#   bash benchmarks/opencl_device_run.sh WHEELS_DIR [BENCH_ARGS...] [-- BENCH_ARGS...]...
#   e.g. bash benchmarks/opencl_device_run.sh .whl --suite opencl-mst --repeat 3 \
#            -- --suite opencl-scan --repeat 5
#
# pyopencl is not installed there: WHEELS_DIR holds pyopencl 2026.1.4 (cp312 manylinux),
# pytools, platformdirs and siphash24 wheels. Only PoCL is registered with the ICD loader
# there; a vendors folder naming libnvidia-opencl.so.1 makes the H100 visible instead.
# Each `--`-separated group of arguments is one `parmst bench --out $OUT` run.
# STEPS (default "tests conformance bench") orders the steps; each has a timeout in seconds:
#   tests        tests/solvers/opencl (TESTS_K: a pytest -k expression), with
#                PARMST_REQUIRE_OPENCL_GPU=1 so that the 2^28-element scans fail, never skip
#   conformance  tests/conformance -k opencl
#   bench        BENCH_TIMEOUT per run; pass --time-limit to keep the graphs measured in time
# All output goes to $OUT/run.log; the reports to $OUT/bench_<name>.{md,json,png}.
set -uo pipefail
WHEELS=${1:?wheels folder}
shift
OUT=${OUT:-/tmp/opencl_out}
mkdir -p "$OUT"
LOG="$OUT/run.log"
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
    --target /tmp/site "$WHEELS"/*.whl || exit 1
mkdir -p /tmp/icd && echo libnvidia-opencl.so.1 > /tmp/icd/nvidia.icd
export OCL_ICD_VENDORS=/tmp/icd PYTHONUNBUFFERED=1 NUMBA_CUDA_LOW_OCCUPANCY_WARNINGS=0
export PYTHONPATH=/tmp/site:src:benchmarks/device_shim
{ nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
  python3 -c "from parmst.opencl import device_rows; print(*device_rows(), sep='\n')"; } 2>&1 \
    | tee -a "$LOG"
status=0

step() {  # step NAME TIMEOUT COMMAND...: run, log, and fold the exit status into $status
    local name=$1 limit=$2
    shift 2
    echo "== $name (timeout ${limit} s, started $(date +%T))" | tee -a "$LOG"
    timeout "$limit" "$@" 2>&1 | tee -a "$LOG" | grep -v "^| " | tail -15
    local rc=${PIPESTATUS[0]}
    echo "== $name: exit $rc" | tee -a "$LOG"
    status=$(( status || rc ))
}

for what in ${STEPS:-tests conformance bench}; do
    case $what in
    tests)
        PARMST_REQUIRE_OPENCL_GPU=1 step tests "${TESTS_TIMEOUT:-150}" python3 -m pytest -q -rs \
            -p no:cacheprovider tests/solvers/opencl ${TESTS_K:+-k "$TESTS_K"} ;;
    conformance)
        step conformance "${CONFORMANCE_TIMEOUT:-100}" python3 -m pytest -q -rs \
            -p no:cacheprovider tests/conformance -k opencl ;;
    bench)
        args=("$@" --)
        group=()
        for arg in "${args[@]}"; do
            if [[ $arg == -- ]]; then
                (( ${#group[@]} )) && step "parmst bench ${group[*]}" "${BENCH_TIMEOUT:-300}" \
                    python3 -m parmst bench --out "$OUT" --no-progress "${group[@]}"
                group=()
            else
                group+=("$arg")
            fi
        done ;;
    *) echo "unknown step $what (tests, conformance, bench)" | tee -a "$LOG"; status=2 ;;
    esac
done
exit $status

#!/usr/bin/env bash
# Issues 14 and 29 in one device call: the GPU tests on the real device, ecl/gpu end to end, and
# ECL-MST side by side, each step bounded by its own timeout.
#
#   bash benchmarks/gpu_end_to_end_device_run.sh ECL_MST_DIR
#
# ECL_MST_DIR: an unpacked copy of github.com/burtscher/ECL-MST (see ecl_mst_side_by_side.sh;
# never committed). Steps, in order:
#   1. tests/solvers/gpu/test_gpu_device.py (required: warp paths, both key routes) and
#      gpu_cases.py through gpu_device_run.sh; they also fill numba-cuda's kernel cache
#      (NUMBA_CACHE_DIR), so no compilation falls inside the measurements after them (which
#      also warm up before timing);
#   2. `parmst bench --suite end-to-end` (ecl/gpu's whole call from host and from device
#      arrays beside its computation; the report is rewritten after each graph, so a timeout
#      keeps what ran), then benchmarks/gpu_call_profile.py at 2^22 edges (where the host time
#      of a device call goes, with numba-cuda's fixed costs);
#   3. ecl_mst_side_by_side.sh (build + bench, no ncu) with --repeat 3: ecl/gpu, ecl/gpu with
#      launch=auto's batched tier off (batched_min=4194304: every round below
#      persistent_below in the persistent kernel, the previous default) and ecl/opencl
#      (NVIDIA's OpenCL) against ECL-MST on the same .egr files in one call, report
#      gpu_vs_ecl_mst_h100 (issue 29 item 3: ecl/gpu at least ecl/opencl on every family).
#      Both bench steps share one graph cache (PARMST_CACHE), so this one loads the seven
#      graphs the end-to-end step generated instead of generating them again, and reaches
#      RMAT (the last family) within its time limit;
#   4. `tests/conformance -k gpu` through gpu_device_run.sh.
# The device tool brings back at most 8 files, so every step writes under a work folder that
# ends up as $OUT/results.tar.gz; $OUT/summary.log holds the steps' tails.
# Timeouts (seconds): TESTS_TIMEOUT, E2E_TIMEOUT, PROFILE_TIMEOUT, BENCH_TIMEOUT,
# CONFORMANCE_TIMEOUT.
set -uo pipefail
ECL_DIR=${1:?usage: gpu_end_to_end_device_run.sh ECL_MST_DIR}
OUT=${OUT:-/tmp/gpu_e2e_out}
WORK=$(mktemp -d /tmp/gpu-e2e.XXXX)
mkdir -p "$OUT"
export PYTHONPATH=src:benchmarks/device_shim PYTHONUNBUFFERED=1 NUMBA_CUDA_LOW_OCCUPANCY_WARNINGS=0
export NUMBA_CACHE_DIR=${NUMBA_CACHE_DIR:-/tmp/nbc}
export PARMST_CACHE=${PARMST_CACHE:-/tmp/parmst-graphs}
PY=${PYTHON:-python3}
SUMMARY=$OUT/summary.log
status=0

step() {  # step NAME COMMAND...: run, log to $WORK/NAME.log, keep the tail in the summary
    local name=$1 start=$SECONDS
    shift
    "$@" > "$WORK/$name.log" 2>&1
    local rc=$?
    status=$(( status || rc ))
    { echo "=== $name: exit $rc, $(( SECONDS - start )) s"; tail -n 30 "$WORK/$name.log"; } >> "$SUMMARY"
    # Packed after every step, so a call cut short still brings back what ran.
    tar -czf "$OUT/results.tar.gz" -C "$WORK" .
}

step tests env OUT="$WORK/tests" TESTS_TIMEOUT="${TESTS_TIMEOUT:-90}" \
    bash benchmarks/gpu_device_run.sh tests
step e2e timeout "${E2E_TIMEOUT:-90}" $PY -m parmst bench --suite end-to-end --repeat 3 \
    --time-limit $(( ${E2E_TIMEOUT:-90} * 2 / 3 )) \
    --no-progress --out "$WORK/e2e"
step profile timeout "${PROFILE_TIMEOUT:-45}" $PY benchmarks/gpu_call_profile.py \
    --log2-edges 22 --overheads --out "$WORK/profile"
step ecl_mst env OUT="$WORK/ecl" STEPS="build bench" BENCH_TIMEOUT="${BENCH_TIMEOUT:-200}" \
    bash benchmarks/ecl_mst_side_by_side.sh "$ECL_DIR" --repeat 3 --solver ecl/gpu \
    --solver 'ecl/gpu[batched_min=4194304]' --solver ecl/opencl --name gpu_vs_ecl_mst_h100
step conformance env OUT="$WORK/conformance" CONFORMANCE_TIMEOUT="${CONFORMANCE_TIMEOUT:-40}" \
    bash benchmarks/gpu_device_run.sh conformance
echo "=== overall exit $status" >> "$SUMMARY"
exit $status

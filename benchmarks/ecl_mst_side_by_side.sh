#!/usr/bin/env bash
# ECL-MST's own CUDA code and ecl/gpu side by side on identical .egr files, in one device call
# (issue 14 item 3).
#
#   bash benchmarks/ecl_mst_side_by_side.sh ECL_MST_DIR [parmst bench args...]
#
# ECL_MST_DIR holds an unpacked copy of github.com/burtscher/ECL-MST (never committed: keep it
# in an ignored folder). The script
#   1. builds it with `nvcc -O3 -arch=sm_90`, after one change: CUDA 13 removed
#      cudaDeviceProp.clockRate and memoryClockRate, which its GPU-info printf reads; that line
#      reads them with cudaDeviceGetAttribute instead;
#   2. runs `parmst bench --suite ecl-gpu` with the `ecl-mst` peer (PARMST_ECL_MST names the
#      binary; the peer writes each graph as .egr with parmst's writer and reads ECL-MST's own
#      compute timer and its own exact check) and `--baseline ecl-mst`, so the report's
#      "vs ecl-mst" column is ECL-MST's time over ours, compute-only both; every ecl/gpu run's
#      edge ids must equal kruskal/serial's;
#   3. profiles both with Nsight Compute on two graphs (NCU_GRAPHS, default random-degree and
#      delaunay), NCU_KERNELS kernels each (default 6), into $OUT/ncu.txt.
# Extra arguments go to `parmst bench` (--solver, --repeat, --only, ...). Writes under $OUT.
# STEPS (default "build bench ncu") and NCU_CODES (default "ecl-mst ecl/gpu") pick what runs.
set -uo pipefail
ECL_DIR=${1:?usage: ecl_mst_side_by_side.sh ECL_MST_DIR [parmst bench args...]}
shift
OUT=${OUT:-/tmp/ecl_mst_out}
mkdir -p "$OUT"
export PYTHONPATH=src:benchmarks/device_shim PYTHONUNBUFFERED=1 NUMBA_CUDA_LOW_OCCUPANCY_WARNINGS=0
export PARMST_CACHE=${PARMST_CACHE:-/tmp/parmst-graphs}
PY=${PYTHON:-python3}
LOG=$OUT/side_by_side.log

STEPS=${STEPS:-build bench ncu}
NCU_CODES=${NCU_CODES:-ecl-mst ecl/gpu}
BUILD=$(mktemp -d /tmp/ecl-mst-build.XXXX)
if [[ $STEPS == *build* ]]; then
    cp "$ECL_DIR"/source/ECL-MST_10.cu "$ECL_DIR"/source/ECLgraph.h "$BUILD"/ || exit 1
    for field in clockRate memoryClockRate; do
        sed -i "s/deviceProp\.$field \* 0\.001/[]{int r; cudaDeviceGetAttribute(\&r, cudaDevAttr${field^}, Device); return r;}() * 0.001/" \
            "$BUILD"/ECL-MST_10.cu
    done
    grep -q 'cudaDevAttrMemoryClockRate' "$BUILD"/ECL-MST_10.cu || { echo "patching ECL-MST failed"; exit 1; }
    nvcc -O3 -arch=sm_90 -o "$BUILD"/ecl-mst "$BUILD"/ECL-MST_10.cu 2>&1 | tee "$LOG" || exit 1
fi
export PARMST_ECL_MST=$BUILD/ecl-mst

{
    nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
    nvcc --version | tail -2
    ncu --version | tail -1
    $PY -c "import sys, numpy, numba, importlib.metadata as m; print('python', sys.version.split()[0], 'numpy', numpy.__version__, 'numba', numba.__version__, 'numba-cuda', m.version('numba-cuda'))"
} 2>&1 | tee -a "$LOG"

status=0
if [[ $STEPS == *bench* ]]; then
    timeout "${BENCH_TIMEOUT:-1800}" $PY -m parmst bench --suite ecl-gpu --peers ecl-mst \
        --baseline ecl-mst --budget 120 --out "$OUT" --no-progress \
        --time-limit "$(( ${BENCH_TIMEOUT:-1800} * 2 / 3 ))" "$@" 2>&1 | tee -a "$LOG" | grep -v "^|"
    status=${PIPESTATUS[0]}
fi
[[ $STEPS == *ncu* ]] || exit $status

# Nsight Compute: the first NCU_KERNELS launches of the round kernels, ECL-MST's and ours.
NCU=(ncu --set basic --metrics lts__t_sector_hit_rate.pct,dram__bytes_read.sum,dram__bytes_write.sum
     -c "${NCU_KERNELS:-6}")
for family in ${NCU_GRAPHS:-random-degree delaunay}; do
    egr=/tmp/ncu-$family.egr
    $PY - "$family" "$egr" <<'WRITE' || continue
import sys
from parmst import io
from parmst.bench.inputs import default_cache_dir, load_graph
from parmst.bench.suites import get_suite
spec = next(g.spec for g in get_suite("ecl-gpu").graphs if g.name == sys.argv[1])
io.write(load_graph(spec, default_cache_dir()), sys.argv[2], format="egr", progress=False)
WRITE
    if [[ $NCU_CODES == *ecl-mst* ]]; then
        echo "=== ncu ECL-MST $family" >> "$OUT/ncu.txt"
        CUDA_MODULE_LOADING=EAGER timeout "${NCU_TIMEOUT:-120}" "${NCU[@]}" \
            -k regex:'initWL|kernel[123]' "$PARMST_ECL_MST" "$egr" >> "$OUT/ncu.txt" 2>&1
    fi
    if [[ $NCU_CODES == *ecl/gpu* ]]; then
        echo "=== ncu ecl/gpu $family" >> "$OUT/ncu.txt"
        timeout "${NCU_TIMEOUT:-120}" "${NCU[@]}" -k regex:'populate|relax|select|reset|all_rounds' \
            $PY - "$egr" >> "$OUT/ncu.txt" 2>&1 <<'SOLVE'
import sys
import parmst
import parmst.io
parmst.minimum_spanning_forest(parmst.io.read(sys.argv[1], progress=False), "ecl/gpu")
SOLVE
    fi
    rm -f "$egr"
done
exit $status

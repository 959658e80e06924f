#!/usr/bin/env bash
# One call on the 16-core host (issue 12): build PBBS's parallel filter-Kruskal, then time the
# multi-core solvers against it with `parmst bench` (the `pbbs` peer).
#
#   bash benchmarks/pbbs_device_run.sh PBBSBENCH_DIR [parmst bench args...]
#   e.g. bash benchmarks/pbbs_device_run.sh ../peer/pbbsbench --suite cpu-vs-pbbs --repeat 3
#
# PBBSBENCH_DIR is a pbbsbench tree (github.com/cmuparlay/pbbsbench) with parlaylib, at the
# commit its submodule pins, in PBBSBENCH_DIR/parlaylib; it stays outside the project.
# While PBBS compiles, the suite's graphs are generated into the graph cache (one process
# each) and the solvers' kernels compiled into Numba's cache (one process each), so that
# the benchmark itself starts warm. Writes logs and reports under $OUT.
# Optional environment: THREADS (default 16), BENCH_TIMEOUT (seconds, default 600), PYTHON.
set -uo pipefail
PBBS=$(realpath "$1")
shift
OUT=${OUT:-/tmp/pbbs_out}
mkdir -p "$OUT"
PY=${PYTHON:-python3}
export PYTHONPATH=src PYTHONUNBUFFERED=1 PARMST_CACHE=${PARMST_CACHE:-/tmp/parmst-graphs}
export NUMBA_NUM_THREADS=${THREADS:-16} PARLAY_NUM_THREADS=${THREADS:-16}
export PARMST_PBBS_MST=$PBBS/benchmarks/minSpanningForest/parallelFilterKruskal/MST
{ nproc; lscpu | grep -E "Model name|Socket|Thread"; g++ --version | head -1
  $PY -c "import sys, numpy, numba; print(sys.version.split()[0], 'numpy', numpy.__version__, 'numba', numba.__version__)"
} | tee "$OUT/env.txt"

start=$SECONDS
make -C "$(dirname "$PARMST_PBBS_MST")" -j4 MST > "$OUT/pbbs_build.log" 2>&1 &
build=$!
# The suite's graph specs (--suite NAME [--only NAMES] must be among the arguments).
specs=$($PY -c "import sys; from parmst.bench.suites import get_suite
args = sys.argv[1:]; suite = get_suite(args[args.index('--suite') + 1])
only = args[args.index('--only') + 1].split(',') if '--only' in args else None
print('\n'.join(g.spec for g in suite.graphs if only is None or g.name in only))" "$@")
for spec in $specs; do
    $PY -c "import sys; from parmst.bench.inputs import default_cache_dir, load_graph
load_graph(sys.argv[1], default_cache_dir())" "$spec" &
done
for solver in kruskal/serial ecl/cpu filter-kruskal/cpu boruvka-edge/cpu; do
    $PY -c "import sys, parmst
g = parmst.generate('rmat:scale=15,seed=1')
parmst.verify(g, parmst.minimum_spanning_forest(g, sys.argv[1]))" "$solver" &
done
wait
echo "build, graphs and kernels ready after $(( SECONDS - start )) s" | tee -a "$OUT/env.txt"
tail -3 "$OUT/pbbs_build.log"
if [[ ! -x $PARMST_PBBS_MST ]]; then
    echo "PBBS did not build; see $OUT/pbbs_build.log" >&2
    exit 1
fi
timeout "${BENCH_TIMEOUT:-600}" $PY -m parmst bench --out "$OUT" --no-progress --budget 120 \
    --time-limit "$(( ${BENCH_TIMEOUT:-600} * 2 / 3 ))" "$@" 2>&1 | tee "$OUT/bench.log" \
    | grep -v "^|" | tail -20
status=${PIPESTATUS[0]}
echo "bench finished after $(( SECONDS - start )) s (status $status)" | tee -a "$OUT/env.txt"
cat "$OUT"/bench_*.md 2>/dev/null | head -60
exit "$status"

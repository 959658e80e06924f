#!/usr/bin/env bash
# One call on the device's 16-core host (issue 10; the GPU is not used): the mpi solvers
# at 1-16 ranks through `parmst bench`. The graphs are generated and every kernel set is
# compiled into Numba's cache first, all at once in parallel processes (a cold compile
# inside the timed sweep ate the time limits of an earlier run); then one `parmst bench`
# run under a time limit. The harness saves its tables after every mpiexec launch, so a
# run cut short keeps what it measured. Results (bench_<name>.md/.json/.png, logs) go to $OUT.
#
#   bash benchmarks/mpi_device_run.sh
#
# Runs from the source tree (PYTHONPATH=src) with the machine's numpy, numba, mpi4py and
# its system Open MPI (parmst's launcher adds --allow-run-as-root and --oversubscribe).
# Environment (defaults in brackets), for a tiny rehearsal elsewhere:
#   SUITE [mpi-scaling]  ONLY [sparse/large,road-2e22]  RANKS [1,2,4,8,16]  REPEAT [1]
#   SOLVERS [kruskal/serial,ecl/cpu,filter-boruvka/mpi[threads=1]]  NAME [mpi-scaling_16core]
#   T_BENCH [120] (seconds for the sweep)  BUDGET [30] (each launch may take 60 + 2 x BUDGET s)  WARM_SPEC [rmat:scale=14,seed=1]
set -uo pipefail
OUT=${OUT:-/tmp/mpi_out}
mkdir -p "$OUT"
export PYTHONPATH=src PYTHONUNBUFFERED=1 PARMST_CACHE=${PARMST_CACHE:-/tmp/parmst_graphs}
PY=${PYTHON:-python3}
SUITE=${SUITE:-mpi-scaling}
ONLY=${ONLY:-sparse/large,road-2e22}
SOLVERS=${SOLVERS:-kruskal/serial,ecl/cpu,filter-boruvka/mpi[threads=1]}
LABEL=${LABEL:-"device host: $(nproc) CPU cores, GPU unused; $(mpiexec --version 2>&1 | head -1)"}
{
    lscpu | grep -E 'Model name|^CPU\(s\)'
    mpiexec --version 2>&1 | head -1
    $PY -c "import sys, numpy, numba, mpi4py; print(sys.version.split()[0], 'numpy', numpy.__version__, 'numba', numba.__version__, 'mpi4py', mpi4py.__version__)"
    uptime
} 2>&1 | tee "$OUT/env.txt"

start=$SECONDS
specs=$($PY -c "import sys; from parmst.bench.suites import get_suite
only = sys.argv[2].split(',')
print('\n'.join(g.spec for g in get_suite(sys.argv[1]).graphs if g.name in only))" "$SUITE" "$ONLY")
for spec in $specs; do
    $PY -c "import sys; from parmst.bench.inputs import default_cache_dir, load_graph
load_graph(sys.argv[1], default_cache_dir())" "$spec" &
done
for solver in kruskal/serial ecl/cpu; do
    $PY -c "import sys, parmst
g = parmst.generate(sys.argv[2])
parmst.verify(g, parmst.minimum_spanning_forest(g, sys.argv[1]))" "$solver" "${WARM_SPEC:-rmat:scale=14,seed=1}" &
done
# The distributed reader, every filter-boruvka round kind and the forest merge, on 2 ranks,
# with the owner rounds run to the end (no finish on rank 0) so that all their kernels compile.
warm=$OUT/warm.npz
$PY -c "import sys, parmst; parmst.generate(sys.argv[1]).write(sys.argv[2])" \
    "${WARM_SPEC:-rmat:scale=14,seed=1}" "$warm"
NUMBA_NUM_THREADS=1 mpiexec --allow-run-as-root --oversubscribe --bind-to none -n 2 $PY -c "
import sys, parmst
from parmst.distributed import DistributedGraph
from parmst.solvers.mpi import owners
owners.FINISH_EDGES = 0
for rounds in ('owners', 'allreduce', 'merge'):
    parmst.minimum_spanning_forest(DistributedGraph.read(sys.argv[1]), 'filter-boruvka/mpi',
                                   rounds=rounds, threads=1)
" "$warm" > "$OUT/warm.log" 2>&1 &
wait
rm -f "$warm"
echo "graphs and kernels ready after $(( SECONDS - start )) s; load $(cut -d' ' -f1-3 /proc/loadavg)" \
    | tee -a "$OUT/env.txt"
tail -3 "$OUT/warm.log"

timeout "${T_BENCH:-120}" $PY -m parmst bench --suite "$SUITE" --only "$ONLY" --ranks "${RANKS:-1,2,4,8,16}" \
    --repeat "${REPEAT:-1}" --budget "${BUDGET:-30}" --peers none --solver "$SOLVERS" --no-progress \
    --label "$LABEL" --name "${NAME:-mpi-scaling_16core}" --out "$OUT" > "$OUT/bench.log" 2>&1
echo "bench status $? after $(( SECONDS - start )) s; load $(cut -d' ' -f1-3 /proc/loadavg)" \
    | tee -a "$OUT/env.txt"
awk '/^## MPI ranks/{f=1; next} /^## /{f=0} f && /^[|]/' "$OUT/bench_${NAME:-mpi-scaling_16core}.md"
tail -c 800 "$OUT/bench.log"

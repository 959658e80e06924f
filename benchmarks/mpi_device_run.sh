#!/usr/bin/env bash
# One call on the device's 16-core host (issue 10; the GPU is not used): the mpi solvers
# at 1-16 ranks through `parmst bench`, each part bounded by its own timeout so that a
# slow part costs only itself. Results (bench_<name>.md/.json/.png, logs; tables saved
# after every mpiexec launch) are packed after each part into $OUT/mpi_results.tgz, one
# file, as the device tool returns few files.
#
#   bash benchmarks/mpi_device_run.sh
#
# Runs from the source tree (PYTHONPATH=src) with the machine's numpy, numba, mpi4py and
# its system Open MPI (parmst's launcher adds --allow-run-as-root and --oversubscribe).
# Environment (defaults in brackets), for a tiny rehearsal elsewhere:
#   SUITE [mpi-scaling]  ONLY [sparse/large]  RANKS [1,2,4,8,16]  REPEAT [1]
#   GHS_GRAPH [road:side=256,seed=1]  T_FILTER [160]  T_GHS [40]  T_OTHERS [60]
set -uo pipefail
OUT=${OUT:-/tmp/mpi_out}
WORK=${WORK:-/tmp/mpi_work}
mkdir -p "$OUT" "$WORK"
export PYTHONPATH=src PYTHONUNBUFFERED=1 PARMST_CACHE=${PARMST_CACHE:-/tmp/parmst_graphs}
PY=${PYTHON:-python3}
SUITE=${SUITE:-mpi-scaling}
ONLY=${ONLY:-sparse/large}
RANKS=${RANKS:-1,2,4,8,16}
LABEL=${LABEL:-"device host: $(nproc) CPU cores, GPU unused; $(mpiexec --version 2>&1 | head -1)"}
{
    lscpu | grep -E 'Model name|^CPU\(s\)'
    mpiexec --version 2>&1 | head -1
    $PY -c "import sys, numpy, numba, mpi4py; print(sys.version.split()[0], 'numpy', numpy.__version__, 'numba', numba.__version__, 'mpi4py', mpi4py.__version__)"
    uptime
} 2>&1 | tee "$WORK/env.txt"

part() {  # NAME SECONDS bench-args...: one `parmst bench` run, its log and results in $OUT
    local name=$1 limit=$2
    shift 2
    echo "== $name (at most ${limit} s) $(date -u +%T)"
    timeout "$limit" $PY -m parmst bench --peers none --repeat "${REPEAT:-1}" \
        --label "$LABEL" --name "$name" --out "$WORK" "$@" > "$WORK/$name.log" 2>&1
    echo "   status $? $(date -u +%T); load $(cut -d' ' -f1-3 /proc/loadavg)"
    awk '/^## MPI ranks/{f=1; next} /^## /{f=0} f && /^[|]/' "$WORK/bench_$name.md" 2>/dev/null
    tail -c 600 "$WORK/$name.log" | tr '\r' '\n' | tail -3
    tar -czf "$OUT/mpi_results.tgz" -C "$WORK" .
}

part mpi_filter "${T_FILTER:-160}" --suite "$SUITE" --only "$ONLY" --ranks "$RANKS" \
    --solver 'kruskal/serial,ecl/cpu,filter-boruvka/mpi[threads=1]'
part mpi_ghs "${T_GHS:-40}" --graph "${GHS_GRAPH:-road:side=256,seed=1}" --ranks "$RANKS" \
    --solver 'kruskal/serial,ghs/mpi'
part mpi_others "${T_OTHERS:-60}" --suite "$SUITE" --only "$ONLY" --ranks "$RANKS" \
    --solver 'kruskal/serial,ecl/cpu,boruvka-allreduce/mpi,genboruvka/mpi[threads=1]'

#!/usr/bin/env bash
# Weak scaling on a device host (issue 26; the GPUs are not used): filter-boruvka/mpi on
# graphs of EDGES edges per rank, generated in parallel by the ranks and verified in
# parallel, one mpiexec launch per series and rank count, through `parmst bench --weak`.
# A tiny run of the same path first fills Numba's cache, so no launch compiles. The
# harness saves its tables after every series, so a run cut short keeps what it measured.
# Results (bench_<name>.md/.json/_weak.png, logs) go to $OUT.
#
#   bash benchmarks/mpi_weak_device_run.sh                          # 16-core host
#   RANKS=1,2,4,8,16,32,64 NAME=mpi-weak_64core bash benchmarks/mpi_weak_device_run.sh
#
# Environment (defaults in brackets): RANKS [1,2,4,8,16]  SERIES [rmat,uniform,road]
#   EDGES [16777216]  SOLVER [filter-boruvka/mpi[threads=1]]  REPEAT [1]  BUDGET [60]
#   T_BENCH [540] (seconds for the sweep)  NAME [mpi-weak_16core]  PYTHON [python3]
set -uo pipefail
OUT=${OUT:-/tmp/mpi_weak_out}
mkdir -p "$OUT"
export PYTHONPATH=src PYTHONUNBUFFERED=1
PY=${PYTHON:-python3}
NAME=${NAME:-mpi-weak_16core}
LABEL=${LABEL:-"device host: $(nproc) CPU cores, GPU unused; $(mpiexec --version 2>&1 | head -1)"}
{
    lscpu | grep -E 'Model name|^CPU\(s\)'
    mpiexec --version 2>&1 | head -1
    $PY -c "import sys, numpy, numba, mpi4py; print(sys.version.split()[0], 'numpy', numpy.__version__, 'numba', numba.__version__, 'mpi4py', mpi4py.__version__)"
    free -g | head -2
    uptime
} 2>&1 | tee "$OUT/env.txt"
start=$SECONDS
$PY -m parmst bench --suite mpi-weak-small --weak "${SERIES:-rmat,uniform,road}" --repeat 1 \
    --peers none --solver "${SOLVER:-filter-boruvka/mpi[threads=1]}" --no-progress \
    > "$OUT/warm.log" 2>&1
echo "kernels ready after $(( SECONDS - start )) s (status $?)" | tee -a "$OUT/env.txt"
timeout "${T_BENCH:-540}" $PY -m parmst bench --suite mpi-weak --weak "${SERIES:-rmat,uniform,road}" \
    --ranks "${RANKS:-1,2,4,8,16}" --edges-per-rank "${EDGES:-16777216}" \
    --repeat "${REPEAT:-1}" --budget "${BUDGET:-60}" --peers none \
    --solver "${SOLVER:-filter-boruvka/mpi[threads=1]}" --no-progress \
    --label "$LABEL" --name "$NAME" --out "$OUT" > "$OUT/bench.log" 2>&1
echo "bench status $? after $(( SECONDS - start )) s; load $(cut -d' ' -f1-3 /proc/loadavg)" \
    | tee -a "$OUT/env.txt"
awk '/^## Weak scaling/{f=1; next} /^## /{f=0} f && /^[|]/' "$OUT/bench_$NAME.md"
tail -c 600 "$OUT/bench.log"

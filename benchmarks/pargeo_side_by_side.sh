#!/usr/bin/env bash
# ParGeo's Euclidean minimum spanning tree and parmst's point-set solvers side by side, in one
# device call (issue 30's 16-core bar).
#
#   bash benchmarks/pargeo_side_by_side.sh PARGEO_DIR [parmst bench args...]
#
# PARGEO_DIR holds an unpacked copy of github.com/ParAlg/ParGeo with its two submodules
# (external/parlaylib at the commit ParGeo pins, external/batchKdTree) -- never committed: keep
# it in an ignored folder. The script
#   1. writes a small driver beside ParGeo's sources (it reads int64 n, d and the float64 rows,
#      calls pargeo::euclideanMst<d> the asked number of times, prints
#      "pargeo-emst SECONDS s total WEIGHT edges COUNT workers P" per call and writes the last
#      call's index pairs as int64 rows) and builds ParGeo's EMST (memoGfk) with it, g++ -O3;
#   2. runs `parmst bench` with the `pargeo-emst` peer (PARMST_PARGEO_EMST names the driver;
#      its threads come from PARLAY_NUM_THREADS, which the script sets from THREADS) and the
#      extra arguments, e.g. `--suite emst --threads 16 --repeat 3`.
# Writes under $OUT.
set -uo pipefail
PARGEO_DIR=$(cd "${1:?usage: pargeo_side_by_side.sh PARGEO_DIR [parmst bench args...]}" && pwd)
shift
OUT=${OUT:-/tmp/pargeo_out}
THREADS=${THREADS:-$(nproc)}
mkdir -p "$OUT" "$PARGEO_DIR/parmst-driver"
PY=${PYTHON:-python3}
cat > "$PARGEO_DIR/parmst-driver/emst_driver.cpp" <<'CPP'
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include "euclideanMst/euclideanMst.h"
#include "parlay/parallel.h"

template <int dim>
int run(FILE* f, int64_t n, int calls, const char* pairs_path) {
  std::vector<double> raw(n * dim);
  if (fread(raw.data(), sizeof(double), raw.size(), f) != raw.size()) return 2;
  parlay::sequence<pargeo::point<dim>> points(n);
  parlay::parallel_for(0, n, [&](size_t i) { points[i] = pargeo::point<dim>(&raw[i * dim]); });
  parlay::sequence<pargeo::wghEdge> tree;
  for (int call = 0; call < calls; ++call) {
    auto copy = points;
    auto start = std::chrono::steady_clock::now();
    tree = pargeo::euclideanMst<dim>(copy);
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    double total = 0;
    for (auto& e : tree) total += e.weight;
    printf("pargeo-emst %.6f s total %.17g edges %zu workers %zu\n", seconds, total, tree.size(),
           (size_t)parlay::num_workers());
    fflush(stdout);
  }
  FILE* out = fopen(pairs_path, "wb");
  if (!out) return 4;
  for (auto& e : tree) {
    int64_t pair[2] = {(int64_t)e.u, (int64_t)e.v};
    fwrite(pair, sizeof(int64_t), 2, out);
  }
  fclose(out);
  return 0;
}

int main(int argc, char** argv) {
  if (argc < 4) { fprintf(stderr, "usage: emst_driver points.bin calls pairs.bin\n"); return 1; }
  FILE* f = fopen(argv[1], "rb");
  int64_t head[2];
  if (!f || fread(head, sizeof(int64_t), 2, f) != 2) return 2;
  int calls = atoi(argv[2]);
  switch (head[1]) {
    case 2: return run<2>(f, head[0], calls, argv[3]);
    case 3: return run<3>(f, head[0], calls, argv[3]);
    case 5: return run<5>(f, head[0], calls, argv[3]);
    default: fprintf(stderr, "dimension %ld is not built\n", (long)head[1]); return 3;
  }
}
CPP
FLAGS="-std=c++17 -O3 -DNDEBUG -DHOMEGROWN -pthread -mcx16 -I$PARGEO_DIR/include
       -I$PARGEO_DIR/external/parlaylib/include -I$PARGEO_DIR/external/batchKdTree/include"
start=$SECONDS
g++ $FLAGS -c "$PARGEO_DIR/src/euclideanMst/memoGfk/emst.cpp" -o "$PARGEO_DIR/parmst-driver/emst.o" &&
g++ $FLAGS "$PARGEO_DIR/parmst-driver/emst_driver.cpp" "$PARGEO_DIR/parmst-driver/emst.o" \
    -o "$PARGEO_DIR/parmst-driver/emst_driver" > "$OUT/pargeo_build.log" 2>&1 || {
    echo "ParGeo build failed (see $OUT/pargeo_build.log)"; exit 1; }
echo "built the ParGeo driver in $((SECONDS - start)) s"
export PARMST_PARGEO_EMST=$PARGEO_DIR/parmst-driver/emst_driver PARLAY_NUM_THREADS=$THREADS
export PYTHONPATH=src${PYTHONPATH:+:$PYTHONPATH} PYTHONUNBUFFERED=1
$PY -m parmst bench --peers pargeo-emst --out "$OUT" "$@"

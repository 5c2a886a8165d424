#!/usr/bin/env bash
# Builds the Google Benchmark programs (Release) and runs each, or those named as arguments
# (e.g. scripts/bench.sh bench_bm25). SciFact must be in data/scifact (scripts/get-data.sh).
# Results go to stdout and to runs/bench/<program>.json.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --bench
bash scripts/build.sh build-bench -DCLAIMRAG_BUILD_BENCHMARKS=ON -DCLAIMRAG_BUILD_TESTS=OFF
mkdir -p runs/bench
programs=("$@")
if [ ${#programs[@]} -eq 0 ]; then
  for source in tests/bench/bench_*.cpp; do programs+=("$(basename "$source" .cpp)"); done
fi
for program in "${programs[@]}"; do
  build-bench/tests/bench/"$program" --benchmark_out="runs/bench/$program.json" --benchmark_out_format=json
done

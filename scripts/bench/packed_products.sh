#!/usr/bin/env bash
# The packed products' GFLOP/s on the encoders' shapes, each unit beside OpenBLAS held to AVX2
# (OPENBLAS_CORETYPE=Haswell, one thread) and beside each unit's measured peak, as a Markdown table
# of the best of REPEATS runs (default 5), pinned to core CORE (default 1), with the load average
# before and after. Needs build-bench/ (scripts/build.sh build-bench -DCLAIMRAG_BUILD_BENCHMARKS=ON
# -DCLAIMRAG_BUILD_TESTS=OFF), or the program CLAIMRAG_BENCH_PROGRAM names (another build's, to
# compare). Another process on the core lowers every figure: note the load.
#
#   scripts/bench/packed_products.sh [REPEATS] [CORE]
set -euo pipefail
cd "$(dirname "$0")/../.."
repeats=${1:-5}
core=${2:-1}
program=${CLAIMRAG_BENCH_PROGRAM:-build-bench/tests/bench/bench_packed_linear}
out=$(mktemp)
trap 'rm -f "$out"' EXIT
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
OPENBLAS_NUM_THREADS=1 OPENBLAS_CORETYPE=Haswell taskset -c "$core" "$program" \
  --benchmark_repetitions="$repeats" --benchmark_min_time=0.1 \
  --benchmark_out="$out" --benchmark_out_format=json > /dev/null 2>&1
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
# Best of the repetitions per benchmark, then one row per shape.
jq -r '
  [.benchmarks[] | select(.run_type == "iteration" and .["GFLOP/s"] != null) | {name: .run_name, gflops: (.["GFLOP/s"] / 1e9)}]
  | group_by(.name) | map({key: .[0].name, value: (map(.gflops) | max)}) | from_entries as $best
  | ($best["BM_PeakAvx2"] // 0) as $peak2 | ($best["BM_PeakAvx512"] // 0) as $peak512
  | def pct(x; p): if p > 0 then "\(x / p * 100 | round) %" else "—" end;
    def num(x): if x == null then "—" else "\(x | round)" end;
    "peak: AVX2 \($peak2 | round), AVX-512 \($peak512 | round) GFLOP/s",
    "| product (in → out) | rows | AVX2 | AVX2 / its peak | AVX-512 | AVX-512 / its peak | OpenBLAS Haswell |",
    "|---|---|---|---|---|---|---|",
    ([$best | keys[] | select(startswith("BM_PackedAvx2/")) | ltrimstr("BM_PackedAvx2/")
      | capture("rows:(?<r>[0-9]+)/in:(?<i>[0-9]+)/out:(?<o>[0-9]+)") as $s
      | {shape: ., r: ($s.r | tonumber), i: ($s.i | tonumber), o: ($s.o | tonumber)}]
     | sort_by(.i, .o, .r)[]
     | $best["BM_PackedAvx2/" + .shape] as $a2 | $best["BM_PackedAvx512/" + .shape] as $a5
     | "| \(.i) → \(.o) | \(.r) | \(num($a2)) | \(pct($a2; $peak2)) | \(num($a5)) | \(pct($a5 // 0; $peak512)) | \(num($best["BM_OpenBlas/" + .shape])) |")
' "$out"

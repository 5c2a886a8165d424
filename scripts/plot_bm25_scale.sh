#!/usr/bin/env bash
# Draws the cost of BM25 against corpus size, log-log, from a bench_bm25_scale run (scripts/bench.sh
# bench_bm25_scale writes runs/bench/bench_bm25_scale.json): build, opening, and the p50 per claim
# at k = 10 of the exhaustive scorer, MaxScore and Xapian. Writes bm25_scale.tsv, .svg and .png.
# Usage: scripts/plot_bm25_scale.sh [runs/bench/bench_bm25_scale.json] [runs/bench/figures]
set -euo pipefail
json=${1:-runs/bench/bench_bm25_scale.json}
figures=${2:-runs/bench/figures}
[ -f "$json" ] || { echo "plot_bm25_scale: $json is missing (scripts/bench.sh bench_bm25_scale)" >&2; exit 3; }
for tool in gnuplot jq; do
  command -v "$tool" > /dev/null || { echo "plot_bm25_scale: $tool is missing (scripts/setup.sh --bench installs it)" >&2; exit 3; }
done
mkdir -p "$figures"
table="$figures/bm25_scale.tsv"
# One row per corpus size; a cell is empty ("-") where the run has no such benchmark.
jq -r '
  [.benchmarks[] | {n: (.name | split("/")[1] | tonumber), name: .name, b: .}] as $rows
  | ($rows | map(.n) | unique) as $sizes
  | def pick($prefix; $field): [$rows[] | select(.name | startswith($prefix)) | .b[$field]] | first // "-";
  ["documents", "build_ms", "open_ms", "exhaustive_p50_ms", "maxscore_p50_ms", "xapian_p50_ms"],
  ($sizes[] as $n
   | [$n,
      (pick("BM_Build/\($n)/"; "build_s") | if . == "-" then . else . * 1000 end),
      pick("BM_Open/\($n)/"; "real_time"),
      pick("BM_Query/\($n)/10/0/"; "p50_ms"),
      pick("BM_Query/\($n)/10/1/"; "p50_ms"),
      pick("BM_XapianQuery/\($n)/10/"; "p50_ms")])
  | @tsv' "$json" > "$table"
for format in svg png; do
  terminal="svg size 800,500 dynamic background rgb 'white'"
  [ "$format" = png ] && terminal="pngcairo size 800,500"
  gnuplot -e "set terminal $terminal; set output '$figures/bm25_scale.$format'; set datafile separator '\t';
    set datafile missing '-'; set logscale xy; set xlabel 'documents'; set ylabel 'milliseconds';
    set key top left; set grid;
    plot '$table' using 1:2 skip 1 with linespoints title 'build (whole index)',
         '' using 1:3 skip 1 with linespoints title 'open (map, check, searcher)',
         '' using 1:4 skip 1 with linespoints title 'p50 per claim, exhaustive, k=10',
         '' using 1:5 skip 1 with linespoints title 'p50 per claim, MaxScore, k=10',
         '' using 1:6 skip 1 with linespoints title 'p50 per claim, Xapian 1.4, k=10'"
done
echo "plot_bm25_scale: $figures/bm25_scale.svg"

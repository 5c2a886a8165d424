#!/usr/bin/env bash
# A sweep from the shell: RRF k × rerank depth × gate thresholds on a BEIR dataset's test claims
# (SciFact unless --data names another), one TSV row per (k, depth, threshold).
# Usage: scripts/sweep.sh [OPTIONS] [OUT_FOLDER] [prepare | one RRF_K DEPTH | point I | points | merge]
#   --data BEIR_FOLDER    default data/scifact/beir (a relative one is taken from the calling folder)
#   --rrf-k LIST          RRF k values, comma-separated (default 20,60,100: around fusion.rrf_k, 60)
#   --rerank-depth LIST   rerank depths (default 20,50,100: around rerank.rerank_depth, 50)
#   --thresholds SPEC     the gate's thresholds, as `gate --thresholds` takes them (default: the
#                         configuration's gate.thresholds, 10:40:5)
#   --config FILE         the configuration the defaults and every subcommand read (default:
#                         configs/scifact.json)
#   --check FILE          after merge: compare the table with FILE (a table written by --freeze);
#                         any difference is printed and exits 1
#   --freeze FILE         after merge: copy the table to FILE, for later --check
#   OUT_FOLDER defaults to runs/sweep; needs a build (build/claimrag) and the data.
#   Without a step: prepare, every configuration (fanned out with GNU parallel when installed,
#   one job per core; one after another otherwise), then merge. The steps exist so that a cluster
#   can run them apart: prepare once, `one` per task of a job array, merge at the end (give every
#   step the same options). `point I` is configuration I (from 0) of the grid, RRF k major, and
#   `points` prints how many there are: a job array's task I runs `point I`
#   (scripts/cluster/submit_sweep.sh). CLAIMRAG, when set, is the binary (default build/claimrag).
# Each step runs only what is missing, so the indexes, the dense model and the reranker are built
# once and a rerun only computes what changed. Every configuration writes its own rows file;
# merge sorts the rows numerically by (rrf_k, rerank_depth, threshold), so the table is the same
# whatever order the configurations finished in.
set -euo pipefail
usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//' >&2; exit 2; }
absolute() { case "$1" in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }
repository=$(cd "$(dirname "$0")/.." && pwd)
data=$repository/data/scifact/beir
config=$repository/configs/scifact.json
rrf_list=20,60,100
depth_list=20,50,100
thresholds=
check=
freeze=
while [ $# -gt 0 ]; do
  case "$1" in
    --data) data=$(absolute "${2:?--data needs a folder}"); shift 2 ;;
    --rrf-k) rrf_list=${2:?--rrf-k needs a list}; shift 2 ;;
    --rerank-depth) depth_list=${2:?--rerank-depth needs a list}; shift 2 ;;
    --thresholds) thresholds=${2:?--thresholds needs a SPEC}; shift 2 ;;
    --config) config=$(absolute "${2:?--config needs a file}"); shift 2 ;;
    --check) check=$(absolute "${2:?--check needs a file}"); shift 2 ;;
    --freeze) freeze=$(absolute "${2:?--freeze needs a file}"); shift 2 ;;
    -h|--help) usage ;;
    --*) echo "sweep: unknown option $1" >&2; usage ;;
    *) break ;;
  esac
done
if [ -z "$thresholds" ]; then
  thresholds=$(sed -n 's/^ *"thresholds": *"\([^"]*\)".*/\1/p' "$config" | head -n 1)
  [ -n "$thresholds" ] || { echo "sweep: $config has no gate.thresholds; give --thresholds" >&2; exit 2; }
fi
IFS=, read -r -a rrf_grid <<< "$rrf_list"
IFS=, read -r -a depth_grid <<< "$depth_list"
out=runs/sweep
case "${1:-}" in ""|prepare|one|point|points|merge) ;; *) out=$1; shift ;; esac
out=$(absolute "$out")
step=${1:-all}
cd "$repository"
claimrag=${CLAIMRAG:-$PWD/build/claimrag}
if [ ! -f "$data/corpus.jsonl" ]; then
  echo "$data is not a BEIR folder (no corpus.jsonl)" >&2
  exit 3
fi
mkdir -p "$out/rows"

once() {  # once OUTPUT COMMAND...: run COMMAND unless OUTPUT exists
  local output=$1
  shift
  [ -e "$output" ] || "$@"
}

prepare() {
  once "$out/bm25/bm25.index" "$claimrag" --quiet index --data "$data" --method bm25 --out "$out/bm25" --config "$config"
  once "$out/dense/dense.safetensors" "$claimrag" --quiet index --data "$data" --method dense --out "$out/dense" --config "$config"
  once "$out/bm25.trec" "$claimrag" --quiet retrieve --data "$data" --index "$out/bm25" --method bm25 --split test --out "$out/bm25.trec" --config "$config"
  once "$out/dense.trec" "$claimrag" --quiet retrieve --data "$data" --index "$out/dense" --method dense --split test --out "$out/dense.trec" --config "$config"
  once "$out/reranker.safetensors" "$claimrag" --quiet rerank --data "$data" --index "$out/bm25" --run "$out/bm25.trec" \
    --out "$out/bm25_rerank.trec" --model "$out/reranker.safetensors" --train --config "$config"
}

one() {  # one RRF_K DEPTH: the rows of one configuration, in rows/k<RRF_K>_d<DEPTH>.tsv
  local rrf_k=$1 depth=$2
  local rows="$out/rows/k${rrf_k}_d$depth.tsv"
  [ -e "$rows" ] && return
  local hybrid="$out/hybrid_k$rrf_k.trec"
  # Tasks of one k may fuse at once; each writes atomically, the same bytes.
  once "$hybrid" "$claimrag" --quiet fuse --runs "$out/bm25.trec" "$out/dense.trec" --rrf-k "$rrf_k" --out "$hybrid"
  local reranked="$out/rerank_k${rrf_k}_d$depth.trec"
  once "$reranked" "$claimrag" --quiet rerank --threads 1 --data "$data" --index "$out/bm25" --run "$hybrid" --out "$reranked" \
    --model "$out/reranker.safetensors" --rerank-depth "$depth" --config "$config"
  local metrics
  metrics=$("$claimrag" --quiet evaluate --data "$data" --split test --run "$reranked" --metrics ndcg@10,recall@100 \
    --out "$out/metrics_k${rrf_k}_d$depth" | cut -f3 | paste -sd '\t')
  "$claimrag" --quiet gate --data "$data" --split test --run "$reranked" --bm25-run "$out/bm25.trec" --signal bm25_top1 \
    --thresholds "$thresholds" --config "$config" --out "$out/gate_k${rrf_k}_d$depth.tsv"
  tail -n +2 "$out/gate_k${rrf_k}_d$depth.tsv" | while IFS=$'\t' read -r signal threshold answered answer refusal hallucination f1; do
    printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$rrf_k" "$depth" "$metrics" "$threshold" "$answer" "$hallucination"
  done > "$rows.partial"
  mv "$rows.partial" "$rows"
}

merge() {
  local table="$out/sweep.tsv"
  for rrf_k in "${rrf_grid[@]}"; do
    for depth in "${depth_grid[@]}"; do
      [ -e "$out/rows/k${rrf_k}_d$depth.tsv" ] || { echo "sweep: configuration k=$rrf_k depth=$depth has no rows yet" >&2; exit 3; }
    done
  done
  {
    printf 'rrf_k\trerank_depth\tndcg@10\trecall@100\tthreshold\tanswer_rate\thallucination_rate\n'
    cat "$out"/rows/k*_d*.tsv | LC_ALL=C sort -t $'\t' -k1,1n -k2,2n -k5,5g
  } > "$table.partial"
  mv "$table.partial" "$table"
  echo "sweep: $(($(wc -l < "$table") - 1)) rows -> $table"
  if [ -n "$freeze" ]; then
    cp "$table" "$freeze"
    echo "sweep: frozen as $freeze"
  fi
  if [ -n "$check" ]; then
    if ! diff -u "$check" "$table" >&2; then
      echo "sweep: the table differs from $check (lines - frozen, + now)" >&2
      exit 1
    fi
    echo "sweep: equal to $check"
  fi
}

case "$step" in
  prepare) prepare ;;
  one) one "${2:?one needs RRF_K}" "${3:?one needs DEPTH}" ;;
  point)
    point=${2:?point needs I}
    points=$((${#rrf_grid[@]} * ${#depth_grid[@]}))
    [[ $point =~ ^[0-9]+$ ]] && ((point < points)) || { echo "sweep: point $point is not in [0, $points)" >&2; exit 2; }
    one "${rrf_grid[point / ${#depth_grid[@]}]}" "${depth_grid[point % ${#depth_grid[@]}]}"
    ;;
  points) echo $((${#rrf_grid[@]} * ${#depth_grid[@]})) ;;
  merge) merge ;;
  all)
    prepare
    if command -v parallel > /dev/null; then
      export -f one once
      export out data claimrag thresholds config
      parallel --halt now,fail=1 one {1} {2} ::: "${rrf_grid[@]}" ::: "${depth_grid[@]}"
    else
      for rrf_k in "${rrf_grid[@]}"; do
        for depth in "${depth_grid[@]}"; do one "$rrf_k" "$depth"; done
      done
    fi
    merge
    ;;
esac

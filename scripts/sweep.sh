#!/usr/bin/env bash
# An example sweep from the shell: RRF k × rerank depth × gate thresholds on a BEIR dataset's test
# claims (SciFact unless --data names another), one TSV row per configuration.
# Usage: scripts/sweep.sh [--data BEIR_FOLDER] [OUT_FOLDER] [prepare | one RRF_K DEPTH | merge]
#   --data defaults to data/scifact/beir, OUT_FOLDER to runs/sweep; needs a build and the data.
#   A relative --data is taken from the directory the script is called from.
#   Without a step: prepare, every configuration (fanned out with GNU parallel when installed,
#   one job per core; one after another otherwise), then merge. The steps exist so that a cluster
#   can run them apart: prepare once, `one` per task of a job array, merge at the end.
# Each step runs only what is missing, so the indexes, the dense model and the reranker are built
# once and a rerun only computes what changed. Every configuration writes its own rows file;
# merge sorts the rows numerically by (rrf_k, rerank_depth, threshold), so the table is the same
# whatever order the configurations finished in.
set -euo pipefail
rrf_grid=(20 60 100)
depth_grid=(20 50 100)
data=data/scifact/beir
if [ "${1:-}" = "--data" ]; then
  data=$(realpath "${2:?--data needs a folder}")
  shift 2
fi
out=runs/sweep
case "${1:-}" in ""|prepare|one|merge) ;; *) out=$1; shift ;; esac
case "$out" in /*) ;; *) out="$PWD/$out" ;; esac
step=${1:-all}
cd "$(dirname "$0")/.."
claimrag=$PWD/build/claimrag
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
  once "$out/bm25/bm25.index" "$claimrag" --quiet index --data "$data" --method bm25 --out "$out/bm25"
  once "$out/dense/dense.safetensors" "$claimrag" --quiet index --data "$data" --method dense --out "$out/dense"
  once "$out/bm25.trec" "$claimrag" --quiet retrieve --data "$data" --index "$out/bm25" --method bm25 --split test --out "$out/bm25.trec"
  once "$out/dense.trec" "$claimrag" --quiet retrieve --data "$data" --index "$out/dense" --method dense --split test --out "$out/dense.trec"
  once "$out/reranker.safetensors" "$claimrag" --quiet rerank --data "$data" --index "$out/bm25" --run "$out/bm25.trec" \
    --out "$out/bm25_rerank.trec" --model "$out/reranker.safetensors" --train
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
    --model "$out/reranker.safetensors" --rerank-depth "$depth"
  local metrics
  metrics=$("$claimrag" --quiet evaluate --data "$data" --split test --run "$reranked" --metrics ndcg@10,recall@100 \
    --out "$out/metrics_k${rrf_k}_d$depth" | cut -f3 | paste -sd '\t')
  "$claimrag" --quiet gate --data "$data" --split test --run "$reranked" --bm25-run "$out/bm25.trec" --signal bm25_top1 \
    --thresholds 10:40:10 --out "$out/gate_k${rrf_k}_d$depth.tsv"
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
}

case "$step" in
  prepare) prepare ;;
  one) one "${2:?one needs RRF_K}" "${3:?one needs DEPTH}" ;;
  merge) merge ;;
  all)
    prepare
    if command -v parallel > /dev/null; then
      export -f one once
      export out data claimrag
      parallel --halt now,fail=1 one {1} {2} ::: "${rrf_grid[@]}" ::: "${depth_grid[@]}"
    else
      for rrf_k in "${rrf_grid[@]}"; do
        for depth in "${depth_grid[@]}"; do one "$rrf_k" "$depth"; done
      done
    fi
    merge
    ;;
esac

#!/usr/bin/env bash
# An example sweep from the shell: RRF k × rerank depth × gate thresholds on a BEIR dataset's test
# claims (SciFact unless --data names another),
# one TSV row per configuration. Each stage runs only when its output is missing, so the indexes,
# the dense model and the reranker are built once and a rerun only computes what changed.
# Usage: scripts/sweep.sh [--data BEIR_FOLDER] [OUT_FOLDER]
#   --data defaults to data/scifact/beir, OUT_FOLDER to runs/sweep; needs a build and the data.
#   A relative --data is taken from the directory the script is called from.
set -euo pipefail
data=data/scifact/beir
if [ "${1:-}" = "--data" ]; then
  data=$(realpath "${2:?--data needs a folder}")
  shift 2
fi
out=${1:-runs/sweep}
case "$out" in /*) ;; *) out="$PWD/$out" ;; esac
cd "$(dirname "$0")/.."
claimrag=build/claimrag
if [ ! -f "$data/corpus.jsonl" ]; then
  echo "$data is not a BEIR folder (no corpus.jsonl)" >&2
  exit 3
fi
mkdir -p "$out"

once() {  # once OUTPUT COMMAND...: run COMMAND unless OUTPUT exists
  local output=$1
  shift
  [ -e "$output" ] || "$@"
}

once "$out/bm25/bm25.index" $claimrag --quiet index --data "$data" --method bm25 --out "$out/bm25"
once "$out/dense/dense.safetensors" $claimrag --quiet index --data "$data" --method dense --out "$out/dense"
once "$out/bm25.trec" $claimrag --quiet retrieve --data "$data" --index "$out/bm25" --method bm25 --split test --out "$out/bm25.trec"
once "$out/dense.trec" $claimrag --quiet retrieve --data "$data" --index "$out/dense" --method dense --split test --out "$out/dense.trec"
once "$out/reranker.safetensors" $claimrag --quiet rerank --data "$data" --index "$out/bm25" --run "$out/bm25.trec" \
  --out "$out/bm25_rerank.trec" --model "$out/reranker.safetensors" --train

table="$out/sweep.tsv"
printf 'rrf_k\trerank_depth\tndcg@10\trecall@100\tthreshold\tanswer_rate\thallucination_rate\n' > "$table.partial"
for rrf_k in 20 60 100; do
  hybrid="$out/hybrid_k$rrf_k.trec"
  once "$hybrid" $claimrag --quiet fuse --runs "$out/bm25.trec" "$out/dense.trec" --rrf-k $rrf_k --out "$hybrid"
  for depth in 20 50 100; do
    reranked="$out/rerank_k${rrf_k}_d$depth.trec"
    once "$reranked" $claimrag --quiet rerank --data "$data" --index "$out/bm25" --run "$hybrid" --out "$reranked" \
      --model "$out/reranker.safetensors" --rerank-depth $depth
    metrics=$($claimrag --quiet evaluate --data "$data" --split test --run "$reranked" --metrics ndcg@10,recall@100 \
      --out "$out/metrics_k${rrf_k}_d$depth" | cut -f3 | paste -sd '\t')
    $claimrag --quiet gate --data "$data" --split test --run "$reranked" --bm25-run "$out/bm25.trec" --signal bm25_top1 \
      --thresholds 10:40:10 --out "$out/gate_k${rrf_k}_d$depth.tsv"
    tail -n +2 "$out/gate_k${rrf_k}_d$depth.tsv" | while IFS=$'\t' read -r signal threshold answered answer refusal hallucination f1; do
      printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$rrf_k" "$depth" "$metrics" "$threshold" "$answer" "$hallucination"
    done >> "$table.partial"
  done
done
mv "$table.partial" "$table"
echo "sweep: $(($(wc -l < "$table") - 1)) rows -> $table"

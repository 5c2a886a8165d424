#!/usr/bin/env bash
# What `verify --verifier checkpoint:DIR` costs on SciFact: seconds per claim against its BM25
# top-3 abstracts, for DeBERTa-v3-base- and -xsmall-shaped NLI classifiers with random weights
# (scripts/bench/random_deberta_v3.py), at 1 and 2 threads, the whole process (loading included)
# timed by GNU time with its peak memory.
#   scripts/bench/checkpoint_cost.sh [CLAIMS] [BINARY]
# CLAIMS: how many SciFact test (dev) claims to verify (default 20); BINARY: default build/claimrag.
# Needs the data (scripts/get-data.sh), /usr/bin/time and numpy (Debian's python3-numpy).
set -euo pipefail
cd "$(dirname "$0")/../.."
claims=${1:-20}
claimrag=$(realpath "${2:-build/claimrag}")
data=data/scifact/beir
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

bash scripts/bench/first_claims_run.sh "$claims" "$claimrag" "$work"
counted=$(cut -d' ' -f1 "$work/run.trec" | sort -u | wc -l)
pairs=$(wc -l < "$work/run.trec")

printf '| shape | threads | claims | abstracts | seconds | seconds per claim | peak RSS MB |\n|---|---|---|---|---|---|---|\n'
for shape in xsmall base; do
  /usr/bin/python3 scripts/bench/random_deberta_v3.py "$shape" "$work/$shape" > /dev/null
  for threads in 1 2; do
    /usr/bin/time -f '%e %M' -o "$work/time" "$claimrag" --quiet verify --data "$data" --split test --run "$work/run.trec" \
      --k 3 --verifier "checkpoint:$work/$shape" --threads "$threads" --out "$work/verdicts.jsonl"
    read -r seconds kilobytes < "$work/time"
    awk -v s="$shape" -v t="$threads" -v c="$counted" -v p="$pairs" -v e="$seconds" -v k="$kilobytes" \
      'BEGIN { printf "| deberta-v3-%s | %d | %d | %d | %.1f | %.2f | %.0f |\n", s, t, c, p, e, e / c, k / 1024 }'
  done
done

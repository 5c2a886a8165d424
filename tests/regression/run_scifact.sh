#!/usr/bin/env bash
# The SciFact regression check: runs the pipeline on the real data and compares every metric with
# tests/regression/scifact.expected.json (`claimrag evaluate --check` exits 1 on any deviation).
# Usage: tests/regression/run_scifact.sh PATH/TO/claimrag   (from the repository root)
set -euo pipefail
claimrag=${1:?usage: $0 PATH/TO/claimrag}
data=data/scifact/beir
expected=tests/regression/scifact.expected.json
if [ ! -f "$data/corpus.jsonl" ]; then
  echo "SciFact is missing from $data: run scripts/get-data.sh first" >&2
  exit 3
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$claimrag" --quiet index --data "$data" --method bm25 --out "$work/index"
"$claimrag" --quiet retrieve --data "$data" --index "$work/index" --method bm25 --split test --out "$work/bm25.trec"
"$claimrag" --quiet evaluate --data "$data" --split test --run "$work/bm25.trec" --out "$work/bm25" --check "$expected"

"$claimrag" --quiet index --data "$data" --method dense --out "$work/dense"
"$claimrag" --quiet retrieve --data "$data" --index "$work/dense" --method dense --split test --out "$work/dense.trec"
"$claimrag" --quiet evaluate --data "$data" --split test --run "$work/dense.trec" --out "$work/dense" --check "$expected"

# Evidence (Table 7) from BM25's run until the reranked run is frozen: the verifier trained on
# pseudo-gold positives (the paper's), then on SciFact's gold rationales (beyond the paper).
for rationales in pseudo gold; do
  section=evidence_bm25$([ "$rationales" = gold ] && echo _gold || true)
  "$claimrag" --quiet extract-evidence --data "$data" --run "$work/bm25.trec" --rationales "$rationales" --out "$work/$section.jsonl"
  "$claimrag" --quiet evaluate --data "$data" --split test --evidence "$work/$section.jsonl" --original data/scifact/original \
    --out "$work/$section" --check "$expected" --section "$section"
done

# Table 1 is exact: the whole table, byte for byte.
"$claimrag" --quiet stats --data "$data" --out "$work/tables"
diff -u tests/regression/table1.expected.tsv "$work/tables/table1.tsv"
echo "OK   table1 (tests/regression/table1.expected.tsv)"

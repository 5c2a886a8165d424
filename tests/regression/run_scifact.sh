#!/usr/bin/env bash
# The SciFact regression check: the whole reproduction, every metric compared with
# tests/regression/scifact.expected.json (exit 1 on any deviation, in either direction), Table 1
# byte for byte, and a second reproduction (one thread, a slower vector unit) that must give
# byte-identical tables, runs and models.
# Usage: tests/regression/run_scifact.sh PATH/TO/claimrag   (from the repository root)
set -euo pipefail
claimrag=${1:?usage: $0 PATH/TO/claimrag}
config=configs/scifact.json
expected=tests/regression/scifact.expected.json
if [ ! -f data/scifact/beir/corpus.jsonl ]; then
  echo "SciFact is missing from data/scifact: run scripts/get-data.sh first" >&2
  exit 3
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$claimrag" --quiet reproduce --config "$config" --out "$work/first"
"$claimrag" --quiet evaluate --results "$work/first/results.json" --check "$expected"
diff -u tests/regression/table1.expected.tsv "$work/first/tables/table1.tsv"
echo "OK   table1.tsv equals tests/regression/table1.expected.tsv"
diff -u tests/regression/grounding.expected.tsv "$work/first/tables/grounding.tsv"
echo "OK   grounding.tsv (the seed's Table 1 shape, its numbers beside ours) equals tests/regression/grounding.expected.tsv"
# The README's tour reads this copy of the free-text aggregator (its test cannot run a reproduction).
cmp data/fixtures/sufficiency/aggregator_free_text.json "$work/first/models/sufficiency_aggregator_free_text.json"
echo "OK   models/sufficiency_aggregator_free_text.json equals data/fixtures/sufficiency/aggregator_free_text.json"

# Determinism: the same command again, on one thread where the first used every core, and with the
# products on the next slower vector unit than the CPU's fastest (AVX2 on an AVX-512 CPU, portable
# code on an AVX2 one), gives the same bytes; only the files that carry timings (table9.tsv,
# REPORT.md, results.json) or the output path (*meta.json) may differ.
flags=$(grep -m1 '^flags' /proc/cpuinfo || true)
has() { [[ " $flags " == *" $1 "* ]]; }
if has avx512f && has avx2 && has fma; then
  slower_unit=avx2
else
  slower_unit=scalar
fi
CLAIMRAG_VECTOR_UNIT=$slower_unit OMP_NUM_THREADS=1 "$claimrag" --quiet reproduce --config "$config" --out "$work/second" --threads 1 > /dev/null
(cd "$work/first" && find . -type f ! -name table9.tsv ! -name REPORT.md ! -name results.json ! -name '*meta.json' | sort) > "$work/files"
while read -r file; do
  cmp "$work/first/$file" "$work/second/$file"
done < "$work/files"
echo "OK   two reproductions, on every core and on one thread with the $slower_unit vector unit, are byte-identical ($(wc -l < "$work/files") files, timings aside)"

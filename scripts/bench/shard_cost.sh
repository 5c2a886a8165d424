#!/usr/bin/env bash
# What sharding costs, per task and in all, for the projections of docs/cluster.md:
#   1. per task, the fixed cost (process start, loading the index or the verifier) and the cost
#      per claim of `retrieve --method bm25` and of `verify` (the built-in verifier, and a
#      DeBERTa-v3-base-shaped checkpoint with random weights), from a run of 1 claim and one of
#      CLAIMS claims of SciFact's test split;
#   2. `merge` of 64 shards of a BM25 `retrieve` of SciFact's test claims;
#   3. a synthetic corpus of DOCUMENTS documents (the scale benchmark's generator: Zipf words,
#      SciFact's lengths) indexed as SHARDS shards (the statistics pass, then each shard: seconds
#      and peak memory; the shards' total size), and 1,000 claims searched across the shards
#      against one index of its first 1,000,000 documents (ms per claim, the opening excluded).
# Every process is timed whole by GNU time (seconds, peak RSS). Results: markdown tables on stdout.
# CLAIMRAG_BEFORE_BIN, when set, names a second build whose shard 0 is built beside the others.
#   scripts/bench/shard_cost.sh [DOCUMENTS] [SHARDS] [CLAIMS]   (defaults 10000000, 8, 20)
# At the defaults it took 25 minutes on a quiet 2-core Zen 3, a third of it writing the synthetic
# corpus and a fifth the statistics pass; DOCUMENTS 100000 takes minutes. The built-in verifier's
# fixed cost is its training on SciFact, which `verify --run` does in every process.
# Needs the data (scripts/get-data.sh), build/claimrag, the benchmark build (scripts/bench.sh
# builds build-bench/tests/bench/bench_bm25_scale), /usr/bin/time and Debian's python3-numpy. Time
# it on a quiet machine only. At 10 M documents the corpus takes about 15 GB and the shards about as
# much again, under $TMPDIR (default /tmp).
set -euo pipefail
cd "$(dirname "$0")/../.."
data=data/scifact/beir
documents=${1:-10000000} shards=${2:-8} claims=${3:-20}
claimrag=$(realpath -m build/claimrag)
generator=$(realpath -m build-bench/tests/bench/bench_bm25_scale)
before=${CLAIMRAG_BEFORE_BIN:+$(realpath -m "$CLAIMRAG_BEFORE_BIN")}
for program in "$claimrag" "$generator" /usr/bin/time ${before:+"$before"}; do
  [ -x "$program" ] || { echo "shard_cost: $program is missing (scripts/build.sh, scripts/bench.sh bench_bm25_scale, apt time)" >&2; exit 3; }
done
[ -f "$data/corpus.jsonl" ] || { echo "shard_cost: $data is missing (scripts/get-data.sh)" >&2; exit 3; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# timed LABEL COMMAND...: runs COMMAND under GNU time; prints "LABEL seconds peak_MB" to $work/times.
timed() {
  local label=$1
  shift
  /usr/bin/time -f '%e %M' -o "$work/time" "$@"
  read -r seconds kilobytes < "$work/time"
  echo "$label $seconds $((kilobytes / 1024))" >> "$work/times"
}
seconds_of() { awk -v l="$1" '$1 == l { print $2 }' "$work/times"; }
peak_of() { awk -v l="$1" '$1 == l { print $3 }' "$work/times"; }
# The first N queries of queries.jsonl $1 whose ids the split's qrels judge, into $2.
first_claims() {
  python3 -c 'import json,sys
judged = {line.split("\t")[0] for line in open(sys.argv[2]) if not line.startswith("query-id")}
lines = [l for l in open(sys.argv[1]) if json.loads(l)["_id"] in judged][: int(sys.argv[3])]
open(sys.argv[4], "w").writelines(lines)' "$data/queries.jsonl" "$data/qrels/test.tsv" "$1" "$2"
}

echo "## Per task: fixed cost and cost per claim"
"$claimrag" --quiet index --data "$data" --method bm25 --out "$work/bm25"
first_claims 1 "$work/one.jsonl"
first_claims "$claims" "$work/many.jsonl"
"$claimrag" --quiet retrieve --data "$data" --index "$work/bm25" --method bm25 --queries "$work/many.jsonl" --k 3 --out "$work/many.trec"
/usr/bin/python3 scripts/bench/random_deberta_v3.py base "$work/deberta-base" > /dev/null
for set in one many; do
  timed "retrieve-$set" "$claimrag" --quiet retrieve --data "$data" --index "$work/bm25" --method bm25 --threads 1 \
    --queries "$work/$set.jsonl" --out "$work/$set.trec"
  for verifier in builtin "checkpoint:$work/deberta-base"; do
    timed "verify-${verifier%%:*}-$set" "$claimrag" --quiet verify --data "$data" --queries "$work/$set.jsonl" --threads 1 \
      --run "$work/many.trec" --k 3 --verifier "$verifier" --out "$work/verdicts.jsonl"
  done
done
printf '| command | fixed s (1 claim) | s per further claim | peak MB |\n|---|---|---|---|\n'
for command in retrieve verify-builtin verify-checkpoint; do
  awk -v c="$command" -v one="$(seconds_of "$command-one")" -v many="$(seconds_of "$command-many")" -v n="$claims" \
    -v mb="$(peak_of "$command-many")" 'BEGIN { printf "| %s | %.2f | %.4f | %d |\n", c, one, (many - one) / (n - 1), mb }'
done

echo; echo "## merge of 64 shards"
for ((k = 0; k < 64; k++)); do
  "$claimrag" --quiet retrieve --data "$data" --index "$work/bm25" --method bm25 --split test --shard "$k/64" --out "$work/s64/shard-$k.trec"
done
timed merge64 "$claimrag" --quiet merge --out "$work/merged.trec" "$work"/s64/shard-{0..63}.trec
printf '| shards | seconds | peak MB |\n|---|---|---|\n| 64 | %s | %s |\n' "$(seconds_of merge64)" "$(peak_of merge64)"

echo; echo "## $documents synthetic documents as $shards shards, against one index of 1,000,000"
corpus=$work/synthetic
"$generator" --write-corpus "$documents" "$corpus"
"$generator" --write-corpus 1000000 "$work/million"
timed statistics "$claimrag" --quiet bm25-statistics --data "$corpus" --out "$work/statistics.tsv"
flags=()
for ((k = 0; k < shards; k++)); do
  timed "shard-$k" "$claimrag" --quiet index --data "$corpus" --method bm25 --shard "$k/$shards" \
    --statistics "$work/statistics.tsv" --out "$work/shards/$k"
  flags+=(--index "$work/shards/$k")
done
before_step=()
if [ -n "$before" ]; then
  timed shard-0-before "$before" --quiet index --data "$corpus" --method bm25 --shard "0/$shards" \
    --statistics "$work/statistics.tsv" --out "$work/shard-before"
  cmp -s "$work/shards/0/bm25.index" "$work/shard-before/bm25.index" || { echo "shard_cost: the before build's shard 0 differs" >&2; exit 1; }
  rm -rf "$work/shard-before"
  before_step=(shard-0-before)
fi
timed million-index "$claimrag" --quiet index --data "$work/million" --method bm25 --out "$work/million-index"
printf '| step | seconds | peak MB |\n|---|---|---|\n'
for step in statistics $(seq -f 'shard-%g' 0 $((shards - 1))) "${before_step[@]}" million-index; do
  printf '| %s | %s | %s |\n' "$step" "$(seconds_of "$step")" "$(peak_of "$step")"
done
echo "shards in all: $(du -sb "$work/shards" | cut -f1) bytes"
# 1,000 claims: the first 12 words of every thousandth document of the first million (the same
# text in both corpora); one claim first, to take the opening out of the cost per claim.
python3 -c 'import json,sys
out = open(sys.argv[2], "w")
for n, line in enumerate(open(sys.argv[1])):
    if n % 1000 == 0: out.write(json.dumps({"_id": str(n), "text": " ".join(json.loads(line)["text"].split()[:12])}) + "\n")' \
  "$work/million/corpus.jsonl" "$work/claims.jsonl"
head -n 1 "$work/claims.jsonl" > "$work/claim.jsonl"
for set in claim claims; do
  timed "sharded-$set" "$claimrag" --quiet retrieve --data "$corpus" "${flags[@]}" --method bm25 --queries "$work/$set.jsonl" \
    --k 10 --out "$work/sharded.trec"
  timed "million-$set" "$claimrag" --quiet retrieve --data "$work/million" --index "$work/million-index" --method bm25 \
    --queries "$work/$set.jsonl" --k 10 --out "$work/million.trec"
done
printf '| search | opening s | ms per claim | peak MB |\n|---|---|---|---|\n'
for search in sharded million; do
  awk -v s="$search" -v one="$(seconds_of "$search-claim")" -v all="$(seconds_of "$search-claims")" \
    -v mb="$(peak_of "$search-claims")" 'BEGIN { printf "| %s | %.2f | %.2f | %d |\n", s, one, (all - one) / 999 * 1000, mb }'
done

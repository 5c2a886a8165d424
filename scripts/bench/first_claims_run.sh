#!/usr/bin/env bash
# The BM25 top-3 run of the first CLAIMS SciFact test (dev) claims, for the benchmarks that verify
# them: writes FOLDER/index and FOLDER/run.trec (the split's other claims get no ranking, so they
# cost nothing downstream).
#   scripts/bench/first_claims_run.sh CLAIMS BINARY FOLDER
set -euo pipefail
claims=$1 claimrag=$2 folder=$3
data=data/scifact/beir
"$claimrag" --quiet index --data "$data" --method bm25 --out "$folder/index"
"$claimrag" --quiet retrieve --data "$data" --index "$folder/index" --method bm25 --split test --k 3 --out "$folder/full.trec"
awk -v n="$claims" '!($1 in seen) { if (++count > n) exit; seen[$1] = 1 } { print }' "$folder/full.trec" > "$folder/run.trec"

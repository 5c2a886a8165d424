#!/usr/bin/env bash
# Submits `claimrag retrieve --method bm25` over the N shards of a document-sharded index as one
# Slurm job, searching the shards as threads of one process; its run is the bytes one index over
# the whole corpus gives:
#
#   bash scripts/cluster/submit_bm25_retrieve.sh [--after JOB] N INDEX_FOLDER OUT RETRIEVE FLAGS...
#   bash scripts/cluster/submit_bm25_retrieve.sh --after 4242 8 out/bioasq-bm25 out/bioasq.trec \
#       --data /data/bioasq/beir --split test
#
# --after JOB starts it once JOB (the index array that submit_bm25_index.sh printed) succeeded.
# The log goes to OUT.log. Prints the job's id. Settings: scripts/cluster/settings.sh.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=settings.sh
source "$here/settings.sh"
dependency=()
if [ "${1:-}" = --after ]; then
  dependency=(--dependency="afterok:${2:?--after needs a job id}")
  shift 2
fi
# shellcheck source=sbatch_options.sh
source "$here/sbatch_options.sh"
require_arguments 3 "submit_bm25_retrieve.sh [--after JOB] N INDEX_FOLDER OUT RETRIEVE FLAGS..." "$@"
count=$1 index=$2 out=$3
shift 3
require_count submit_bm25_retrieve.sh "$count"
shards=()
for ((k = 0; k < count; k++)); do shards+=(--index "$index/shard-$k"); done
mkdir -p "$(dirname "$out")"
job=$(sbatch "${options[@]}" "${dependency[@]}" --job-name=claimrag-bm25-retrieve --output="$out.log" \
  "$here/command_task.sbatch" retrieve --method bm25 "${shards[@]}" --out "$out" "$@")
echo "${job%%;*}"

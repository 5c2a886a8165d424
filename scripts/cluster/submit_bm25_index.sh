#!/usr/bin/env bash
# Submits a document-sharded BM25 index of a corpus as Slurm jobs: one job computing the corpus's
# statistics, then an array of N tasks (--dependency=afterok) each indexing its block of documents
# with them:
#
#   bash scripts/cluster/submit_bm25_index.sh N DATA INDEX_FOLDER [INDEX FLAGS...]
#   bash scripts/cluster/submit_bm25_index.sh 8 /data/bioasq/beir out/bioasq-bm25
#
# Writes INDEX_FOLDER/statistics.tsv and INDEX_FOLDER/shard-K (K = 0..N-1, each with bm25.index and
# meta.json); logs go to INDEX_FOLDER/statistics.log and INDEX_FOLDER/index-K.log. Prints the
# statistics job's id and the array's. Search the shards with submit_bm25_retrieve.sh. Settings:
# scripts/cluster/settings.sh. docs/cluster.md has the whole story.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=settings.sh
source "$here/settings.sh"
# shellcheck source=sbatch_options.sh
source "$here/sbatch_options.sh"
require_arguments 3 "submit_bm25_index.sh N DATA INDEX_FOLDER [INDEX FLAGS...]" "$@"
count=$1 data=$2 index=$3
shift 3
require_count submit_bm25_index.sh "$count"
mkdir -p "$index"
statistics=$(sbatch "${options[@]}" --job-name=claimrag-bm25-statistics --output="$index/statistics.log" \
  "$here/command_task.sbatch" bm25-statistics --data "$data" --out "$index/statistics.tsv")
statistics=${statistics%%;*}
array=$(sbatch "${options[@]}" --job-name=claimrag-bm25-index --dependency="afterok:$statistics" \
  --array="0-$((count - 1))" --output="$index/index-%a.log" "$here/index_shard_task.sbatch" "$index" "$data" "$@")
array=${array%%;*}
echo "$statistics $array"

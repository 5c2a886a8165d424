#!/usr/bin/env bash
# Submits a claimrag command as a Slurm job array of N shards plus a merge job:
#
#   bash scripts/cluster/submit.sh N OUT COMMAND [FLAGS...]
#   bash scripts/cluster/submit.sh 16 out/verdicts.jsonl verify --pairs pairs.jsonl --verifier checkpoint:/models/nli
#
# Task K runs `claimrag COMMAND FLAGS... --shard slurm --out OUT.shards/shard-K.EXT` (EXT: OUT's
# extension); the merge job runs `claimrag merge --out OUT OUT.shards/shard-0.EXT ...` once every
# task succeeded (--dependency=afterok), and OUT then holds exactly the bytes of the unsharded
# command. Logs go to OUT.shards/task-K.log and OUT.shards/merge.log. Prints the array's job id and
# the merge job's. Settings (binary, partition, cores, memory, time): scripts/cluster/settings.sh.
# Relative paths are read from the folder submit.sh is run in. docs/cluster.md has the whole story.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=settings.sh
source "$here/settings.sh"
if [ $# -lt 3 ]; then
  echo "usage: submit.sh N OUT COMMAND [FLAGS...]" >&2
  echo "  COMMAND: verify, predict, ground, sufficiency, interrogate, retrieve, rerank or extract-evidence" >&2
  exit 2
fi
count=$1 out=$2
shift 2
case "$1" in
  verify | predict | ground | sufficiency | interrogate | retrieve | rerank | extract-evidence) ;;
  *) echo "submit.sh: $1 does not run as shards: give verify, predict, ground, sufficiency, interrogate, retrieve, rerank or extract-evidence" >&2; exit 2 ;;
esac
# shellcheck source=sbatch_options.sh
source "$here/sbatch_options.sh"
require_count submit.sh "$count"
name=$(basename "$out")
extension=
if [[ $name == *.* ]]; then extension=".${name##*.}"; fi
shards="$out.shards"
mkdir -p "$shards"

array=$(sbatch "${options[@]}" --job-name="claimrag-$1" --array="0-$((count - 1))" --output="$shards/task-%a.log" \
  "$here/shard_task.sbatch" "$shards" "$extension" "$@")
array=${array%%;*}
merge=$(sbatch "${options[@]}" --job-name="claimrag-merge" --dependency="afterok:$array" --output="$shards/merge.log" \
  "$here/merge_task.sbatch" "$count" "$out" "$shards" "$extension")
merge=${merge%%;*}
echo "$array $merge"

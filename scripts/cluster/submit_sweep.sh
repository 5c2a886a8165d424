#!/usr/bin/env bash
# Submits scripts/sweep.sh as Slurm jobs: its preparation, then an array with one grid point per
# task (--dependency=afterok), then its merge:
#
#   bash scripts/cluster/submit_sweep.sh OUT_FOLDER [SWEEP OPTIONS...]
#   bash scripts/cluster/submit_sweep.sh runs/sweep --rrf-k 20,60,100 --rerank-depth 20,50,100
#
# The table lands in OUT_FOLDER/sweep.tsv, the same bytes as `scripts/sweep.sh` on one machine;
# logs go to OUT_FOLDER/prepare.log, point-I.log and merge.log. Prints the three job ids. Every
# job runs CLAIMRAG (scripts/cluster/settings.sh) through the sweep script of this repository.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repository=$(cd "$here/../.." && pwd)
# shellcheck source=settings.sh
source "$here/settings.sh"
# shellcheck source=sbatch_options.sh
source "$here/sbatch_options.sh"
require_arguments 1 "submit_sweep.sh OUT_FOLDER [SWEEP OPTIONS...]" "$@"
out=$1
shift
case "$out" in /*) ;; *) out=$PWD/$out ;; esac
points=$(bash "$repository/scripts/sweep.sh" "$@" "$out" points)
mkdir -p "$out"
prepare=$(sbatch "${options[@]}" --job-name=claimrag-sweep-prepare --output="$out/prepare.log" \
  "$here/sweep_task.sbatch" "$repository" "$@" "$out" prepare)
prepare=${prepare%%;*}
array=$(sbatch "${options[@]}" --job-name=claimrag-sweep --dependency="afterok:$prepare" --array="0-$((points - 1))" \
  --output="$out/point-%a.log" "$here/sweep_task.sbatch" "$repository" "$@" "$out" point)
array=${array%%;*}
merge=$(sbatch "${options[@]}" --job-name=claimrag-sweep-merge --dependency="afterok:$array" --output="$out/merge.log" \
  "$here/sweep_task.sbatch" "$repository" "$@" "$out" merge)
echo "$prepare $array ${merge%%;*}"

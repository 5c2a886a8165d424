# What every submit script of claimrag's cluster scripts shares, sourced after settings.sh: the
# sbatch options of every job, from settings.sh, in the array `options`; the check of the binary;
# and the checks of a script's arguments.
options=(--parsable --cpus-per-task="$CLAIMRAG_CPUS" --mem="$CLAIMRAG_MEMORY" --time="$CLAIMRAG_TIME")
if [ -n "$CLAIMRAG_PARTITION" ]; then options+=(--partition="$CLAIMRAG_PARTITION"); fi
read -r -a extra <<< "$CLAIMRAG_SBATCH_EXTRA"
options+=("${extra[@]}")
if [ ! -x "$CLAIMRAG" ]; then
  echo "$(basename "$0"): $CLAIMRAG is not an executable claimrag: set CLAIMRAG in scripts/cluster/settings.sh" >&2
  exit 2
fi
export CLAIMRAG

# require_arguments MIN USAGE ARGUMENTS...: exits 2, printing USAGE, with fewer than MIN arguments.
require_arguments() {
  local least=$1 usage=$2
  shift 2
  if [ $# -lt "$least" ]; then
    echo "usage: $usage" >&2
    exit 2
  fi
}

# require_count SCRIPT N: exits 2 unless N is a whole number of at least 1.
require_count() {
  if ! [[ $2 =~ ^[1-9][0-9]*$ ]]; then
    echo "$1: N must be a number of shards (1 or more), got '$2'" >&2
    exit 2
  fi
}

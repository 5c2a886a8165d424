# The one file to edit for your cluster, read by submit.sh. Each setting may also be given in the
# environment when submitting (CLAIMRAG_PARTITION=gpu bash scripts/cluster/submit.sh ...).

# The claimrag binary, on a file system every node sees.
: "${CLAIMRAG:=$HOME/claimrag/build/claimrag}"
# sbatch --partition; empty: the cluster's default partition.
: "${CLAIMRAG_PARTITION:=}"
# Cores per task (sbatch --cpus-per-task; claimrag computes on as many threads).
: "${CLAIMRAG_CPUS:=4}"
# Memory per task (sbatch --mem) and time limit per task (sbatch --time).
: "${CLAIMRAG_MEMORY:=8G}"
: "${CLAIMRAG_TIME:=02:00:00}"
# Anything else sbatch should get for every job, e.g. "--account=lab --qos=short".
: "${CLAIMRAG_SBATCH_EXTRA:=}"

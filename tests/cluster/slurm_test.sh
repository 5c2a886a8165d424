#!/usr/bin/env bash
# The cluster test: claimrag's shards on a real Slurm, on this one machine (one_node_slurm.sh).
#   1. a 4-task array of `verify --pairs` on 520 SciFact (claim, abstract) pairs with the built-in
#      verifier, and one with a tiny checkpoint, each with its merge job (--dependency=afterok),
#      submitted by scripts/cluster/submit.sh; both merged outputs (and the checkpoint's record)
#      are compared byte for byte with single-process runs;
#   2. one task of the built-in array is requeued while it runs (scontrol requeue): its shard is
#      written again with the same bytes, and the merge job still runs after it;
#   3. merge refuses a missing shard by its file name (exit 3, nothing written);
#   4. a 4-shard BM25 index of the SciFact corpus (a statistics job, then an array of 4 index
#      tasks) and `retrieve` of the test claims over it, submitted by
#      scripts/cluster/submit_bm25_index.sh and submit_bm25_retrieve.sh: the run is compared byte
#      for byte with one index's.
# Usage: tests/cluster/slurm_test.sh path/to/claimrag. Needs root (the daemons run as root, as in
# CI), slurm-wlm and munge (scripts/setup.sh) and data/scifact (scripts/get-data.sh). Every wait
# is bounded; the daemons are stopped by their PIDs on any exit.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
binary=$(realpath "${1:?usage: slurm_test.sh path/to/claimrag}")
cd "$root"
if [ "$(id -u)" -ne 0 ]; then
  echo "cluster test: skipped: the one-node Slurm runs its daemons as root (run as root, as CI does)"
  exit 0
fi
for program in munged slurmctld slurmd sbatch scontrol sinfo; do
  command -v "$program" > /dev/null || { echo "cluster test: $program is missing: scripts/setup.sh installs slurm-wlm and munge" >&2; exit 1; }
done
[ -f data/scifact/original/claims_train.jsonl ] || { echo "cluster test: data/scifact is missing: run scripts/get-data.sh" >&2; exit 1; }
checkpoint=tests/fixtures/pretrained/models/bert-classifier
[ -f "$checkpoint/model.safetensors" ] || { echo "cluster test: $checkpoint has no weights: build the tests first" >&2; exit 1; }

work=$(mktemp -d /tmp/claimrag-cluster-test.XXXXXX)
slurm_dir=$work/slurm
# shellcheck source=one_node_slurm.sh
source "$root/tests/cluster/one_node_slurm.sh"
finish() {
  local status=$?
  trap - EXIT INT TERM
  if [ "$status" -ne 0 ]; then
    echo "cluster test: FAILED; the last lines of the logs:" >&2
    tail -n 5 "$slurm_dir"/*.log "$work"/cluster/*.shards/*.log >&2 2> /dev/null || true
  fi
  stop_slurm
  rm -rf "$work"
  exit "$status"
}
trap finish EXIT
trap 'exit 130' INT TERM

# The state of job $1 (one job or one array task).
job_state() { scontrol show job -o "$1" 2> /dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p' | head -1; }
export -f job_state  # for the conditions wait_until runs in a shell of their own
# Waits (at most $2 seconds) for job $1 to complete; fails at once when it ends otherwise.
wait_for_job() {
  local job=$1 seconds=$2 tries state
  for ((tries = 0; tries < seconds * 2; tries++)); do
    state=$(job_state "$job")
    case "$state" in
      COMPLETED) return 0 ;;
      FAILED | CANCELLED | TIMEOUT | NODE_FAIL | OUT_OF_MEMORY | BOOT_FAIL | DEADLINE)
        echo "cluster test: job $job ended $state" >&2
        return 1 ;;
    esac
    sleep 0.5
  done
  echo "cluster test: job $job is still $state after ${seconds} s" >&2
  return 1
}
same_bytes() { cmp "$1" "$2" || { echo "cluster test: $1 and $2 differ" >&2; exit 1; }; }

started=$SECONDS
start_slurm
echo "cluster test: one-node Slurm up in $((SECONDS - started)) s ($(nproc) CPUs, node $slurm_node)"

# 520 (claim, abstract) pairs: SciFact's train claims with each abstract they cite, in file order.
python3 - "$work/pairs.jsonl" << 'PYTHON'
import json, sys
corpus = {}
with open("data/scifact/original/corpus.jsonl") as lines:
    for line in lines:
        document = json.loads(line)
        corpus[document["doc_id"]] = document
pairs = []
with open("data/scifact/original/claims_train.jsonl") as lines:
    for line in lines:
        claim = json.loads(line)
        for doc in claim["cited_doc_ids"]:
            if doc in corpus:
                pairs.append({"id": f"{claim['id']}-{doc}", "claim": claim["claim"], "evidence": " ".join(corpus[doc]["abstract"])})
with open(sys.argv[1], "w") as out:
    for pair in pairs[:520]:
        out.write(json.dumps(pair) + "\n")
PYTHON

# The built-in verifier's cache of this test; the single run below trains and caches it, so that
# the tasks read it rather than each training it.
export XDG_CACHE_HOME=$work/cache
single=$work/single
"$binary" --quiet verify --pairs "$work/pairs.jsonl" --out "$single/builtin.jsonl" --threads 2
"$binary" --quiet verify --pairs "$work/pairs.jsonl" --verifier "checkpoint:$checkpoint" --out "$single/checkpoint.jsonl" --threads 1

# Task 2 of the built-in array lingers (while $work/linger exists, two minutes at most) once it has
# written its shard, so that it can be requeued while it runs.
cat > "$work/claimrag" << WRAPPER
#!/usr/bin/env bash
"$binary" "\$@" || exit \$?
case "\$*" in
  *builtin.jsonl.shards/shard-2.jsonl*) for ((i = 0; i < 240; i++)); do [ -e "$work/linger" ] || break; sleep 0.5; done ;;
esac
WRAPPER
chmod +x "$work/claimrag"
touch "$work/linger"
export CLAIMRAG=$work/claimrag CLAIMRAG_PARTITION=test CLAIMRAG_CPUS=1 CLAIMRAG_MEMORY=256M CLAIMRAG_TIME=00:10:00
cluster=$work/cluster
mkdir -p "$cluster"
submitted=$SECONDS
read -r builtin_array builtin_merge < <(bash scripts/cluster/submit.sh 4 "$cluster/builtin.jsonl" verify --pairs "$work/pairs.jsonl")
read -r checkpoint_array checkpoint_merge < <(bash scripts/cluster/submit.sh 4 "$cluster/checkpoint.jsonl" \
  verify --pairs "$work/pairs.jsonl" --verifier "checkpoint:$checkpoint")

# Requeue task 2 while it runs, once its first attempt has written its shard.
wait_until 90 bash -c "[ \"\$(job_state ${builtin_array}_2)\" = RUNNING ] && [ -f '$cluster/builtin.jsonl.shards/shard-2.jsonl.shard.json' ]"
first_attempt=$(cat "$cluster/builtin.jsonl.shards/shard-2.jsonl" "$cluster/builtin.jsonl.shards/shard-2.jsonl.shard.json" | md5sum)
scontrol requeue "${builtin_array}_2"
rm "$work/linger"
# A requeued job waits two minutes before it is eligible again; the test lets it start at once.
wait_until 30 bash -c "[ \"\$(job_state ${builtin_array}_2)\" = PENDING ]"
# (Should it have started meanwhile, the update fails and changes nothing.)
scontrol update JobId="${builtin_array}_2" StartTime=now || true

wait_for_job "$checkpoint_merge" 180
wait_for_job "$builtin_merge" 180
restarts=$(scontrol show job -o "${builtin_array}_2" | sed -n 's/.*Restarts=\([0-9]*\).*/\1/p')
[ "$restarts" = 1 ] || { echo "cluster test: task 2 ran with $restarts restarts, not 1" >&2; exit 1; }
echo "cluster test: both arrays and merges done in $((SECONDS - submitted)) s (one task requeued)"
second_attempt=$(cat "$cluster/builtin.jsonl.shards/shard-2.jsonl" "$cluster/builtin.jsonl.shards/shard-2.jsonl.shard.json" | md5sum)
[ "$first_attempt" = "$second_attempt" ] || { echo "cluster test: the requeued task wrote other bytes" >&2; exit 1; }

same_bytes "$cluster/builtin.jsonl" "$single/builtin.jsonl"
same_bytes "$cluster/checkpoint.jsonl" "$single/checkpoint.jsonl"
same_bytes "$cluster/checkpoint.meta.json" "$single/checkpoint.meta.json"
[ ! -e "$cluster/builtin.meta.json" ] || { echo "cluster test: the built-in verifier's merge wrote a record the single run does not" >&2; exit 1; }

# A missing shard is refused by its name, and nothing is written.
shards=$cluster/builtin.jsonl.shards
mv "$shards/shard-1.jsonl" "$work/shard-1.jsonl"
status=0
"$binary" merge --out "$work/incomplete.jsonl" "$shards"/shard-{0,1,2,3}.jsonl 2> "$work/merge.err" || status=$?
grep -q "$shards/shard-1.jsonl: is missing" "$work/merge.err" || { echo "cluster test: merge did not name the missing shard:" >&2; cat "$work/merge.err" >&2; exit 1; }
[ "$status" = 3 ] && [ ! -e "$work/incomplete.jsonl" ] || { echo "cluster test: merge of a missing shard exited $status or wrote its output" >&2; exit 1; }

# A 4-shard BM25 index of SciFact's corpus, built as an array after its statistics job, and the
# test claims retrieved over the shards once the array is done: the bytes of one index's run.
"$binary" --quiet index --data data/scifact/beir --method bm25 --out "$single/bm25"
"$binary" --quiet retrieve --data data/scifact/beir --index "$single/bm25" --method bm25 --split test --out "$single/bm25.trec"
submitted=$SECONDS
read -r statistics_job index_array < <(bash scripts/cluster/submit_bm25_index.sh 4 data/scifact/beir "$cluster/bm25")
retrieve_job=$(bash scripts/cluster/submit_bm25_retrieve.sh --after "$index_array" 4 "$cluster/bm25" "$cluster/bm25.trec" \
  --data data/scifact/beir --split test)
wait_for_job "$statistics_job" 120
for k in 0 1 2 3; do wait_for_job "${index_array}_$k" 120; done
wait_for_job "$retrieve_job" 120
echo "cluster test: sharded BM25 index and retrieval done in $((SECONDS - submitted)) s"
same_bytes "$cluster/bm25.trec" "$single/bm25.trec"

echo "cluster test: OK in $((SECONDS - started)) s"

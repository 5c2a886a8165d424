#!/usr/bin/env bash
# How much of `verify --run`, `ground` and `sufficiency` with a checkpoint verifier is the model's
# time: CLAIMS SciFact test (dev) claims against their BM25 top-3 abstracts, a DeBERTa-v3-base-shaped
# NLI classifier with random weights (scripts/bench/random_deberta_v3.py), at 1 and 2 threads, the
# whole process timed by GNU time. Each command runs with --verbose, whose last line sums the wall
# time spent loading the checkpoint, tokenizing its inputs and running it
# (pretrained/model_clock.hpp); the rest of the process is the system's own cost (reading the
# corpus and the run, splitting sentences, the rules, writing).
#   scripts/bench/system_overhead.sh [CLAIMS] [BINARY]
# CLAIMS: default 100; BINARY: default build/claimrag. `sufficiency` needs the reproduction's
# aggregator (runs/scifact/models/sufficiency_aggregator_free_text.json, after scripts/reproduce.sh;
# AGGREGATOR=FILE names another) and is skipped without it. Needs the data (scripts/get-data.sh),
# /usr/bin/time and numpy (Debian's python3-numpy). About 25 minutes for 100 claims on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/../.."
claims=${1:-100}
claimrag=$(realpath "${2:-build/claimrag}")
aggregator=${AGGREGATOR:-runs/scifact/models/sufficiency_aggregator_free_text.json}
data=data/scifact/beir
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

bash scripts/bench/first_claims_run.sh "$claims" "$claimrag" "$work"
# The same claims as answers for `ground`, each with its top-3 abstracts as the context.
/usr/bin/python3 - "$work/run.trec" "$data/queries.jsonl" "$work/answers.jsonl" <<'PY'
import json, sys
run, queries, out = sys.argv[1:4]
texts = {}
for line in open(queries, encoding="utf-8"):
    query = json.loads(line)
    texts[query["_id"]] = query["text"]
context = {}
for line in open(run, encoding="utf-8"):
    query, _, doc = line.split()[:3]
    context.setdefault(query, []).append(doc)
with open(out, "w", encoding="utf-8") as target:
    for query, docs in context.items():
        target.write(json.dumps({"id": query, "answer": texts[query], "context": docs}) + "\n")
PY
counted=$(cut -d' ' -f1 "$work/run.trec" | sort -u | wc -l)
/usr/bin/python3 scripts/bench/random_deberta_v3.py base "$work/model" > /dev/null
verifier="checkpoint:$work/model"

commands=(verify ground)
[ -f "$aggregator" ] && commands+=(sufficiency) || echo "sufficiency skipped: no aggregator at $aggregator (scripts/reproduce.sh)" >&2
run_command() {
  local command=$1 threads=$2
  case "$command" in
    verify) "$claimrag" --verbose verify --data "$data" --split test --run "$work/run.trec" --k 3 --verifier "$verifier" \
              --threads "$threads" --out "$work/out.jsonl" ;;
    ground) "$claimrag" --verbose ground --data "$data" --answers "$work/answers.jsonl" --verifier "$verifier" \
              --threads "$threads" --out "$work/out.jsonl" ;;
    sufficiency) "$claimrag" --verbose sufficiency --data "$data" --split test --run "$work/run.trec" --k 3 --verifier "$verifier" \
                   --aggregator "$aggregator" --threads "$threads" --out "$work/out.jsonl" ;;
  esac
}

printf '| command | threads | claims | seconds | seconds per claim | loading s | tokenizing s | running s | model share | running share | peak RSS MB | load average |\n'
printf '|---|---|---|---|---|---|---|---|---|---|---|---|\n'
for command in "${commands[@]}"; do
  for threads in 1 2; do
    /usr/bin/time -f '%e %M' -o "$work/time" bash -c "$(declare -f run_command); $(declare -p work data verifier aggregator claimrag); run_command $command $threads" \
      2> "$work/log"
    read -r seconds kilobytes < "$work/time"
    line=$(grep -o 'time with pretrained models: .*' "$work/log" | tail -1)
    [ -n "$line" ] || { echo "no model time line from $command:" >&2; tail -5 "$work/log" >&2; exit 1; }
    read -r loading tokenizing running total <<< "$(echo "$line" | grep -o '[0-9.]* s' | tr -d ' s' | tr '\n' ' ')"
    load=$(cut -d' ' -f1 /proc/loadavg)
    awk -v c="$command" -v t="$threads" -v n="$counted" -v e="$seconds" -v l="$loading" -v k="$tokenizing" -v r="$running" \
      -v w="$total" -v m="$kilobytes" -v a="$load" \
      'BEGIN { printf "| %s | %d | %d | %.1f | %.3f | %.2f | %.2f | %.2f | %.1f %% | %.1f %% | %.0f | %s |\n",
               c, t, n, e, e / n, l, k, r, 100 * (l + k + r) / w, 100 * r / w, m / 1024, a }'
  done
done

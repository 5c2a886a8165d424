#!/usr/bin/env bash
# What `ground --checker minicheck` costs per answer with the MiniCheck checkers' shapes (random
# weights at their real sizes: scripts/bench/random_minicheck.py): ANSWERS answers built from
# SciFact's dev claims (two claims an answer, the abstracts the first one cites as its context),
# at 1 and 2 threads, the whole process (loading included) timed by GNU time with its peak memory.
#   scripts/bench/checker_cost.sh [ANSWERS] [BINARY]
# ANSWERS: default 10; BINARY: default build/claimrag. SHAPES overrides the shapes
# ("roberta-large deberta-v3-large flan-t5-large"). Needs the data (scripts/get-data.sh), /usr/bin/time,
# numpy and sentencepiece (Debian's python3-numpy, python3-sentencepiece).
set -euo pipefail
cd "$(dirname "$0")/../.."
answers=${1:-10}
claimrag=$(realpath "${2:-build/claimrag}")
shapes=${SHAPES:-"roberta-large deberta-v3-large flan-t5-large"}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

/usr/bin/python3 - "$answers" "$work/answers.jsonl" <<'PY'
import json, sys
count, out = int(sys.argv[1]), sys.argv[2]
claims = [json.loads(line) for line in open("data/scifact/original/claims_dev.jsonl", encoding="utf-8")]
cited = [c for c in claims if c.get("cited_doc_ids")]
with open(out, "w", encoding="utf-8") as target:
    for i in range(count):
        first, second = cited[2 * i], cited[2 * i + 1]
        target.write(json.dumps({"id": "a%d" % i, "answer": first["claim"] + " " + second["claim"],
                                 "context": [str(d) for d in first["cited_doc_ids"]]}) + "\n")
PY
contexts=$(/usr/bin/python3 -c "import json,sys; print(sum(len(json.loads(l)['context']) for l in open(sys.argv[1])))" "$work/answers.jsonl")

printf '| shape | threads | answers | context abstracts | seconds | seconds per answer | peak RSS MB | load average |\n|---|---|---|---|---|---|---|---|\n'
for shape in $shapes; do
  /usr/bin/python3 scripts/bench/random_minicheck.py "$shape" "$work/$shape" > /dev/null
  for threads in 1 2; do
    /usr/bin/time -f '%e %M' -o "$work/time" "$claimrag" --quiet ground --data data/scifact/beir --answers "$work/answers.jsonl" \
      --verifier "checkpoint:$work/$shape" --checker minicheck --threads "$threads" --out "$work/grounded.jsonl"
    read -r seconds kilobytes < "$work/time"
    load=$(cut -d' ' -f1 /proc/loadavg)
    printf '| %s | %s | %s | %s | %s | %.2f | %d | %s |\n' "$shape" "$threads" "$answers" "$contexts" "$seconds" \
      "$(echo "$seconds / $answers" | bc -l)" "$((kilobytes / 1024))" "$load"
  done
  rm -rf "${work:?}/$shape"
done

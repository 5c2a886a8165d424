#!/usr/bin/env bash
# The seeds' served-model rows, recorded and replayed: SURE-RAG's LLM-judge baseline (`sufficiency
# --judge`) on the SciFact sufficiency benchmark's test split and claim-level grounding's answer
# generation (`ground --generate`, with the answer prompt and the refusal prompt) on questions
# made from SciFact claims, each against the stand-in chat server (tests/support/
# stand_in_chat_server.cpp: fixed lexical rules, not a model) with --record; then the server is
# stopped and every run is replayed offline from its recording, which must give the same bytes.
# Prints the numbers of docs/sufficiency.md's and docs/grounding.md's stand-in tables.
#
# Questions: 40 SciFact dev claims drawn with Python's random.Random(20261126) (in file order), each
# asked as "Is it true that <claim without its final period>?", its context the claim's cited
# abstracts (SciFact's cited_doc_ids) read from the BEIR corpus with the release's sentences.
#
# Usage: tests/regression/served_seeds.sh PATH/TO/claimrag PATH/TO/stand_in_chat_server [PORT]
#        (from the repository root; the port is fixed, 18731 by default)
set -euo pipefail
claimrag=${1:?usage: $0 PATH/TO/claimrag PATH/TO/stand_in_chat_server [PORT]}
stand_in=${2:?usage: $0 PATH/TO/claimrag PATH/TO/stand_in_chat_server [PORT]}
port=${3:-18731}
if [ ! -f data/scifact/original/claims_dev.jsonl ]; then
  echo "SciFact is missing from data/scifact: run scripts/get-data.sh first" >&2
  exit 3
fi
work=$(mktemp -d)
server=
cleanup() {
  if [ -n "$server" ]; then kill "$server" 2> /dev/null || true; wait "$server" 2> /dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

# Inputs: the benchmark's test split, and the questions.
"$claimrag" --quiet sufficiency-bench --original data/scifact/original --config configs/scifact.json --out "$work/benchmark.jsonl"
python3 - "$work" <<'PY'
import json, random, sys
work = sys.argv[1]
with open(f"{work}/benchmark.jsonl") as src, open(f"{work}/test.jsonl", "w") as dst:
    for line in src:
        if json.loads(line)["split"] == "test":
            dst.write(line)
claims = [json.loads(line) for line in open("data/scifact/original/claims_dev.jsonl")]
chosen = sorted(random.Random(20261126).sample(range(len(claims)), 40))
with open(f"{work}/questions.jsonl", "w") as dst:
    for i in chosen:
        claim = claims[i]
        text = claim["claim"].strip().rstrip(".")
        dst.write(json.dumps({"id": str(claim["id"]), "question": f"Is it true that {text}?",
                              "context": [str(d) for d in claim["cited_doc_ids"]]}) + "\n")
PY

"$stand_in" "$port" 120 2> "$work/server.log" &
server=$!
for _ in $(seq 100); do
  if (exec 3<> "/dev/tcp/127.0.0.1/$port") 2> /dev/null; then break; fi
  sleep 0.1
done
url="http://127.0.0.1:$port/v1"
served=(--llm-model stand-in --retries 0 --timeout 10)
judge() { "$claimrag" --quiet sufficiency --examples "$work/test.jsonl" --config configs/scifact.json --judge "llm:$url" "${served[@]}" "$@"; }
generate() {
  "$claimrag" --quiet ground --questions "$work/questions.jsonl" --config configs/scifact.json --data data/scifact/beir --original data/scifact/original \
    --generate "llm:$url" "${served[@]}" "$@"
}
judge --out "$work/judge.jsonl" --evaluation "$work/judge.evaluation.json" --record "$work/judge.recording.jsonl"
generate --out "$work/answer.jsonl" --record "$work/answer.recording.jsonl"
generate --generate-prompt refusal --out "$work/refusal.jsonl" --record "$work/refusal.recording.jsonl"
kill "$server"
wait "$server" 2> /dev/null || true
server=

# Offline: the same commands from the recordings, byte for byte.
judge --out "$work/judge.replay.jsonl" --evaluation "$work/judge.replay.evaluation.json" --replay "$work/judge.recording.jsonl"
generate --out "$work/answer.replay.jsonl" --replay "$work/answer.recording.jsonl"
generate --generate-prompt refusal --out "$work/refusal.replay.jsonl" --replay "$work/refusal.recording.jsonl"
for name in judge.jsonl judge.evaluation.json answer.jsonl refusal.jsonl; do
  cmp "$work/$name" "$work/${name%%.*}.replay.${name#*.}"
done
echo "OK   the judge's and both answer prompts' runs replay offline from their recordings to the same bytes"

python3 - "$work" <<'PY'
import json, sys
work = sys.argv[1]
report = json.load(open(f"{work}/judge.evaluation.json"))
paper = json.load(open("configs/paper/sure_rag_judge.json"))
n = report["numbers"]
print(f"judge (stand-in) on {report['evaluated']} test examples, {report['failures']} failures: "
      f"macro-F1 {n['macro_f1']:.4f}, F1 S/R/I {n['f1_supported']:.4f}/{n['f1_refuted']:.4f}/{n['f1_insufficient']:.4f}, "
      f"safe-F1 {n['safe_f1']:.4f}, unsafe-F1 {n['unsafe_f1']:.4f}")
print(f"published GPT-4o judge, HotpotQA-RAG v3: macro-F1 {paper['numbers']['gpt4o_judge:macro_f1']:.4f}")
for name in ("answer", "refusal"):
    lines = [json.loads(line) for line in open(f"{work}/{name}.jsonl")]
    done = [l for l in lines if l.get("generated_answer") is not None]
    claims = sum(len(l["claims"]) for l in done)
    kept = sum(sum(c["kept"] for c in l["claims"]) for l in done)
    conflicting = sum(sum(c["label"] == "conflicting" for c in l["claims"]) for l in done)
    said_idk = sum(l["generated_answer"].startswith("I don't know") for l in done)
    refused = sum(l["refused"] for l in done)
    # The stand-in's sentence from outside the context is what grounding must drop.
    outside = "The effect was first described in a survey of Antarctic penguin colonies in 1911."
    outside_kept = sum(c["kept"] and c["text"] == outside for l in done for c in l["claims"])
    before = sum(l["partial_hallucination"]["before"] for l in done)
    after = sum(l["partial_hallucination"]["after"] for l in done)
    print(f"ground --generate --generate-prompt {name} (stand-in): {len(lines)} questions, {len(lines) - len(done)} failed, "
          f"{said_idk} answered I don't know; {claims} claims, {kept} kept ({kept / max(claims, 1):.4f}), {conflicting} conflicting; "
          f"{refused} grounded answers refused; partial hallucinations {before} before, {after} after; "
          f"the sentence from outside the context kept {outside_kept} times")
    if outside_kept:
        sys.exit(f"FAIL grounding kept the stand-in's sentence from outside the context ({name} prompt)")
PY

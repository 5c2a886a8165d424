#!/usr/bin/env python3
"""Strongest-sentence aggregation, estimated through `claimrag verify --pairs` without changing the
verifier: every evidence sentence judged alone, and the pair taking the probabilities of its most
confident sentence (the largest max(P(SUPPORT), P(CONTRADICT)); ties to the earlier sentence), so
that a repeated or an added weaker sentence changes nothing. The verifier itself now judges this way
with verification.free_text_aggregation "strongest_sentence" (its own segmenter, and in the
cross-validation too); this script is the earlier estimate, kept to reproduce its log entry.

  strongest_sentence.py split PAIRS OUT MAP
      OUT: one pair per distinct sentence of each evidence (id "PAIR~K"), cut after . ! or ?
      followed by a space and a capital, digit or bracket (a simpler rule than the verifier's own
      segmenter, so a few sentences are cut otherwise); MAP: the pairs' sentence ids (JSON).
  strongest_sentence.py aggregate VERDICTS MAP OUT
      OUT: one line per pair of MAP, the verdict line of its most confident sentence under the
      pair's id; read by healthver.py cv / cv-ratio / cv-cue and support_invariance.py score (whose
      labels then need the rule applied again: the line keeps the sentence's own label).
"""
import json
import re
import sys


def split(pairs, out, map_path):
    sentences_of = {}
    with open(out, "w", encoding="utf-8") as f:
        for line in open(pairs, encoding="utf-8"):
            pair = json.loads(line)
            cut = [s for s in re.split(r"(?<=[.!?])\s+(?=[A-Z0-9(\[])", pair["evidence"].strip()) if s.strip()]
            distinct = list(dict.fromkeys(cut or [pair["evidence"]]))
            sentences_of[pair["id"]] = [f"{pair['id']}~{k}" for k in range(len(distinct))]
            for sentence_id, sentence in zip(sentences_of[pair["id"]], distinct):
                f.write(json.dumps({"id": sentence_id, "claim": pair["claim"], "evidence": sentence}) + "\n")
    with open(map_path, "w", encoding="utf-8") as f:
        json.dump(sentences_of, f)


def aggregate(verdicts, map_path, out):
    by_id = {}
    for line in open(verdicts, encoding="utf-8"):
        verdict = json.loads(line)
        by_id[verdict["id"]] = verdict

    def confidence(sentence_id):
        p = by_id[sentence_id]["probabilities"]
        return max(p["SUPPORT"], p["CONTRADICT"])

    with open(out, "w", encoding="utf-8") as f:
        for pair_id, sentence_ids in json.load(open(map_path, encoding="utf-8")).items():
            best = max(sentence_ids, key=confidence)  # max keeps the first of equals: the earlier sentence
            f.write(json.dumps({**by_id[best], "id": pair_id}) + "\n")


if __name__ == "__main__":
    commands = {"split": (split, 3), "aggregate": (aggregate, 3)}
    if len(sys.argv) < 2 or sys.argv[1] not in commands or len(sys.argv) - 2 != commands[sys.argv[1]][1]:
        sys.exit(__doc__)
    commands[sys.argv[1]][0](*sys.argv[2:])

#!/usr/bin/env python3
"""More supporting evidence must not turn SUPPORT into CONTRADICT: the property the unit test
tests/unit/test_verifier_invariance.cpp checks on the default free-text model, measured here
through `claimrag verify --pairs` for any configuration.

  support_invariance.py pairs ORIGINAL OUT
      OUT: for SciFact train's first 200 (claim, abstract) pairs labelled SUPPORT (claims in file
      order, abstracts in cited order; ORIGINAL is the release layout, data/scifact/original),
      four pairs each: the first gold rationale sentence alone, repeated 20 times, the gold
      rationale cycled to 15 sentences, and followed by 12 sentences of the corpus's first
      abstracts. Each evidence is the sentences joined by a space (verify --pairs splits it again,
      so its counts differ a little from the unit test's).
  support_invariance.py score VERDICTS
      Over the first 60 pairs whose single sentence is SUPPORT: per variant, how many turn to
      CONTRADICT, how many to NOT_ENOUGH_INFO, how many lose more than 0.25 of P(SUPPORT), and
      the largest loss.
"""
import json
import os
import sys

VARIANTS = ["repeated", "cycled", "appended"]


def pairs(original, out):
    corpus = [json.loads(line) for line in open(os.path.join(original, "corpus.jsonl"), encoding="utf-8")]
    abstracts = {d["doc_id"]: d["abstract"] for d in corpus}
    unrelated = []
    for document in corpus:
        if len(unrelated) >= 12:
            break
        unrelated += document["abstract"]
    written = 0
    with open(out, "w", encoding="utf-8") as f:
        for line in open(os.path.join(original, "claims_train.jsonl"), encoding="utf-8"):
            claim = json.loads(line)
            for doc_id in claim["cited_doc_ids"]:
                evidence = claim["evidence"].get(str(doc_id))
                if written == 200 or not evidence or evidence[0]["label"] != "SUPPORT":
                    continue
                rationale = [abstracts[doc_id][s] for e in evidence for s in e["sentences"]]
                first = rationale[0]
                texts = {"single": [first], "repeated": [first] * 20,
                         "cycled": [rationale[i % len(rationale)] for i in range(15)], "appended": [first] + unrelated}
                for kind, sentences in texts.items():
                    f.write(json.dumps({"id": f"{written}-{kind}", "claim": claim["claim"], "evidence": " ".join(sentences)}) + "\n")
                written += 1


def score(verdicts):
    by_pair = {}
    for line in open(verdicts, encoding="utf-8"):
        r = json.loads(line)
        n, kind = r["id"].split("-")
        by_pair.setdefault(int(n), {})[kind] = (r["label"], r["probabilities"]["SUPPORT"])
    checked = 0
    flips, to_nei, drops, largest = ({k: 0 for k in VARIANTS} for _ in range(4))
    for n in sorted(by_pair):
        single_label, single_support = by_pair[n]["single"]
        if checked == 60:
            break
        if single_label != "SUPPORT":
            continue
        checked += 1
        for kind in VARIANTS:
            label, support = by_pair[n][kind]
            flips[kind] += label == "CONTRADICT"
            to_nei[kind] += label == "NOT_ENOUGH_INFO"
            drops[kind] += single_support - support > 0.25
            largest[kind] = max(largest[kind], single_support - support)
    print(f"{checked} pairs SUPPORT alone; " + "; ".join(
        f"{k}: {flips[k]} to CONTRADICT, {to_nei[k]} to NOT_ENOUGH_INFO, {drops[k]} past 0.25, largest fall {largest[k]:.3f}"
        for k in VARIANTS))


if __name__ == "__main__":
    commands = {"pairs": (pairs, 2), "score": (score, 1)}
    if len(sys.argv) < 2 or sys.argv[1] not in commands or len(sys.argv) - 2 != commands[sys.argv[1]][1]:
        sys.exit(__doc__)
    commands[sys.argv[1]][0](*sys.argv[2:])

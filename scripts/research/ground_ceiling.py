#!/usr/bin/env python3
"""How far can any `ground` setting go with a given verifier? The ceiling of its probabilities.

`ground` keeps a claim from the verifier's probabilities for the claim against its passages, so
no threshold can separate claims that the probabilities do not. This script asks the question
of the (claim, passage) pairs themselves, with every rule of a family wider than `ground`'s
chosen on the very pairs it is scored on (in-sample, so the ceiling is optimistic):

    keep a pair when P(SUPPORT) >= τ_s, P(NOT_ENOUGH_INFO) < θ and P(CONTRADICT) <= γ·P(SUPPORT)

(τ_s 0..0.95 by 0.05; θ 0.05..1 by 0.05, 1 meaning no gate; γ 0.1..2 by 0.1, or no γ). `ground`'s
own rule is the case γ = 1 with θ the verifier's own; the target is the grounding deliverable's:
at least 60 % of SUPPORT pairs kept, at most 10 % of unrelated ones, and the kept claims'
CONTRADICT share at most two thirds of the unfiltered answer's.

  ground_ceiling.py scifact-pairs CLAIMS_TRAIN CORPUS OUT_PAIRS OUT_GOLD
      SciFact's train claims, each against every abstract it cites (gold: SUPPORT or CONTRADICT
      where the abstract holds its evidence, else NEI) and against one abstract it does not cite
      (id "u-" + claim id), drawn with random.Random(42); CORPUS is BEIR's corpus.jsonl.
  ground_ceiling.py ceiling VERDICTS GOLD UNRELATED_PER_CLAIM
      VERDICTS: `claimrag verify --pairs` output; GOLD: {"id", "label"} lines (HealthVer's
      dev.pairs.jsonl does; ids "u-..." are unrelated pairs). The CONTRADICT shares, kept and
      unfiltered, count the unrelated pairs as UNRELATED_PER_CLAIM of the related ones, as a
      grounding benchmark appends one unrelated claim to an answer of about three (0.33).
"""
import bisect
import json
import random
import sys

CLASSES = ["SUPPORT", "CONTRADICT", "NEI", "UNRELATED"]


def read(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def scifact_pairs(claims_train, corpus, out_pairs, out_gold):
    texts = {r["_id"]: (r.get("title", ""), r["text"]) for r in read(corpus)}
    ids = sorted(texts)
    draw = random.Random(42)
    with open(out_pairs, "w", encoding="utf-8") as pairs, open(out_gold, "w", encoding="utf-8") as gold:
        def write(pair_id, claim, doc_id, label):
            pairs.write(json.dumps({"id": pair_id, "claim": claim, "evidence": texts[doc_id][1]}) + "\n")
            gold.write(json.dumps({"id": pair_id, "label": label}) + "\n")

        for c in read(claims_train):
            cited = [str(d) for d in c["cited_doc_ids"]]
            for doc_id in cited:
                evidence = c["evidence"].get(doc_id)
                write(f"{c['id']}-{doc_id}", c["claim"], doc_id, evidence[0]["label"] if evidence else "NEI")
            while True:
                other = draw.choice(ids)
                if other not in cited:
                    break
            write(f"u-{c['id']}", c["claim"], other, "UNRELATED")


def auc(positives, negatives):
    negatives = sorted(negatives)
    total = 0.0
    for p in positives:
        below, upto = bisect.bisect_left(negatives, p), bisect.bisect_right(negatives, p)
        total += below + 0.5 * (upto - below)
    return total / (len(positives) * len(negatives))


def ceiling(verdicts, gold_path, unrelated_per_claim):
    unrelated_per_claim = float(unrelated_per_claim)
    gold = {r["id"]: r["label"] for r in read(gold_path)}
    by_class = {c: [] for c in CLASSES}
    for r in read(verdicts):
        label = "UNRELATED" if r["id"].startswith("u-") else gold[r["id"]]
        p = r["probabilities"]
        by_class[label].append((p["SUPPORT"], p["CONTRADICT"], p["NOT_ENOUGH_INFO"]))
    print("pairs: " + ", ".join(f"{c} {len(v)}" for c, v in by_class.items()))

    scores = {"P(SUPPORT)": lambda s, c, n: s, "P(SUPPORT) - P(CONTRADICT)": lambda s, c, n: s - c,
              "1 - P(NOT_ENOUGH_INFO)": lambda s, c, n: 1 - n, "P(SUPPORT) / (P(SUPPORT) + P(CONTRADICT))": lambda s, c, n: s / (s + c)}
    print("score\tAUC SUPPORT vs CONTRADICT\tvs NEI\tvs UNRELATED\tkept at 60 % of SUPPORT: CONTRADICT / NEI / UNRELATED")
    for name, f in scores.items():
        support = sorted((f(*p) for p in by_class["SUPPORT"]), reverse=True)
        cut = support[int(0.6 * len(support)) - 1]
        aucs = [auc(support, [f(*p) for p in by_class[c]]) for c in CLASSES[1:]]
        kept = [sum(f(*p) >= cut for p in by_class[c]) / len(by_class[c]) for c in CLASSES[1:]]
        print(f"{name}\t" + "\t".join(f"{a:.3f}" for a in aucs) + "\t" + " / ".join(f"{k:.3f}" for k in kept))

    related = sum(len(by_class[c]) for c in CLASSES[:3])
    weight = {c: 1.0 for c in CLASSES}
    weight["UNRELATED"] = unrelated_per_claim * related / len(by_class["UNRELATED"])
    unfiltered = len(by_class["CONTRADICT"]) / (related * (1.0 + unrelated_per_claim))
    target = 2.0 / 3.0 * unfiltered
    best = best_any = None
    grid_s = [0.05 * k for k in range(0, 20)]
    grid_theta = [0.05 * k for k in range(1, 21)]
    grid_gamma = [0.1 * k for k in range(1, 21)] + [float("inf")]
    for theta in grid_theta:
        for gamma in grid_gamma:
            # Each class's pairs passing the θ and γ parts, their P(SUPPORT) sorted for τ_s.
            passing = {c: sorted(s for s, cc, n in v if (n < theta or theta >= 1.0) and cc <= gamma * s) for c, v in by_class.items()}
            for ts in grid_s:
                rate = {c: (len(v) - bisect.bisect_left(v, ts)) / len(by_class[c]) for c, v in passing.items()}
                if rate["SUPPORT"] < 0.6:
                    continue
                kept = {c: rate[c] * len(by_class[c]) * weight[c] for c in CLASSES}
                candidate = (kept["CONTRADICT"] / sum(kept.values()), ts, theta, gamma, rate)
                if best_any is None or candidate[0] < best_any[0]:
                    best_any = candidate
                if rate["UNRELATED"] <= 0.1 and (best is None or candidate[0] < best[0]):
                    best = candidate

    def describe(found):
        share, ts, theta, gamma, rate = found
        return (f"{share:.3f} (target {target:.3f}, two thirds of the unfiltered {unfiltered:.3f}) at τ_s {ts:.2f}, "
                f"θ {theta:.2f}, γ {gamma:.1f}; kept: " + ", ".join(f"{c} {rate[c]:.3f}" for c in CLASSES))

    if best is None:
        print("no rule of the family keeps >= 60 % of SUPPORT with <= 10 % of UNRELATED")
    else:
        print("lowest kept CONTRADICT share with >= 60 % of SUPPORT and <= 10 % of UNRELATED kept: " + describe(best))
    if best_any is not None:
        print("lowest kept CONTRADICT share with >= 60 % of SUPPORT kept, unrelated pairs kept or not: " + describe(best_any))


if __name__ == "__main__":
    commands = {"scifact-pairs": (scifact_pairs, 4), "ceiling": (ceiling, 3)}
    if len(sys.argv) < 2 or sys.argv[1] not in commands or len(sys.argv) - 2 != commands[sys.argv[1]][1]:
        sys.exit(__doc__)
    commands[sys.argv[1]][0](*sys.argv[2:])

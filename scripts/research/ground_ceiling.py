#!/usr/bin/env python3
"""How far can any `ground` setting go with a given verifier? The ceiling of its probabilities.

`ground` keeps a claim from the verifier's probabilities for the claim against its passages, so
no threshold can separate claims that the probabilities do not. This script asks the question
of the (claim, passage) pairs themselves, with every rule of a family wider than `ground`'s
chosen on the very pairs it is scored on (in-sample, so the ceiling is optimistic):

    keep a pair when P(SUPPORT) >= τ_s, the pair passes the NOT_ENOUGH_INFO gate, and
    P(CONTRADICT) < γ·P(SUPPORT)

(τ_s 0..0.99 by 0.01; the gate none, the verifier's own verdict not NOT_ENOUGH_INFO, or
P(NOT_ENOUGH_INFO) < θ for θ 0.01..0.99; γ 0.02..3 by 0.02, or none). `ground`'s own rule is the
verdict gate with γ = 1. The target is the grounding deliverable's: at least 60 % of SUPPORT
pairs kept, at most 10 % of unrelated ones, and the kept claims' CONTRADICT share at most two
thirds of the unfiltered answer's.

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
import math
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


def kept_counts(pairs, passes_gate, grid_gamma, grid_tau):
    """counts[k][j]: the pairs passing the gate with P(CONTRADICT) < grid_gamma[k]·P(SUPPORT) and
    P(SUPPORT) >= grid_tau[j], from one histogram and its prefix sums."""
    counts = [[0] * len(grid_tau) for _ in grid_gamma]
    for s, c, n, label in pairs:
        if s <= 0.0 or not passes_gate(n, label):
            continue  # c < γ·0 never holds
        first_gamma = bisect.bisect_right(grid_gamma, c / s)  # passes γ_k for every k >= first_gamma
        last_tau = bisect.bisect_right(grid_tau, s) - 1       # passes τ_j for every j <= last_tau
        if first_gamma < len(grid_gamma) and last_tau >= 0:
            counts[first_gamma][last_tau] += 1
    for k in range(len(grid_gamma)):
        for j in range(len(grid_tau) - 2, -1, -1):
            counts[k][j] += counts[k][j + 1]
        if k > 0:
            for j in range(len(grid_tau)):
                counts[k][j] += counts[k - 1][j]
    return counts


def ceiling(verdicts, gold_path, unrelated_per_claim):
    unrelated_per_claim = float(unrelated_per_claim)
    gold = {r["id"]: r["label"] for r in read(gold_path)}
    by_class = {c: [] for c in CLASSES}
    for r in read(verdicts):
        label = "UNRELATED" if r["id"].startswith("u-") else gold[r["id"]]
        p = r["probabilities"]
        by_class[label].append((p["SUPPORT"], p["CONTRADICT"], p["NOT_ENOUGH_INFO"], r["label"]))
    print("pairs: " + ", ".join(f"{c} {len(v)}" for c, v in by_class.items()))
    size = {c: len(v) for c, v in by_class.items()}
    must_keep = math.ceil(0.6 * size["SUPPORT"])

    scores = {"P(SUPPORT)": lambda s, c, n: s, "P(SUPPORT) - P(CONTRADICT)": lambda s, c, n: s - c,
              "1 - P(NOT_ENOUGH_INFO)": lambda s, c, n: 1 - n, "P(SUPPORT) / (P(SUPPORT) + P(CONTRADICT))": lambda s, c, n: s / (s + c)}
    print("score\tAUC SUPPORT vs CONTRADICT\tvs NEI\tvs UNRELATED\tkept at 60 % of SUPPORT: CONTRADICT / NEI / UNRELATED")
    for name, f in scores.items():
        support = sorted((f(*p[:3]) for p in by_class["SUPPORT"]), reverse=True)
        cut = support[must_keep - 1]
        aucs = [auc(support, [f(*p[:3]) for p in by_class[c]]) for c in CLASSES[1:]]
        kept = [sum(f(*p[:3]) >= cut for p in by_class[c]) / size[c] for c in CLASSES[1:]]
        print(f"{name}\t" + "\t".join(f"{a:.3f}" for a in aucs) + "\t" + " / ".join(f"{k:.3f}" for k in kept))

    related = sum(size[c] for c in CLASSES[:3])
    weight = {c: 1.0 for c in CLASSES}
    weight["UNRELATED"] = unrelated_per_claim * related / size["UNRELATED"]
    unfiltered = size["CONTRADICT"] / (related * (1.0 + unrelated_per_claim))
    target = 2.0 / 3.0 * unfiltered
    grid_tau = [round(0.01 * k, 2) for k in range(0, 100)]
    grid_gamma = [round(0.02 * k, 2) for k in range(1, 151)] + [math.inf]
    # The NOT_ENOUGH_INFO gate: none, P(NOT_ENOUGH_INFO) < θ, or the verifier's own verdict
    # (`ground`'s gate, whatever θ the verifier applied to the evidence's length).
    gates = [("none", lambda n, label: True), ("verdict", lambda n, label: label != "NOT_ENOUGH_INFO")]
    gates += [(f"P(NEI) < {t:.2f}", lambda n, label, t=t: n < t) for t in (round(0.01 * k, 2) for k in range(1, 100))]
    best = best_any = None
    for gate_name, passes_gate in gates:
        counts = {c: kept_counts(by_class[c], passes_gate, grid_gamma, grid_tau) for c in CLASSES}
        for k, gamma in enumerate(grid_gamma):
            for j, tau in enumerate(grid_tau):
                if counts["SUPPORT"][k][j] < must_keep:
                    continue
                kept = {c: counts[c][k][j] * weight[c] for c in CLASSES}
                rate = {c: counts[c][k][j] / size[c] for c in CLASSES}
                candidate = (kept["CONTRADICT"] / sum(kept.values()), tau, gate_name, gamma, rate)
                if best_any is None or candidate[0] < best_any[0]:
                    best_any = candidate
                if rate["UNRELATED"] <= 0.1 and (best is None or candidate[0] < best[0]):
                    best = candidate

    def describe(found):
        share, tau, gate_name, gamma, rate = found
        return (f"{share:.3f} (target {target:.3f}, two thirds of the unfiltered {unfiltered:.3f}) at τ_s {tau:.2f}, "
                f"gate {gate_name}, γ {gamma:.2f}; kept: " + ", ".join(f"{c} {rate[c]:.3f}" for c in CLASSES))

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

#!/usr/bin/env python3
"""HealthVer's dev split as a second domain for the built-in verifier and for `ground`.

The data (../shared/data/healthver/dev.pairs.jsonl, {"id","claim","evidence","label"}) is never
committed; every file this script writes goes where you say, outside the repository.

  healthver.py pairs DEV OUT
      OUT: the dev pairs for `claimrag verify --pairs`, then each claim against an unrelated
      passage (id "u-" + the pair's id): the evidence of another pair whose claim shares no
      content word with it (content word: 4+ letters, in at most 5 % of the claims, so that
      "covid" and "coronavirus" do not count), drawn with random.Random(SEED).
  healthver.py cv DEV VERDICTS
      θ chosen by 5-fold cross-validation grouped by claim (crc32 of the claim text): on four
      folds, the θ of 0.20..0.96 with the best macro-F1 among those that keep the folds' unrelated
      pairs NOT_ENOUGH_INFO at rate >= 0.90; the fifth fold scored at it; predictions pooled.
  healthver.py cv-ratio DEV VERDICTS [MIN_RATIO]
      The same, with the rule's second parameter γ (verification.free_text_contradict_ratio)
      chosen jointly with θ on the four folds: NOT_ENOUGH_INFO when P(NEI) >= θ, else CONTRADICT
      when P(CONTRADICT) > γ·P(SUPPORT), else SUPPORT; γ on MIN_RATIO..1.50 by 0.05 (MIN_RATIO
      0.10 unless given; γ 1 is `cv`'s rule); ties go to γ nearest 1, then the lowest θ.
  healthver.py cv-cue DEV VERDICTS MODE [MIN_RATIO [CUES]]
      cv-ratio's choice, with γ applied only where the verdict's conflict_cues (written by a
      verifier trained with verification.free_text_contradict_cue) hold one of CUES (comma-
      separated; all four unless given): MODE with_cue decides a pair without one by γ 1,
      cue_required calls it SUPPORT unless NOT_ENOUGH_INFO.
  healthver.py cv-short DEV VERDICTS [MODE [MIN_RATIO [CUES]]]
      cv-ratio's choice (MODE always, the default) or cv-cue's (MODE with_cue or cue_required) of
      the short-evidence rule's (θ, γ) (verification.free_text_short_evidence), from the verdicts
      of a verifier trained with it (any θ and γ: they move no probability): the pairs it judged by
      that rule ("short_evidence") are decided by the (θ, γ) tried, the others keep its labels;
      the unrelated-evidence constraint counts both.
  healthver.py cv-short-nested DEV MODE:VERDICTS [MODE:VERDICTS ...]
      The short-evidence rule chosen inside the cross-validation among candidates (a MODE as
      cv-short's, and the verdicts of a verifier with one max_sentences): on four folds each
      candidate's best (θ, γ), the best candidate; the fifth fold scored by it; pooled.
  healthver.py answers DEV OUT_ANSWERS OUT_GOLD
      The grounding benchmark, built the way the SciFact one is (src/grounding/benchmark.hpp):
      answers of 2-4 claims, each with its pair's evidence as an inline passage of the context,
      claims of one answer sharing no content word (so that one claim's passage says nothing about
      another's), labels interleaved round-robin, claims that would not stay one sentence left
      out; then one unrelated claim appended per answer
      (gold NEI, flagged unrelated). One round, random.Random(SEED).
  healthver.py ground GROUNDED OUT_GOLD
      Scores `claimrag ground --answers OUT_ANSWERS` output over the τ_s × τ_c grid 0.05..0.95
      from the per-claim support and conflict it writes (ground's rule, claim_judgement.cpp):
      supported kept (recall), unrelated kept, kept conflict rate (CONTRADICT share of the kept
      claims) against the unfiltered answer's; then the pair chosen as the reproduction chooses
      (lowest conflict rate among pairs with recall >= 0.6 and unrelated kept <= 0.1).
  healthver.py claim-pairs OUT_ANSWERS OUT_GOLD PAIRS
      Every claim of the benchmark against every passage of its answer's context, as
      `claimrag verify --pairs` input (id "answer|claim|passage"): what `ground` asks the verifier.
  healthver.py claim-scores OUT_GOLD VERDICTS CLAIMS
      From those pairs' verdicts, each claim's s (the highest P(SUPPORT) of its passages) with and
      without `ground`'s verdict gate, c, its gold label and whether it is unrelated, in the
      format of the reproduction's grounding/train_free_text_claims.jsonl, for
      scripts/research/ground_defaults.py. (At `ground`'s defaults of the time these scores gave
      exactly the supported, unrelated and conflict rates of `ground`'s own output.)
"""
import collections
import json
import math
import os
import random
import re
import sys
import zlib

SEED = 42
# The share of unrelated pairs θ must keep NOT_ENOUGH_INFO on the folds it is chosen on (the
# target's 0.90 unless HEALTHVER_UNRELATED_NEI says otherwise, e.g. a margin above it).
UNRELATED_NEI = float(os.environ.get("HEALTHVER_UNRELATED_NEI", "0.90"))
LABELS = ["SUPPORT", "CONTRADICT", "NEI"]


def read(path):
    return [json.loads(line) for line in open(path, encoding="utf-8")]


def content_words_of(rows):
    words = {r["claim"]: set(re.findall(r"[a-z]{4,}", r["claim"].lower())) for r in rows}
    frequency = collections.Counter(w for ws in words.values() for w in ws)
    common = {w for w, n in frequency.items() if n > 0.05 * len(words)}
    return {claim: ws - common for claim, ws in words.items()}


def pairs(dev, out):
    rows = read(dev)
    words = content_words_of(rows)
    draw = random.Random(SEED)
    with open(out, "w", encoding="utf-8") as f:
        for r in rows:
            f.write(json.dumps({"id": r["id"], "claim": r["claim"], "evidence": r["evidence"]}) + "\n")
        for r in rows:
            while True:
                other = rows[draw.randrange(len(rows))]
                if other["claim"] != r["claim"] and not (words[r["claim"]] & words[other["claim"]]):
                    break
            f.write(json.dumps({"id": "u-" + r["id"], "claim": r["claim"], "evidence": other["evidence"]}) + "\n")


def probabilities(path, short_only=False):
    """The verdicts' probabilities (and conflict cues) of the related and the unrelated pairs, and
    the labels the verifier gave the pairs left out of them: with `short_only` the pairs not
    judged by the short-evidence rule (which that rule does not move), else none."""
    related, unrelated, fixed = {}, {}, {}
    for r in read(path):
        key = r["id"][2:] if r["id"].startswith("u-") else r["id"]
        if short_only and not r.get("short_evidence", False):
            fixed[r["id"]] = "NEI" if r["label"] == "NOT_ENOUGH_INFO" else r["label"]
            continue
        p = r["probabilities"]
        # The rationale's conflict cues, when the verifier was asked for them (free_text_contradict_cue).
        triple = (p["SUPPORT"], p["CONTRADICT"], p["NOT_ENOUGH_INFO"], frozenset(r.get("conflict_cues", ())))
        (unrelated if r["id"].startswith("u-") else related)[key] = triple
    return related, unrelated, fixed


def decide(p, theta, ratio=1.0, cue="always", cues=None):
    """The verifier's rule (feature_verifier.cpp's decide): with `cue` "with_cue" γ applies only
    when the pair has one of `cues` (all four when None), else γ 1; with "cue_required" a pair
    without one is never CONTRADICT."""
    s, c, n, found = p
    if n >= theta:
        return "NEI"
    if cue != "always" and not (found if cues is None else found & cues):
        if cue == "cue_required":
            return "SUPPORT"
        ratio = 1.0
    return "SUPPORT" if ratio * s >= c else "CONTRADICT"


def f1s(ids, gold, predicted):
    tp, pr, gd = collections.Counter(), collections.Counter(), collections.Counter()
    for i in ids:
        y, g = predicted[i], gold[i]
        pr[y] += 1
        gd[g] += 1
        tp[y] += y == g
    f = {k: (2 * tp[k] / (pr[k] + gd[k]) if pr[k] + gd[k] else 0.0) for k in LABELS}
    f["macro"] = sum(f[k] for k in LABELS) / 3
    return f


THETAS = [round(0.01 * k, 2) for k in range(20, 97)]
ALL_CUES = "negation,null_result,direction,number"


def ratio_grid(min_ratio):
    """γ from `min_ratio` to 1.50 by 0.05."""
    return [round(0.05 * k, 2) for k in range(round(float(min_ratio) / 0.05), 31)]


def rule_functions(related, unrelated, fixed, cue, cues):
    """label(i, θ, γ), pair i's label by decide() or the verifier's fixed one, and
    unrelated_is_nei(i, θ), whether the unrelated pair of i is NOT_ENOUGH_INFO."""
    def label(i, theta, ratio):
        return decide(related[i], theta, ratio, cue, cues) if i in related else fixed[i]

    def unrelated_is_nei(u, theta):
        return unrelated[u][2] >= theta if u in unrelated else fixed["u-" + u] == "NEI"
    return label, unrelated_is_nei


def gold_and_folds(dev):
    """Each pair's gold label, and its fold: 5 folds grouped by claim (crc32 of the claim text)."""
    rows = {r["id"]: r for r in read(dev)}
    return ({i: r["label"] for i, r in rows.items()},
            {i: zlib.crc32(r["claim"].encode()) % 5 for i, r in rows.items()})


def best_rule(train, gold, label, unrelated_is_nei, ratios):
    """(macro-F1, θ, γ) of the rule with the best macro-F1 on the `train` pairs among the θ of
    THETAS keeping their unrelated pairs NOT_ENOUGH_INFO at rate >= UNRELATED_NEI and the γ of
    `ratios`; ties go to γ nearest 1, then the lowest θ. label(i, θ, γ) is pair i's label,
    unrelated_is_nei(i, θ) whether the unrelated pair of i is NOT_ENOUGH_INFO."""
    allowed = [t for t in THETAS if sum(unrelated_is_nei(i, t) for i in train) / max(1, len(train)) >= UNRELATED_NEI] or [THETAS[0]]
    scored = ((f1s(train, gold, {i: label(i, t, g) for i in train})["macro"], t, g) for t in allowed for g in ratios)
    return max(scored, key=lambda m: (m[0], -abs(m[2] - 1), -m[1]))


def grouped_cv(dev, verdicts, ratios, cue="always", cues=None, short_only=False):
    """The held-out choice of (θ, γ) over the θ grid and `ratios`: (gold labels, related ids, their
    probabilities, the unrelated pairs' NEI rate as a function of θ, [(θ, γ) per fold], pooled
    held-out F1s, held-out unrelated NEI rate). With `short_only`, (θ, γ) decide only the pairs
    the verifier judged by its short-evidence rule; the others keep the verifier's labels."""
    gold, fold = gold_and_folds(dev)
    related, unrelated, fixed = probabilities(verdicts, short_only)
    ids = sorted(set(related) | {i for i in fixed if not i.startswith("u-")})
    uids = sorted(set(unrelated) | {i[2:] for i in fixed if i.startswith("u-")})
    label, unrelated_label_nei = rule_functions(related, unrelated, fixed, cue, cues)

    def unrelated_nei(us, theta):
        return sum(unrelated_label_nei(u, theta) for u in us) / max(1, len(us))

    chosen, predicted, unrelated_held_out = [], {}, []
    for k in range(5):
        train = [i for i in ids if fold[i] != k]
        _, theta, ratio = best_rule(train, gold, label, unrelated_label_nei, ratios)
        chosen.append((theta, ratio))
        predicted.update({i: label(i, theta, ratio) for i in ids if fold[i] == k})
        unrelated_held_out += [unrelated_label_nei(u, theta) for u in uids if fold[u] == k]
    return (gold, ids, related, lambda theta: unrelated_nei(uids, theta), chosen, f1s(ids, gold, predicted),
            sum(unrelated_held_out) / len(unrelated_held_out))


def cv(dev, verdicts):
    gold, ids, related, unrelated_nei, chosen, f, unrelated_rate = grouped_cv(dev, verdicts, [1.0])
    for theta in [0.5, 0.6, 0.7, 0.8, 0.85, 0.9]:
        a = f1s(ids, gold, {i: decide(related[i], theta) for i in ids})
        print(f"all dev, θ {theta}: macro {a['macro']:.3f} SUPPORT {a['SUPPORT']:.3f} CONTRADICT {a['CONTRADICT']:.3f}"
              f" unrelated NEI {unrelated_nei(theta):.3f}")
    print(f"grouped CV: θ per fold {[theta for theta, _ in chosen]}; held-out macro {f['macro']:.3f} SUPPORT {f['SUPPORT']:.3f}"
          f" CONTRADICT {f['CONTRADICT']:.3f} NEI {f['NEI']:.3f}; held-out unrelated NEI {unrelated_rate:.3f}")


def report_cv(dev, verdicts, header, min_ratio, cue="always", cues=ALL_CUES, short_only=False):
    *_, chosen, f, unrelated_rate = grouped_cv(dev, verdicts, ratio_grid(min_ratio), cue, frozenset(cues.split(",")), short_only)
    print(f"{header}: (θ, γ) per fold {chosen}; held-out macro {f['macro']:.3f} SUPPORT {f['SUPPORT']:.3f}"
          f" CONTRADICT {f['CONTRADICT']:.3f} NEI {f['NEI']:.3f}; held-out unrelated NEI {unrelated_rate:.3f}")


def cv_ratio(dev, verdicts, min_ratio="0.10"):
    report_cv(dev, verdicts, "grouped CV, θ and γ", min_ratio)


def cv_cue(dev, verdicts, cue, min_ratio="0.10", cues=ALL_CUES):
    """cv-ratio with γ applied only to pairs carrying a conflict cue (`cue` with_cue or
    cue_required, as the verifier's free_text_contradict_cue); VERDICTS must hold conflict_cues."""
    report_cv(dev, verdicts, f"grouped CV, θ and γ, {cue} ({cues})", min_ratio, cue, cues)


def cv_short(dev, verdicts, cue="always", min_ratio="0.10", cues=ALL_CUES):
    """cv-ratio's (or, with `cue` with_cue / cue_required, cv-cue's) choice for the pairs that a
    verifier trained with verification.free_text_short_evidence judged by that rule
    ("short_evidence" in VERDICTS); the other pairs keep its labels."""
    report_cv(dev, verdicts, f"grouped CV, short evidence, θ and γ, {cue}", min_ratio, cue, cues, short_only=True)


def cv_short_nested(dev, *candidates):
    """The short-evidence rule chosen among CANDIDATES (MODE:VERDICTS, each VERDICTS from a
    verifier with its own max_sentences) inside the cross-validation: on four folds, every
    candidate's best (θ, γ) as in cv-short, the candidate whose best scores highest; the fifth fold
    scored by it. Prints each fold's choice and the pooled held-out scores."""
    ratios = ratio_grid(0.10)
    every = frozenset(ALL_CUES.split(","))
    gold, fold = gold_and_folds(dev)
    read_candidates = []
    for candidate in candidates:
        mode, path = candidate.split(":", 1)
        related, unrelated, fixed = probabilities(path, short_only=True)
        read_candidates.append((candidate, mode, related, unrelated, fixed))
    ids = sorted(gold)
    predicted, unrelated_held_out = {}, []
    for k in range(5):
        train = [i for i in ids if fold[i] != k]
        best = None
        for name, mode, related, unrelated, fixed in read_candidates:
            label, nei = rule_functions(related, unrelated, fixed, mode, every)
            score, theta, ratio = best_rule(train, gold, label, nei, ratios)
            if best is None or score > best[0]:
                best = (score, name, theta, ratio, label, nei)
        score, name, theta, ratio, label, nei = best
        print(f"fold {k}: {name} θ {theta} γ {ratio} (four folds' macro {score:.3f})")
        predicted.update({i: label(i, theta, ratio) for i in ids if fold[i] == k})
        unrelated_held_out += [nei(i, theta) for i in ids if fold[i] == k]
    f = f1s(ids, gold, predicted)
    print(f"nested choice: held-out macro {f['macro']:.3f} SUPPORT {f['SUPPORT']:.3f} CONTRADICT {f['CONTRADICT']:.3f}"
          f" NEI {f['NEI']:.3f}; held-out unrelated NEI {sum(unrelated_held_out) / len(unrelated_held_out):.3f}")


def sentence(text):
    text = text.strip()
    return text if text[-1:] in ".!?" else text + "."


def one_sentence(claim):
    """Whether the claim likely stays one claim in an answer (the SciFact benchmark asks the
    segmenter itself; `ground` below skips and counts the answers where this guess was wrong)."""
    text = sentence(claim)
    return text[:1].isupper() and not re.search(r"[.!?;:]\s|\b[A-Za-z]\.[A-Za-z]|\b(?:vs|et al|Dr|e\.g|i\.e)\.", text[:-1])


def answers(dev, out_answers, out_gold):
    rows = [r for r in read(dev) if one_sentence(r["claim"])]
    words = content_words_of(rows)
    draw = random.Random(SEED)
    buckets = {label: [r for r in rows if r["label"] == label] for label in LABELS}
    for bucket in buckets.values():
        draw.shuffle(bucket)
    queue = []
    while any(buckets.values()):
        for label in LABELS:
            if buckets[label]:
                queue.append(buckets[label].pop())
    built = []
    while queue:
        size = draw.randint(2, 4)
        answer = [queue.pop(0)]
        for r in list(queue):
            if len(answer) == size:
                break
            if all(not (words[r["claim"]] & words[a["claim"]]) and r["claim"] != a["claim"] for a in answer):
                answer.append(r)
                queue.remove(r)
        if len(answer) >= 2:
            built.append(answer)
    with open(out_answers, "w", encoding="utf-8") as fa, open(out_gold, "w", encoding="utf-8") as fg:
        for n, answer in enumerate(built):
            while True:
                other = rows[draw.randrange(len(rows))]
                if all(not (words[other["claim"]] & words[a["claim"]]) and other["claim"] != a["claim"] for a in answer):
                    break
            claims = [{"text": sentence(a["claim"]), "gold": a["label"], "unrelated": False} for a in answer]
            claims.append({"text": sentence(other["claim"]), "gold": "NEI", "unrelated": True})
            context = [{"id": a["id"], "text": a["evidence"]} for a in answer]
            answer_id = f"healthver-{n}"
            fa.write(json.dumps({"id": answer_id, "answer": " ".join(c["text"] for c in claims), "context": context}) + "\n")
            fg.write(json.dumps({"id": answer_id, "claims": claims}) + "\n")


def ground(grounded, gold_path):
    gold = {g["id"]: g["claims"] for g in read(gold_path)}
    scored = []  # (support, conflict, gold label, unrelated)
    skipped = 0
    for line in read(grounded):
        claims = gold[line["id"]]
        if len(line["claims"]) != len(claims):
            skipped += 1  # the segmenter split or joined a claim: its claims cannot be matched
            continue
        for judged, g in zip(line["claims"], claims):
            p = judged["probabilities"]
            scored.append((p["support"], p["conflict"], g["gold"], g["unrelated"]))
    grid = [round(0.05 * k, 2) for k in range(1, 20)]
    supported = sum(g == "SUPPORT" for _, _, g, _ in scored)
    unrelated = sum(u for _, _, _, u in scored)
    unfiltered = sum(g == "CONTRADICT" for _, _, g, _ in scored) / len(scored)

    def measure(ts, tc):
        kept = [(g, u) for s, c, g, u in scored if not (c >= tc and c >= s) and s >= ts and s > c]
        return {"recall": sum(g == "SUPPORT" for g, _ in kept) / supported,
                "unrelated_kept": sum(u for _, u in kept) / unrelated,
                "conflict_rate": sum(g == "CONTRADICT" for g, _ in kept) / len(kept) if kept else math.nan,
                "kept": len(kept)}

    print(f"{len(gold) - skipped} answers ({skipped} skipped: segmented otherwise), {len(scored)} claims"
          f" ({supported} SUPPORT, {unrelated} unrelated); unfiltered conflict rate {unfiltered:.4f}")
    print("tau_s\ttau_c\trecall\tunrelated_kept\tconflict_rate\tkept")
    table = {(ts, tc): measure(ts, tc) for ts in grid for tc in grid}
    for (ts, tc), m in table.items():
        if tc in (0.05, 0.1, 0.2, 0.3, 0.5):
            print(f"{ts}\t{tc}\t{m['recall']:.4f}\t{m['unrelated_kept']:.4f}\t{m['conflict_rate']:.4f}\t{m['kept']}")
    eligible = [(m["conflict_rate"], -m["recall"], key) for key, m in table.items()
                if m["recall"] >= 0.6 and m["unrelated_kept"] <= 0.1 and m["kept"] > 0]
    if eligible:
        ts, tc = min(eligible)[2]
        m = table[(ts, tc)]
        print(f"chosen τ_s {ts} τ_c {tc}: recall {m['recall']:.4f} unrelated kept {m['unrelated_kept']:.4f} "
              f"conflict rate {m['conflict_rate']:.4f} (unfiltered {unfiltered:.4f})")
    else:
        best = max(table.items(), key=lambda kv: (kv[1]["recall"], -kv[1]["unrelated_kept"]))
        print(f"no pair keeps >= 60 % of the supported claims with <= 10 % unrelated; highest recall {best[1]['recall']:.4f} "
              f"at τ_s {best[0][0]} τ_c {best[0][1]} (unrelated kept {best[1]['unrelated_kept']:.4f})")


def claim_pairs(out_answers, out_gold, pairs_path):
    gold = {g["id"]: g["claims"] for g in read(out_gold)}
    with open(pairs_path, "w", encoding="utf-8") as out:
        for answer in read(out_answers):
            for i, claim in enumerate(gold[answer["id"]]):
                for j, passage in enumerate(answer["context"]):
                    out.write(json.dumps({"id": f"{answer['id']}|{i}|{j}", "claim": claim["text"], "evidence": passage["text"]}) + "\n")


def claim_scores(out_gold, verdicts, claims_path):
    gold = {g["id"]: g["claims"] for g in read(out_gold)}
    scores = {}  # (answer id, claim index) -> [s gated, s, c]
    for v in read(verdicts):
        answer_id, claim, _ = v["id"].split("|")
        p = v["probabilities"]
        entry = scores.setdefault((answer_id, int(claim)), [0.0, 0.0, 0.0])
        if v["label"] != "NOT_ENOUGH_INFO":
            entry[0] = max(entry[0], p["SUPPORT"])
        entry[1] = max(entry[1], p["SUPPORT"])
        entry[2] = max(entry[2], p["CONTRADICT"])
    names = {"SUPPORT": "SUPPORT", "CONTRADICT": "CONTRADICT", "NEI": "NOT_ENOUGH_INFO"}
    with open(claims_path, "w", encoding="utf-8") as out:
        for (answer_id, claim), (gated, support, conflict) in scores.items():
            g = gold[answer_id][claim]
            out.write(json.dumps({"id": answer_id, "claim": claim, "support_gated": gated, "support": support, "conflict": conflict,
                                  "gold": names[g["gold"]], "unrelated": g["unrelated"]}) + "\n")


if __name__ == "__main__":
    commands = {"pairs": (pairs, (2,)), "cv": (cv, (2,)), "cv-ratio": (cv_ratio, (2, 3)), "cv-cue": (cv_cue, (3, 4, 5)), "cv-short": (cv_short, (2, 3, 4, 5)), "cv-short-nested": (cv_short_nested, tuple(range(2, 20))), "answers": (answers, (3,)),
                "ground": (ground, (2,)), "claim-pairs": (claim_pairs, (3,)), "claim-scores": (claim_scores, (3,))}
    if len(sys.argv) < 2 or sys.argv[1] not in commands or len(sys.argv) - 2 not in commands[sys.argv[1]][1]:
        sys.exit(__doc__)
    commands[sys.argv[1]][0](*sys.argv[2:])

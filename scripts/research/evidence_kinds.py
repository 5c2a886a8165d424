#!/usr/bin/env python3
"""Accuracy per kind of evidence of `claimrag verify --pairs` output on the hand-written pairs of
data/fixtures/evidence-kinds/ (pairs.jsonl: the pairs; gold.tsv: each pair's kind and label).

  claimrag verify --pairs data/fixtures/evidence-kinds/pairs.jsonl --out verdicts.jsonl [--verifier ...]
  scripts/research/evidence_kinds.py verdicts.jsonl
"""
import collections
import csv
import json
import os
import sys

if len(sys.argv) != 2:
    sys.exit(__doc__)
gold_path = os.path.join(os.path.dirname(__file__), "..", "..", "data", "fixtures", "evidence-kinds", "gold.tsv")
gold = {row["id"]: row for row in csv.DictReader(open(gold_path, encoding="utf-8"), delimiter="\t")}
right, total = collections.Counter(), collections.Counter()
for line in open(sys.argv[1], encoding="utf-8"):
    verdict = json.loads(line)
    row = gold[verdict["id"]]
    total[row["kind"]] += 1
    right[row["kind"]] += verdict["label"] == row["label"]
for kind in total:
    print(f"{kind}\t{right[kind]}/{total[kind]}")
print(f"all\t{sum(right.values())}/{sum(total.values())}")

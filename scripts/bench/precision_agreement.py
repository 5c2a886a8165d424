#!/usr/bin/python3
"""How much `--precision int8` changes a checkpoint's outputs, against the float32 default.

  precision_agreement.py pairs SCIFACT_ORIGINAL COUNT OUT
        writes COUNT claim–sentence pairs as `predict` reads them: SciFact train claims (never dev
        or test) against each sentence of the abstracts they cite, then of an uncited abstract
  precision_agreement.py compare F32.jsonl INT8.jsonl
        prints JSON: pairs, label agreement (the most probable label, classifiers), the largest
        change of a probability (classifiers) or of a score (one-logit heads), the largest change of
        an embedding value (embedding heads)
"""

import json
import random
import sys


def read_lines(path):
    with open(path, encoding="utf-8") as source:
        return [json.loads(line) for line in source if line.strip()]


def write_pairs(original, count, out):
    corpus = {str(doc["doc_id"]): doc for doc in read_lines(original + "/corpus.jsonl")}
    claims = read_lines(original + "/claims_train.jsonl")
    chooser = random.Random(42)
    document_ids = sorted(corpus)
    pairs = []
    for claim in claims:
        cited = [str(d) for d in claim.get("cited_doc_ids", [])]
        for doc_id in cited + [chooser.choice(document_ids)]:
            for index, sentence in enumerate(corpus[doc_id]["abstract"]):
                pairs.append({"id": "%s-%s-%d" % (claim["id"], doc_id, index), "text": claim["claim"], "text_pair": sentence})
        if len(pairs) >= count:
            break
    with open(out, "w", encoding="utf-8") as target:
        target.write("".join(json.dumps(pair) + "\n" for pair in pairs[:count]))


def compare(f32_path, int8_path):
    f32 = read_lines(f32_path)
    int8 = read_lines(int8_path)
    if [line["id"] for line in f32] != [line["id"] for line in int8]:
        sys.exit("precision_agreement: the two runs' ids differ")
    agree = 0
    largest = 0.0
    kind = None
    for a, b in zip(f32, int8):
        if "probabilities" in a:
            kind = "probability"
            pa, pb = a["probabilities"], b["probabilities"]
            agree += max(pa, key=pa.get) == max(pb, key=pb.get)
            largest = max(largest, max(abs(pa[k] - pb[k]) for k in pa))
        elif "score" in a:
            kind = "score"
            largest = max(largest, abs(a["score"] - b["score"]))
        else:
            kind = "embedding value"
            largest = max(largest, max(abs(x - y) for x, y in zip(a["embedding"], b["embedding"])))
    result = {"pairs": len(f32), "largest change": largest, "of": kind}
    if kind == "probability":
        result["label agreement"] = agree / len(f32)
    print(json.dumps(result))


if __name__ == "__main__":
    if sys.argv[1] == "pairs":
        write_pairs(sys.argv[2], int(sys.argv[3]), sys.argv[4])
    elif sys.argv[1] == "compare":
        compare(sys.argv[2], sys.argv[3])
    else:
        sys.exit(__doc__)

#!/usr/bin/python3
"""A Python peer of claimrag's seed-000 stages (statistics .. gate), for timing side by side.

It does what `claimrag reproduce` does for the stages statistics, bm25, dense, fusion, rerank,
training_runs, evidence and gate, with the same algorithms and the hyperparameters of the same
configuration file, written the way the seed paper's software was: Python with PyTorch for the
dense retriever and the verifier, scikit-learn for TF-IDF and logistic regression, numpy and
scipy.sparse for BM25. It prints one wall time per row of claimrag's table9.tsv (the same names,
the same boundaries: what claimrag leaves untimed, such as evaluating a run, is untimed here
too) and the headline metrics of each stage, so that a reader can check the peer does the work.

    /usr/bin/python3 scripts/bench/seed000_peer.py [--data DIR] [--config FILE] [--repeats N]

Artefacts (runs, models, evidence) go to a temporary folder unless --out names one.
"""

import argparse
import collections
import json
import math
import os
import random
import re
import shutil
import statistics as stats
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import scipy.optimize
import scipy.sparse as sp
import torch
import torch.nn as nn
import torch.nn.functional as F
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression

TOKEN = re.compile(r"[a-z0-9]+")
STAGES = ["statistics", "bm25 index", "bm25 retrieval", "dense training", "dense retrieval", "fusion",
          "reranker training", "reranking", "training-claim runs", "evidence pseudo", "gate"]


def tokenize(text):
    return TOKEN.findall(text.lower())


# ---------------------------------------------------------------------------------------------
# Data: a BEIR folder.

def read_jsonl(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def read_qrels(path):
    """query id -> {doc id: grade}, queries in order of first appearance."""
    qrels = {}
    with open(path, encoding="utf-8") as f:
        next(f)
        for line in f:
            if line.strip():
                qid, did, grade = line.split("\t")
                qrels.setdefault(qid, {})[did] = int(grade)
    return qrels


def relevant(judged):
    return sorted(d for d, g in judged.items() if g > 0)


class Dataset:
    def __init__(self, beir):
        self.beir = Path(beir)
        corpus = read_jsonl(self.beir / "corpus.jsonl")
        self.doc_ids = [d["_id"] for d in corpus]
        self.titles = [d.get("title", "") for d in corpus]
        self.texts = [d.get("text", "") for d in corpus]
        self.full_texts = [t + " " + x for t, x in zip(self.titles, self.texts)]
        self.position = {d: i for i, d in enumerate(self.doc_ids)}
        self.queries = {q["_id"]: q["text"] for q in read_jsonl(self.beir / "queries.jsonl")}
        self.splits = {p.stem: read_qrels(p) for p in sorted((self.beir / "qrels").glob("*.tsv"))}

    def split_queries(self, split):
        return [(qid, self.queries[qid]) for qid in self.splits[split]]


def dataset_statistics(data):
    doc_tokens = [len(tokenize(t)) for t in data.full_texts]
    table = {"corpus documents": len(doc_tokens), "mean document tokens": float(np.mean(doc_tokens))}
    for name, qrels in data.splits.items():
        table[name + " claims"] = len(qrels)
        table[name + " pairs"] = sum(1 for j in qrels.values() for g in j.values() if g > 0)
        table["mean " + name + " claim tokens"] = float(np.mean([len(tokenize(data.queries[q])) for q in qrels]))
        missing = sum(1 for j in qrels.values() for d in j if d not in data.position)
        if missing:
            print(f"warning: {missing} judged documents of split {name} are missing from the corpus", file=sys.stderr)
    return table


# ---------------------------------------------------------------------------------------------
# Runs: query id -> [(doc id, score)], best first, as TREC files between stages.

def write_run(run, path, tag):
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w") as f:
        for qid, ranking in run.items():
            for rank, (did, score) in enumerate(ranking, 1):
                f.write(f"{qid} Q0 {did} {rank} {score:.17g} {tag}\n")


def read_run(path):
    run = collections.OrderedDict()
    with open(path) as f:
        for line in f:
            qid, _, did, _, score, _ = line.split()
            run.setdefault(qid, []).append((did, float(score)))
    return run


def evaluate(run, qrels, ks=(10,), recall_ks=(100,)):
    ndcg = {k: [] for k in ks}
    recall = {k: [] for k in recall_ks}
    for qid, judged in qrels.items():
        rel = {d for d, g in judged.items() if g > 0}
        docs = [d for d, _ in run.get(qid, [])]
        for k in ks:
            dcg = sum(1.0 / math.log2(i + 2) for i, d in enumerate(docs[:k]) if d in rel)
            ideal = sum(1.0 / math.log2(i + 2) for i in range(min(k, len(rel))))
            ndcg[k].append(dcg / ideal if ideal > 0 else 0.0)
        for k in recall_ks:
            recall[k].append(len(rel.intersection(docs[:k])) / len(rel) if rel else 0.0)
    out = {f"ndcg@{k}": float(np.mean(v)) for k, v in ndcg.items()}
    out.update({f"recall@{k}": float(np.mean(v)) for k, v in recall.items()})
    return out


# ---------------------------------------------------------------------------------------------
# BM25: an inverted index as a term x document sparse matrix of raw term frequencies.

class BM25:
    def __init__(self, doc_tokens, k1, b):
        self.vocabulary = {}
        rows, cols = [], []
        for d, tokens in enumerate(doc_tokens):
            cols.extend(self.vocabulary.setdefault(t, len(self.vocabulary)) for t in tokens)
            rows.extend([d] * len(tokens))
        n, v = len(doc_tokens), len(self.vocabulary)
        # Duplicate (doc, term) entries are summed: term frequencies.
        tf = sp.csr_matrix((np.ones(len(rows), dtype=np.float64), (rows, cols)), shape=(n, v))
        self.lengths = np.asarray(tf.sum(axis=1)).ravel()
        postings = tf.T.tocsr()  # term x document: the inverted index
        postings.sort_indices()
        df = np.diff(postings.indptr)
        idf = np.log(1.0 + (n - df + 0.5) / (df + 0.5))
        norm = k1 * (1.0 - b + b * self.lengths / self.lengths.mean())
        term_of_entry = np.repeat(np.arange(v), df)
        impacts = idf[term_of_entry] * postings.data * (k1 + 1.0) / (postings.data + norm[postings.indices])
        self.impacts = sp.csr_matrix((impacts, postings.indices, postings.indptr), shape=(v, n))
        self.n = n

    def terms(self, text):
        """Every occurrence of a known query token, repeats included."""
        return [self.vocabulary[t] for t in tokenize(text) if t in self.vocabulary]

    def score_all(self, text):
        scores = np.zeros(self.n)
        indptr, indices, data = self.impacts.indptr, self.impacts.indices, self.impacts.data
        for t in self.terms(text):
            scores[indices[indptr[t]:indptr[t + 1]]] += data[indptr[t]:indptr[t + 1]]
        return scores

    def search(self, text, k):
        """The top k documents sharing a token with the query; ties go to the earlier document."""
        scores = self.score_all(text)
        matched = np.flatnonzero(scores > 0)
        order = matched[np.lexsort((matched, -scores[matched]))][:k]
        return [(int(d), float(scores[d])) for d in order]

    def save(self, folder):
        folder.mkdir(parents=True, exist_ok=True)
        sp.save_npz(folder / "impacts.npz", self.impacts)
        with open(folder / "vocabulary.json", "w") as f:
            json.dump(self.vocabulary, f)


def bm25_run(index, data, queries, depth):
    return collections.OrderedDict(
        (qid, [(data.doc_ids[d], s) for d, s in index.search(text, depth)]) for qid, text in queries)


# ---------------------------------------------------------------------------------------------
# Dense retrieval: a dual encoder of mean-pooled token embeddings (shared towers), trained with
# an in-batch contrastive loss.

class DualEncoder(nn.Module):
    def __init__(self, vocabulary_size, dimension, init_stddev):
        super().__init__()
        self.embedding = nn.EmbeddingBag(vocabulary_size, dimension, mode="mean")
        nn.init.normal_(self.embedding.weight, 0.0, init_stddev)

    def forward(self, bags):
        flat = torch.cat(bags) if bags else torch.zeros(0, dtype=torch.long)
        offsets = torch.tensor([0] + [len(b) for b in bags[:-1]]).cumsum(0)
        return F.normalize(self.embedding(flat, offsets), dim=1)

    @torch.no_grad()
    def encode(self, bags, block=1024):
        return torch.cat([self(bags[i:i + block]) for i in range(0, len(bags), block)])


def encode_ids(vocabulary, texts, limit):
    return [torch.tensor([vocabulary[t] for t in tokenize(x) if t in vocabulary][:limit], dtype=torch.long) for x in texts]


def train_dense(data, experiment, seed, out):
    config = experiment["dense"]
    train = experiment["data"]["train_split"]
    qrels = data.splits[train]
    queries = [data.queries[q] for q in qrels]
    pairs = [(qi, data.position[d]) for qi, q in enumerate(qrels) for d in relevant(qrels[q]) if d in data.position]
    tokens = sorted({t for x in data.full_texts + queries for t in tokenize(x)})
    vocabulary = {t: i for i, t in enumerate(tokens)}
    query_ids = encode_ids(vocabulary, queries, config["max_query_tokens"])
    doc_ids = encode_ids(vocabulary, data.full_texts, config["max_document_tokens"])
    positives = collections.defaultdict(set)
    for q, d in pairs:
        positives[q].add(d)

    torch.manual_seed(seed)
    model = DualEncoder(len(vocabulary), config["dimension"], config["init_stddev"])
    optimizer = torch.optim.Adam(model.parameters(), lr=config["learning_rate"])
    batch_size, temperature = config["batch_size"], config["temperature"]
    losses = []
    for _ in range(config["epochs"]):
        order = torch.randperm(len(pairs)).tolist()
        total = 0.0
        for start in range(0, len(order), batch_size):
            batch = [pairs[i] for i in order[start:start + batch_size]]
            columns = list(dict.fromkeys(d for _, d in batch))  # each document once, in batch order
            column_of = {d: c for c, d in enumerate(columns)}
            targets = torch.tensor([column_of[d] for _, d in batch])
            # A query's other positives in the batch are not negatives: mask them out.
            mask = torch.zeros(len(batch), len(columns), dtype=torch.bool)
            for row, (q, d) in enumerate(batch):
                for other in positives[q] - {d}:
                    if other in column_of:
                        mask[row, column_of[other]] = True
            q = model([query_ids[q] for q, _ in batch])
            d = model([doc_ids[c] for c in columns])
            logits = (q @ d.T / temperature).masked_fill(mask, float("-inf"))
            loss = F.cross_entropy(logits, targets)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.item() * len(batch)
        losses.append(total / len(pairs))
    documents = model.encode(doc_ids)
    out.mkdir(parents=True, exist_ok=True)
    torch.save({"model": model.state_dict(), "vocabulary": tokens, "documents": documents}, out / "dense.pt")
    return model, vocabulary, documents, losses


def dense_run(model, vocabulary, documents, data, queries, config, depth):
    encoded = model.encode(encode_ids(vocabulary, [t for _, t in queries], config["max_query_tokens"]))
    scores, top = torch.topk(encoded @ documents.T, min(depth, documents.shape[0]), dim=1)
    return collections.OrderedDict(
        (qid, [(data.doc_ids[d], float(s)) for d, s in zip(top[i].tolist(), scores[i].tolist())])
        for i, (qid, _) in enumerate(queries))


# ---------------------------------------------------------------------------------------------
# Reciprocal rank fusion.

def rrf(runs, k, depth):
    fused = collections.OrderedDict()
    for qid in dict.fromkeys(q for run in runs for q in run):
        score, best = collections.defaultdict(float), {}
        for run in runs:
            for rank, (did, _) in enumerate(run.get(qid, []), 1):
                score[did] += 1.0 / (k + rank)
                best[did] = min(best.get(did, rank), rank)
        ranked = sorted(score, key=lambda d: (-score[d], best[d], d))[:depth]
        fused[qid] = [(d, score[d]) for d in ranked]
    return fused


# ---------------------------------------------------------------------------------------------
# Reranker: five interaction features and a logistic regression.

class Features:
    """BM25 score, TF-IDF cosine, Jaccard overlap of token sets, document length, query length."""

    def __init__(self, data, bm25, max_features):
        self.data, self.bm25 = data, bm25
        self.tfidf = TfidfVectorizer(token_pattern=r"[a-z0-9]+", lowercase=True, max_features=max_features)
        self.doc_tfidf = self.tfidf.fit_transform(data.full_texts).tocsr()
        self.doc_terms = (bm25.impacts.T.tocsr() > 0).astype(np.float64)  # document x term, binary
        self.doc_set_sizes = np.asarray(self.doc_terms.sum(axis=1)).ravel()

    def matrix(self, query_texts, query_of_row, doc_of_row, bm25_scores):
        """One row per (query, document) pair; query_of_row indexes query_texts."""
        query_tfidf = self.tfidf.transform(query_texts).tocsr()
        rows, cols, set_sizes, lengths = [], [], [], []
        for qi, text in enumerate(query_texts):
            tokens = tokenize(text)
            known = sorted({self.bm25.vocabulary[t] for t in tokens if t in self.bm25.vocabulary})
            rows.extend([qi] * len(known))
            cols.extend(known)
            set_sizes.append(len(set(tokens)))
            lengths.append(len(tokens))
        query_terms = sp.csr_matrix((np.ones(len(rows)), (rows, cols)), shape=(len(query_texts), self.doc_terms.shape[1]))
        cosine = np.asarray(self.doc_tfidf[doc_of_row].multiply(query_tfidf[query_of_row]).sum(axis=1)).ravel()
        common = np.asarray(self.doc_terms[doc_of_row].multiply(query_terms[query_of_row]).sum(axis=1)).ravel()
        union = self.doc_set_sizes[doc_of_row] + np.asarray(set_sizes)[query_of_row] - common
        jaccard = np.divide(common, union, out=np.zeros_like(common), where=union > 0)
        return np.column_stack([bm25_scores, cosine, jaccard, self.bm25.lengths[doc_of_row],
                                np.asarray(lengths, dtype=np.float64)[query_of_row]])


def train_reranker(features, data, config):
    rerank = config["rerank"]
    train = config["data"]["train_split"]
    queries = data.split_queries(train)
    qrels = data.splits[train]
    query_of_row, doc_of_row, scores, labels = [], [], [], []
    for qi, (qid, text) in enumerate(queries):
        for d, s in features.bm25.search(text, rerank["train_depth"]):
            query_of_row.append(qi)
            doc_of_row.append(d)
            scores.append(s)
            labels.append(1 if qrels[qid].get(data.doc_ids[d], 0) > 0 else 0)
    x = features.matrix([t for _, t in queries], np.array(query_of_row), np.array(doc_of_row), np.array(scores))
    model = LogisticRegression(solver="liblinear", C=rerank["C"], max_iter=200,
                               class_weight=None if rerank["class_weight"] == "none" else rerank["class_weight"])
    return model.fit(x, np.array(labels))


def rerank_run(run, features, model, data, depth):
    qids = list(run)
    texts = [data.queries[q] for q in qids]
    query_of_row, doc_of_row, scores = [], [], []
    for qi, qid in enumerate(qids):
        bm25_scores = features.bm25.score_all(texts[qi])
        for did, _ in run[qid][:depth]:
            d = data.position[did]
            query_of_row.append(qi)
            doc_of_row.append(d)
            scores.append(bm25_scores[d])
    x = features.matrix(texts, np.array(query_of_row), np.array(doc_of_row), np.array(scores))
    probabilities = model.predict_proba(x)[:, 1]
    reranked, row = collections.OrderedDict(), 0
    for qid in qids:
        head = run[qid][:depth]
        p = probabilities[row:row + len(head)]
        row += len(head)
        order = np.argsort(-p, kind="stable")
        tail = [(did, -float(i + 1)) for i, (did, _) in enumerate(run[qid][depth:])]
        reranked[qid] = [(head[i][0], float(p[i])) for i in order] + tail
    return reranked


# ---------------------------------------------------------------------------------------------
# Evidence: sentences, TF-IDF pseudo-gold rationales, a one-layer transformer verifier.

def split_sentences(text, minimum):
    """Splits after '.', '?' or '!' followed by whitespace; drops pieces shorter than `minimum`."""
    pieces = re.split(r"(?<=[.?!])(?=\s)", text)
    return [s for s in (p.strip() for p in pieces) if s and len(s.encode("utf-8")) >= minimum]


def jaccard(a, b):
    union = len(a | b)
    return len(a & b) / union if union else 0.0


def pseudo_gold(claims, relevant_docs, sentences, tfidf):
    """For each claim and each relevant document, the sentence of highest TF-IDF cosine with the claim."""
    claim_vectors = tfidf.transform(claims).tocsr()
    wanted = sorted({d for docs in relevant_docs for d in docs})
    first = {}
    texts = []
    for d in wanted:
        first[d] = len(texts)
        texts.extend(sentences[d])
    sentence_vectors = tfidf.transform(texts).tocsr() if texts else None
    gold = []
    for c, docs in enumerate(relevant_docs):
        picks = []
        for d in docs:
            if not sentences[d]:
                continue
            block = sentence_vectors[first[d]:first[d] + len(sentences[d])]
            cosine = (block @ claim_vectors[c].T).toarray().ravel()
            picks.append((d, int(np.argmax(cosine))))
        gold.append(picks)
    return gold


class Verifier(nn.Module):
    """Token, position and segment embeddings; one post-norm encoder layer whose only query is
    the [CLS] position; a linear head on it."""

    def __init__(self, vocabulary_size, d_model, heads, d_ff, max_length, classes):
        super().__init__()
        self.token = nn.Embedding(vocabulary_size, d_model)
        self.position = nn.Embedding(max_length, d_model)
        self.segment = nn.Embedding(2, d_model)
        self.attention = nn.MultiheadAttention(d_model, heads, batch_first=True)
        self.attention_norm = nn.LayerNorm(d_model)
        self.feed_forward = nn.Sequential(nn.Linear(d_model, d_ff), nn.GELU(), nn.Linear(d_ff, d_model))
        self.output_norm = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, classes)
        for table in (self.token, self.position, self.segment):
            nn.init.normal_(table.weight, 0.0, 0.02)
        for projection in self.attention.in_proj_weight.data.chunk(3):
            nn.init.xavier_uniform_(projection)
        for linear in (self.attention.out_proj, self.feed_forward[0], self.feed_forward[2], self.head):
            nn.init.xavier_uniform_(linear.weight)
            nn.init.zeros_(linear.bias)

    def forward(self, ids, segments, padding):
        positions = torch.arange(ids.shape[1])
        x = self.token(ids) + self.position(positions)[None] + self.segment(segments)
        cls = x[:, :1]
        attended, _ = self.attention(cls, x, x, key_padding_mask=padding, need_weights=False)
        hidden = self.attention_norm(cls + attended)
        out = self.output_norm(hidden + self.feed_forward(hidden))
        return self.head(out[:, 0])


PAD, UNK, CLS, SEP = 0, 1, 2, 3


def verifier_vocabulary(texts, min_count):
    counts = collections.Counter(t for tokens in texts for t in tokens)
    words = sorted((w for w, c in counts.items() if c >= min_count), key=lambda w: (-counts[w], w))
    return {w: i + 4 for i, w in enumerate(words)}


def encode_pair(vocabulary, claim, sentence, max_length):
    c = [vocabulary.get(t, UNK) for t in claim]
    s = [vocabulary.get(t, UNK) for t in sentence]
    budget = max_length - 3
    if len(c) + len(s) > budget:
        half = budget // 2
        if len(c) <= half:
            s = s[:budget - len(c)]
        elif len(s) <= budget - half:
            c = c[:budget - len(s)]
        else:
            c, s = c[:half], s[:budget - half]
    ids = [CLS] + c + [SEP] + s + [SEP]
    return torch.tensor(ids), torch.tensor([0] * (len(c) + 2) + [1] * (len(s) + 1))


def pad_batch(encoded):
    """Pads a batch of (ids, segments) to its longest pair; the mask marks the padding."""
    ids = nn.utils.rnn.pad_sequence([x for x, _ in encoded], batch_first=True, padding_value=PAD)
    segments = nn.utils.rnn.pad_sequence([s for _, s in encoded], batch_first=True)
    lengths = torch.tensor([len(x) for x, _ in encoded])
    return ids, segments, torch.arange(ids.shape[1])[None] >= lengths[:, None]


def train_verifier(pairs, config, rng):
    texts, seen_claims, seen_sentences = [], set(), set()
    for claim_id, claim, key, sentence, _ in pairs:
        if claim_id not in seen_claims:
            seen_claims.add(claim_id)
            texts.append(tokenize(claim))
        if key not in seen_sentences:
            seen_sentences.add(key)
            texts.append(tokenize(sentence))
    vocabulary = verifier_vocabulary(texts, config["vocabulary_min_count"])
    model = Verifier(len(vocabulary) + 4, config["d_model"], config["heads"], config["d_ff"], config["max_length"],
                     config["num_classes"])
    encoded = [encode_pair(vocabulary, tokenize(c), tokenize(s), config["max_length"]) for _, c, _, s, _ in pairs]
    labels = torch.tensor([label for *_, label in pairs])
    optimizer = torch.optim.Adam(model.parameters(), lr=config["learning_rate"])
    losses = []
    for _ in range(config["epochs"]):
        order = list(range(len(encoded)))
        rng.shuffle(order)
        total = 0.0
        for start in range(0, len(order), config["batch_size"]):
            members = order[start:start + config["batch_size"]]
            loss = F.cross_entropy(model(*pad_batch([encoded[i] for i in members])), labels[members])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.item() * len(members)
        losses.append(total / len(encoded))
    return model, vocabulary, losses


@torch.no_grad()
def verifier_scores(model, vocabulary, claims, sentences, max_length, batch_size):
    encoded = [encode_pair(vocabulary, tokenize(c), tokenize(s), max_length) for c, s in zip(claims, sentences)]
    order = sorted(range(len(encoded)), key=lambda i: len(encoded[i][0]))  # similar lengths share a batch
    scores = np.zeros(len(encoded))
    for start in range(0, len(order), batch_size):
        members = order[start:start + batch_size]
        scores[members] = torch.softmax(model(*pad_batch([encoded[i] for i in members])), dim=1)[:, 1].numpy()
    return scores


def evidence_stage(data, bm25_config, config, seed, reranked, out):
    verifier, evidence = config["verifier"], config["evidence"]
    rng = random.Random(seed)
    torch.manual_seed(seed)
    sentences = [split_sentences(t, evidence["min_sentence_characters"]) for t in data.texts]
    train = config["data"]["train_split"]
    qrels = data.splits[train]
    claims = data.split_queries(train)
    relevant_docs = [[data.position[d] for d in relevant(qrels[qid]) if d in data.position] for qid, _ in claims]
    tfidf = TfidfVectorizer(token_pattern=r"[a-z0-9]+", lowercase=True, max_features=50000).fit(data.full_texts)
    gold = pseudo_gold([t for _, t in claims], relevant_docs, sentences, tfidf)

    # Negatives: random sentences of the claim's top BM25 documents that are not relevant.
    bm25 = BM25([tokenize(t) for t in data.full_texts], bm25_config["k1"], bm25_config["b"])
    depth = verifier["negative_documents"] + max(len(r) for r in relevant_docs)
    pairs = []
    for (claim_id, claim), docs, positives in zip(claims, relevant_docs, gold):
        if not positives:
            continue
        pairs.extend((claim_id, claim, (d, i), sentences[d][i], 1) for d, i in positives)
        negatives = [d for d, _ in bm25.search(claim, depth) if d not in docs][:verifier["negative_documents"]]
        pool = [(d, i) for d in negatives for i in range(len(sentences[d]))]
        for d, i in rng.sample(pool, min(len(pool), len(positives) * verifier["negatives_per_positive"])):
            pairs.append((claim_id, claim, (d, i), sentences[d][i], 0))
    model, vocabulary, losses = train_verifier(pairs, verifier, rng)

    # Candidates: the top sentences by Jaccard overlap of the top reranked documents; the verifier picks.
    test = config["data"]["test_split"]
    test_claims = data.split_queries(test)
    candidates = []
    for qid, claim in test_claims:
        claim_set = set(tokenize(claim))
        chosen = []
        for rank, (did, _) in enumerate(reranked.get(qid, [])[:evidence["candidate_documents"]], 1):
            d = data.position[did]
            overlaps = [jaccard(claim_set, set(tokenize(s))) for s in sentences[d]]
            best = sorted(range(len(overlaps)), key=lambda i: -overlaps[i])[:evidence["sentences_per_document"]]
            chosen.extend((d, i, rank, overlaps[i]) for i in best)
        candidates.append(chosen)
    flat_claims = [claim for (_, claim), chosen in zip(test_claims, candidates) for _ in chosen]
    flat_sentences = [sentences[d][i] for chosen in candidates for d, i, _, _ in chosen]
    scores = verifier_scores(model, vocabulary, flat_claims, flat_sentences, verifier["max_length"],
                             verifier["scoring_batch_size"])
    selections, next_score = {}, 0
    for (qid, claim), chosen in zip(test_claims, candidates):
        claim_scores = scores[next_score:next_score + len(chosen)]
        next_score += len(chosen)
        order = np.argsort(-claim_scores, kind="stable")[:evidence["selected"]]
        selections[qid] = [(chosen[i][0], chosen[i][1], float(claim_scores[i])) for i in order]
    out.mkdir(parents=True, exist_ok=True)
    torch.save({"model": model.state_dict(), "vocabulary": vocabulary}, out / "verifier_pseudo.pt")
    with open(out / "evidence.jsonl", "w") as f:
        for qid, selected in selections.items():
            f.write(json.dumps({"claim_id": qid, "selected": [
                {"doc_id": data.doc_ids[d], "index": i, "text": sentences[d][i], "score": s} for d, i, s in selected]}) + "\n")
    return selections, sentences, tfidf, losses, sum(1 for p in pairs if p[-1] == 1), len(pairs)


def evidence_f1(data, config, selections, sentences, tfidf):
    """Token-level and exact-sentence F1 of the top-1 and top-2 selections against the test
    claims' pseudo-gold sentences; per claim, then averaged."""
    test = config["data"]["test_split"]
    qrels = data.splits[test]
    claims = data.split_queries(test)
    relevant_docs = [[data.position[d] for d in relevant(qrels[qid]) if d in data.position] for qid, _ in claims]
    gold = pseudo_gold([t for _, t in claims], relevant_docs, sentences, tfidf)

    def f1(common, predicted, expected):
        p = common / predicted if predicted else 0.0
        r = common / expected if expected else 0.0
        return 2 * p * r / (p + r) if p + r > 0 else 0.0

    per_claim, result = {}, {}
    for k in (1, 2):
        token, exact = [], []
        for (qid, _), g in zip(claims, gold):
            chosen = [(d, i) for d, i, _ in selections.get(qid, [])[:k]]
            predicted = collections.Counter(t for d, i in chosen for t in tokenize(sentences[d][i]))
            expected = collections.Counter(t for d, i in g for t in tokenize(sentences[d][i]))
            token.append(f1(sum((predicted & expected).values()), sum(predicted.values()), sum(expected.values())))
            exact.append(f1(len(set(chosen) & set(g)), len(set(chosen)), len(set(g))))
            if k == 2:
                per_claim[qid] = token[-1]
        result[f"token_f1@{k}"] = float(np.mean(token))
        result[f"exact_f1@{k}"] = float(np.mean(exact))
    return result, per_claim


# ---------------------------------------------------------------------------------------------
# Gate: refuse unless a confidence signal clears a threshold; a combined, calibrated signal.

def signal_values(name, qids, bm25, dense, rerank, verifier_top1):
    def top(run, qid, i):
        ranking = run.get(qid, [])
        return ranking[i][1] if i < len(ranking) else 0.0

    values = []
    for qid in qids:
        if name == "bm25_top1":
            values.append(top(bm25, qid, 0))
        elif name == "bm25_margin":
            values.append(top(bm25, qid, 0) - top(bm25, qid, 1))
        elif name == "sparse_dense_rank":
            sparse, ranked = bm25.get(qid, []), [d for d, _ in dense.get(qid, [])]
            values.append(1.0 / (ranked.index(sparse[0][0]) + 1) if sparse and sparse[0][0] in ranked else 0.0)
        elif name == "sparse_dense_overlap":
            a, b = [d for d, _ in bm25.get(qid, [])[:10]], [d for d, _ in dense.get(qid, [])[:10]]
            values.append(sum(1 for x in a for y in b if x == y) / 10.0)
        elif name == "rerank_top1":
            values.append(top(rerank, qid, 0))
        elif name == "verifier_top1":
            values.append(verifier_top1[qid])
        else:
            raise SystemExit(f"unknown signal {name}")
    return np.array(values)


def grounding(qrels, system, depth):
    """1 when the system's top `depth` holds a relevant document (the claim can be answered honestly)."""
    return np.array([1 if any(qrels[q].get(d, 0) > 0 for d, _ in system.get(q, [])[:depth]) else 0 for q in qrels])


def sweep(signal, grounded, answerable, f1, thresholds):
    rows = []
    for t in thresholds:
        answered = answerable & (signal >= t)
        n = int(answered.sum())
        rows.append({"threshold": t, "answer_rate": n / len(signal), "refusal_rate": 1 - n / len(signal),
                     "hallucination_rate": float((1 - grounded[answered]).mean()) if n else 0.0,
                     "evidence_f1": float(f1[answered].mean()) if n else 0.0})
    return rows


def risk_coverage(signal, grounded, answerable):
    """Area under the risk-coverage curve, claims answered by decreasing signal (ties share their risk)."""
    loss = 1.0 - grounded
    key = np.where(answerable, signal, -np.inf)
    order = np.argsort(-key, kind="stable")
    risks, before, start = [], 0.0, 0
    while start < len(order):
        end = start
        while end < len(order) and key[order[end]] == key[order[start]]:
            end += 1
        group = loss[order[start:end]].sum()
        for i in range(start, end):
            risks.append((before + (i + 1 - start) * group / (end - start)) / (i + 1))
        before += group
        start = end
    return float(np.mean(risks))


def expected_calibration_error(p, y, bins=10):
    b = np.clip((p * bins).astype(int), 0, bins - 1)
    return float(sum(abs(y[b == i].sum() - p[b == i].sum()) for i in range(bins)) / len(p))


def fit_combined_signal(x, y, seed):
    """Standardised features, an L2 logistic regression on 75 % of the claims, a temperature fitted
    on the other 25 %."""
    order = np.random.default_rng(seed).permutation(len(y))
    held = int(round(0.25 * len(y)))
    fit, calibration = order[held:], order[:held]
    mean = x[fit].mean(axis=0)
    deviation = x[fit].std(axis=0)
    deviation = np.where(deviation > 1e-9 * np.maximum(1.0, np.abs(mean)), deviation, 1.0)
    model = LogisticRegression(solver="liblinear", C=1.0).fit((x[fit] - mean) / deviation, y[fit])
    logits = model.decision_function((x[calibration] - mean) / deviation)

    def nll(log_t):
        z = logits / math.exp(log_t)
        return float(np.mean(np.logaddexp(0.0, np.where(y[calibration] == 1, -z, z))))

    log_t = scipy.optimize.minimize_scalar(nll, bounds=(math.log(0.01), math.log(100.0)), method="bounded",
                                           options={"xatol": 1e-10}).x
    temperature = math.exp(log_t)
    return model, mean, deviation, temperature, {
        "held_out_ece_before": expected_calibration_error(1 / (1 + np.exp(-logits)), y[calibration]),
        "held_out_ece_after": expected_calibration_error(1 / (1 + np.exp(-logits / temperature)), y[calibration])}


def thresholds_of(spec):
    start, stop, step = (float(v) for v in spec.split(":"))
    return [start + i * step for i in range(int(round((stop - start) / step)) + 1)]


def gate_stage(data, config, runs, verifier_top1, token_f1, out):
    gate = config["gate"]
    results = {}
    test, train = config["data"]["test_split"], config["data"]["train_split"]
    test_runs = {name: read_run(runs / f"{name}.trec") for name in ("bm25", "dense", "hybrid_rerank")}
    qrels = data.splits[test]
    qids = list(qrels)
    grounded = grounding(qrels, test_runs["hybrid_rerank"], gate["hallucination_depth"])
    answerable = np.array([bool(test_runs["hybrid_rerank"].get(q)) for q in qids])
    f1 = np.array([token_f1.get(q, 0.0) for q in qids])

    def values(name, split_runs, split_qids):
        return signal_values(name, split_qids, split_runs["bm25"], split_runs["dense"], split_runs["hybrid_rerank"],
                             verifier_top1)

    rows = sweep(values(gate["signal"], test_runs, qids), grounded, answerable, f1, thresholds_of(gate["thresholds"]))
    for row in rows:
        at = f"@{row['threshold']:.0f}"
        results["answer_rate" + at] = row["answer_rate"]
        results["hallucination_rate" + at] = row["hallucination_rate"]
    for name in gate["compared_signals"]:
        results["aurc:" + name] = risk_coverage(values(name, test_runs, qids), grounded, answerable)

    train_runs = {name: read_run(runs / "train" / f"{name}.trec") for name in ("bm25", "dense", "hybrid_rerank")}
    train_qrels = data.splits[train]
    train_qids = list(train_qrels)
    features = gate["combined_features"]
    x_train = np.column_stack([values(name, train_runs, train_qids) for name in features])
    y_train = grounding(train_qrels, train_runs["hybrid_rerank"], gate["hallucination_depth"])
    model, mean, deviation, temperature, calibration = fit_combined_signal(x_train, y_train, config["seed"])
    x_test = np.column_stack([values(name, test_runs, qids) for name in features])
    probabilities = 1 / (1 + np.exp(-model.decision_function((x_test - mean) / deviation) / temperature))
    results["aurc:combined"] = risk_coverage(probabilities, grounded, answerable)
    results["temperature"] = temperature
    results.update(calibration)
    results["test_ece"] = expected_calibration_error(probabilities, grounded)
    out.mkdir(parents=True, exist_ok=True)
    with open(out / "table8.tsv", "w") as f:
        f.write("threshold\tanswer_rate\trefusal_rate\thallucination_rate\tevidence_f1\n")
        for row in rows:
            f.write("\t".join(f"{row[k]:.6f}" for k in ("threshold", "answer_rate", "refusal_rate",
                                                          "hallucination_rate", "evidence_f1")) + "\n")
    return results


# ---------------------------------------------------------------------------------------------
# The pipeline, stage by stage, timed as claimrag times it.

class Timer:
    def __init__(self):
        self.seconds = collections.OrderedDict()

    def time(self, stage, function, *args):
        start = time.perf_counter()
        result = function(*args)
        self.seconds[stage] = self.seconds.get(stage, 0.0) + time.perf_counter() - start
        return result


def run_pipeline(beir, config, work):
    timer = Timer()
    metrics = collections.OrderedDict()
    seed = config["seed"]
    runs = work / "runs"
    test, train = config["data"]["test_split"], config["data"]["train_split"]

    data = timer.time("statistics", Dataset, beir)
    table1 = timer.time("statistics", dataset_statistics, data)
    metrics["statistics"] = {"documents": table1["corpus documents"], "mean document tokens": table1["mean document tokens"]}
    test_queries = data.split_queries(test)
    train_queries = data.split_queries(train)

    # bm25
    bm25_config = config["bm25"]

    def index_bm25():
        index = BM25([tokenize(t) for t in data.full_texts], bm25_config["k1"], bm25_config["b"])
        index.save(work / "models" / "bm25")
        return index

    bm25 = timer.time("bm25 index", index_bm25)
    run = timer.time("bm25 retrieval", bm25_run, bm25, data, test_queries, bm25_config["depth"])
    write_run(run, runs / "bm25.trec", "bm25")
    metrics["bm25"] = evaluate(run, data.splits[test])

    # dense
    dense = config["dense"]
    model, vocabulary, documents, losses = timer.time("dense training", train_dense, data, config, seed, work / "models")
    run = timer.time("dense retrieval", dense_run, model, vocabulary, documents, data, test_queries, dense, dense["depth"])
    write_run(run, runs / "dense.trec", "dense")
    metrics["dense"] = evaluate(run, data.splits[test])
    metrics["dense"]["final loss"] = losses[-1]

    # fusion
    fusion = config["fusion"]
    hybrid = timer.time("fusion", lambda: rrf([read_run(runs / "bm25.trec"), read_run(runs / "dense.trec")],
                                              fusion["rrf_k"], fusion["depth"]))
    write_run(hybrid, runs / "hybrid.trec", "hybrid")
    metrics["hybrid"] = evaluate(hybrid, data.splits[test])

    # rerank: the feature resources are built outside the timers, as claimrag builds them
    rerank = config["rerank"]
    features = Features(data, bm25, rerank["max_features"])
    reranker = timer.time("reranker training", train_reranker, features, data, config)
    reranked = timer.time("reranking", lambda: rerank_run(read_run(runs / "hybrid.trec"), features, reranker, data,
                                                          rerank["rerank_depth"]))
    write_run(reranked, runs / "hybrid_rerank.trec", "hybrid+rerank")
    metrics["hybrid_rerank"] = evaluate(reranked, data.splits[test])

    # training_runs
    def training_claim_runs():
        train_runs = runs / "train"
        write_run(bm25_run(bm25, data, train_queries, bm25_config["depth"]), train_runs / "bm25.trec", "bm25")
        write_run(dense_run(model, vocabulary, documents, data, train_queries, dense, dense["depth"]),
                  train_runs / "dense.trec", "dense")
        write_run(rrf([read_run(train_runs / "bm25.trec"), read_run(train_runs / "dense.trec")], fusion["rrf_k"],
                      fusion["depth"]), train_runs / "hybrid.trec", "hybrid")
        write_run(rerank_run(read_run(train_runs / "hybrid.trec"), features, reranker, data, rerank["rerank_depth"]),
                  train_runs / "hybrid_rerank.trec", "hybrid+rerank")

    timer.time("training-claim runs", training_claim_runs)

    # evidence
    selections, sentences, tfidf, verifier_losses, positives, pairs = timer.time(
        "evidence pseudo", lambda: evidence_stage(data, bm25_config, config, seed, read_run(runs / "hybrid_rerank.trec"),
                                                  work / "evidence"))
    metrics["evidence"], token_f1 = evidence_f1(data, config, selections, sentences, tfidf)
    metrics["evidence"].update({"training pairs": pairs, "positives": positives, "final loss": verifier_losses[-1]})
    verifier_top1 = {q: (s[0][2] if s else 0.0) for q, s in selections.items()}

    # gate
    metrics["gate"] = timer.time("gate", gate_stage, data, config, runs, verifier_top1, token_f1, work / "tables")
    return timer.seconds, metrics


HEADLINE = [("bm25", "ndcg@10"), ("bm25", "recall@100"), ("dense", "ndcg@10"), ("dense", "recall@100"),
            ("hybrid", "ndcg@10"), ("hybrid", "recall@100"), ("hybrid_rerank", "ndcg@10"),
            ("hybrid_rerank", "recall@100"), ("evidence", "token_f1@1"), ("evidence", "token_f1@2"),
            ("evidence", "exact_f1@1"), ("evidence", "exact_f1@2"), ("gate", "answer_rate@25"),
            ("gate", "hallucination_rate@25"), ("gate", "answer_rate@40"), ("gate", "hallucination_rate@40"),
            ("gate", "aurc:bm25_top1"), ("gate", "aurc:verifier_top1"), ("gate", "aurc:combined"), ("gate", "test_ece")]


def main():
    root = Path(__file__).resolve().parents[2]
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", default=str(root / "data" / "scifact"),
                        help="SciFact folder holding beir/ (or a BEIR folder itself); default data/scifact")
    parser.add_argument("--config", default=str(root / "configs" / "scifact.json"))
    parser.add_argument("--repeats", type=int, default=1, help="run the stages this many times; report each and the median")
    parser.add_argument("--out", help="keep the artefacts in this folder (default: a temporary folder, removed)")
    parser.add_argument("--threads", type=int, default=2, help="torch.set_num_threads (default 2)")
    args = parser.parse_args()

    torch.set_num_threads(args.threads)
    config = json.load(open(args.config))
    beir = Path(args.data)
    if (beir / "beir").is_dir():
        beir = beir / "beir"
    all_seconds = []
    for repeat in range(args.repeats):
        work = Path(args.out) if args.out else Path(tempfile.mkdtemp(prefix="seed000-peer."))
        try:
            seconds, metrics = run_pipeline(beir, config, work)
        finally:
            if not args.out:
                shutil.rmtree(work, ignore_errors=True)
        all_seconds.append(seconds)
        print(f"# repeat {repeat + 1}/{args.repeats}")
        print("stage\tseconds")
        for stage, s in seconds.items():
            print(f"{stage}\t{s:.3f}")
        print(f"total\t{sum(seconds.values()):.3f}")
        sys.stdout.flush()
    if args.repeats > 1:
        print("# median over repeats")
        print("stage\tseconds")
        for stage in all_seconds[0]:
            print(f"{stage}\t{stats.median(s[stage] for s in all_seconds):.3f}")
        print(f"total\t{stats.median(sum(s.values()) for s in all_seconds):.3f}")
    print("# headline metrics (last repeat)")
    print("section\tmetric\tvalue")
    for section, name in HEADLINE:
        value = metrics.get(section, {}).get(name)
        print(f"{section}\t{name}\t{'NA' if value is None else f'{value:.4f}'}")
    for section in ("dense", "evidence"):
        for name in ("final loss", "training pairs", "positives"):
            if name in metrics[section]:
                print(f"{section}\t{name}\t{metrics[section][name]:.4f}")


if __name__ == "__main__":
    main()

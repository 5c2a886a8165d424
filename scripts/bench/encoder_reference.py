#!/usr/bin/python3
"""Random BERT sequence classifiers for the encoder benchmark, and the PyTorch run they are timed against.

  encoder_reference.py write DIR SHAPE   writes DIR/model (config.json, model.safetensors in F32,
                                         vocab.txt) and DIR/pairs.jsonl: 32 texts of 128 tokens
  encoder_reference.py run DIR THREADS REPEATS
                                         times the Hugging Face-style forward of the same weights on
                                         the same token ids, batch 32 x 128, on THREADS threads;
                                         prints JSON: the best forward time and the logits
  encoder_reference.py report DIR SHAPE THREADS SECONDS RSS_KB REFERENCE_JSON PREDICTIONS PEAK
                                         prints one Markdown table row comparing claimrag's run
                                         (whole process) with the reference's, after checking both
                                         saw the same token ids

SHAPE is bert-base (12 layers, hidden 768, 12 heads, intermediate 3072) or minilm-l6 (6 layers,
hidden 384, 12 heads, intermediate 1536). The model below follows the modules of the reference
library's modeling_bert.py (BertForSequenceClassification in eval mode: batched matmuls over
heads, an additive attention mask, erf GELU, pooler, classifier). Needs Debian's python3-torch
(run it with /usr/bin/python3). Weights are random (seed 42) and written to DIR only, never kept.
"""

import json
import math
import os
import random
import struct
import sys
import time

import torch
from torch import nn

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures"))
from checkpoint_fixtures import write_json, write_safetensors  # noqa: E402

SHAPES = {
    "bert-base": {"hidden_size": 768, "num_hidden_layers": 12, "num_attention_heads": 12, "intermediate_size": 3072},
    "minilm-l6": {"hidden_size": 384, "num_hidden_layers": 6, "num_attention_heads": 12, "intermediate_size": 1536},
}
VOCAB_SIZE = 30522
SPECIAL = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
SEQUENCES = 32
TOKENS = 128
LABELS = ["contradiction", "entailment", "neutral"]


class SelfAttention(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        hidden = cfg["hidden_size"]
        self.heads = cfg["num_attention_heads"]
        self.head_size = hidden // self.heads
        self.query, self.key, self.value = nn.Linear(hidden, hidden), nn.Linear(hidden, hidden), nn.Linear(hidden, hidden)

    def split(self, x):
        return x.view(x.size(0), x.size(1), self.heads, self.head_size).permute(0, 2, 1, 3)

    def forward(self, x, mask):
        q, k, v = self.split(self.query(x)), self.split(self.key(x)), self.split(self.value(x))
        scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(self.head_size) + mask
        context = torch.matmul(nn.functional.softmax(scores, dim=-1), v).permute(0, 2, 1, 3).contiguous()
        return context.view(x.size(0), x.size(1), -1)


class DenseNorm(nn.Module):
    def __init__(self, inputs, hidden, eps):
        super().__init__()
        self.dense, self.LayerNorm = nn.Linear(inputs, hidden), nn.LayerNorm(hidden, eps=eps)

    def forward(self, x, residual):
        return self.LayerNorm(self.dense(x) + residual)


class Attention(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.self = SelfAttention(cfg)
        self.output = DenseNorm(cfg["hidden_size"], cfg["hidden_size"], cfg["layer_norm_eps"])

    def forward(self, x, mask):
        return self.output(self.self(x, mask), x)


class Intermediate(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.dense = nn.Linear(cfg["hidden_size"], cfg["intermediate_size"])

    def forward(self, x):
        return nn.functional.gelu(self.dense(x))


class Layer(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.attention = Attention(cfg)
        self.intermediate = Intermediate(cfg)
        self.output = DenseNorm(cfg["intermediate_size"], cfg["hidden_size"], cfg["layer_norm_eps"])

    def forward(self, x, mask):
        attended = self.attention(x, mask)
        return self.output(self.intermediate(attended), attended)


class Embeddings(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        hidden = cfg["hidden_size"]
        self.word_embeddings = nn.Embedding(cfg["vocab_size"], hidden)
        self.position_embeddings = nn.Embedding(cfg["max_position_embeddings"], hidden)
        self.token_type_embeddings = nn.Embedding(cfg["type_vocab_size"], hidden)
        self.LayerNorm = nn.LayerNorm(hidden, eps=cfg["layer_norm_eps"])

    def forward(self, ids, types):
        positions = torch.arange(ids.size(1)).unsqueeze(0)
        x = self.word_embeddings(ids) + self.token_type_embeddings(types) + self.position_embeddings(positions)
        return self.LayerNorm(x)


class Encoder(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.layer = nn.ModuleList([Layer(cfg) for _ in range(cfg["num_hidden_layers"])])


class Pooler(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.dense = nn.Linear(cfg["hidden_size"], cfg["hidden_size"])


class Bert(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.embeddings, self.encoder, self.pooler = Embeddings(cfg), Encoder(cfg), Pooler(cfg)


class BertForSequenceClassification(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.bert = Bert(cfg)
        self.classifier = nn.Linear(cfg["hidden_size"], len(cfg["id2label"]))

    def forward(self, ids, types, attention_mask):
        # The reference's extended mask: 0 where attended, the dtype's minimum where masked.
        mask = (1.0 - attention_mask[:, None, None, :].to(torch.float32)) * torch.finfo(torch.float32).min
        x = self.bert.embeddings(ids, types)
        for layer in self.bert.encoder.layer:
            x = layer(x, mask)
        pooled = torch.tanh(self.bert.pooler.dense(x[:, 0]))
        return self.classifier(pooled)


def config(shape):
    cfg = {"architectures": ["BertForSequenceClassification"], "model_type": "bert", "vocab_size": VOCAB_SIZE,
           "hidden_act": "gelu", "layer_norm_eps": 1e-12, "max_position_embeddings": 512, "type_vocab_size": 2,
           "pad_token_id": 0, "id2label": {str(i): name for i, name in enumerate(LABELS)},
           "label2id": {name: i for i, name in enumerate(LABELS)}}
    cfg.update(SHAPES[shape])
    return cfg


def token_ids(folder):
    with open(os.path.join(folder, "ids.json"), encoding="utf-8") as source:
        return json.load(source)


def write(folder, shape):
    torch.manual_seed(42)
    cfg = config(shape)
    model = BertForSequenceClassification(cfg)
    with torch.no_grad():
        for name, value in model.state_dict().items():
            if "LayerNorm" in name and name.endswith("weight"):
                value.copy_(1.0 + 0.02 * torch.randn_like(value))
            else:
                value.copy_(0.02 * torch.randn_like(value))
    model_folder = os.path.join(folder, "model")
    os.makedirs(model_folder, exist_ok=True)
    write_json(os.path.join(model_folder, "config.json"), cfg)
    write_safetensors(os.path.join(model_folder, "model.safetensors"), list(model.state_dict().items()), torch.float32)
    words = ["w%d" % i for i in range(len(SPECIAL), VOCAB_SIZE)]
    with open(os.path.join(model_folder, "vocab.txt"), "w", encoding="utf-8") as out:
        out.write("\n".join(SPECIAL + words) + "\n")
    write_json(os.path.join(model_folder, "tokenizer_config.json"), {"do_lower_case": True, "model_max_length": 512})
    # Each word is one vocabulary entry, so a text of TOKENS - 2 words is [CLS] words [SEP].
    chooser = random.Random(42)
    ids, lines = [], []
    for i in range(SEQUENCES):
        chosen = [chooser.randrange(len(SPECIAL), VOCAB_SIZE) for _ in range(TOKENS - 2)]
        ids.append([SPECIAL.index("[CLS]")] + chosen + [SPECIAL.index("[SEP]")])
        lines.append(json.dumps({"id": "s%d" % i, "text": " ".join("w%d" % t for t in chosen)}))
    with open(os.path.join(folder, "pairs.jsonl"), "w", encoding="utf-8") as out:
        out.write("\n".join(lines) + "\n")
    write_json(os.path.join(folder, "ids.json"), ids, compact=True)


def read_safetensors(path):
    with open(path, "rb") as source:
        data = source.read()
    length = struct.unpack("<Q", data[:8])[0]
    header = json.loads(data[8:8 + length])
    header.pop("__metadata__", None)
    start = 8 + length
    return {name: torch.frombuffer(bytearray(data[start + e["data_offsets"][0]:start + e["data_offsets"][1]]),
                                   dtype=torch.float32).view(e["shape"]) for name, e in header.items()}


def run(folder, threads, repeats):
    torch.set_num_threads(threads)
    with open(os.path.join(folder, "model", "config.json"), encoding="utf-8") as source:
        cfg = json.load(source)
    model = BertForSequenceClassification(cfg)
    model.load_state_dict(read_safetensors(os.path.join(folder, "model", "model.safetensors")))
    model.eval()
    ids = torch.tensor(token_ids(folder), dtype=torch.long)
    types, attention_mask = torch.zeros_like(ids), torch.ones_like(ids)
    best = math.inf
    with torch.no_grad():
        model(ids[:2], types[:2], attention_mask[:2])  # warm-up: first-call allocations
        for _ in range(repeats):
            start = time.perf_counter()
            logits = model(ids, types, attention_mask)
            best = min(best, time.perf_counter() - start)
    print(json.dumps({"seconds": best, "sequences": ids.size(0), "logits": logits.tolist()}))


def flops_per_sequence(cfg):
    """Multiply-adds of the matrix products counted twice: the projections, the feed-forward, the
    attention scores and their weighted sum, the pooler and the classifier."""
    tokens, hidden, inner = TOKENS, cfg["hidden_size"], cfg["intermediate_size"]
    layer = 2 * tokens * (4 * hidden * hidden + 2 * hidden * inner) + 4 * tokens * tokens * hidden
    return cfg["num_hidden_layers"] * layer + 2 * hidden * hidden + 2 * hidden * len(cfg["id2label"])


def report(folder, shape, threads, seconds, rss_kb, reference_json, predictions, peak):
    """One table row: claimrag's whole process against the reference's best forward."""
    with open(reference_json, encoding="utf-8") as source:
        reference = json.load(source)
    with open(predictions, encoding="utf-8") as source:
        lines = [json.loads(line) for line in source if line.strip()]
    if [line["input_ids"] for line in lines] != token_ids(folder):
        sys.exit("bench: claimrag's token ids differ from the reference's")
    worst = max(abs(a - b) for line, row in zip(lines, reference["logits"]) for a, b in zip(line["logits"], row))
    flops = flops_per_sequence(config(shape))
    ours, theirs = SEQUENCES / float(seconds), reference["sequences"] / reference["seconds"]
    weights_mb = os.path.getsize(os.path.join(folder, "model", "model.safetensors")) / 1e6
    print("| %s | %s | %.2f | %.2f | %.2f | %.0f | %.0f | %.0f | %.0f | %.0f | %.1e |" % (
        shape, threads, ours, theirs, ours / theirs, ours * flops / 1e9, theirs * flops / 1e9, float(peak),
        int(rss_kb) / 1e3, weights_mb, worst))


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "write" and sys.argv[3] in SHAPES:
        write(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 5 and sys.argv[1] == "run":
        run(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
    elif len(sys.argv) == 10 and sys.argv[1] == "report" and sys.argv[3] in SHAPES:
        report(*sys.argv[2:])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()

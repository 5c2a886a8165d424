#!/usr/bin/python3
"""Random sequence classifiers for the encoder benchmark, and the PyTorch run they are timed against.

  encoder_reference.py write DIR SHAPE TOKENS
                                         writes DIR/model (config.json, model.safetensors in F32, the
                                         tokenizer files) and DIR/pairs.jsonl: texts of at least TOKENS
                                         tokens, to be cut to TOKENS by `predict --max-length`
  encoder_reference.py take-ids DIR PREDICTIONS
                                         keeps the token ids of claimrag's first run as DIR/ids.json
                                         where the script cannot know them beforehand (SentencePiece)
  encoder_reference.py run DIR THREADS REPEATS
                                         times the reference library's forward of the same weights on
                                         the same token ids, one batch, on THREADS threads; prints
                                         JSON: the best forward time and the logits (needs torch)
  encoder_reference.py report DIR THREADS SECONDS RSS_KB BEFORE_SECONDS REFERENCE_JSON PREDICTIONS PEAK LOAD
                                         prints one Markdown table row comparing claimrag's run
                                         (whole process) with the reference's, after checking both saw
                                         the same token ids; BEFORE_SECONDS (another claimrag build's
                                         time) and REFERENCE_JSON may be "-" (not run)

SHAPE is bert-base (12 layers, hidden 768, 12 heads, intermediate 3072), minilm-l6 (6 layers,
hidden 384, 12 heads, intermediate 1536), roberta-large (RoBERTa-large's sizes: 24 layers, hidden
1024, 16 heads, intermediate 4096, 50,265 words, in BERT's modules), deberta-v3-base (the real
configuration of a DeBERTa-v3-base classifier from ../shared/data/hf-tokenizers: position_buckets
256, max_relative_positions -1, share_att_key, pos_att_type p2c|c2p, relative embeddings
layer-normed, no absolute positions, type_vocab_size 0; its real spm.model), deberta-v3-large (the
same with -large's sizes: 24 layers, hidden 1024, 16 heads, intermediate 4096; without absolute
positions it reads past 512 tokens) or tiny (2 layers, hidden 32, for the smoke run).
The PyTorch models are the reference library's modules written out in
bert_torch.py and deberta_torch.py. Weights are random (seed 42): the tiny shape's are drawn by
Python's own generator, so it is written without torch; the others by torch's. They are written
to DIR only, never kept. Run it with /usr/bin/python3 (Debian's python3-torch for the PyTorch side).
"""

import array
import json
import math
import os
import random
import shutil
import struct
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import random_weights  # noqa: E402
from random_weights import fixtures  # noqa: E402

REPOSITORY = os.path.normpath(os.path.join(HERE, "..", ".."))
DEBERTA_FOLDER = os.path.join(REPOSITORY, "..", "shared", "data", "hf-tokenizers", "protectai__deberta-v3-base-prompt-injection-v2")
DEBERTA_TOKENIZER_FILES = ("spm.model", "added_tokens.json", "special_tokens_map.json", "tokenizer_config.json")
BERT_SHAPES = {
    "bert-base": {"hidden_size": 768, "num_hidden_layers": 12, "num_attention_heads": 12, "intermediate_size": 3072},
    "minilm-l6": {"hidden_size": 384, "num_hidden_layers": 6, "num_attention_heads": 12, "intermediate_size": 1536},
    "tiny": {"hidden_size": 32, "num_hidden_layers": 2, "num_attention_heads": 4, "intermediate_size": 64, "vocab_size": 1000},
    # RoBERTa-large's sizes (MiniCheck-RoBERTa-Large) in BERT's modules: RoBERTa's other differences
    # (positions offset by the padding id, one token type) cost nothing measurable.
    "roberta-large": {"hidden_size": 1024, "num_hidden_layers": 24, "num_attention_heads": 16, "intermediate_size": 4096,
                      "vocab_size": 50265},
}
# DeBERTa-v3 classifiers: the real -base configuration, and -large's sizes on it (MiniCheck-DeBERTa-v3-Large).
DEBERTA_SHAPES = {
    "deberta-v3-base": {},
    "deberta-v3-large": {"hidden_size": 1024, "num_hidden_layers": 24, "num_attention_heads": 16, "intermediate_size": 4096,
                         "pooler_hidden_size": 1024},
}
SHAPES = list(BERT_SHAPES) + list(DEBERTA_SHAPES)
SPECIAL = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
LABELS = ["contradiction", "entailment", "neutral"]
TOKENS_PER_RUN = 4096  # sequences × tokens of one run: 128 of 32 tokens, 32 of 128, 8 of 512


def sequences_for(tokens):
    return max(1, TOKENS_PER_RUN // tokens)


def read_json(path):
    with open(path, encoding="utf-8") as source:
        return json.load(source)


def config(shape):
    if shape in DEBERTA_SHAPES:
        cfg = read_json(os.path.join(DEBERTA_FOLDER, "config.json"))
        cfg.update(DEBERTA_SHAPES[shape])
        return cfg
    cfg = {"architectures": ["BertForSequenceClassification"], "model_type": "bert", "vocab_size": 30522,
           "hidden_act": "gelu", "layer_norm_eps": 1e-12, "max_position_embeddings": 512, "type_vocab_size": 2,
           "pad_token_id": 0, "id2label": {str(i): name for i, name in enumerate(LABELS)},
           "label2id": {name: i for i, name in enumerate(LABELS)}}
    cfg.update(BERT_SHAPES[shape])
    return cfg


def prefix_of(cfg):
    return "deberta." if cfg["model_type"] == "deberta-v2" else "bert."


def python_draw(seed):
    """Python's seeded normal generator as float32 bytes: slow, but needs nothing beyond Python."""
    generator = random.Random(seed)

    def draw(shape, std, mean):
        return array.array("f", [generator.gauss(0.0, 1.0) * std + mean for _ in range(math.prod(shape))]).tobytes()
    return draw


def torch_draw(seed):
    import torch
    generator = torch.Generator().manual_seed(seed)

    def draw(shape, std, mean):
        return (torch.randn(shape, generator=generator) * std + mean).numpy().astype("<f4").tobytes()
    return draw


def write(folder, shape, tokens):
    cfg = config(shape)
    model_folder = os.path.join(folder, "model")
    os.makedirs(model_folder, exist_ok=True)
    fixtures.write_json(os.path.join(model_folder, "config.json"), cfg)
    tensors = random_weights.classifier_tensors(cfg, prefix_of(cfg))
    draw = python_draw(42) if shape == "tiny" else torch_draw(42)
    random_weights.write_safetensors(os.path.join(model_folder, "model.safetensors"), tensors, draw)
    sequences = sequences_for(tokens)
    chooser = random.Random(42)
    if cfg["model_type"] == "deberta-v2":
        for name in DEBERTA_TOKENIZER_FILES:
            shutil.copyfile(os.path.join(DEBERTA_FOLDER, name), os.path.join(model_folder, name))
        # Words of a few pieces each: more than `tokens` pieces a text, cut by --max-length.
        texts = [" ".join("w%d" % chooser.randrange(10000) for _ in range(tokens)) for _ in range(sequences)]
    else:
        vocab = cfg["vocab_size"]
        with open(os.path.join(model_folder, "vocab.txt"), "w", encoding="utf-8") as out:
            out.write("\n".join(SPECIAL + ["w%d" % i for i in range(len(SPECIAL), vocab)]) + "\n")
        fixtures.write_json(os.path.join(model_folder, "tokenizer_config.json"), {"do_lower_case": True, "model_max_length": 512})
        # Each word is one vocabulary entry, so a text of tokens - 2 words is [CLS] words [SEP].
        ids = []
        for _ in range(sequences):
            ids.append([SPECIAL.index("[CLS]")] + [chooser.randrange(len(SPECIAL), vocab) for _ in range(tokens - 2)] +
                       [SPECIAL.index("[SEP]")])
        texts = [" ".join("w%d" % t for t in row[1:-1]) for row in ids]
        fixtures.write_json(os.path.join(folder, "ids.json"), ids, compact=True)
    with open(os.path.join(folder, "pairs.jsonl"), "w", encoding="utf-8") as out:
        out.write("".join(json.dumps({"id": "s%d" % i, "text": text}) + "\n" for i, text in enumerate(texts)))
    fixtures.write_json(os.path.join(folder, "bench.json"), {"shape": shape, "tokens": tokens, "sequences": sequences})


def predicted(predictions):
    with open(predictions, encoding="utf-8") as source:
        return [json.loads(line) for line in source if line.strip()]


def take_ids(folder, predictions):
    if os.path.exists(os.path.join(folder, "ids.json")):
        return
    tokens = read_json(os.path.join(folder, "bench.json"))["tokens"]
    ids = [line["input_ids"] for line in predicted(predictions)]
    if any(len(row) != tokens for row in ids):
        sys.exit("bench: claimrag's inputs are not all %d tokens long" % tokens)
    fixtures.write_json(os.path.join(folder, "ids.json"), ids, compact=True)


def read_safetensors(path):
    import torch
    with open(path, "rb") as source:
        data = source.read()
    length = struct.unpack("<Q", data[:8])[0]
    header = json.loads(data[8:8 + length])
    header.pop("__metadata__", None)
    start = 8 + length
    return {name: torch.frombuffer(bytearray(data[start + e["data_offsets"][0]:start + e["data_offsets"][1]]),
                                   dtype=torch.float32).view(e["shape"]) for name, e in header.items()}


def run(folder, threads, repeats):
    # torch.set_num_threads does not reach the OpenBLAS that Debian's torch calls: without these,
    # set before the libraries load, a one-thread run multiplies on every core.
    os.environ["OPENBLAS_NUM_THREADS"] = os.environ["OMP_NUM_THREADS"] = str(threads)
    import torch
    torch.set_num_threads(threads)
    cfg = read_json(os.path.join(folder, "model", "config.json"))
    if cfg["model_type"] == "deberta-v2":
        from deberta_torch import DebertaV2ForSequenceClassification as Model
    else:
        from bert_torch import BertForSequenceClassification as Model
    model = Model(cfg)
    model.load_state_dict(read_safetensors(os.path.join(folder, "model", "model.safetensors")))
    model.eval()
    ids = torch.tensor(read_json(os.path.join(folder, "ids.json")), dtype=torch.long)
    types, attention_mask = torch.zeros_like(ids), torch.ones_like(ids)
    best = math.inf
    with torch.no_grad():
        model(ids[:2], types[:2], attention_mask[:2])  # warm-up: first-call allocations
        for _ in range(repeats):
            start = time.perf_counter()
            logits = model(ids, types, attention_mask)
            best = min(best, time.perf_counter() - start)
    print(json.dumps({"seconds": best, "sequences": ids.size(0), "logits": logits.tolist()}))


def flops_per_sequence(cfg, tokens):
    """Multiply-adds of the matrix products counted twice: the projections, the feed-forward, the
    attention scores and their weighted sum, the pooler and the classifier; for DeBERTa also its
    two relative-position terms over the 2 × tokens - 1 distances a sequence has (PyTorch multiplies
    against all 2 × span rows; claimrag against the rows those distances read, at most as many)."""
    hidden, inner = cfg["hidden_size"], cfg["intermediate_size"]
    layer = 2 * tokens * (4 * hidden * hidden + 2 * hidden * inner) + 4 * tokens * tokens * hidden
    if cfg["model_type"] == "deberta-v2":
        layer += 2 * 2 * tokens * (2 * tokens - 1) * hidden
    return cfg["num_hidden_layers"] * layer + 2 * hidden * hidden + 2 * hidden * len(cfg["id2label"])


NOT_RUN = "not run (no torch)"


def report(folder, threads, seconds, rss_kb, before_seconds, reference_json, predictions, peak, load):
    """One table row: claimrag's whole process against the reference's best forward."""
    bench = read_json(os.path.join(folder, "bench.json"))
    cfg = read_json(os.path.join(folder, "model", "config.json"))
    lines = predicted(predictions)
    if [line["input_ids"] for line in lines] != read_json(os.path.join(folder, "ids.json")):
        sys.exit("bench: claimrag's token ids differ from the reference's")
    flops = flops_per_sequence(cfg, bench["tokens"])
    ours = bench["sequences"] / float(seconds)
    before = "—" if before_seconds == "-" else "%.2f" % (bench["sequences"] / float(before_seconds))
    theirs_rate = ratio = theirs_gflops = worst = NOT_RUN
    if reference_json != "-":
        reference = read_json(reference_json)
        theirs = reference["sequences"] / reference["seconds"]
        theirs_rate, ratio, theirs_gflops = "%.2f" % theirs, "%.2f" % (ours / theirs), "%.0f" % (theirs * flops / 1e9)
        worst = "%.1e" % max(abs(a - b) for line, row in zip(lines, reference["logits"]) for a, b in zip(line["logits"], row))
    rss = "—" if rss_kb == "-" else "%.0f" % (int(rss_kb) / 1e3)
    weights_mb = os.path.getsize(os.path.join(folder, "model", "model.safetensors")) / 1e6
    print("| %s | %d | %s | %.2f | %s | %s | %s | %.1f | %s | %.0f | %s | %.0f | %s | %s |" % (
        bench["shape"], bench["tokens"], threads, ours, before, theirs_rate, ratio, ours * flops / 1e9, theirs_gflops,
        float(peak), rss, weights_mb, worst, load))


def main():
    if len(sys.argv) == 5 and sys.argv[1] == "write" and sys.argv[3] in SHAPES:
        write(sys.argv[2], sys.argv[3], int(sys.argv[4]))
    elif len(sys.argv) == 4 and sys.argv[1] == "take-ids":
        take_ids(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 5 and sys.argv[1] == "run":
        run(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
    elif len(sys.argv) == 11 and sys.argv[1] == "report":
        report(*sys.argv[2:])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()

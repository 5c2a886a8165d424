#!/usr/bin/python3
"""A DeBERTa-v3 NLI classifier with random weights, at a real size, for timing claimrag's checkpoint verifier.

    random_deberta_v3.py SHAPE FOLDER

SHAPE is "base" (microsoft/deberta-v3-base: 12 layers, hidden 768, 12 heads, intermediate 3072)
or "xsmall" (microsoft/deberta-v3-xsmall: 12 layers, hidden 384, 6 heads, intermediate 1536).
The configuration is the published one of an NLI fine-tune (position_buckets 256, share_att_key,
p2c|c2p, norm_rel_ebd layer_norm, type_vocab_size 0, three labels); the tensors are named and
shaped as the reference library names them (scripts/fixtures/checkpoint_fixtures.py) and drawn
from a seeded normal distribution with numpy, so the run costs what a real checkpoint of that
size costs while its verdicts mean nothing. The tokenizer files are the real DeBERTa-v3 ones from
../shared/data/hf-tokenizers (spm.model is shared by every DeBERTa-v3 size). Needs numpy
(Debian's python3-numpy).
"""

import json
import os
import shutil
import struct
import sys

import numpy

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "fixtures"))
import checkpoint_fixtures as fixtures  # noqa: E402

REPOSITORY = os.path.normpath(os.path.join(HERE, "..", ".."))
TOKENIZER = os.path.join(REPOSITORY, "..", "shared", "data", "hf-tokenizers", "protectai__deberta-v3-base-prompt-injection-v2")
SHAPES = {
    "base": {"hidden_size": 768, "num_attention_heads": 12, "intermediate_size": 3072, "num_hidden_layers": 12},
    "xsmall": {"hidden_size": 384, "num_attention_heads": 6, "intermediate_size": 1536, "num_hidden_layers": 12},
}


class ShapeRecorder:
    """The Weights interface of the fixture script, recording only names and shapes."""

    def __init__(self):
        self.tensors = {}

    def normal(self, name, shape, std=0.3, mean=0.0):
        self.tensors[name] = (tuple(shape), std, mean)

    def linear(self, name, out, inp, bias=True):
        self.normal(name + ".weight", (out, inp), std=inp ** -0.5)
        if bias:
            self.normal(name + ".bias", (out,), std=0.02)

    def layer_norm(self, name, size):
        self.normal(name + ".weight", (size,), std=0.0, mean=1.0)
        self.normal(name + ".bias", (size,), std=0.0)


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in SHAPES:
        sys.exit(__doc__)
    shape, folder = sys.argv[1], sys.argv[2]
    config = dict(fixtures.DEBERTA_V3_BASE_NLI, **SHAPES[shape])
    config["pooler_hidden_size"] = config["hidden_size"]
    recorder = ShapeRecorder()
    fixtures.encoder_weights(recorder, config, "deberta.")
    fixtures.head_weights(recorder, {"config": config, "head": {"kind": "classification"}, "prefix": "deberta."})
    generator = numpy.random.default_rng(42)
    header, offset = {}, 0
    names = sorted(recorder.tensors)
    for name in names:
        size = 4 * int(numpy.prod(recorder.tensors[name][0]))
        header[name] = {"dtype": "F32", "shape": list(recorder.tensors[name][0]), "data_offsets": [offset, offset + size]}
        offset += size
    os.makedirs(folder, exist_ok=True)
    text = json.dumps(header, separators=(",", ":")).encode()
    with open(os.path.join(folder, "model.safetensors"), "wb") as out:
        out.write(struct.pack("<Q", len(text)))
        out.write(text)
        for name in names:
            dims, std, mean = recorder.tensors[name]
            values = generator.standard_normal(dims, dtype=numpy.float32) * numpy.float32(std) + numpy.float32(mean)
            out.write(values.astype("<f4").tobytes())
    with open(os.path.join(folder, "config.json"), "w", encoding="utf-8") as out:
        json.dump(config, out, indent=1, sort_keys=True)
    for name in ("spm.model", "added_tokens.json", "special_tokens_map.json", "tokenizer_config.json"):
        shutil.copyfile(os.path.join(TOKENIZER, name), os.path.join(folder, name))
    print("%s: DeBERTa-v3-%s, %d tensors, %.0f MB of F32 weights" % (folder, shape, len(names), offset / 1e6))


if __name__ == "__main__":
    main()

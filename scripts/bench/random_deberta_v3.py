#!/usr/bin/python3
"""A DeBERTa-v3 NLI classifier with random weights, at a real size, for timing claimrag's checkpoint verifier.

    random_deberta_v3.py SHAPE FOLDER

SHAPE is "base" (microsoft/deberta-v3-base: 12 layers, hidden 768, 12 heads, intermediate 3072),
"large" (microsoft/deberta-v3-large: 24 layers, hidden 1024, 16 heads, intermediate 4096) or "xsmall" (microsoft/deberta-v3-xsmall: 12 layers, hidden 384, 6 heads, intermediate 1536).
The configuration is the published one of an NLI fine-tune (position_buckets 256, share_att_key,
p2c|c2p, norm_rel_ebd layer_norm, type_vocab_size 0, three labels); the tensors are named and
shaped as the reference library names them (scripts/fixtures/checkpoint_fixtures.py) and drawn
from a seeded normal distribution with numpy, so the run costs what a real checkpoint of that
size costs while its verdicts mean nothing. The tokenizer files are the real DeBERTa-v3 ones from
../shared/data/hf-tokenizers (spm.model is shared by every DeBERTa-v3 size). Needs numpy
(Debian's python3-numpy).
"""

import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import random_weights  # noqa: E402
from random_weights import fixtures  # noqa: E402

REPOSITORY = os.path.normpath(os.path.join(HERE, "..", ".."))
TOKENIZER = os.path.join(REPOSITORY, "..", "shared", "data", "hf-tokenizers", "protectai__deberta-v3-base-prompt-injection-v2")
SHAPES = {
    "base": {"hidden_size": 768, "num_attention_heads": 12, "intermediate_size": 3072, "num_hidden_layers": 12},
    "large": {"hidden_size": 1024, "num_attention_heads": 16, "intermediate_size": 4096, "num_hidden_layers": 24},
    "xsmall": {"hidden_size": 384, "num_attention_heads": 6, "intermediate_size": 1536, "num_hidden_layers": 12},
}


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in SHAPES:
        sys.exit(__doc__)
    shape, folder = sys.argv[1], sys.argv[2]
    config = dict(fixtures.DEBERTA_V3_BASE_NLI, **SHAPES[shape])
    config["pooler_hidden_size"] = config["hidden_size"]
    tensors = random_weights.classifier_tensors(config, "deberta.")
    size = random_weights.write_numpy_checkpoint(folder, tensors, config)
    for name in ("spm.model", "added_tokens.json", "special_tokens_map.json", "tokenizer_config.json"):
        shutil.copyfile(os.path.join(TOKENIZER, name), os.path.join(folder, name))
    print("%s: DeBERTa-v3-%s, %d tensors, %.0f MB of F32 weights" % (folder, shape, len(tensors), size / 1e6))


if __name__ == "__main__":
    main()

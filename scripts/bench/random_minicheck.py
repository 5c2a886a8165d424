#!/usr/bin/python3
"""A grounding checker of the MiniCheck family with random weights, at its real size, for timing
`--checker minicheck`.

    random_minicheck.py SHAPE FOLDER

SHAPE is "roberta-large" (MiniCheck-RoBERTa-Large: roberta-large's real config.json from
../shared/data/hf-tokenizers with MiniCheck's two-label head, and its real tokenizer files) or
"deberta-v3-large" (MiniCheck-DeBERTa-v3-Large: microsoft/deberta-v3-large's published
configuration with the two-label head, and DeBERTa-v3's real spm.model). Tensors are named and
shaped as the reference library names them (scripts/fixtures/checkpoint_fixtures.py) and drawn
from a seeded normal distribution with numpy, so a run costs what the real checkpoint costs while
its verdicts mean nothing. Needs numpy (Debian's python3-numpy).
"""

import json
import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import random_weights  # noqa: E402
from random_weights import fixtures  # noqa: E402

REPOSITORY = os.path.normpath(os.path.join(HERE, "..", ".."))
SHARED = os.path.join(REPOSITORY, "..", "shared", "data", "hf-tokenizers")
ROBERTA = os.path.join(SHARED, "FacebookAI__roberta-large-mnli")
DEBERTA = os.path.join(SHARED, "protectai__deberta-v3-base-prompt-injection-v2")


def config_of(shape):
    if shape == "roberta-large":
        with open(os.path.join(ROBERTA, "config.json"), encoding="utf-8") as source:
            config = json.load(source)
        config.update(fixtures.MINICHECK_HEAD, _num_labels=2)
        return config, "roberta.", ROBERTA
    config = {**fixtures.DEBERTA_V3_LARGE, **fixtures.MINICHECK_HEAD}
    return config, "deberta.", DEBERTA


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("roberta-large", "deberta-v3-large"):
        sys.exit(__doc__)
    shape, folder = sys.argv[1], sys.argv[2]
    config, prefix, tokenizer = config_of(shape)
    tensors = random_weights.classifier_tensors(config, prefix)
    size = random_weights.write_numpy_checkpoint(folder, tensors, config)
    for name in sorted(os.listdir(tokenizer)):
        if name != "config.json":
            shutil.copyfile(os.path.join(tokenizer, name), os.path.join(folder, name))
    print("%s: MiniCheck-%s shape, %d tensors, %.0f MB of F32 weights" % (folder, shape, len(tensors), size / 1e6))


if __name__ == "__main__":
    main()

#!/usr/bin/python3
"""A grounding checker of the MiniCheck family with random weights, at its real size, for timing
`--checker minicheck`.

    random_minicheck.py SHAPE FOLDER

SHAPE is "roberta-large" (MiniCheck-RoBERTa-Large: roberta-large's real config.json from
../shared/data/hf-tokenizers with MiniCheck's two-label head, and its real tokenizer files),
"deberta-v3-large" (MiniCheck-DeBERTa-v3-Large: microsoft/deberta-v3-large's published
configuration with the two-label head, and DeBERTa-v3's real spm.model) or "flan-t5-large"
(MiniCheck-Flan-T5-Large: google/flan-t5-large's published configuration; flan-t5's spiece.model
is not on the machine, so a 32,000-piece Unigram model in T5's layout is trained here on SciFact's
abstracts, which cuts words into about as many pieces as T5's own, and T5's tokenizer files are
those of the T5 test fixture). Tensors are named and
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

sys.path.insert(0, os.path.join(HERE, "..", "fixtures"))
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


def write_flan_t5_large(folder):
    """A T5 of flan-t5-large's size, and a T5-layout spiece.model of 32,000 pieces trained on SciFact."""
    import sentencepiece
    import t5_fixtures
    config = dict(t5_fixtures.FLAN_T5_LARGE)
    recorder = random_weights.ShapeRecorder()
    t5_fixtures.t5_weights(recorder, config)
    size = random_weights.write_numpy_checkpoint(folder, recorder.tensors, config)
    corpus = os.path.join(REPOSITORY, "data", "scifact", "beir", "corpus.jsonl")
    texts = (json.loads(line)["text"] for line in open(corpus, encoding="utf-8"))
    with open(os.path.join(folder, "spiece.model"), "wb") as model:
        sentencepiece.SentencePieceTrainer.train(
            sentence_iterator=texts, model_writer=model, vocab_size=32000, model_type="unigram", num_threads=2,
            input_sentence_size=200000, shuffle_input_sentence=False, pad_id=0, pad_piece="<pad>", eos_id=1,
            eos_piece="</s>", unk_id=2, unk_piece="<unk>", bos_id=-1, minloglevel=2)
    fixture = os.path.join(REPOSITORY, t5_fixtures.TOKENIZER_FOLDER)
    for name in ("tokenizer_config.json", "special_tokens_map.json"):
        shutil.copyfile(os.path.join(fixture, name), os.path.join(folder, name))
    return len(recorder.tensors), size


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("roberta-large", "deberta-v3-large", "flan-t5-large"):
        sys.exit(__doc__)
    shape, folder = sys.argv[1], sys.argv[2]
    if shape == "flan-t5-large":
        tensors, size = write_flan_t5_large(folder)
        print("%s: MiniCheck-Flan-T5-Large shape, %d tensors, %.0f MB of F32 weights" % (folder, tensors, size / 1e6))
        return
    config, prefix, tokenizer = config_of(shape)
    tensors = random_weights.classifier_tensors(config, prefix)
    size = random_weights.write_numpy_checkpoint(folder, tensors, config)
    for name in sorted(os.listdir(tokenizer)):
        if name != "config.json":
            shutil.copyfile(os.path.join(tokenizer, name), os.path.join(folder, name))
    print("%s: MiniCheck-%s shape, %d tensors, %.0f MB of F32 weights" % (folder, shape, len(tensors), size / 1e6))


if __name__ == "__main__":
    main()

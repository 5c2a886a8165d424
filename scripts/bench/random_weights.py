"""Random checkpoints of real sizes for the benchmarks: the tensors the fixture script names
(scripts/fixtures/checkpoint_fixtures.py), drawn by a caller-chosen generator and written as F32
safetensors straight from bytes, so that a 110-million-value checkpoint never passes through
Python lists. Plain Python: no torch, no numpy.
"""

import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures"))
import checkpoint_fixtures as fixtures  # noqa: E402


class ShapeRecorder:
    """The Weights interface of the fixture script, recording only names, shapes and spreads."""

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


def classifier_tensors(config, prefix):
    """{name: (shape, std, mean)} of a sequence classifier of `config` whose encoder is under `prefix`."""
    recorder = ShapeRecorder()
    fixtures.encoder_weights(recorder, config, prefix)
    fixtures.head_weights(recorder, {"config": config, "head": {"kind": "classification"}, "prefix": prefix})
    return recorder.tensors


def write_safetensors(path, tensors, draw):
    """Writes `tensors` ({name: (shape, std, mean)}) in name order as F32; draw(shape, std, mean)
    returns a tensor's little-endian float32 bytes. Returns the bytes of weights written."""
    names = sorted(tensors)
    entries = [(name, "F32", tensors[name][0], 4 * math.prod(tensors[name][0])) for name in names]
    with open(path, "wb") as out:
        out.write(fixtures.safetensors_header(entries))
        for name in names:
            out.write(draw(*tensors[name]))
    return sum(entry[3] for entry in entries)


def write_numpy_checkpoint(folder, tensors, config, seed=42):
    """model.safetensors of `tensors` drawn from numpy's seeded normal generator, and config.json;
    returns the bytes of weights written. Needs numpy (Debian's python3-numpy)."""
    import json
    import numpy
    generator = numpy.random.default_rng(seed)
    os.makedirs(folder, exist_ok=True)

    def draw(dims, std, mean):
        values = generator.standard_normal(dims, dtype=numpy.float32) * numpy.float32(std) + numpy.float32(mean)
        return values.astype("<f4").tobytes()

    size = write_safetensors(os.path.join(folder, "model.safetensors"), tensors, draw)
    with open(os.path.join(folder, "config.json"), "w", encoding="utf-8") as out:
        json.dump(config, out, indent=1, sort_keys=True)
    return size

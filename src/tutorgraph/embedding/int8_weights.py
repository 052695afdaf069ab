"""The int8 weights of a quantised graph, stored the way this CPU multiplies exactly.

A dynamically quantised graph multiplies unsigned 8-bit activations by 8-bit weights
(`MatMulInteger`). Weights with a stored zero point can be kept signed or unsigned: `w - zp`
is the same integer either way (both shift by 128). Which one ONNX Runtime computes exactly
depends on the CPU:
- with AVX-512 VNNI or AVX-VNNI, unsigned x signed is one exact instruction (`vpdpbusd`),
  and unsigned x unsigned takes a slow path (11.0 against 5.9 ms for the fine-tuned
  encoder's 48-token pass on one core, `research/scripts/stage_floors.py`);
- without it (AVX2 alone, as on many AMD EPYC and older Intel servers), unsigned x signed
  goes through `vpmaddubsw`, which saturates pairs of products at 16 bits: the fine-tuned
  encoder's vectors under an emulated Haswell CPU had a mean cosine of 0.913 (worst 0.60)
  with the exact ones, against 0.9998 with unsigned weights
  (`research/scripts/probes/int8_signedness.py`).

So a session opens an int8 graph with its weights signed on a VNNI CPU and unsigned
elsewhere, whatever the file stores: the same vectors on every machine.

>>> graph_for_this_cpu(Path("model/onnx/model_qint8.onnx"))  # doctest: +SKIP
b'...'  # the serialised graph with its weights as this CPU multiplies them exactly
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["cpu_has_vnni", "graph_for_this_cpu", "set_weight_signedness"]

_VNNI_FLAGS = frozenset({"avx512_vnni", "avx_vnni"})


@functools.cache
def cpu_has_vnni(cpuinfo: Path = Path("/proc/cpuinfo")) -> bool:
    """Whether this CPU multiplies unsigned by signed bytes exactly (x86 VNNI); False where
    it cannot be told (no `/proc/cpuinfo`), since unsigned weights are exact everywhere."""
    try:
        with cpuinfo.open(encoding="utf-8", errors="replace") as f:
            for line in f:
                if line.startswith("flags"):
                    return bool(_VNNI_FLAGS & set(line.split(":", 1)[-1].split()))
    except OSError:
        return False
    return False


def set_weight_signedness(model: Any, *, signed: bool) -> int:
    """Store the integer products' weights and zero points of an ONNX `model` (in place)
    signed or unsigned; returns how many tensors changed. Only weights with a stored zero
    point change, since it shifts with them; the outputs are the same integers."""
    from onnx import TensorProto, numpy_helper

    source = TensorProto.UINT8 if signed else TensorProto.INT8
    inits = {t.name: t for t in model.graph.initializer}
    names = {
        name
        for node in model.graph.node
        if node.op_type == "MatMulInteger" and len(node.input) > 3
        if all(n in inits and inits[n].data_type == source for n in node.input[1::2])
        for name in node.input[1::2]
    }
    for name in sorted(names):
        values = numpy_helper.to_array(inits[name]).astype(np.int16)
        shifted = (values - 128).astype(np.int8) if signed else (values + 128).astype(np.uint8)
        inits[name].CopyFrom(numpy_helper.from_array(shifted, name))
    return len(names)


def graph_for_this_cpu(graph: Path, *, vnni: bool | None = None) -> bytes | None:
    """`graph` serialised with its int8 weights as this CPU (or `vnni`) multiplies them
    exactly, or None when the file already stores them so."""
    import onnx

    model = onnx.load(str(graph))
    changed = set_weight_signedness(model, signed=cpu_has_vnni() if vnni is None else vnni)
    return model.SerializeToString() if changed else None

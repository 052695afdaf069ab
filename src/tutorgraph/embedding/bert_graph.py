"""A BERT encoder's ONNX graph built straight from its weights, without PyTorch.

An install without PyTorch (the engine's default) still needs MiniLM as an ONNX graph: this
writes the same network `torch.onnx.export` traces (embeddings, then per layer self-attention
and the feed-forward block, each followed by a residual LayerNorm; token states out) with
the `onnx` helpers, reading `config.json` and `model.safetensors` with numpy. Its token
states match the PyTorch export's within float32 rounding (checked by
`tests/integration/test_bert_graph.py`).

>>> build_bert_graph(Path(resolve_model_path("all-MiniLM-L6-v2")), Path("model.onnx"))
... # doctest: +SKIP
"""

from __future__ import annotations

import json
import math
import os
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from tutorgraph.embedding.onnx_export import BERT_INPUTS
from tutorgraph.errors import ConfigurationError

__all__ = ["build_bert_graph"]

_OPSET = 17


class _Graph:
    """Nodes and initialisers of one graph, with fresh names for intermediate values."""

    def __init__(self, weights: dict[str, npt.NDArray[Any]], prefix: str) -> None:
        self.nodes: list[Any] = []
        self.inits: list[Any] = []
        self._weights = weights
        self._prefix = prefix
        self._count = 0

    def weight(self, name: str, *, transpose: bool = False) -> str:
        """A weight of the checkpoint as an initialiser (a Linear's transposed for MatMul)."""
        from onnx import numpy_helper

        value = np.asarray(self._weights[self._prefix + name], dtype=np.float32)
        self.inits.append(numpy_helper.from_array(value.T.copy() if transpose else value, name))
        return name

    def const(self, value: npt.NDArray[Any]) -> str:
        from onnx import numpy_helper

        name = self._fresh("const")
        self.inits.append(numpy_helper.from_array(value, name))
        return name

    def op(self, kind: str, *inputs: str, **attrs: Any) -> str:
        from onnx import helper

        out = self._fresh(kind.lower())
        self.nodes.append(helper.make_node(kind, list(inputs), [out], **attrs))
        return out

    def linear(self, x: str, name: str) -> str:
        y = self.op("MatMul", x, self.weight(f"{name}.weight", transpose=True))
        return self.op("Add", y, self.weight(f"{name}.bias"))

    def layer_norm(self, x: str, name: str, eps: float) -> str:
        scale, bias = self.weight(f"{name}.weight"), self.weight(f"{name}.bias")
        return self.op("LayerNormalization", x, scale, bias, axis=-1, epsilon=eps)

    def _fresh(self, stem: str) -> str:
        self._count += 1
        return f"{stem}_{self._count}"


def _prefix(weights: dict[str, npt.NDArray[Any]]) -> str:
    """`bert.` for a checkpoint saved with a head, else none."""
    for prefix in ("", "bert."):
        if f"{prefix}embeddings.word_embeddings.weight" in weights:
            return prefix
    raise ConfigurationError("not a BERT checkpoint: no embeddings.word_embeddings.weight")


def _layer(g: _Graph, x: str, mask: str, i: int, heads: int, hidden: int, eps: float) -> str:
    """One encoder layer: self-attention, then the feed-forward block."""
    name = f"encoder.layer.{i}"
    head_dim = hidden // heads
    split = g.const(np.array([0, 0, heads, head_dim], dtype=np.int64))
    merge = g.const(np.array([0, 0, hidden], dtype=np.int64))

    def heads_of(proj: str, perm: list[int]) -> str:
        y = g.linear(x, f"{name}.attention.self.{proj}")
        return g.op("Transpose", g.op("Reshape", y, split), perm=perm)

    q = heads_of("query", [0, 2, 1, 3])
    k = heads_of("key", [0, 2, 3, 1])
    v = heads_of("value", [0, 2, 1, 3])
    scale = g.const(np.array(1.0 / math.sqrt(head_dim), dtype=np.float32))
    scores = g.op("Add", g.op("Mul", g.op("MatMul", q, k), scale), mask)
    context = g.op("MatMul", g.op("Softmax", scores, axis=-1), v)
    context = g.op("Reshape", g.op("Transpose", context, perm=[0, 2, 1, 3]), merge)
    attended = g.linear(context, f"{name}.attention.output.dense")
    x = g.layer_norm(g.op("Add", attended, x), f"{name}.attention.output.LayerNorm", eps)
    inner = g.linear(x, f"{name}.intermediate.dense")
    # The exact GELU BERT uses: x * 0.5 * (1 + erf(x / sqrt(2))).
    erf = g.op("Erf", g.op("Div", inner, g.const(np.array(math.sqrt(2.0), dtype=np.float32))))
    half = g.const(np.array(0.5, dtype=np.float32))
    one = g.const(np.array(1.0, dtype=np.float32))
    gelu = g.op("Mul", g.op("Mul", inner, half), g.op("Add", erf, one))
    out = g.linear(gelu, f"{name}.output.dense")
    return g.layer_norm(g.op("Add", out, x), f"{name}.output.LayerNorm", eps)


def build_bert_graph(model_dir: Path, onnx_file: Path) -> None:
    """Write the ONNX graph of the BERT encoder in `model_dir` (token states out) to
    `onnx_file`, atomically; inputs and output are named as `export_bert` names them."""
    from onnx import TensorProto, checker, helper, save_model
    from safetensors.numpy import load_file

    config_file, weights_file = model_dir / "config.json", model_dir / "model.safetensors"
    if not config_file.is_file() or not weights_file.is_file():
        raise ConfigurationError(f"{model_dir} has no config.json and model.safetensors")
    config = json.loads(config_file.read_text(encoding="utf-8"))
    if config.get("model_type") != "bert" or config.get("hidden_act", "gelu") != "gelu":
        raise ConfigurationError(f"{model_dir} is not a BERT encoder with GELU activations")
    weights = load_file(str(weights_file))
    g = _Graph(weights, _prefix(weights))
    hidden, heads = int(config["hidden_size"]), int(config["num_attention_heads"])
    eps = float(config.get("layer_norm_eps", 1e-12))
    ids, mask, types = BERT_INPUTS
    # Embeddings: word + position (0..sequence-1) + token type, then LayerNorm.
    length = g.op("Gather", g.op("Shape", ids), g.const(np.array(1, dtype=np.int64)), axis=0)
    positions = g.op(
        "Range",
        g.const(np.array(0, dtype=np.int64)),
        length,
        g.const(np.array(1, dtype=np.int64)),
    )
    x = g.op("Gather", g.weight("embeddings.word_embeddings.weight"), ids, axis=0)
    x = g.op("Add", x, g.op("Gather", g.weight("embeddings.position_embeddings.weight"), positions))
    x = g.op("Add", x, g.op("Gather", g.weight("embeddings.token_type_embeddings.weight"), types))
    x = g.layer_norm(x, "embeddings.LayerNorm", eps)
    # Padding gets the most negative float32 before the softmax, as the PyTorch model does.
    axes = g.const(np.array([1, 2], dtype=np.int64))
    keep = g.op("Unsqueeze", g.op("Cast", mask, to=TensorProto.FLOAT), axes)
    lowest = g.const(np.array(np.finfo(np.float32).min, dtype=np.float32))
    additive = g.op("Mul", g.op("Sub", g.const(np.array(1.0, dtype=np.float32)), keep), lowest)
    for i in range(int(config["num_hidden_layers"])):
        x = _layer(g, x, additive, i, heads, hidden, eps)
    g.nodes.append(helper.make_node("Identity", [x], ["last_hidden_state"]))
    dims = ["batch", "sequence"]
    graph = helper.make_graph(
        g.nodes,
        "bert",
        [helper.make_tensor_value_info(n, TensorProto.INT64, dims) for n in BERT_INPUTS],
        [helper.make_tensor_value_info("last_hidden_state", TensorProto.FLOAT, [*dims, hidden])],
        g.inits,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", _OPSET)])
    checker.check_model(model)
    onnx_file.parent.mkdir(parents=True, exist_ok=True)
    tmp = onnx_file.with_name(f"{onnx_file.name}.{os.getpid()}.tmp")
    try:
        save_model(model, str(tmp))
        os.replace(tmp, onnx_file)
    finally:
        tmp.unlink(missing_ok=True)

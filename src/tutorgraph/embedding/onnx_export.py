"""The one PyTorch -> ONNX export of a BERT-style model (MiniLM's encoder for the embedders,
the cross-encoder for the reranker): three token inputs with dynamic batch and sequence
axes, opset 17, TorchScript exporter, written atomically.

>>> export_bert(AutoModel.from_pretrained(path).eval(), Path("model.onnx"),
...     output="last_hidden_state", pick=lambda out: out.last_hidden_state)  # doctest: +SKIP
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

__all__ = ["BERT_INPUTS", "export_bert"]

BERT_INPUTS = ["input_ids", "attention_mask", "token_type_ids"]


def export_bert(
    model: Any,
    onnx_file: Path,
    *,
    output: str,
    pick: Callable[[Any], Any],
    output_axes: dict[int, str] | None = None,
) -> None:
    """Export `model` (a transformers module in eval mode) to `onnx_file`; its one output,
    named `output`, is `pick(model(...))` (dynamic axes `output_axes`, by default batch and
    sequence). A failed export leaves no file behind."""
    import torch

    class _Wrapped(torch.nn.Module):
        # Keyword arguments through a wrapper: BertModel's positional order has changed
        # between transformers versions.
        def __init__(self) -> None:
            super().__init__()
            self.model = model

        def forward(self, ids: Any, mask: Any, types: Any) -> Any:
            return pick(self.model(input_ids=ids, attention_mask=mask, token_type_ids=types))

    onnx_file.parent.mkdir(parents=True, exist_ok=True)
    tmp = onnx_file.with_name(f"{onnx_file.name}.{os.getpid()}.tmp")
    dummy = torch.ones((2, 16), dtype=torch.long)
    axes: dict[str, dict[int, str]] = {name: {0: "batch", 1: "sequence"} for name in BERT_INPUTS}
    axes[output] = output_axes or {0: "batch", 1: "sequence"}
    try:
        with warnings.catch_warnings(), torch.no_grad():
            warnings.simplefilter("ignore")  # TorchScript tracing notes that do not apply
            torch.onnx.export(
                _Wrapped(),
                (dummy, dummy, torch.zeros_like(dummy)),
                str(tmp),
                input_names=BERT_INPUTS,
                output_names=[output],
                dynamic_axes=axes,
                opset_version=17,
                dynamo=False,
            )
        os.replace(tmp, onnx_file)
    finally:
        tmp.unlink(missing_ok=True)

"""The optional dependencies: the server backends a user may not need.

`pip install tutorgraph` runs the embedded pipeline (Chroma, BM25, the NetworkX graph, the
local refiner, MiniLM and the learned ranker on ONNX Runtime and LightGBM, no PyTorch);
`tutorgraph[neo4j]`, `tutorgraph[openai]` and `tutorgraph[server]` (the HTTP API) add the
server backends, `tutorgraph[all]` all of them; `tutorgraph[torch]` the PyTorch backends and
`tutorgraph[train]` the trainers.

>>> require("json", "server", "the HTTP API")  # a module that is there: nothing happens
"""

from __future__ import annotations

from importlib.util import find_spec

from tutorgraph.errors import ConfigurationError

__all__ = ["require"]


def require(module: str, extra: str, what: str) -> None:
    """Raise `ConfigurationError` naming the extra to install when `module` is missing."""
    if find_spec(module) is None:
        raise ConfigurationError(
            f"{what} needs the optional dependency {module!r}: pip install 'tutorgraph[{extra}]'",
            details={"extra": extra},
        )

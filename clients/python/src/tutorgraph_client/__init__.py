"""tutorgraph-client: Python clients for a tutorgraph server, without the engine.

The clients, the API's pydantic models (`tutorgraph_client.models`) and the error tree
(`tutorgraph_client.errors`) need only httpx, httpx-sse and pydantic; the engine
(`tutorgraph`) uses these same models and errors. The framework retrievers are in
`tutorgraph_client.integrations` (extras `langchain`, `llamaindex`).

>>> from tutorgraph_client import TutorGraph
>>> with TutorGraph("http://127.0.0.1:8000", api_key="...") as tg:  # doctest: +SKIP
...     packet = tg.retrieve("I got 3 + 4 x 2 = 14")
...     print(packet.slots.misconceptions.hits[0].title)
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tutorgraph_client._client import AnswerEvent, AsyncTutorGraph, TutorGraph
    from tutorgraph_client.errors import TutorGraphError
    from tutorgraph_client.models.packet import ReasoningPacket
    from tutorgraph_client.models.request import RetrievalRequest, Turn

# Loaded on first use: the engine imports `tutorgraph_client.models` without httpx.
_EXPORTS = {
    "AnswerEvent": "tutorgraph_client._client",
    "AsyncTutorGraph": "tutorgraph_client._client",
    "TutorGraph": "tutorgraph_client._client",
    "TutorGraphError": "tutorgraph_client.errors",
    "ReasoningPacket": "tutorgraph_client.models.packet",
    "RetrievalRequest": "tutorgraph_client.models.request",
    "Turn": "tutorgraph_client.models.request",
}


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'tutorgraph_client' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_EXPORTS})


__all__ = [
    "AnswerEvent",
    "AsyncTutorGraph",
    "ReasoningPacket",
    "RetrievalRequest",
    "Turn",
    "TutorGraph",
    "TutorGraphError",
]
__version__ = "0.1.0"

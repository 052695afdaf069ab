"""A LlamaIndex retriever over tutorgraph: in process (a `HybridRetriever`) or remote (the
`tutorgraph_client` clients). Each hit becomes a `NodeWithScore` (a `TextNode` with the
hit's id, its provenance as metadata, and its final score). Needs `tutorgraph-client[llamaindex]`.

>>> retriever = TutorGraphRetriever(TutorGraph("http://127.0.0.1:8000", api_key=k))
... # doctest: +SKIP
>>> retriever.retrieve("why is 3/4 bigger than 2/3?")[0].node.metadata["kind"]
... # doctest: +SKIP
'concept'
"""

from __future__ import annotations

from typing import Any

from llama_index.core.base.base_retriever import BaseRetriever
from llama_index.core.schema import NodeWithScore, QueryBundle, TextNode

from tutorgraph_client.integrations.packets import (
    PacketSource,
    aretrieve,
    hit_metadata,
    hit_text,
    request_for,
    retrieve,
)
from tutorgraph_client.models.packet import ReasoningPacket, teaching_first

__all__ = ["TutorGraphRetriever"]


def _nodes(packet: ReasoningPacket, k: int) -> list[NodeWithScore]:
    # Teaching first, then the results: `k` nodes in all (`teaching_first`).
    return [
        NodeWithScore(
            node=TextNode(id_=h.id, text=hit_text(h), metadata=hit_metadata(h, packet)),
            score=h.score,
        )
        for h in teaching_first(packet.lessons, packet.results, k)
    ]


class TutorGraphRetriever(BaseRetriever):
    """`source`: a `HybridRetriever`, an `AsyncTutorGraph` or a `TutorGraph`;
    `similarity_top_k`: how many nodes; `request_fields`: other `RetrievalRequest` fields."""

    def __init__(
        self,
        source: PacketSource,
        *,
        similarity_top_k: int = 10,
        request_fields: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> None:
        self._source = source
        self._k = similarity_top_k
        self._fields = dict(request_fields or {})
        super().__init__(**kwargs)

    def _retrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        request = request_for(query_bundle.query_str, self._k, self._fields)
        return _nodes(retrieve(self._source, request), request.n_results)

    async def _aretrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        request = request_for(query_bundle.query_str, self._k, self._fields)
        return _nodes(await aretrieve(self._source, request), request.n_results)

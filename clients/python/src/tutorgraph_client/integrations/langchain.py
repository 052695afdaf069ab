"""A LangChain retriever over tutorgraph: in process (a `HybridRetriever`) or remote (the
`tutorgraph_client` clients). Each hit becomes a `Document` whose metadata carries its
kind, ids, `found_by`, graph path and diagnosis, the packet's verdict (`no_match`,
`no_match_reason`, `confidence`) and its score on one scale: `score` is `reciprocal_rank`,
1 / n for the n-th lesson or the n-th result, the same scale as the LlamaIndex adapter's
(`integrations/packets.py`); the hit's own score is `hit_score`, on `hit_score_scale`. On a
`no_match` packet (off topic, or nothing matched) it gives no documents, so a chain feeds
its model nothing off topic, unless built with `include_no_match=True`. Needs
`tutorgraph-client[langchain]`.

>>> retriever = TutorGraphRetriever(source=TutorGraph("http://127.0.0.1:8000", api_key=k))
... # doctest: +SKIP
>>> doc = retriever.invoke("why is 3/4 bigger than 2/3?")[0]  # doctest: +SKIP
>>> doc.metadata["kind"], doc.metadata["score"], doc.metadata["no_match"]  # doctest: +SKIP
('explanation', 1.0, False)
>>> TutorGraphRetriever(source=tg).invoke("who won the game last night?")  # doctest: +SKIP
[]
"""

from __future__ import annotations

from typing import Any

from langchain_core.callbacks import (
    AsyncCallbackManagerForRetrieverRun,
    CallbackManagerForRetrieverRun,
)
from langchain_core.documents import Document
from langchain_core.retrievers import BaseRetriever
from pydantic import ConfigDict, Field

from tutorgraph_client.integrations.packets import (
    aretrieve,
    documents_of,
    hit_text,
    request_for,
    retrieve,
)
from tutorgraph_client.models.packet import ReasoningPacket

__all__ = ["TutorGraphRetriever"]


def _documents(packet: ReasoningPacket, k: int, *, include_no_match: bool) -> list[Document]:
    # Teaching first, then the results: `k` documents in all (`teaching_first`).
    return [
        Document(page_content=hit_text(h), metadata=meta, id=h.id)
        for h, meta in documents_of(packet, k, include_no_match=include_no_match)
    ]


class TutorGraphRetriever(BaseRetriever):
    """`source`: a `HybridRetriever`, an `AsyncTutorGraph` or a `TutorGraph`; `k`: how many
    documents; `request_fields`: any other `RetrievalRequest` field (a student's answer,
    concept ids, a profile); `include_no_match`: give a `no_match` packet's documents too
    (each says `no_match` and why in its metadata) instead of none."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    source: Any
    k: int = Field(default=10, ge=1, le=50)
    request_fields: dict[str, Any] = Field(default_factory=dict)
    include_no_match: bool = False

    def _get_relevant_documents(
        self,
        query: str,
        *,
        run_manager: CallbackManagerForRetrieverRun,  # noqa: ARG002 - the base class passes it
        k: int | None = None,
        **fields: Any,
    ) -> list[Document]:
        request = request_for(query, k or self.k, {**self.request_fields, **fields})
        packet = retrieve(self.source, request)
        return _documents(packet, request.n_results, include_no_match=self.include_no_match)

    async def _aget_relevant_documents(
        self,
        query: str,
        *,
        run_manager: AsyncCallbackManagerForRetrieverRun,  # noqa: ARG002
        k: int | None = None,
        **fields: Any,
    ) -> list[Document]:
        request = request_for(query, k or self.k, {**self.request_fields, **fields})
        packet = await aretrieve(self.source, request)
        return _documents(packet, request.n_results, include_no_match=self.include_no_match)

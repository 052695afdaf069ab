"""A LangChain retriever over tutorgraph: in process (a `HybridRetriever`) or remote (the
`tutorgraph_client` clients). Each hit becomes a `Document` whose metadata carries its
kind, ids, `found_by`, scores, graph path and diagnosis. Needs `tutorgraph-client[langchain]`.

>>> retriever = TutorGraphRetriever(source=TutorGraph("http://127.0.0.1:8000", api_key=k))
... # doctest: +SKIP
>>> retriever.invoke("why is 3/4 bigger than 2/3?")[0].metadata["kind"]  # doctest: +SKIP
'concept'
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
    hit_metadata,
    hit_text,
    request_for,
    retrieve,
)
from tutorgraph_client.models.packet import ReasoningPacket, teaching_first

__all__ = ["TutorGraphRetriever"]


def _documents(packet: ReasoningPacket, k: int) -> list[Document]:
    # Teaching first, then the results: `k` documents in all (`teaching_first`).
    return [
        Document(page_content=hit_text(h), metadata=hit_metadata(h, packet), id=h.id)
        for h in teaching_first(packet.lessons, packet.results, k)
    ]


class TutorGraphRetriever(BaseRetriever):
    """`source`: a `HybridRetriever`, an `AsyncTutorGraph` or a `TutorGraph`; `k`: how many
    documents; `request_fields`: any other `RetrievalRequest` field (a student's answer,
    concept ids, a profile)."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    source: Any
    k: int = Field(default=10, ge=1, le=50)
    request_fields: dict[str, Any] = Field(default_factory=dict)

    def _get_relevant_documents(
        self,
        query: str,
        *,
        run_manager: CallbackManagerForRetrieverRun,  # noqa: ARG002 - the base class passes it
        k: int | None = None,
        **fields: Any,
    ) -> list[Document]:
        request = request_for(query, k or self.k, {**self.request_fields, **fields})
        return _documents(retrieve(self.source, request), request.n_results)

    async def _aget_relevant_documents(
        self,
        query: str,
        *,
        run_manager: AsyncCallbackManagerForRetrieverRun,  # noqa: ARG002
        k: int | None = None,
        **fields: Any,
    ) -> list[Document]:
        request = request_for(query, k or self.k, {**self.request_fields, **fields})
        return _documents(await aretrieve(self.source, request), request.n_results)

"""A LlamaIndex retriever over tutorgraph: in process (a `HybridRetriever`) or remote (the
`tutorgraph_client` clients). Each hit becomes a `NodeWithScore`: a `TextNode` with the
hit's id, its provenance and the packet's verdict (`no_match`, `no_match_reason`,
`confidence`) as metadata, kept out of the text a model or an embedder reads but for `id`,
`kind` and `title`. Needs `tutorgraph-client[llamaindex]`.

The score is `reciprocal_rank`, the same scale as the LangChain adapter's
(`integrations/packets.py`): 1 / n for the n-th lesson or the n-th result, in [0, 1] and
never rising in the order the nodes come, so `SimilarityPostprocessor(similarity_cutoff=c)`
keeps the first 1 / c lessons and the first 1 / c results (0.5: two of each), whatever their
kinds; the hit's own score (a cosine for a lesson, fused, reranked or learned for a result)
is `metadata["hit_score"]`, on `metadata["hit_score_scale"]`. On a `no_match` packet (off
topic, or nothing matched) it gives no nodes unless built with `include_no_match=True`.

>>> retriever = TutorGraphRetriever(TutorGraph("http://127.0.0.1:8000", api_key=k))
... # doctest: +SKIP
>>> node = retriever.retrieve("why is 3/4 bigger than 2/3?")[0]  # doctest: +SKIP
>>> node.score, node.node.metadata["kind"], node.node.metadata["no_match"]  # doctest: +SKIP
(1.0, 'explanation', False)
"""

from __future__ import annotations

from typing import Any

from llama_index.core.base.base_retriever import BaseRetriever
from llama_index.core.schema import NodeWithScore, QueryBundle, TextNode

from tutorgraph_client.integrations.packets import (
    PacketSource,
    aretrieve,
    documents_of,
    hit_text,
    request_for,
    retrieve,
)
from tutorgraph_client.models.packet import ReasoningPacket

__all__ = ["TutorGraphRetriever"]


# The metadata a model's prompt shows (what an answer cites and what it is); an embedder
# sees the kind and title only. The rest (scores, provenance, the verdict) is for the app.
_LLM_KEYS = frozenset({"id", "kind", "title"})
_EMBED_KEYS = frozenset({"kind", "title"})


def _node(text: str, meta: dict[str, Any]) -> NodeWithScore:
    node = TextNode(
        id_=meta["id"],
        text=text,
        metadata=meta,
        excluded_llm_metadata_keys=sorted(meta.keys() - _LLM_KEYS),
        excluded_embed_metadata_keys=sorted(meta.keys() - _EMBED_KEYS),
    )
    return NodeWithScore(node=node, score=meta["score"])


def _nodes(packet: ReasoningPacket, k: int, *, include_no_match: bool) -> list[NodeWithScore]:
    # Teaching first, then the results: `k` nodes in all (`teaching_first`).
    return [
        _node(hit_text(h), meta)
        for h, meta in documents_of(packet, k, include_no_match=include_no_match)
    ]


class TutorGraphRetriever(BaseRetriever):
    """`source`: a `HybridRetriever`, an `AsyncTutorGraph` or a `TutorGraph`;
    `similarity_top_k`: how many nodes; `request_fields`: other `RetrievalRequest` fields;
    `include_no_match`: give a `no_match` packet's nodes too (each says `no_match` and why
    in its metadata) instead of none."""

    def __init__(
        self,
        source: PacketSource,
        *,
        similarity_top_k: int = 10,
        request_fields: dict[str, Any] | None = None,
        include_no_match: bool = False,
        **kwargs: Any,
    ) -> None:
        self._source = source
        self._k = similarity_top_k
        self._fields = dict(request_fields or {})
        self._include_no_match = include_no_match
        super().__init__(**kwargs)

    def _retrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        request = request_for(query_bundle.query_str, self._k, self._fields)
        packet = retrieve(self._source, request)
        return _nodes(packet, request.n_results, include_no_match=self._include_no_match)

    async def _aretrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        request = request_for(query_bundle.query_str, self._k, self._fields)
        packet = await aretrieve(self._source, request)
        return _nodes(packet, request.n_results, include_no_match=self._include_no_match)

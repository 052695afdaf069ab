"""Training groups for a reranker: a query, its labelled positive, and hard negatives.

The hard negatives are the retriever's own top misconception candidates that are not the
label: the mistakes the reranker exists to fix.

>>> groups = await mine_groups(retriever, pairs, pool=10)  # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from tutorgraph.retrieval.retriever import HybridRetriever
from tutorgraph_client.models.request import RetrievalRequest

__all__ = ["LabelledQuery", "TrainingGroup", "mine_groups"]


@dataclass(frozen=True)
class LabelledQuery:
    """A query, the id of its one correct misconception, and concept ids for context."""

    query: str
    target: str
    concept_ids: tuple[str, ...] = ()


@dataclass(frozen=True)
class TrainingGroup:
    query: str
    positive: str
    # Texts of the top non-target misconception hits, best first.
    hard_negatives: tuple[str, ...]
    # The target's 1-based rank among the first stage's misconception hits (None: missed).
    positive_rank: int | None = None


async def mine_groups(
    retriever: HybridRetriever,
    queries: Sequence[LabelledQuery],
    texts: dict[str, str],
    *,
    pool: int = 10,
    progress: Callable[[int, int], None] | None = None,
) -> list[TrainingGroup]:
    """One group per query whose target text is known; `texts` maps misconception ids."""
    groups: list[TrainingGroup] = []
    for n, q in enumerate(queries, start=1):
        if q.target in texts:
            packet = await retriever.retrieve(
                RetrievalRequest(
                    query=q.query,
                    n_results=50,
                    max_context_tokens=0,
                    concept_ids=list(q.concept_ids),
                    rerank=False,
                )
            )
            positive = texts[q.target]
            ranked = [h for h in packet.results if h.kind == "misconception"]
            rank = next((i for i, h in enumerate(ranked, 1) if q.target in h.ids), None)
            negatives = [
                h.text
                for h in packet.results
                if h.kind == "misconception" and q.target not in h.ids and h.text != positive
            ]
            groups.append(TrainingGroup(q.query, positive, tuple(negatives[:pool]), rank))
        if progress:
            progress(n, len(queries))
    return groups

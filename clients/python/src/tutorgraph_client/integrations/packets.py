"""What the framework adapters share: where packets come from, which hits become
documents, their one score scale, and a hit's metadata.

A `PacketSource` is anything with `retrieve(request)` giving a `ReasoningPacket`, awaited
or not: the in-process `HybridRetriever`, the async `AsyncTutorGraph` client, or the sync
`TutorGraph` client.

**The score** of every document (LangChain's `metadata["score"]`, LlamaIndex's
`NodeWithScore.score`) is `SCORE_SCALE`, `reciprocal_rank`: 1 / n for the n-th hit of its
list, the packet's `lessons` or its `results` less those lessons. The packet's own scores
cannot share one scale (a lesson's is a cosine, a result's a fused RRF score, a
cross-encoder's or the learned ranker's, any real number), so any cutoff on them dropped a
whole list; a rank is the one thing every hit has. The first lesson and the first result
both score 1.0, the second of each 0.5: the scores never rise in the order the documents
come (teaching first), so a cutoff keeps a prefix of them, and a cutoff of 1 / n the first n
of each list. The hit's own score stays in the metadata as `hit_score`, with what it is in
`hit_score_scale` (`cosine`, `fused`, `rerank` or `learned`).

**The verdict**: every document's metadata carries the packet's `no_match`, its
`no_match_reason` and its `confidence`; on `no_match` an adapter gives no documents unless
it was built with `include_no_match=True`.

**The dialogue**: each adapter turns its framework's chat history into `(role, text)` pairs
(its student's messages and its tutor's; system and tool messages are not turns) and
`conversation_of` fits them to the request's limits, so a long chat is never a 422: empty
turns are dropped, a turn over `MAX_TURN_CHARS` keeps its end (where a tutor's question
usually is), a last student turn that repeats the query is dropped (a history that already
holds it), then the latest `MAX_TURNS` turns are kept, fewer if they pass
`MAX_CONVERSATION_CHARS` in all.

>>> [(m["score"], m["kind"]) for _, m in documents_of(packet, 3, include_no_match=False)]
... # doctest: +SKIP
[(1.0, 'explanation'), (1.0, 'misconception'), (0.5, 'worked_example')]
>>> hit_metadata(packet.results[0], packet)["found_by"]  # doctest: +SKIP
['vector', 'graph']
>>> [t.text for t in conversation_of([("tutor", "What is 7 + 6?"), ("student", " ")], "12?")]
['What is 7 + 6?']
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Awaitable, Iterable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Literal, Protocol

from tutorgraph_client.models.conversation import (
    MAX_CONVERSATION_CHARS,
    MAX_TURN_CHARS,
    MAX_TURNS,
    Role,
    Turn,
)
from tutorgraph_client.models.packet import Hit, ReasoningPacket, teaching_first
from tutorgraph_client.models.request import RetrievalRequest

__all__ = [
    "SCORE_SCALE",
    "PacketSource",
    "aretrieve",
    "conversation_of",
    "documents_of",
    "hit_metadata",
    "hit_text",
    "request_for",
    "retrieve",
]

# What a document's score is (module docstring); named in every document's metadata.
SCORE_SCALE = "reciprocal_rank"

HitScoreScale = Literal["cosine", "fused", "rerank", "learned"]


class PacketSource(Protocol):
    def retrieve(
        self, request: RetrievalRequest, /
    ) -> ReasoningPacket | Awaitable[ReasoningPacket]: ...


def request_for(
    query: str, k: int, fields: dict[str, Any], history: list[Turn] | None = None
) -> RetrievalRequest:
    """The request for a framework's query: `k` results, the adapter's request fields and,
    when the framework passed a chat history, its turns as the `conversation`."""
    extra = {"conversation": history} if history else {}
    return RetrievalRequest.model_validate({**fields, **extra, "query": query, "n_results": k})


def _cut_to_end(text: str) -> str:
    # The turn's last MAX_TURN_CHARS characters, from a word's start where one is near.
    tail = text[-MAX_TURN_CHARS:]
    space = tail.find(" ", 0, 80)
    return (tail[space + 1 :] if space >= 0 else tail).strip()


def conversation_of(turns: Iterable[tuple[Role, str]], query: str) -> list[Turn]:
    """A framework's chat history, oldest first, as the request's `conversation`, within its
    limits (module docstring): a long chat is cut to its latest turns, never refused.

    >>> len(conversation_of([("tutor", "go on")] * 80, "12?"))
    50
    """
    kept: list[Turn] = []
    for role, text in turns:
        text = text.strip()
        if not text:
            continue
        if len(text) > MAX_TURN_CHARS:
            text = _cut_to_end(text)
        kept.append(Turn(role=role, text=text))
    if kept and kept[-1].role == "student" and kept[-1].text == query.strip():
        kept.pop()
    kept = kept[-MAX_TURNS:]
    total = sum(len(t.text) for t in kept)
    while total > MAX_CONVERSATION_CHARS:
        total -= len(kept.pop(0).text)
    return kept


async def aretrieve(source: PacketSource, request: RetrievalRequest) -> ReasoningPacket:
    out = source.retrieve(request)
    return await out if inspect.isawaitable(out) else out


def retrieve(source: PacketSource, request: RetrievalRequest) -> ReasoningPacket:
    """A packet from sync code: an async source runs on a fresh event loop (in a worker
    thread when the caller's thread already runs one)."""
    out = source.retrieve(request)
    if not inspect.isawaitable(out):
        return out

    async def wait() -> ReasoningPacket:
        return await out

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(wait())
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, wait()).result()


def hit_text(hit: Hit) -> str:
    return f"{hit.title}: {hit.text}" if hit.title else hit.text


def documents_of(
    packet: ReasoningPacket, k: int, *, include_no_match: bool
) -> list[tuple[Hit, dict[str, Any]]]:
    """The first `k` hits in the order a model should read them (`teaching_first`), each
    with its metadata, whose `score` is on `SCORE_SCALE` (1 / n for the n-th of its list:
    the lessons, or the results the lessons do not hold); none for a `no_match` packet
    unless `include_no_match`."""
    if packet.no_match and not include_no_match:
        return []
    lesson_ids = {h.id for h in packet.lessons}
    counts = {"lessons": 0, "results": 0}
    out = []
    for hit in teaching_first(packet.lessons, packet.results, k):
        lesson = hit.id in lesson_ids
        which = "lessons" if lesson else "results"
        counts[which] += 1
        meta = hit_metadata(hit, packet)
        meta.update(
            score=1.0 / counts[which],
            score_scale=SCORE_SCALE,
            list=which,
            list_rank=counts[which],
            hit_score=hit.score,
            hit_score_scale=_hit_scale(hit, lesson=lesson),
        )
        out.append((hit, meta))
    return out


def _hit_scale(hit: Hit, *, lesson: bool) -> HitScoreScale:
    # What set the hit's `score` (design section 2): the lessons search's cosine, else the
    # learned ranker's score, the cross-encoder's, or the fused score, the later stage
    # writing over the earlier.
    if lesson:
        return "cosine"
    if hit.learned_score is not None:
        return "learned"
    return "rerank" if hit.rerank_score is not None else "fused"


def hit_metadata(hit: Hit, packet: ReasoningPacket) -> dict[str, Any]:
    """A hit's provenance as flat-ish metadata: kind, ids, how it was found, its scores,
    its graph path, the packet's diagnosis of it, the packet's verdict (`no_match`,
    `no_match_reason`, `confidence`) and what it read from the dialogue (`dialogue`: the
    problem, the answer's turn, a help request, chit-chat, the topic; None without one).
    `score` here is the hit's own; `documents_of` replaces it with the adapters' one scale."""
    diagnosis = [d.model_dump() for d in packet.diagnosis if d.misconception_id in hit.ids]
    return {
        "id": hit.id,
        "ids": hit.ids,
        "kind": hit.kind,
        "title": hit.title,
        "rank": hit.rank,
        "score": hit.score,
        "found_by": hit.found_by,
        "source_ranks": hit.source_ranks,
        "fused_score": hit.fused_score,
        "rerank_score": hit.rerank_score,
        "learned_score": hit.learned_score,
        "graph_path": hit.graph_path,
        "concept_ids": hit.concept_ids,
        "diagnosis": diagnosis,
        "degraded_sources": packet.degraded_sources,
        "no_match": packet.no_match,
        "no_match_reason": packet.no_match_reason,
        "confidence": packet.confidence,
        "dialogue": packet.dialogue.model_dump() if packet.dialogue is not None else None,
    }

"""What the framework adapters share: where packets come from, and a hit's metadata.

A `PacketSource` is anything with `retrieve(request)` giving a `ReasoningPacket`, awaited
or not: the in-process `HybridRetriever`, the async `AsyncTutorGraph` client, or the sync
`TutorGraph` client.

>>> hit_metadata(packet.results[0], packet)["found_by"]  # doctest: +SKIP
['vector', 'graph']
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Awaitable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Protocol

from tutorgraph_client.models.packet import Hit, ReasoningPacket
from tutorgraph_client.models.request import RetrievalRequest

__all__ = ["PacketSource", "aretrieve", "hit_metadata", "hit_text", "request_for", "retrieve"]


class PacketSource(Protocol):
    def retrieve(
        self, request: RetrievalRequest, /
    ) -> ReasoningPacket | Awaitable[ReasoningPacket]: ...


def request_for(query: str, k: int, fields: dict[str, Any]) -> RetrievalRequest:
    """The request for a framework's query: `k` results and the adapter's request fields."""
    return RetrievalRequest.model_validate({**fields, "query": query, "n_results": k})


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


def hit_metadata(hit: Hit, packet: ReasoningPacket) -> dict[str, Any]:
    """A hit's provenance as flat-ish metadata: kind, ids, how it was found, its scores,
    its graph path, and the packet's diagnosis of it."""
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
    }

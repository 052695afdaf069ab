"""The reference configuration timed with its graph on a Bolt server: ArcadeDB's
Neo4j-compatible server, started in a temporary folder and loaded with the index's
catalogue, standing in for Neo4j (which is never run here).

>>> run = BoltRun(index_dir, index, DEFAULT, queries, warmup, Settings())  # doctest: +SKIP
>>> row = (await time_on_bolt(run, make_retriever, None, None))["row"]  # doctest: +SKIP
"""

from __future__ import annotations

import asyncio
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tutorgraph.retrieval.retriever import HybridRetriever
from tutorgraph_research.harness.configs import RunConfig
from tutorgraph_research.tasks.latency_configs import LATENCY_SOURCE_TIMEOUT_S, latency_by_config
from tutorgraph_research.tasks.latency_queries import LatencyQuery

if TYPE_CHECKING:
    from tutorgraph.config import Settings
    from tutorgraph.index.local import LocalIndex
    from tutorgraph.stores.protocols import IndexReader
    from tutorgraph_research.harness.bolt_server import BoltServer

__all__ = ["BOLT_STAND_IN", "BOLT_WARMUP_PASSES", "BoltRun", "gist", "time_on_bolt"]

# What the Bolt numbers are, said wherever they appear: no Neo4j server was ever timed.
BOLT_STAND_IN = (
    "ArcadeDB's Neo4j-compatible Bolt server, on the same machine, standing in for Neo4j; "
    "Neo4j itself was never run"
)
# How many times the warm-up queries run before the Bolt server is timed, and its heap.
BOLT_WARMUP_PASSES = 3
_BOLT_HEAP = "2g"


def gist(message: str) -> str:
    """The first line of an error message, at most 160 characters.

    >>> gist("no such file\\nTraceback (most recent call last): ...")
    'no such file'
    """
    line = message.strip().splitlines()[0] if message.strip() else "unknown error"
    return line[:160]


@dataclass(frozen=True)
class BoltRun:
    """What the Bolt measurement times: `config` over `queries` on the index's catalogue."""

    index_dir: Path
    index: LocalIndex
    config: RunConfig
    queries: Sequence[LatencyQuery]
    warmup: Sequence[str]
    settings: Settings


async def time_on_bolt(
    run: BoltRun,
    make: Callable[[IndexReader], HybridRetriever],
    work: Path | None,
    progress: Callable[[int, int], None] | None,
) -> dict[str, Any]:
    """`run.config` timed with the index's graph in an ArcadeDB Bolt server started in a
    temporary folder under `work` (the vectors and BM25 stay the index's), or "not
    measured: <reason>" when the server cannot start or load the graph.

    >>> (await time_on_bolt(run, make_retriever, None, None))["status"]  # doctest: +SKIP
    'ok'
    """
    from tutorgraph.errors import TutorGraphError
    from tutorgraph_research.harness.bolt_server import arcadedb_server

    if work is not None:
        await asyncio.to_thread(work.mkdir, parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(
        prefix="latency-arcadedb-", dir=work, ignore_cleanup_errors=True
    ) as tmp:
        server = arcadedb_server(Path(tmp), heap=_BOLT_HEAP)
        try:
            bolt = await asyncio.to_thread(server.__enter__)
        except (ImportError, OSError, RuntimeError) as exc:
            return {
                "status": "not measured: the ArcadeDB Bolt server could not start here "
                f"({gist(str(exc))})"
            }
        try:
            return await _load_and_time(run, make, bolt, progress)
        except TutorGraphError as exc:
            return {
                "status": "not measured: the graph could not be loaded into or read from "
                f"the Bolt server ({gist(exc.message)})"
            }
        finally:
            await asyncio.to_thread(server.__exit__, None, None, None)


async def _load_and_time(
    run: BoltRun,
    make: Callable[[IndexReader], HybridRetriever],
    bolt: BoltServer,
    progress: Callable[[int, int], None] | None,
) -> dict[str, Any]:
    """Load the catalogue into the Bolt server as `tutorgraph ingest` does, check it holds
    what the embedded graph holds, then time `run.config` over it."""
    from pydantic import SecretStr

    from tutorgraph.index.layout import IndexLayout, load_catalogue
    from tutorgraph.index.local import LocalIndex
    from tutorgraph.index.service import graph_store
    from tutorgraph.stores.embedded_graph import EmbeddedGraphStore

    store = graph_store(
        run.settings.model_copy(
            update={
                "neo4j_uri": bolt.uri,
                "neo4j_user": bolt.user,
                "neo4j_password": SecretStr(bolt.password),
                "neo4j_database": bolt.database,
                "arcadedb_http_url": bolt.http_url,
                "source_timeout_s": LATENCY_SOURCE_TIMEOUT_S,
            }
        )
    )
    assert store is not None  # the URI is set
    try:
        agent = str((await store.verify())["agent"])
        started = time.perf_counter()
        catalogue = await asyncio.to_thread(load_catalogue, IndexLayout.live(run.index_dir))
        await store.ensure_schema()
        await store.upsert(catalogue)
        head: dict[str, Any] = {
            "agent": agent,
            "load_s": round(time.perf_counter() - started, 1),
            "graph_counts": await store.stats(),
        }
        graph = run.index.graph
        embedded = await graph.stats() if isinstance(graph, EmbeddedGraphStore) else None
        if head["graph_counts"] != embedded:
            return head | {
                "status": "not measured: the Bolt server's graph does not hold what the "
                f"embedded one holds ({embedded})"
            }
        # As the service opens the index with Neo4j configured: the graph on the Bolt
        # server, the vectors still the embedded index's (it closes them), BM25 from disk.
        reader = await asyncio.to_thread(
            LocalIndex.load,
            run.index_dir,
            embedder=run.index.manifest.embedder,
            vector=run.index.vector,
            graph=store,
        )
        retriever = make(reader)
        try:
            (row,) = await latency_by_config(
                {run.config.name: retriever},
                [run.config],
                run.queries,
                warmup=run.warmup,
                progress=progress,
            )
        finally:
            await retriever.aclose()
    finally:
        await store.aclose()
    status = row["status"]
    if row["n_degraded"]:
        status = (
            f"not measured: {row['n_degraded']} of {row['n_queries']} packets came back "
            "degraded (a search on the Bolt server failed)"
        )
    return head | {"status": status, "row": row}

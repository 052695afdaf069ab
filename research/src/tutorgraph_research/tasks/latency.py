"""Warm retrieval latency over a fixed query set: p50/p95/p99 per stage of `timings_ms`.

`measure_latency` times one retriever; `latency_by_config` times every research
configuration (`harness/configs.py`) over the same queries, and `run_latency_harness` does that
on a local index with the bundled reranker and learned ranker, naming what it could not
measure; it then times the diagnosis on student messages (`DIAGNOSIS_QUERIES`), and the
reference configuration again with the graph on a Bolt server (ArcadeDB standing in for
Neo4j, which is never run here).

Its parts are modules of their own, whose public names this module exports too: the query
sets (`latency_queries`), timing one retriever (`latency_timing`), the per-configuration
runner (`latency_configs`) and the Bolt run (`latency_bolt`).

>>> report = await measure_latency(retriever, queries, warmup=10)  # doctest: +SKIP
>>> rows = await latency_by_config({"default": retriever}, [DEFAULT], queries)  # doctest: +SKIP
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tutorgraph.embedding.reranker import CrossEncoderReranker
from tutorgraph.retrieval.retriever import HybridRetriever
from tutorgraph.retrieval.retriever_config import OpenAIRefinerConfig, RetrieverConfig
from tutorgraph_research.harness.configs import RunConfig
from tutorgraph_research.harness.provenance import hardware
from tutorgraph_research.tasks.latency_bolt import (
    BOLT_STAND_IN,
    BOLT_WARMUP_PASSES,
    BoltRun,
    gist,
    time_on_bolt,
)
from tutorgraph_research.tasks.latency_configs import (
    LATENCY_SOURCE_TIMEOUT_S,
    RetrieverSource,
    latency_by_config,
)
from tutorgraph_research.tasks.latency_queries import (
    DIAGNOSIS_QUERIES,
    LATENCY_QUERIES,
    REPO_ROOT,
    WARMUP_QUERIES,
    LatencyQuery,
    load_diagnosis_queries,
    load_query_set,
    question_constructs,
)
from tutorgraph_research.tasks.latency_timing import (
    LATENCY_STAGES,
    measure_latency,
    measure_rerank_latency,
    percentiles,
    ran_percentiles,
)

if TYPE_CHECKING:
    from tutorgraph.config import Settings
    from tutorgraph.ranking.model import LearnedRanker
    from tutorgraph.stores.protocols import IndexReader

__all__ = [
    "BOLT_STAND_IN",
    "DIAGNOSIS_QUERIES",
    "LATENCY_QUERIES",
    "LATENCY_STAGES",
    "WARMUP_QUERIES",
    "LatencyQuery",
    "RetrieverSource",
    "hardware",
    "latency_by_config",
    "load_diagnosis_queries",
    "load_query_set",
    "measure_latency",
    "measure_rerank_latency",
    "percentiles",
    "ran_percentiles",
    "read_through",
    "run_latency_harness",
]


def _why(message: str) -> str:
    """A model load error in a few words for a table note (the hub's message runs to lines)."""
    lowered = message.lower()
    if "connect" in lowered or "offline" in lowered or "cached files" in lowered:
        return "no model hub here and no local copy"
    return gist(message)


def read_through(folder: Path) -> int:
    """Read every file under `folder` once (into the OS page cache); returns the bytes read."""
    total = 0
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            with path.open("rb") as f:
                while chunk := f.read(1 << 20):
                    total += len(chunk)
    return total


async def run_latency_harness(
    index_dir: Path,
    configs: Sequence[RunConfig],
    queries: Sequence[LatencyQuery],
    warmup: Sequence[str],
    *,
    settings: Settings | None = None,
    embedder: Any = None,
    progress: Callable[[int, int], None] | None = None,
    diagnosis_queries: Sequence[LatencyQuery] | None = None,
    bolt: bool = True,
    bolt_work: Path | None = None,
) -> dict[str, Any]:
    """`latency_by_config` on the index at `index_dir` (embedded Chroma, BM25, embedded
    graph); then a configuration with the diagnosis on (the reference when it has it; the
    reference is the first with factor "best", else the first) over `diagnosis_queries`
    (`load_diagnosis_queries`, as many as `queries`, when None: `diagnosis`); then the
    reference again with the graph on a Bolt server (`bolt_graph`).

    Each configuration is served as it says: refiner, reranker, learned ranker, diagnosis
    and near-duplicate merge (one retriever per distinct combination). Reranker
    configurations use the bundled int8 domain reranker (its score cache off, so every pair
    is scored); `domain` (fp32) is not measured, since the package ships only the int8
    export; `msmarco` is measured only where it loads offline, and the `openai` refiner
    only with a key or base URL. The learned ranker is the configured one (`load_ranker`:
    the bundled ranker unless `TUTORGRAPH_RANKER_MODEL` says otherwise).

    The Bolt server is ArcadeDB standing in for Neo4j (`BOLT_STAND_IN`), started in a
    temporary folder under `bolt_work` (the system's temporary folder when None) and loaded
    with the index's catalogue; `bolt_graph` holds its row, or "not measured: <reason>"
    when it cannot start (or `bolt` is False). Neo4j itself is never run.

    >>> report = await run_latency_harness(Path(".tutorgraph"), ablation_grid(), qs, warm)
    ... # doctest: +SKIP
    """
    from tutorgraph.config import MSMARCO_RERANKER, Settings
    from tutorgraph.embedding.runtime import limit_blas_threads
    from tutorgraph.errors import ConfigurationError
    from tutorgraph.index.local import LocalIndex
    from tutorgraph.retrieval.factory import (
        Loaded,
        Models,
        build_retriever,
        bundled_reranker_path,
        load_ranker,
        make_embedder,
        openai_unavailable,
    )

    settings = settings or Settings()
    limit_blas_threads(settings.blas_threads)  # as the server does (`load_models`)
    if embedder is None:
        embedder = make_embedder(settings)
        await asyncio.to_thread(embedder.load)
    reference = next((c for c in configs if c.factor == "best"), configs[0])
    # Warm means a server that has been up a while: its index files are in the page cache.
    await asyncio.to_thread(read_through, index_dir)
    index = await LocalIndex.open(index_dir, embedder=embedder.name)

    wanted = {c.reranker for c in configs} | {c.refiner for c in configs}
    bundled = CrossEncoderReranker(bundled_reranker_path(), backend="onnx-int8").without_cache()
    await asyncio.to_thread(bundled.load)
    rerankers = {"bundled": bundled}
    # What a configuration needs that is not here, as its "not measured" status.
    missing = {
        "domain": "not measured: the package ships only the int8 export of the domain reranker"
    }
    if "msmarco" in wanted:
        msmarco = CrossEncoderReranker(MSMARCO_RERANKER, backend="torch")
        try:
            await asyncio.to_thread(msmarco.load)
            rerankers["msmarco"] = msmarco.without_cache()
        except ConfigurationError as exc:
            missing["msmarco"] = (
                f"not measured: {MSMARCO_RERANKER} could not be loaded ({_why(exc.message)})"
            )
    if "openai" in wanted and (reason := openai_unavailable(settings)) is not None:
        missing["openai"] = f"not measured: {reason}"
    no_ranker = Loaded.missing("the learned ranker is off in this configuration")
    ranker: Loaded[LearnedRanker] = no_ranker
    if any(c.ranker for c in configs):
        ranker = await asyncio.to_thread(load_ranker, settings)
        if ranker.value is None:
            missing["ranker"] = f"not measured: {ranker.reason}"

    def unavailable(config: RunConfig) -> str | None:
        needs = (config.reranker, config.refiner, *(["ranker"] if config.ranker else []))
        return next((missing[n] for n in needs if n in missing), None)

    def build(reader: IndexReader, config: RunConfig) -> HybridRetriever:
        models = Models(
            embedder,
            Loaded.of(rerankers["msmarco" if config.reranker == "msmarco" else "bundled"]),
            ranker=ranker if config.ranker and ranker.value is not None else no_ranker,
        )
        setup = RetrieverConfig(
            rerank_depth=settings.rerank_depth,
            source_timeout_s=LATENCY_SOURCE_TIMEOUT_S,
            near_duplicate_threshold=config.near_duplicate_threshold,
            # The request turns refinement and reranking on or off; only the OpenAI
            # refiner is another object.
            refiner="openai" if config.refiner == "openai" else "local",
            diagnosis=config.diagnosis,
            openai=OpenAIRefinerConfig.from_settings(settings),
        )
        return build_retriever(reader, models, setup)

    built: dict[tuple[bool, bool, bool, bool, float | None], HybridRetriever] = {}

    def pick(config: RunConfig) -> HybridRetriever | str:
        if (reason := unavailable(config)) is not None:
            return reason
        key = (
            config.reranker == "msmarco",
            config.refiner == "openai",
            config.ranker,
            config.diagnosis,
            config.near_duplicate_threshold,
        )
        if key not in built:
            built[key] = build(index, config)
        return built[key]

    diagnosed = next(
        (c for c in (reference, *configs) if c.diagnosis and unavailable(c) is None), None
    )
    source = "the caller's"
    if diagnosis_queries is None:
        source = f"student messages ({DIAGNOSIS_QUERIES.relative_to(REPO_ROOT)})"
        constructs = await asyncio.to_thread(question_constructs, index_dir)
        diagnosis_queries = await asyncio.to_thread(
            load_diagnosis_queries, limit=len(queries), constructs=constructs
        )
    # The JVM compiles its hot paths during the first queries: the Bolt run warms up longer.
    bolt_warmup = [*warmup] * BOLT_WARMUP_PASSES
    grid_steps = len(configs) * (len(warmup) + len(queries))
    diagnosis_steps = len(warmup) + len(diagnosis_queries) if diagnosed and diagnosis_queries else 0
    total = grid_steps + diagnosis_steps + (len(bolt_warmup) + len(queries) if bolt else 0)

    def shifted(offset: int) -> Callable[[int, int], None] | None:
        report = progress
        if report is None:
            return None
        return lambda done, _: report(offset + done, total)

    try:
        rows = await latency_by_config(pick, configs, queries, warmup=warmup, progress=shifted(0))
        diagnosis: dict[str, Any] = {"queries": source, "n_queries": len(diagnosis_queries)}
        if diagnosed is None:
            diagnosis["status"] = (
                "not measured: no configuration with the diagnosis on could be measured"
            )
        elif not diagnosis_queries:
            diagnosis["status"] = "not measured: no student messages were given"
        else:
            (row,) = await latency_by_config(
                pick, [diagnosed], diagnosis_queries, warmup=warmup, progress=shifted(grid_steps)
            )
            diagnosis |= {"config": diagnosed.name, "status": row["status"], "row": row}
        bolt_graph: dict[str, Any] = {
            "server": BOLT_STAND_IN,
            "stands_in_for": "neo4j",
            "neo4j_run": False,
            "config": reference.name,
        }
        if not bolt:
            bolt_graph["status"] = "not measured: the caller turned the Bolt server off"
        elif (why_not := unavailable(reference)) is not None:
            bolt_graph["status"] = f"not measured: {reference.name} was not measured ({why_not})"
        else:
            bolt_graph |= await time_on_bolt(
                BoltRun(index_dir, index, reference, queries, bolt_warmup, settings),
                lambda reader: build(reader, reference),
                bolt_work,
                shifted(grid_steps + diagnosis_steps),
            )
    finally:
        for r in built.values():
            await r.aclose()
        await index.aclose()
    by_type: dict[str, int] = {}
    for q in queries:
        by_type[q.query_type] = by_type.get(q.query_type, 0) + 1
    not_measured = {
        "graph backend neo4j": "not measured: Neo4j itself was never run; ArcadeDB's "
        "Neo4j-compatible Bolt server stood in for it (bolt_graph)"
    }
    if diagnosis["status"] != "ok":
        not_measured["diagnosis on student messages"] = diagnosis["status"]
    if bolt_graph["status"] != "ok":
        not_measured["graph on a Bolt server (ArcadeDB for Neo4j)"] = bolt_graph["status"]
    return {
        "hardware": hardware(),
        "index": {"counts": index.manifest.counts, "embedder": index.manifest.embedder},
        "queries": {
            "n": len(queries),
            "by_query_type": dict(sorted(by_type.items())),
            "warmup": len(warmup),
        },
        "rerank_depth": settings.rerank_depth,
        "learned_ranker": ranker.value.info.get("name") if ranker.value is not None else None,
        "reference": reference.name,
        "rows": rows,
        "diagnosis": diagnosis,
        "bolt_graph": bolt_graph,
        "not_measured": not_measured,
    }

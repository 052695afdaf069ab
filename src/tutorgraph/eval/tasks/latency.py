"""Warm retrieval latency over a fixed query set: p50/p95/p99 per stage of `timings_ms`.

`measure_latency` times one retriever; `latency_by_config` times every research
configuration (`eval/configs.py`) over the same queries, and `run_latency_harness` does that
on a local index with the bundled reranker and learned ranker, naming what it could not
measure; it then times the diagnosis on student messages (`DIAGNOSIS_QUERIES`), and the
reference configuration again with the graph on a Bolt server (ArcadeDB standing in for
Neo4j, which is never run here).

The fixed query set of the paper is `tests/data/routing_queries.jsonl` (110 real queries of
all four query types, drawn mechanically from Eedi, Learning Commons and OpenStax or written
like a student, labelled by hand; see `tests/data/ROUTING_LABELS.md`); its 30-query holdout
file warms the models up, so no timed query is ever answered from a cache.

>>> report = await measure_latency(retriever, queries, warmup=10)  # doctest: +SKIP
>>> rows = await latency_by_config({"default": retriever}, [DEFAULT], queries)  # doctest: +SKIP
"""

from __future__ import annotations

import asyncio
import json
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from tutorgraph.eval.harness.configs import RunConfig
from tutorgraph.eval.harness.provenance import hardware
from tutorgraph.ingest.eedi import eedi_question_id
from tutorgraph.models.packet import STAGES
from tutorgraph.models.request import RetrievalRequest
from tutorgraph.retrieval.reranker import CrossEncoderReranker
from tutorgraph.retrieval.retriever import HybridRetriever, RetrieverConfig

if TYPE_CHECKING:
    from tutorgraph.config import Settings
    from tutorgraph.eval.harness.bolt_server import BoltServer
    from tutorgraph.index.local import LocalIndex
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

_REPO = Path(__file__).resolve().parents[4]
# The fixed query set (timed) and its warm-up set; see the module docstring.
LATENCY_QUERIES = _REPO / "tests" / "data" / "routing_queries.jsonl"
WARMUP_QUERIES = _REPO / "tests" / "data" / "routing_queries_holdout.jsonl"
# Student messages with a labelled wrong answer (`eval.tasks.messages`): the fixed set above
# states an answer the bug rules can check only once, so the diagnosis is timed on these.
DIAGNOSIS_QUERIES = _REPO / "data" / "benchmarks" / "student_messages.jsonl"
# Every stage of `timings_ms`, then serialising the packet to JSON and the caller's wall time.
LATENCY_STAGES = (*STAGES, "serialise", "wall")
# For each configuration: the retriever that serves it, or "not measured: <reason>".
RetrieverSource = (
    Mapping[str, "HybridRetriever | str"] | Callable[[RunConfig], "HybridRetriever | str"]
)
# What the Bolt numbers are, said wherever they appear: no Neo4j server was ever timed.
BOLT_STAND_IN = (
    "ArcadeDB's Neo4j-compatible Bolt server, on the same machine, standing in for Neo4j; "
    "Neo4j itself was never run"
)
# A generous per-search timeout: a degraded packet would time a search that did not run.
_TIMEOUT_S = 60.0


def percentiles(values: Sequence[float]) -> dict[str, float]:
    """p50, p95, p99 and mean of `values`, rounded to 0.01.

    >>> percentiles([1.0, 2.0, 3.0])["p50"]
    2.0
    """
    arr = np.asarray(values, dtype=np.float64)
    return {
        "p50": round(float(np.percentile(arr, 50)), 2),
        "p95": round(float(np.percentile(arr, 95)), 2),
        "p99": round(float(np.percentile(arr, 99)), 2),
        "mean": round(float(arr.mean()), 2),
    }


async def measure_latency(
    retriever: HybridRetriever,
    queries: Sequence[str | RetrievalRequest],
    *,
    warmup: int = 10,
    request_fields: dict[str, Any] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """Run each query (a text, with `request_fields`, or a whole request) once after
    `warmup` untimed ones; serialisation is timed too."""
    fields = request_fields or {}
    requests = [
        q if isinstance(q, RetrievalRequest) else RetrievalRequest(query=q, **fields)
        for q in queries
    ]
    for r in requests[:warmup]:
        await retriever.retrieve(r)
    stages: dict[str, list[float]] = {s: [] for s in (*STAGES, "serialise", "wall")}
    for i, r in enumerate(requests, start=1):
        started = time.perf_counter()
        packet = await retriever.retrieve(r)
        t = time.perf_counter()
        packet.model_dump_json()
        stages["serialise"].append((time.perf_counter() - t) * 1000)
        stages["wall"].append((time.perf_counter() - started) * 1000)
        for s in STAGES:
            stages[s].append(packet.timings_ms[s])
        if progress:
            progress(i, len(queries))
    return {
        "n_queries": len(queries),
        "warmup": warmup,
        "stages_ms": {s: percentiles(v) for s, v in stages.items()},
        "hardware": hardware(),
    }


async def measure_rerank_latency(
    retriever: HybridRetriever,
    reranker: CrossEncoderReranker,
    queries: Sequence[str],
    *,
    depths: Sequence[int] = (10, 30, 50),
    warmup: int = 5,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """Time the cross-encoder alone on each query's real fused candidates, per depth.

    The score cache is bypassed (every pair is scored); `repeat_ms` is the same query
    scored again, answered from the cache. Peak RSS is the whole process's.
    """
    import resource

    candidates: list[tuple[str, list[str]]] = []
    for q in queries:
        packet = await retriever.retrieve(
            RetrievalRequest(query=q, n_results=max(depths), rerank=False, max_context_tokens=0)
        )
        texts = [f"{h.title}: {h.text}" if h.title else h.text for h in packet.results]
        candidates.append((q, texts))
    cold = reranker.without_cache()
    for q, texts in candidates[:warmup]:
        await asyncio.to_thread(cold.score, q, texts[: max(depths)])
    per_depth: dict[str, Any] = {}
    total = len(depths) * len(candidates)
    done = 0
    for depth in depths:
        times: list[float] = []
        pairs = 0
        for q, texts in candidates:
            t = time.perf_counter()
            await asyncio.to_thread(cold.score, q, texts[:depth])
            times.append((time.perf_counter() - t) * 1000)
            pairs += len(texts[:depth])
            done += 1
            if progress:
                progress(done, total)
        per_depth[str(depth)] = {
            **percentiles(times),
            "pairs_per_s": round(pairs / (sum(times) / 1000), 1),
        }
    repeat: list[float] = []
    for q, texts in candidates:
        reranker.score(q, texts[:30])
        t = time.perf_counter()
        reranker.score(q, texts[:30])
        repeat.append((time.perf_counter() - t) * 1000)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {
        "model": reranker.name,
        "backend": reranker.backend,
        "options": asdict(reranker.options),
        "n_queries": len(candidates),
        "depths_ms": per_depth,
        "repeat_depth30_ms": percentiles(repeat),
        "peak_rss_mb": round(peak, 1),
        "hardware": hardware(),
    }


@dataclass(frozen=True)
class LatencyQuery:
    """One query of the fixed set, with its hand label (`query_type`) and where it came from."""

    query: str
    query_type: str
    origin: str
    # Sent as the request's context (a student message: its question's construct), so the
    # learned ranker, which scores requests with context only, runs on it.
    concept_ids: tuple[str, ...] = ()


def load_query_set(path: Path = LATENCY_QUERIES, *, limit: int | None = None) -> list[LatencyQuery]:
    """The queries of a JSON Lines file (`query`, `query_type`, `origin`), in file order.

    `limit` takes an even spread of that many (quick runs keep every query type).

    >>> len(load_query_set(limit=20))  # doctest: +SKIP
    20
    """
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    out = [LatencyQuery(r["query"], r.get("query_type", ""), r.get("origin", "")) for r in rows]
    return _spread(out, limit)


def load_diagnosis_queries(
    path: Path = DIAGNOSIS_QUERIES,
    *,
    limit: int | None = None,
    constructs: Mapping[str, Sequence[str]] | None = None,
) -> list[LatencyQuery]:
    """The student messages of `path` as misconception queries (the text a tutoring app
    sends; the local refiner reads the stated answer from it), `limit` an even spread.
    `constructs` maps an Eedi question id (`eedi:question:<n>`) to the concept ids sent as
    the message's context, as an app that knows the problem would.

    >>> load_diagnosis_queries(limit=1)[0].origin  # doctest: +SKIP
    'eedi-message'
    """
    from tutorgraph.eval.tasks.messages import read_student_messages

    messages = read_student_messages(path)
    known = constructs or {}
    return _spread(
        [
            LatencyQuery(
                m.message,
                "misconception",
                "eedi-message",
                tuple(known.get(eedi_question_id(m.question_id), ())),
            )
            for m in messages
        ],
        limit,
    )


def _question_constructs(index_dir: Path) -> dict[str, list[str]]:
    """Each Eedi question's concept ids, from the catalogue of the index at `index_dir`."""
    from tutorgraph.index.layout import IndexLayout, load_catalogue

    return {
        d.id: list(d.concept_ids)
        for d in load_catalogue(IndexLayout.live(index_dir)).documents
        if d.id.startswith("eedi:question:")
    }


def _spread(queries: list[LatencyQuery], limit: int | None) -> list[LatencyQuery]:
    """An even spread of `limit` of `queries` (all of them without a limit)."""
    if limit is None or limit >= len(queries):
        return queries
    step = len(queries) / limit
    return [queries[int(i * step)] for i in range(limit)]


async def _time_queries(
    retriever: HybridRetriever,
    queries: Sequence[tuple[str, Sequence[str]]],
    fields: Mapping[str, Any],
    tick: Callable[[], None],
) -> tuple[dict[str, list[float]], int]:
    """Each stage's time for each query, in query order (one request at a time), and how
    many packets came back degraded (a source that failed or timed out)."""
    stages: dict[str, list[float]] = {s: [] for s in LATENCY_STAGES}
    degraded = 0
    for q, concept_ids in queries:
        started = time.perf_counter()
        context = {"concept_ids": list(concept_ids)} if concept_ids else {}
        packet = await retriever.retrieve(RetrievalRequest(**{**fields, "query": q, **context}))
        t = time.perf_counter()
        packet.model_dump_json()
        done = time.perf_counter()
        stages["serialise"].append((done - t) * 1000)
        stages["wall"].append((done - started) * 1000)
        for s in STAGES:
            stages[s].append(packet.timings_ms[s])
        degraded += bool(packet.degraded_sources)
        tick()
    return stages, degraded


def ran_percentiles(values: Sequence[float]) -> dict[str, Any]:
    """`percentiles` over the queries a stage ran on (a stage that did not run reports 0),
    with their number `n`; `{"n": 0}` when it never ran.

    >>> ran_percentiles([0.0, 2.0, 0.0])
    {'n': 1, 'p50': 2.0, 'p95': 2.0, 'p99': 2.0, 'mean': 2.0}
    """
    ran = [v for v in values if v > 0]
    return {"n": len(ran), **percentiles(ran)} if ran else {"n": 0}


async def latency_by_config(
    retrievers: RetrieverSource,
    configs: Sequence[RunConfig],
    queries: Sequence[str | LatencyQuery],
    *,
    warmup: Sequence[str] | int = 10,
    request_fields: Mapping[str, Any] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> list[dict[str, Any]]:
    """Warm per-stage latency of every configuration over the same queries, one row each.

    `retrievers` gives each configuration's retriever (by name, or a function of the
    configuration), or a "not measured: <reason>" string. `warmup` is a list of warm-up
    queries run untimed before each configuration (or how many of `queries` to use;
    separate queries keep caches out of the timings). Each row holds `config`, `factor`,
    `config_detail`, `status`, `n_queries`, `stages_ms` (p50/p95/p99/mean for every
    `LATENCY_STAGES` entry, None when not measured), `ran_ms` (the same over only the
    queries each stage of `timings_ms` ran on, with their number `n`: the diagnosis runs
    only where a student's answer can be checked), `n_degraded` (packets with a failed or
    timed-out source), `total_by_query_type` and `hardware`.

    >>> rows = await latency_by_config({"default": retriever}, [DEFAULT], ["what is a ratio?"])
    ... # doctest: +SKIP
    >>> rows[0]["stages_ms"]["total"]["p95"]  # doctest: +SKIP
    41.2
    """
    texts = [q.query if isinstance(q, LatencyQuery) else q for q in queries]
    contexts = [q.concept_ids if isinstance(q, LatencyQuery) else () for q in queries]
    types = [q.query_type if isinstance(q, LatencyQuery) else "" for q in queries]
    warm = list(texts[:warmup]) if isinstance(warmup, int) else list(warmup)
    hw = hardware()
    total = len(configs) * (len(warm) + len(texts))
    done = 0

    def tick() -> None:
        nonlocal done
        done += 1
        if progress:
            progress(done, total)

    rows: list[dict[str, Any]] = []
    for config in configs:
        got = retrievers(config) if callable(retrievers) else retrievers.get(config.name)
        row: dict[str, Any] = {
            "config": config.name,
            "factor": config.factor,
            "config_detail": config.describe(),
            "n_queries": len(texts),
            "warmup": len(warm),
            "hardware": hw,
        }
        if got is None or isinstance(got, str):
            row |= {
                "status": got or "not measured: no retriever for this configuration",
                "stages_ms": None,
                "ran_ms": None,
                "n_degraded": None,
                "total_by_query_type": None,
            }
            done += len(warm) + len(texts)
            if progress:
                progress(done, total)
            rows.append(row)
            continue
        fields = {**config.request_fields(), **(request_fields or {})}
        await _time_queries(got, [(q, ()) for q in warm], fields, tick)
        stages, degraded = await _time_queries(
            got, list(zip(texts, contexts, strict=True)), fields, tick
        )
        by_type: dict[str, list[float]] = {}
        for qtype, t in zip(types, stages["total"], strict=True):
            if qtype:
                by_type.setdefault(qtype, []).append(t)
        row |= {
            "status": "ok",
            "stages_ms": {s: percentiles(v) for s, v in stages.items()},
            "ran_ms": {s: ran_percentiles(stages[s]) for s in STAGES},
            "n_degraded": degraded,
            "total_by_query_type": {k: percentiles(v) for k, v in sorted(by_type.items())},
        }
        rows.append(row)
    return rows


def _why(message: str) -> str:
    """A model load error in a few words for a table note (the hub's message runs to lines)."""
    lowered = message.lower()
    if "connect" in lowered or "offline" in lowered or "cached files" in lowered:
        return "no model hub here and no local copy"
    return _gist(message)


def _gist(message: str) -> str:
    """The first line of an error message, at most 160 characters."""
    line = message.strip().splitlines()[0] if message.strip() else "unknown error"
    return line[:160]


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
        Models,
        RetrieverSetup,
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
    ranker = None
    if any(c.ranker for c in configs):
        ranker, why = await asyncio.to_thread(load_ranker, settings)
        if ranker is None:
            missing["ranker"] = f"not measured: {why}"

    def unavailable(config: RunConfig) -> str | None:
        needs = (config.reranker, config.refiner, *(["ranker"] if config.ranker else []))
        return next((missing[n] for n in needs if n in missing), None)

    def build(reader: IndexReader, config: RunConfig) -> HybridRetriever:
        models = Models(
            embedder,
            rerankers["msmarco" if config.reranker == "msmarco" else "bundled"],
            ranker=ranker if config.ranker else None,
            ranker_unavailable="the learned ranker is off in this configuration",
        )
        setup = RetrieverSetup(
            RetrieverConfig(
                rerank_depth=settings.rerank_depth,
                source_timeout_s=_TIMEOUT_S,
                near_duplicate_threshold=config.near_duplicate_threshold,
            ),
            # The request turns refinement and reranking on or off; only the OpenAI
            # refiner is another object.
            refiner="openai" if config.refiner == "openai" else "local",
            diagnosis=config.diagnosis,
            settings=settings,
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
        source = f"student messages ({DIAGNOSIS_QUERIES.relative_to(_REPO)})"
        constructs = await asyncio.to_thread(_question_constructs, index_dir)
        diagnosis_queries = await asyncio.to_thread(
            load_diagnosis_queries, limit=len(queries), constructs=constructs
        )
    # The JVM compiles its hot paths during the first queries: the Bolt run warms up longer.
    bolt_warmup = [*warmup] * _BOLT_WARMUP_PASSES
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
            bolt_graph |= await _time_on_bolt(
                _BoltRun(index_dir, index, reference, queries, bolt_warmup, settings),
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
        "learned_ranker": ranker.info.get("name") if ranker is not None else None,
        "reference": reference.name,
        "rows": rows,
        "diagnosis": diagnosis,
        "bolt_graph": bolt_graph,
        "not_measured": not_measured,
    }


# How many times the warm-up queries run before the Bolt server is timed, and its heap.
_BOLT_WARMUP_PASSES = 3
_BOLT_HEAP = "2g"


@dataclass(frozen=True)
class _BoltRun:
    """What the Bolt measurement times: `config` over `queries` on the index's catalogue."""

    index_dir: Path
    index: LocalIndex
    config: RunConfig
    queries: Sequence[LatencyQuery]
    warmup: Sequence[str]
    settings: Settings


async def _time_on_bolt(
    run: _BoltRun,
    make: Callable[[IndexReader], HybridRetriever],
    work: Path | None,
    progress: Callable[[int, int], None] | None,
) -> dict[str, Any]:
    """`run.config` timed with the index's graph in an ArcadeDB Bolt server started in a
    temporary folder under `work` (the vectors and BM25 stay the index's), or "not
    measured: <reason>" when the server cannot start or load the graph."""
    from tutorgraph.errors import TutorGraphError
    from tutorgraph.eval.harness.bolt_server import arcadedb_server

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
                f"({_gist(str(exc))})"
            }
        try:
            return await _load_and_time(run, make, bolt, progress)
        except TutorGraphError as exc:
            return {
                "status": "not measured: the graph could not be loaded into or read from "
                f"the Bolt server ({_gist(exc.message)})"
            }
        finally:
            await asyncio.to_thread(server.__exit__, None, None, None)


async def _load_and_time(
    run: _BoltRun,
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
                "source_timeout_s": _TIMEOUT_S,
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

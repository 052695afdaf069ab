"""The latency harness on the session index (real ChromaDB, real MiniLM, bundled reranker)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tutorgraph.embedding.reranker import CrossEncoderReranker
from tutorgraph.retrieval.factory import bundled_reranker_path
from tutorgraph.retrieval.loaded import Loaded
from tutorgraph.retrieval.retriever import HybridRetriever, RetrieverConfig
from tutorgraph_research.harness.configs import BEST, ablation_grid
from tutorgraph_research.tasks.latency import (
    LATENCY_QUERIES,
    LATENCY_STAGES,
    WARMUP_QUERIES,
    LatencyQuery,
    latency_by_config,
    load_query_set,
    run_latency_harness,
)

pytestmark = pytest.mark.integration


def test_the_fixed_query_set_covers_every_query_type() -> None:
    queries = load_query_set()
    assert LATENCY_QUERIES.is_file() and WARMUP_QUERIES.is_file()
    assert len(queries) == 110
    assert {q.query_type for q in queries} == {
        "concept_lookup",
        "prerequisite",
        "misconception",
        "similar_problems",
    }
    # A quick run's spread still holds every type, and never a warm-up query.
    quick = load_query_set(limit=30)
    assert len(quick) == 30 and {q.query_type for q in quick} == {q.query_type for q in queries}
    warm = {q.query for q in load_query_set(WARMUP_QUERIES)}
    assert warm.isdisjoint(q.query for q in queries)


async def test_latency_by_config_reports_ordered_percentiles(  # type: ignore[no-untyped-def]
    opened_index, embedder
) -> None:
    reranker = CrossEncoderReranker(bundled_reranker_path(), backend="onnx-int8").without_cache()
    reranker.load()
    # A generous timeout: a degraded packet on a busy runner would skip a stage.
    retriever = HybridRetriever(
        embedder,
        opened_index.vector,
        opened_index.lexical,
        opened_index.graph,
        RetrieverConfig(source_timeout_s=60.0),
        reranker=Loaded.of(reranker),
    )
    grid = {c.name: c for c in ablation_grid()}
    configs = [
        BEST,
        grid["sources=no-graph"],
        grid["reranker=domain-int8"],
        grid["reranker=msmarco"],
    ]
    queries = load_query_set(limit=8)
    warm = [q.query for q in load_query_set(WARMUP_QUERIES)][:2]
    seen: list[tuple[int, int]] = []

    def pick(config):  # type: ignore[no-untyped-def]
        return "not measured: no hub" if config.reranker == "msmarco" else retriever

    rows = await latency_by_config(
        pick, configs, queries, warmup=warm, progress=lambda d, t: seen.append((d, t))
    )
    assert [r["config"] for r in rows] == [c.name for c in configs]
    assert seen[-1] == (len(configs) * 10, len(configs) * 10)
    for row in rows[:3]:
        assert row["status"] == "ok" and row["n_queries"] == 8 and row["warmup"] == 2
        assert set(row["stages_ms"]) == set(LATENCY_STAGES)
        for stage, p in row["stages_ms"].items():
            assert 0.0 <= p["p50"] <= p["p95"] <= p["p99"], stage
        assert row["stages_ms"]["serialise"]["p50"] > 0.0
        assert row["n_degraded"] == 0 and row["ran_ms"]["total"]["n"] == 8
        assert row["stages_ms"]["wall"]["p50"] >= row["stages_ms"]["total"]["p50"] * 0.99
        assert set(row["total_by_query_type"]) <= {q.query_type for q in queries}
        assert row["hardware"]["cores"] and "onnxruntime" in row["hardware"]
    # Each configuration really ran as configured: no graph time without the graph, and
    # reranking only where the configuration asks for it.
    best, no_graph, reranked, msmarco = rows
    assert no_graph["stages_ms"]["graph"]["p99"] == 0.0 < best["stages_ms"]["graph"]["p50"]
    assert best["stages_ms"]["rerank"]["p99"] < 1.0 < reranked["stages_ms"]["rerank"]["p50"]
    assert no_graph["ran_ms"]["graph"] == {"n": 0}
    assert msmarco["status"] == "not measured: no hub" and msmarco["stages_ms"] is None
    assert msmarco["ran_ms"] is None and msmarco["n_degraded"] is None


def _empty(folder: Path) -> bool:
    return not any(folder.iterdir())


# A query whose stated answer the local refiner finds, so the diagnosis runs on it.
DIAGNOSED = LatencyQuery("i got 2/6 for 1/2 + 1/4 why is it wrong", "misconception", "written")


async def test_the_harness_serves_each_configuration_as_it_says_and_names_the_rest(  # type: ignore[no-untyped-def]
    session_index,
    embedder,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    no_hub: None,  # the MS MARCO model cannot be fetched here
) -> None:
    from tutorgraph.config import Settings
    from tutorgraph.retrieval import factory
    from tutorgraph_research.harness import bolt_server

    # No Java runtime where the Bolt server's should be: the server cannot start.
    monkeypatch.setattr(bolt_server, "arcadedb_home", lambda: tmp_path / "no-java")
    built: list[tuple[bool, bool, float | None]] = []
    real_build = factory.build_retriever

    def spy(index, models, config):  # type: ignore[no-untyped-def]
        ranks = models.ranker.value is not None
        built.append((ranks, config.diagnosis, config.near_duplicate_threshold))
        return real_build(index, models, config)

    monkeypatch.setattr(factory, "build_retriever", spy)
    grid = ablation_grid()
    by_name = {c.name: c for c in grid}
    reference = grid[0]
    names = ("refiner=openai", "reranker=domain", "reranker=msmarco", "ranker=off")
    configs = [reference, *(by_name[n] for n in names), by_name["diagnosis=off"]]
    configs.append(by_name["merge=0.85"])
    configs.append(by_name["fusion=weighted"])  # served by the reference's retriever
    report = await run_latency_harness(
        session_index[0],
        configs,
        [*load_query_set(limit=3), DIAGNOSED],
        ["what is a fraction?"],
        settings=Settings(openai_api_key=None, openai_base_url=None, neo4j_uri=None),
        embedder=embedder,
        diagnosis_queries=[DIAGNOSED, DIAGNOSED],
        bolt_work=tmp_path / "bolt",
    )
    rows = {r["config"]: r for r in report["rows"]}
    assert rows[reference.name]["status"] == "ok"
    assert rows["refiner=openai"]["status"].startswith("not measured: no OpenAI key")
    assert rows["reranker=domain"]["status"].startswith("not measured: the package ships only")
    assert rows["reranker=msmarco"]["status"].startswith("not measured:")
    assert "\n" not in rows["reranker=msmarco"]["status"]
    # One retriever per distinct (ranker, diagnosis, merge), built as the configuration says.
    on = reference.ranker, reference.diagnosis, reference.near_duplicate_threshold
    assert on == (True, True, None) and report["learned_ranker"] == "tutorgraph/eedi-ranker"
    assert sorted(built, key=str) == sorted(
        [on, (False, True, None), (True, False, None), (True, True, 0.85)], key=str
    )
    # The diagnosis ran on the query with a stated answer, and only where it is on.
    assert rows[reference.name]["ran_ms"]["diagnose"]["n"] == 1
    assert rows["diagnosis=off"]["ran_ms"]["diagnose"] == {"n": 0}
    diagnosis = report["diagnosis"]  # the reference again, on the given student messages
    assert diagnosis["config"] == reference.name and diagnosis["queries"] == "the caller's"
    assert diagnosis["row"]["ran_ms"]["diagnose"]["n"] == 2 == diagnosis["n_queries"]
    assert report["reference"] == reference.name
    bolt = report["bolt_graph"]
    assert bolt["status"].startswith("not measured: the ArcadeDB Bolt server could not start")
    assert bolt["neo4j_run"] is False and bolt["stands_in_for"] == "neo4j" and "row" not in bolt
    assert report["not_measured"]["graph on a Bolt server (ArcadeDB for Neo4j)"] == bolt["status"]
    neo4j = report["not_measured"]["graph backend neo4j"]
    assert neo4j.startswith("not measured: Neo4j itself was never run")
    assert report["queries"]["n"] == 4 and report["hardware"]["cpu"]
    assert _empty(tmp_path / "bolt")  # its temporary folder is gone


async def test_the_harness_times_the_reference_with_the_graph_on_a_bolt_server(  # type: ignore[no-untyped-def]
    session_index, embedder, tmp_path: Path
) -> None:
    """ArcadeDB (a real Bolt server, started by the harness) stands in for Neo4j: the
    reference configuration runs again with the graph there; skips only without Java."""
    from tutorgraph.config import Settings
    from tutorgraph.index.layout import IndexLayout, load_catalogue
    from tutorgraph.stores.embedded_graph import EmbeddedGraphStore

    reference = ablation_grid()[0]
    queries = [*load_query_set(limit=3), DIAGNOSED]
    warm = ["what is a fraction?", "what is a ratio?"]
    seen: list[tuple[int, int]] = []
    report = await run_latency_harness(
        session_index[0],
        [reference],
        queries,
        warm,
        settings=Settings(neo4j_uri=None),
        embedder=embedder,
        progress=lambda d, t: seen.append((d, t)),
        bolt_work=tmp_path,
    )
    bolt = report["bolt_graph"]
    if bolt["status"].startswith("not measured: the ArcadeDB Bolt server could not start"):
        pytest.skip(f"no Bolt server: {bolt['status']}")
    assert bolt["status"] == "ok", bolt["status"]
    assert bolt["neo4j_run"] is False and "standing in for Neo4j" in bolt["server"]
    assert "ArcadeDB" in bolt["agent"] and bolt["config"] == reference.name
    want = await EmbeddedGraphStore(load_catalogue(IndexLayout.live(session_index[0]))).stats()
    assert bolt["graph_counts"] == want
    # The diagnosis on as many real student messages as timed queries.
    diagnosis = report["diagnosis"]
    assert diagnosis["status"] == "ok" and diagnosis["row"]["n_queries"] == 4
    assert diagnosis["queries"] == "student messages (data/benchmarks/student_messages.jsonl)"
    assert diagnosis["row"]["total_by_query_type"].keys() == {"misconception"}
    row = bolt["row"]
    assert row["config"] == reference.name and row["n_degraded"] == 0
    assert row["n_queries"] == 4 and row["warmup"] == 3 * len(warm)  # the JVM warms longer
    for stage in ("graph", "merge", "total"):
        p = row["stages_ms"][stage]
        assert 0.0 < p["p50"] <= p["p95"] <= p["p99"], stage
    assert row["ran_ms"]["diagnose"]["n"] == 1  # the bug rules fetch from the Bolt graph too
    # The grid, the diagnosis, then the Bolt run: one progress count over all three.
    total = 2 * (len(warm) + 4) + (3 * len(warm) + 4)
    assert seen[-1] == (total, total)
    assert "graph on a Bolt server (ArcadeDB for Neo4j)" not in report["not_measured"]
    assert _empty(tmp_path)  # the server's temporary folder is gone


# -- the scale sweep's parts ---------------------------------------------------------------------


def test_scale_sizes_nest_and_count_real_documents(index_records) -> None:  # type: ignore[no-untyped-def]
    from itertools import pairwise

    from tutorgraph_research.tasks.scale import (
        SCALE_FACTORS,
        bundle_counts,
        sample_records,
        scale_sizes,
    )

    exercises = [d for d in index_records.documents if d.kind == "exercise"]
    if not exercises:
        pytest.skip("the OpenStax slice did not load (no exercises to add)")
    sizes = scale_sizes(index_records)
    x1 = sizes[0]
    assert x1.factor == 1 and x1.counts["exercises"] == 0 and x1.ratio == 1.0
    base = x1.counts["documents"]
    # A factor is left out exactly when the exercises ran out before it: it would add nothing.
    before = {k: prev for prev, k in pairwise(SCALE_FACTORS)}
    wanted = [k for k in SCALE_FACTORS if k == 1 or (before[k] - 1) * base < len(exercises)]
    assert [s.factor for s in sizes] == wanted and len(wanted) >= 2
    for size in sizes[1:]:
        # Never more than asked; all exercises when there are too few, with the real ratio.
        extra = min((size.factor - 1) * base, len(exercises))
        assert size.counts["exercises"] == extra
        assert size.ratio == round((base + extra) / base, 3) <= size.factor
        assert size.counts["concepts"] == x1.counts["concepts"]
        assert size.counts["prerequisites"] == x1.counts["prerequisites"]
    ids = [{d.id for d in s.records.documents} for s in sizes]
    assert all(a < b for a, b in pairwise(ids))
    assert bundle_counts(sizes[-1].records) == sizes[-1].counts
    # A quick slice keeps its references closed (a valid bundle) and is deterministic.
    a = sample_records(index_records, misconceptions=5, documents=5, exercises=5, concepts=5)
    b = sample_records(index_records, misconceptions=5, documents=5, exercises=5, concepts=5)
    assert a == b and len(a.documents) == 10
    known = {c.id for c in a.concepts}
    assert all(set(d.concept_ids) <= known for d in a.documents)
    assert all(p.concept_id in known and p.prerequisite_id in known for p in a.prerequisites)
    assert all(set(c.parent_ids) <= known for c in a.concepts)


def test_serving_a_size_in_a_fresh_process_reports_latency_and_memory(  # type: ignore[no-untyped-def]
    session_index, embedder
) -> None:
    import numpy as np

    from tutorgraph.config import Settings
    from tutorgraph.index.layout import IndexLayout, load_catalogue
    from tutorgraph.index.pipeline import card_texts
    from tutorgraph.retrieval.factory import make_embedder
    from tutorgraph.stores.items import items_from_records
    from tutorgraph_research.harness.cached_embedder import CachingEmbedder
    from tutorgraph_research.tasks.scale import measure_serving, vectors_from_index

    vectors = vectors_from_index(session_index[0])
    records = load_catalogue(IndexLayout.live(session_index[0]))
    items = items_from_records(records)
    # Every item's vector and every concept card's, as the ingest kept them.
    assert set(vectors) == {it.search_text for it in items} | set(card_texts(records))
    lookup = CachingEmbedder(embedder, vectors)
    text = items[0].search_text
    got = lookup.embed([text, "a text the index does not hold"])
    assert np.allclose(got[0], embedder.embed([text])[0], atol=1e-4)
    assert (lookup.reused, lookup.embedded) == (1, 1)

    report = measure_serving(session_index[0], n_queries=6, warmup=2, timeout_s=300)
    assert report["n_queries"] == 6 and report["warmup"] == 2
    # The shipped embedder (ONNX Runtime unless the environment says otherwise).
    assert report["embedder"] == type(make_embedder(Settings())).__name__
    assert 0 < report["rss_start_mb"] < report["rss_loaded_mb"] <= report["rss_peak_mb"]
    wall = report["stages_ms"]["wall"]
    assert 0.0 < wall["p50"] <= wall["p95"] <= wall["p99"]

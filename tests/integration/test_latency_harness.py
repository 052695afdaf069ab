"""The latency harness on the session index (real ChromaDB, real MiniLM, bundled reranker)."""

from __future__ import annotations

import pytest

from tutorgraph.eval.harness.configs import BEST, ablation_grid
from tutorgraph.eval.tasks.latency import (
    LATENCY_QUERIES,
    LATENCY_STAGES,
    WARMUP_QUERIES,
    latency_by_config,
    load_query_set,
    run_latency_harness,
)
from tutorgraph.retrieval.factory import bundled_reranker_path
from tutorgraph.retrieval.reranker import CrossEncoderReranker
from tutorgraph.retrieval.retriever import HybridRetriever, RetrieverConfig

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
        reranker=reranker,
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
        assert row["stages_ms"]["wall"]["p50"] >= row["stages_ms"]["total"]["p50"] * 0.99
        assert set(row["total_by_query_type"]) <= {q.query_type for q in queries}
        assert row["hardware"]["cores"] and "onnxruntime" in row["hardware"]
    # Each configuration really ran as configured: no graph time without the graph, and
    # reranking only where the configuration asks for it.
    best, no_graph, reranked, msmarco = rows
    assert no_graph["stages_ms"]["graph"]["p99"] == 0.0 < best["stages_ms"]["graph"]["p50"]
    assert best["stages_ms"]["rerank"]["p99"] < 1.0 < reranked["stages_ms"]["rerank"]["p50"]
    assert msmarco["status"] == "not measured: no hub" and msmarco["stages_ms"] is None


async def test_the_harness_names_what_it_could_not_measure(  # type: ignore[no-untyped-def]
    session_index, embedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tutorgraph.config import Settings

    monkeypatch.setenv("HF_HUB_OFFLINE", "1")  # the MS MARCO model cannot be fetched here
    grid = {c.name: c for c in ablation_grid()}
    configs = [grid[n] for n in ("best", "refiner=openai", "reranker=domain", "reranker=msmarco")]
    report = await run_latency_harness(
        session_index[0],
        configs,
        load_query_set(limit=4),
        ["what is a fraction?"],
        settings=Settings(openai_api_key=None, openai_base_url=None, neo4j_uri=None),
        embedder=embedder,
    )
    status = {r["config"]: r["status"] for r in report["rows"]}
    assert status["best"] == "ok"
    assert status["refiner=openai"].startswith("not measured: no OpenAI key")
    assert status["reranker=domain"].startswith("not measured: the package ships only")
    assert status["reranker=msmarco"].startswith("not measured:")
    assert "\n" not in status["reranker=msmarco"]
    assert report["not_measured"]["graph backend neo4j"] == "not measured: no Neo4j server here"
    assert report["queries"]["n"] == 4 and report["hardware"]["cpu"]


# -- the scale sweep's parts ---------------------------------------------------------------------


def test_scale_sizes_nest_and_count_real_documents(index_records) -> None:  # type: ignore[no-untyped-def]
    from tutorgraph.eval.tasks.scale import bundle_counts, sample_records, scale_sizes

    exercises = [d for d in index_records.documents if d.kind == "exercise"]
    if not exercises:
        pytest.skip("the OpenStax slice did not load (no exercises to add)")
    sizes = scale_sizes(index_records)
    assert [s.factor for s in sizes] == [1, 2, 4]
    x1, x2, x4 = sizes
    assert x1.counts["exercises"] == 0 and x1.ratio == 1.0
    base = x1.counts["documents"]
    for size in (x2, x4):
        # Never more than asked; all exercises when there are too few, with the real ratio.
        extra = min((size.factor - 1) * base, len(exercises))
        assert size.counts["exercises"] == extra
        assert size.ratio == round((base + extra) / base, 3) <= size.factor
        assert size.counts["concepts"] == x1.counts["concepts"]
        assert size.counts["prerequisites"] == x1.counts["prerequisites"]
    ids = [{d.id for d in s.records.documents} for s in sizes]
    assert ids[0] <= ids[1] <= ids[2]
    assert bundle_counts(x4.records) == x4.counts
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

    from tutorgraph.embedding.cached_embedder import CachingEmbedder
    from tutorgraph.eval.tasks.scale import measure_serving, vectors_from_index
    from tutorgraph.index.layout import IndexLayout, load_catalogue
    from tutorgraph.stores.items import items_from_records

    vectors = vectors_from_index(session_index[0])
    items = items_from_records(load_catalogue(IndexLayout(session_index[0])))
    assert len(vectors) == len({it.search_text for it in items})
    lookup = CachingEmbedder(embedder, vectors)
    text = items[0].search_text
    got = lookup.embed([text, "a text the index does not hold"])
    assert np.allclose(got[0], embedder.embed([text])[0], atol=1e-4)
    assert (lookup.reused, lookup.embedded) == (1, 1)

    report = measure_serving(session_index[0], n_queries=6, warmup=2, timeout_s=300)
    assert report["n_queries"] == 6 and report["warmup"] == 2
    assert 0 < report["rss_start_mb"] < report["rss_loaded_mb"] <= report["rss_peak_mb"]
    wall = report["stages_ms"]["wall"]
    assert 0.0 < wall["p50"] <= wall["p95"] <= wall["p99"]

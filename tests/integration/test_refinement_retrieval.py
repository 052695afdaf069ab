"""Refinement inside the pipeline, over the real session index (ChromaDB + MiniLM + BM25):
the optimized query feeds the searches, key concepts seed the graph, a stated answer makes
a misconception query, the reranker sees the original text, and it can be switched off."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from tests.conftest import index_retriever

from tutorgraph.refinement.local import LocalRefiner
from tutorgraph.refinement.spelling import SpellingCorrector
from tutorgraph.retrieval.loaded import Loaded
from tutorgraph_client.models.request import RetrievalRequest

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def refined_retriever(opened_index, embedder):  # type: ignore[no-untyped-def]
    speller = SpellingCorrector(opened_index.lexical.document_frequencies())
    return index_retriever(
        opened_index, embedder, refiner=LocalRefiner(opened_index.graph, speller)
    )


def _retrieve(retriever, **fields):  # type: ignore[no-untyped-def]
    return asyncio.run(retriever.retrieve(RetrievalRequest(**fields)))


def test_the_packet_carries_the_refined_query(refined_retriever) -> None:  # type: ignore[no-untyped-def]
    packet = _retrieve(refined_retriever, query=r"why is \frac{1}{2}+\frac{1}{4} not 2/6")
    refined = packet.refined_query
    assert refined is not None and refined.refiner == "local"
    assert refined.math_expressions == ["1/2 + 1/4", "2/6"]
    assert refined.optimized_query == "why is 1/2 + 1/4 not 2/6"
    assert packet.timings_ms["refine"] > 0


def test_refinement_can_be_switched_off(refined_retriever) -> None:  # type: ignore[no-untyped-def]
    packet = _retrieve(refined_retriever, query="i got 2/6 for 1/2+1/4", use_refinement=False)
    assert packet.refined_query is None
    assert packet.timings_ms["refine"] == 0


def test_the_corrected_query_feeds_the_lexical_search(refined_retriever) -> None:  # type: ignore[no-untyped-def]
    # Only the misspelt word carries meaning: BM25 finds nothing without the correction.
    off = _retrieve(
        refined_retriever, query="denominater", sources=["lexical"], use_refinement=False
    )
    on = _retrieve(refined_retriever, query="denominater", sources=["lexical"])
    assert off.lexical_count == 0
    assert on.refined_query is not None and on.refined_query.optimized_query == "denominator"
    assert on.lexical_count > 0
    assert any("denominator" in h.text.casefold() for h in on.results)


def test_a_stated_answer_makes_a_misconception_query(refined_retriever) -> None:  # type: ignore[no-untyped-def]
    plain = _retrieve(refined_retriever, query="adding 1/2 and 1/4", debug=True)
    stated = _retrieve(refined_retriever, query="adding 1/2 and 1/4 i got 2/6", debug=True)
    from_request = _retrieve(
        refined_retriever, query="adding 1/2 and 1/4", student_answer="2/6", debug=True
    )
    assert plain.debug is not None and plain.debug["query_type"] != "misconception"
    for packet in (stated, from_request):
        assert packet.refined_query is not None and packet.refined_query.student_answer == "2/6"
        assert packet.debug is not None and packet.debug["query_type"] == "misconception"
        assert "student_answer" in packet.debug["auto_signals_detected"]


def test_the_linker_not_the_refiner_seeds_the_graph(refined_retriever, opened_index) -> None:  # type: ignore[no-untyped-def]
    """Issue 47: one source of concepts. A code named in the text seeds its standard at the
    request's weight; the linker's first construct seeds the graph; the refiner's key
    concepts that the linker did not choose seed nothing."""
    code = "ccss:6.NS.A.1"
    assert not asyncio.run(opened_index.graph.unknown_concepts([code]))
    packet = _retrieve(refined_retriever, query="what does 6.NS.A.1 cover")
    assert packet.refined_query is not None and code in packet.refined_query.key_concepts
    seeds = {c["id"]: c["seed"] for c in packet.graph_context.concepts}
    assert seeds.get(code) == "code"

    query = "i got 2/6 for 1/2 + 1/4, why is it wrong"
    packet = _retrieve(refined_retriever, query=query)
    refined = packet.refined_query
    assert refined is not None and refined.key_concepts
    construct = next(c.id for c in packet.concepts if c.taxonomy == "eedi")
    seeds = {c["id"]: c["seed"] for c in packet.graph_context.concepts}
    assert seeds.get(construct) == "linked"
    assert {cid for cid, kind in seeds.items() if kind not in ("evidence", "request")} == {
        construct
    }
    assert all(seeds.get(cid) in (None, "evidence", "linked") for cid in refined.key_concepts)


def test_another_language_is_not_spell_corrected(refined_retriever, opened_index) -> None:  # type: ignore[no-untyped-def]
    """Issue 49: the corrector rewrote German into English words ("eines" to "lines"), so
    the question searched for lines. Read as German, it is searched as written."""
    speller = SpellingCorrector(opened_index.lexical.document_frequencies())
    assert speller.correct("eines") == "lines"  # what the message would have become
    query = "Wie berechne ich die Fläche eines Dreiecks?"
    packet = _retrieve(refined_retriever, query=query, sources=["lexical"])
    refined = packet.refined_query
    assert refined is not None and refined.optimized_query == query
    assert "lines" not in refined.search_terms
    assert packet.language.english is False and packet.language.detected == "de"
    assert packet.language.note is not None and "German" in packet.language.note
    english = _retrieve(refined_retriever, query="whats a denominater", sources=["lexical"])
    assert english.language.english is True and english.language.detected is None


class _Recorder:
    """Records what the reranker is asked to score (a logic check: which text it sees)."""

    name = "recorder"

    def __init__(self) -> None:
        self.queries: list[str] = []

    def load(self) -> None:
        return None

    def score(self, query: str, texts: list[str]) -> list[float]:
        self.queries.append(query)
        return [0.0] * len(texts)


def test_the_reranker_scores_against_the_original_query(opened_index, embedder) -> None:  # type: ignore[no-untyped-def]
    recorder = _Recorder()
    retriever = index_retriever(
        opened_index,
        embedder,
        reranker=Loaded.of(recorder),
        refiner=LocalRefiner(opened_index.graph, SpellingCorrector({"denominator": 5})),
    )
    query = "whats a denominater in ½"
    packet = _retrieve(retriever, query=query, rerank=True)
    assert packet.refined_query is not None
    assert packet.refined_query.optimized_query != query
    assert recorder.queries == [query]


def test_bench_refine_reports_accuracy_and_latency(run_cli, session_index, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "refine.json"
    queries = Path(__file__).resolve().parents[1] / "data" / "refiner_queries.jsonl"
    index_dir = str(session_index[0])
    args = ("--repeats", "2", "--index-dir", index_dir, "--out", str(out))
    proc = run_cli("bench", "refine", str(queries), *args)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(out.read_text())
    assert report["refiner"] == "local" and report["n"] >= 40
    assert report["timed_calls"] == 2 * report["n"]
    # Math and stated answers do not depend on the index (the session index is a slice).
    assert report["accuracy"]["math_expressions"] == 1.0
    assert report["accuracy"]["student_answer"] == 1.0, report["misses"]
    assert 0 < report["latency_ms"]["p50"] <= report["latency_ms"]["p95"]
    assert "refine latency" in proc.stdout

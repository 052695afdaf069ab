"""Hybrid retrieval against the real session index (slices without Eedi question 163)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from tests.conftest import misconception_ranking

from tutorgraph.errors import UnknownConceptError
from tutorgraph.index.layout import IndexLayout
from tutorgraph.ingest.bundle import load_trusted
from tutorgraph.ingest.eedi import EediQuestion, eedi_query_text
from tutorgraph.ranking.metrics import average_precision_at_k
from tutorgraph.retrieval.fusion import rrf_score
from tutorgraph_client.models.packet import ReasoningPacket
from tutorgraph_client.models.request import RetrievalRequest

pytestmark = pytest.mark.integration

HELD_OUT_QUESTION = 163
TARGET = "eedi:misconception:2142"
TWIN = "eedi:misconception:2068"  # the same text; labels question 163's answer D only
CONSTRUCT = "eedi:construct:1428"


@pytest.fixture(scope="module")
def q163(eedi_questions: list[EediQuestion]) -> EediQuestion:
    return next(q for q in eedi_questions if q.question_id == HELD_OUT_QUESTION)


def _retrieve(retriever, **fields) -> ReasoningPacket:  # type: ignore[no-untyped-def]
    return asyncio.run(retriever.retrieve(RetrievalRequest(**fields)))


def test_the_held_out_question_and_its_labels_are_not_in_the_index(
    session_index: tuple[Path, object], opened_index
) -> None:  # type: ignore[no-untyped-def]
    catalogue = load_trusted(IndexLayout.live(session_index[0]).catalogue)
    assert f"eedi:question:{HELD_OUT_QUESTION}" not in {d.id for d in catalogue.documents}
    misconceptions = {m.id: m for m in catalogue.misconceptions}
    # 2142 reaches construct 1428 only through questions 474 and 929 ...
    assert misconceptions[TARGET].concept_ids == [CONSTRUCT]
    # ... and 2068, which only question 163 reveals, links to nothing.
    assert misconceptions[TWIN].concept_ids == []
    hashes = asyncio.run(opened_index.vector.content_hashes())
    assert f"eedi:question:{HELD_OUT_QUESTION}" not in hashes
    assert {"eedi:question:474", "eedi:question:929", TARGET, TWIN} <= set(hashes)


def test_held_out_question_retrieves_its_misconception(retriever, q163: EediQuestion) -> None:  # type: ignore[no-untyped-def]
    query = eedi_query_text(q163, "A")
    packet = _retrieve(retriever, query=query, concept_ids=[CONSTRUCT], n_results=50)

    assert packet.degraded_sources == []
    ranking = misconception_ranking(packet, TARGET)
    assert TARGET in ranking[:5], ranking[:10]
    rank = ranking.index(TARGET) + 1
    print(f"\nheld-out q163/A: {TARGET} at misconception rank {rank}, AP@25 "
          f"{average_precision_at_k(ranking, {TARGET}, 25):.3f}")  # fmt: skip

    hit = next(h for h in packet.results if TARGET in h.ids)
    assert hit.kind == "misconception"
    # Identical texts merge: the hit holds both ids, whichever copy represents it.
    assert hit.ids == sorted({TARGET, TWIN})
    assert hit.id in hit.ids
    # The graph found it through the construct the caller named; the path says how.
    assert "graph" in hit.found_by
    assert hit.graph_path == [CONSTRUCT, TARGET]
    assert set(hit.found_by) == set(hit.source_ranks) == set(hit.source_scores)
    assert {"vector", "lexical"} & set(hit.found_by), "text search should find it too"

    # The graph context names the seed concept and its known misconceptions.
    gc = packet.graph_context
    assert [c["id"] for c in gc.concepts if c["seed"] == "request"] == [CONSTRUCT]
    assert {"id": TARGET, "concept_id": CONSTRUCT} in [
        {"id": m["id"], "concept_id": m["concept_id"]} for m in gc.misconceptions
    ]
    assert TWIN not in {m["id"] for m in gc.misconceptions}


def test_held_out_question_text_only(retriever, q163: EediQuestion) -> None:  # type: ignore[no-untyped-def]
    """Without the construct id, text search alone still ranks it near the top."""
    packet = _retrieve(retriever, query=eedi_query_text(q163, "A"), n_results=50)
    ranking = misconception_ranking(packet, TARGET)
    print(f"\nheld-out q163/A, text only: misconception rank {ranking.index(TARGET) + 1}")
    assert TARGET in ranking[:10], ranking[:10]


def test_packet_provenance_is_consistent_with_each_source(retriever, opened_index) -> None:  # type: ignore[no-untyped-def]
    query = "factorise a quadratic: two numbers that add to 5 and multiply to 6"
    # Without graph scoping each source's ranks are the stores' own, so they can be checked.
    packet = _retrieve(
        retriever,
        query=query,
        concept_ids=[CONSTRUCT],
        n_results=30,
        debug=True,
        graph_scope=False,
    )
    assert packet.results, "no hits"
    assert packet.debug is not None and packet.debug["graph_scoped"] is False
    assert packet.degraded_sources == []
    # Every stage is timed in pipeline order, context assembly (`finish`) included.
    assert list(packet.debug["stages_ms"]) == [s.name for s in retriever.stages]
    assert [s.name for s in retriever.stages] == [
        "check", "refine", "facts", "route", "link", "search", "merge", "fuse", "dedupe",
        "rerank", "rank", "diagnose", "lessons", "scope", "finish",
    ]  # fmt: skip
    assert packet.debug["stages_ms"]["finish"] > 0 and not packet.degraded_stages
    assert [h.rank for h in packet.results] == list(range(1, len(packet.results) + 1))
    # One scale in the merged view, except the best lesson, which keeps its cosine when it
    # is placed second because the first ten held no teaching (`with_teaching`).
    lesson = packet.lessons[0].id if packet.lessons else None
    fused = [h for h in packet.results if not (h.rank == 2 and h.id == lesson)]
    assert [h.score for h in fused] == sorted((h.score for h in fused), reverse=True)
    multi = [h for h in packet.results if len(h.found_by) > 1]
    assert len(multi) >= 3, "expected several hits found by more than one source"

    # Each source's own ranking, as the stores give it (lexical directly, the others from
    # the debug block).
    lexical = asyncio.run(opened_index.lexical.search(query, 50))
    lexical_rank = {}
    for pos, r in enumerate(lexical, start=1):
        lexical_rank.setdefault(r.item.id, pos)
    debug_ranks = {
        source: {row["id"]: row["rank"] for row in rows}
        for source, rows in packet.debug["sources"].items()
    }

    seeds = {c["id"] for c in packet.graph_context.concepts}
    assert CONSTRUCT in seeds
    for hit in packet.results:
        if hit not in fused:  # the promoted lesson: the lessons search's hit, unchanged
            assert hit.model_dump(exclude={"rank"}) == packet.lessons[0].model_dump(
                exclude={"rank"}
            )
    for hit in fused:
        assert hit.id in hit.ids and hit.ids == sorted(hit.ids)
        # The ids of copies of this content (near-duplicates folded in keep their own ranks,
        # in `corroborated_by`).
        folded = {
            i for d in (hit.corroborated_by.near_duplicates if hit.corroborated_by else [])
            for i in d.ids
        }  # fmt: skip
        copies = [i for i in hit.ids if i not in folded]
        assert hit.found_by == [s for s in ("vector", "lexical", "graph") if s in hit.found_by]
        assert set(hit.found_by) == set(hit.source_ranks) == set(hit.source_scores)
        assert all(r >= 1 for r in hit.source_ranks.values())
        # The fused score is RRF (k=60, the route's weights) over exactly these ranks, and
        # the per-source contributions add up to it.
        weights = packet.debug["fusion"]["weights"]
        assert hit.fused_score == pytest.approx(rrf_score(hit.source_ranks, weights), abs=1e-8)  # type: ignore[arg-type]
        assert sum(hit.source_contributions.values()) == pytest.approx(hit.fused_score, abs=1e-8)
        assert set(hit.source_contributions) == set(hit.found_by)
        assert hit.score == hit.fused_score
        if "lexical" in hit.source_ranks:
            # The best rank any merged copy had in BM25.
            assert hit.source_ranks["lexical"] == min(
                lexical_rank[i] for i in copies if i in lexical_rank
            )
        else:
            assert not set(copies) & set(lexical_rank)
        for source, ranks in debug_ranks.items():
            seen = [ranks[i] for i in copies if i in ranks]
            if seen:
                assert hit.source_ranks[source] == min(seen)
        if "graph" in hit.found_by:
            # A seed concept: (seed,); a prerequisite: (hit, ..., seed); a misconception:
            # (seed, hit).
            path = hit.graph_path
            assert path and set(path) & set(hit.ids)
            assert path[0] in seeds or path[-1] in seeds
        else:
            assert hit.graph_path is None


def test_unknown_concept_ids_are_rejected_naming_them(retriever) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(UnknownConceptError) as info:
        _retrieve(
            retriever,
            query="dividing fractions",
            concept_ids=["ccss:6.NS.A.1", "ccss:9.ZZ.Z.9", TARGET],
        )
    err = info.value
    # Only the unknown ones are named; a misconception id is not a concept.
    assert err.concept_ids == ["ccss:9.ZZ.Z.9", TARGET]
    assert "ccss:9.ZZ.Z.9" in err.message and "ccss:6.NS.A.1" not in err.message


def test_single_source_requests(retriever) -> None:  # type: ignore[no-untyped-def]
    query = "Interpret and compute quotients of fractions 6.NS.A.1"
    for source in ("vector", "lexical", "graph"):
        packet = _retrieve(retriever, query=query, sources=[source], n_results=5)
        assert packet.results, source
        assert all(h.found_by == [source] for h in packet.results)
        counts = {
            "vector": packet.vector_count,
            "lexical": packet.lexical_count,
            "graph": packet.graph_count,
        }
        assert counts[source] > 0
        assert all(n == 0 for s, n in counts.items() if s != source)
    graph_only = _retrieve(retriever, query=query, sources=["graph"], n_results=5)
    # The code in the text seeds its standard. (It ties with the best name match, 6.NS.A,
    # at weight 0.5, and the tie goes to the smaller id.)
    assert "ccss:6.NS.A.1" in [h.id for h in graph_only.results[:2]]
    assert "ccss:6.NS.A.1" in {c["id"] for c in graph_only.graph_context.concepts}


def test_linked_concepts_carry_their_prerequisite_chain_by_name(retriever, opened_index) -> None:  # type: ignore[no-untyped-def]
    """The link stage names a concept per taxonomy (real MiniLM over the index's cards); the
    first of each carries the graph's prerequisite chain to it, foundations first, each step
    with its name and description, and the chain agrees with the graph's own edges."""
    packet = _retrieve(retriever, query="how do I divide 3/4 by 1/8?", n_results=5)
    assert packet.timings_ms["link"] > 0
    taxonomies = [c.taxonomy for c in packet.concepts]
    assert {"common-core", "openstax"} <= set(taxonomies)
    leads = [c for i, c in enumerate(packet.concepts) if c.taxonomy not in taxonomies[:i]]
    others = [c for c in packet.concepts if c not in leads]
    assert all(not c.prerequisites for c in others)
    standard = next(c for c in leads if c.taxonomy == "common-core")
    assert standard.description and standard.name == standard.id.removeprefix("ccss:")
    chains = asyncio.run(opened_index.graph.prerequisite_chains([standard.id], 2))
    expected = {cid for p in chains for cid in p.path[:-1]}
    assert {s.id for s in standard.prerequisites} == expected
    if expected:
        depths = [s.depth for s in standard.prerequisites]
        assert depths == sorted(depths, reverse=True) and set(depths) <= {1, 2}
        assert all(s.name and s.description for s in standard.prerequisites)

"""A concept read from the graph alone (`retrieval/concepts.py`), over the bundled curriculum:
a standard's misconceptions, lessons and practice come through the constructs and sections
aligned with it; the HTTP route answers from the same function."""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx
import pytest
from tests.unit.api_fakes import FakeEmbedder, FakeVector, manifest, write_fake_index

from tutorgraph.api import create_app
from tutorgraph.api.auth import key_entry
from tutorgraph.config import Settings
from tutorgraph.index.generations import generation_name, live_generation
from tutorgraph.index.local import LocalIndex
from tutorgraph.index.service import OpenRetriever
from tutorgraph.ingest.bundle import load_trusted
from tutorgraph.models.records import SourceRecords
from tutorgraph.retrieval.concepts import (
    ALIGNED,
    aligned_with,
    chain,
    concept_misconceptions,
    concept_view,
)
from tutorgraph.retrieval.retriever import HybridRetriever, RetrieverConfig
from tutorgraph.stores.bm25 import BM25Index
from tutorgraph.stores.embedded_graph import EmbeddedGraphStore

pytestmark = pytest.mark.unit

BUNDLE = Path(__file__).resolve().parents[2] / "data" / "curriculum"
STANDARD = "ccss:5.NF.A.1"


@pytest.fixture(scope="module")
def records() -> SourceRecords:
    return load_trusted(BUNDLE)


@pytest.fixture(scope="module")
def graph(records: SourceRecords) -> EmbeddedGraphStore:
    return EmbeddedGraphStore(records)


def _aligned(records: SourceRecords, standard: str) -> dict[str, float]:
    return {
        p.concept_id: p.score or 0.0
        for p in records.prerequisites
        if p.relation == ALIGNED and p.prerequisite_id == standard
    }


def test_a_standard_has_the_misconceptions_of_its_aligned_constructs(
    records: SourceRecords, graph: EmbeddedGraphStore
) -> None:
    aligned = _aligned(records, STANDARD)
    assert any(c.startswith("eedi:construct:") for c in aligned)
    want = {m.id for m in records.misconceptions if set(m.concept_ids) & set(aligned)}
    assert not any(STANDARD in m.concept_ids for m in records.misconceptions)  # none of its own
    found = asyncio.run(concept_misconceptions(graph, STANDARD))
    ids = [f.misconception.id for f in found]
    assert set(ids) == want and len(ids) == len(want)  # each once
    for f in found:
        assert f.via in aligned and f.via in f.misconception.concept_ids
        assert f.alignment_score == aligned[f.via]
        # ... by the best alignment it has
        assert f.alignment_score == max(
            aligned[c] for c in f.misconception.concept_ids if c in aligned
        )
    scores = [f.alignment_score or 0.0 for f in found]
    assert scores == sorted(scores, reverse=True)  # the best aligned construct first


def test_a_query_orders_a_standards_misconceptions_by_relevance(
    graph: EmbeddedGraphStore,
) -> None:
    plain = asyncio.run(concept_misconceptions(graph, STANDARD))
    target = plain[-1].misconception
    ranked = asyncio.run(concept_misconceptions(graph, STANDARD, target.text))
    assert ranked[0].misconception == target and ranked[0].relevance > 0
    relevance = [f.relevance for f in ranked]
    assert relevance == sorted(relevance, reverse=True)
    assert {f.misconception.id for f in ranked} == {f.misconception.id for f in plain}


def test_a_construct_keeps_its_own_misconceptions(
    records: SourceRecords, graph: EmbeddedGraphStore
) -> None:
    construct = max(_aligned(records, STANDARD).items(), key=lambda kv: kv[1])[0]
    found = asyncio.run(concept_misconceptions(graph, construct))
    links = asyncio.run(graph.misconceptions_of([construct]))
    assert [f.misconception.id for f in found] == sorted(link.misconception.id for link in links)
    assert all(f.via is None and f.alignment_score is None for f in found)
    # Its standard is an alignment into it, and lends it nothing.
    (into,) = asyncio.run(aligned_with(graph, construct, "in"))
    assert into.concept_id == STANDARD


def test_a_concept_with_nothing_aligned_and_no_misconception_has_none(
    records: SourceRecords, graph: EmbeddedGraphStore
) -> None:
    lonely = next(
        c.id
        for c in sorted(records.concepts, key=lambda c: c.id)
        if c.id.startswith("ccss:") and not _aligned(records, c.id)
    )
    assert asyncio.run(concept_misconceptions(graph, lonely)) == []
    assert asyncio.run(concept_misconceptions(graph, "ccss:9.ZZ.Z.9")) == []


def test_the_view_of_a_standard(records: SourceRecords, graph: EmbeddedGraphStore) -> None:
    view = asyncio.run(concept_view(graph, STANDARD, depth=2, documents=4))
    assert view is not None and view.concept.id == STANDARD
    edges = [p for p in records.prerequisites if p.relation != ALIGNED]
    before = {p.prerequisite_id for p in edges if p.concept_id == STANDARD}
    after = {p.concept_id for p in edges if p.prerequisite_id == STANDARD}
    assert {s.concept_id for s in view.prerequisites if s.depth == 1} == before
    assert {s.concept_id for s in view.builds_on_it if s.depth == 1} == after
    assert all(s.next_id == STANDARD for s in view.prerequisites if s.depth == 1)
    deeper = {s.concept_id for s in view.prerequisites if s.depth == 2}
    assert deeper and not deeper & before and STANDARD not in deeper  # each once, nearest
    assert [a.concept_id for a in view.aligned] == sorted(
        _aligned(records, STANDARD), key=lambda c: (-_aligned(records, STANDARD)[c], c)
    )
    # A K-8 standard's own lesson comes first (explanation, then worked examples; its own
    # practice likewise), then what comes through the aligned sections and constructs.
    assert view.lessons and len(view.lessons) <= 4
    assert [d.document.kind for d in view.lessons[:3]] == [
        "explanation",
        "worked_example",
        "worked_example",
    ]
    own = [d for d in (*view.lessons, *view.practice) if d.via is None]
    assert own and all(STANDARD in d.document.concept_ids for d in own)
    assert all(d.document.grade == "5" for d in own)
    assert {d.document.kind for d in view.practice} <= {"exercise", "question"}
    assert len(view.practice) == 4 and all(d.via is None for d in view.practice)
    through = [d for d in view.lessons if d.via is not None]
    assert all(d.via in _aligned(records, STANDARD) for d in through)
    named = {s.concept_id for s in (*view.prerequisites, *view.builds_on_it)}
    assert named <= set(view.names)
    assert view.misconceptions == asyncio.run(concept_misconceptions(graph, STANDARD))
    assert asyncio.run(concept_view(graph, "ccss:9.ZZ.Z.9")) is None


def test_the_cli_suggests_concepts_for_words_not_for_an_id(graph: EmbeddedGraphStore) -> None:
    from tutorgraph.cli.concept import _did_you_mean

    assert asyncio.run(_did_you_mean(graph, "ccss:9.ZZ.Z.9")) == ""
    hint = asyncio.run(_did_you_mean(graph, "mixed number fractions"))
    assert hint.startswith(" (did you mean ") and hint.endswith("?)")
    assert asyncio.run(_did_you_mean(graph, "qqqzzz")) == ""


def test_a_chain_leaves_alignments_out(records: SourceRecords, graph: EmbeddedGraphStore) -> None:
    construct = next(iter(_aligned(records, STANDARD)))
    steps = asyncio.run(chain(graph, construct, "in", 2))
    assert STANDARD not in {s.concept_id for s in steps}
    assert all(s.relation != ALIGNED for s in steps)


# -- the HTTP route answers from the same function --------------------------------------


READ = "unit-read-key-0123456789"


class BundledOpener:
    """An index whose graph is the bundled curriculum's (no documents, no models)."""

    def __init__(self, records: SourceRecords) -> None:
        self.records = SourceRecords(
            records.concepts, records.prerequisites, records.misconceptions
        )

    def __call__(self, settings: Settings) -> OpenRetriever:
        live = live_generation(settings.index_dir)
        index = LocalIndex(
            manifest(),
            FakeVector([]),
            BM25Index.build([]),
            EmbeddedGraphStore(self.records),
            generation=generation_name(live) if live is not None else "legacy",
        )
        retriever = HybridRetriever(
            FakeEmbedder(),  # type: ignore[arg-type]
            index.vector,
            index.lexical,
            index.graph,
            RetrieverConfig(source_timeout_s=settings.source_timeout_s),
        )
        return OpenRetriever(retriever, index)


def test_the_route_lists_a_standards_misconceptions_with_their_construct(
    tmp_path: Path, records: SourceRecords, graph: EmbeddedGraphStore
) -> None:
    settings = Settings.model_validate(
        {
            "index_dir": write_fake_index(tmp_path / "index"),
            "api_keys": key_entry(READ, "read"),
            "source_timeout_s": 10.0,
            "allowed_hosts": "test",  # the client's base URL
        }
    )
    app = create_app(settings, opener=BundledOpener(records))

    async def get(q: str | None = None) -> dict[str, object]:
        transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
        async with (
            app.router.lifespan_context(app),
            httpx.AsyncClient(transport=transport, base_url="http://test") as client,
        ):
            resp = await client.get(
                f"/v1/concepts/{STANDARD}/misconceptions",
                params={"q": q} if q else None,
                headers={"X-API-Key": READ},
            )
            assert resp.status_code == 200, resp.text
            return dict(resp.json())

    body = asyncio.run(get())
    want = asyncio.run(concept_misconceptions(graph, STANDARD))
    got = body["misconceptions"]
    assert isinstance(got, list) and got
    assert [(m["misconception"]["id"], m["via"], m["alignment_score"]) for m in got] == [
        (f.misconception.id, f.via, f.alignment_score) for f in want
    ]
    text = want[-1].misconception.text
    ranked = asyncio.run(get(text))["misconceptions"]
    assert isinstance(ranked, list) and ranked[0]["misconception"]["text"] == text


# -- the graph alone, as `tutorgraph concept` opens it ---------------------------------------


def _graph_only_index(tmp_path: Path) -> tuple[Path, Path]:
    """An index folder whose live generation holds a small catalogue and its manifest."""
    from tests.unit.api_fakes import RECORDS

    from tutorgraph.index.generations import activate, new_generation
    from tutorgraph.index.integrity import record_counts
    from tutorgraph.index.layout import IndexLayout
    from tutorgraph.ingest.bundle import write_bundle
    from tutorgraph.stores.manifest import FileSignature, Manifest

    index_dir = tmp_path / "index"
    index_dir.mkdir()
    generation = new_generation(index_dir, None)
    layout = IndexLayout(generation)
    write_bundle(RECORDS, layout.catalogue)
    files = {
        f.relative_to(generation).as_posix(): FileSignature(size=f.stat().st_size, sha256="")
        for f in layout.catalogue.iterdir()
    }
    Manifest(
        embedder="x", embedding_dim=1, bundle_hash="t", counts=record_counts(RECORDS), files=files
    ).write(generation)
    activate(index_dir, generation)
    return index_dir, layout.catalogue


def test_the_graph_alone_opens_checks_and_refuses_damage(tmp_path: Path) -> None:
    from tutorgraph.errors import IndexDamagedError, IndexNotFoundError
    from tutorgraph.index.local import GraphOnly

    with pytest.raises(IndexNotFoundError):
        GraphOnly.load(tmp_path / "none")
    index_dir, catalogue = _graph_only_index(tmp_path)

    async def lookup() -> list[str]:
        async with GraphOnly.load(index_dir) as opened:
            found = await concept_misconceptions(opened.graph, STANDARD)
            return [f.misconception.id for f in found]

    assert asyncio.run(lookup()) == ["eedi:misconception:1"]
    misconceptions = catalogue / "misconceptions.jsonl"
    misconceptions.write_text(misconceptions.read_text()[:-5])  # cut short: another size
    with pytest.raises(IndexDamagedError, match=r"misconceptions\.jsonl is"):
        GraphOnly.load(index_dir)

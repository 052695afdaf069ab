"""Ingest into a real index (ChromaDB embedded, MiniLM): idempotence, increments, --prune,
the manifest, refusing an index built by another embedder, and an add-on bundle that
references the index's concepts."""

from __future__ import annotations

import asyncio
import dataclasses
import shutil
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

from tutorgraph.errors import BundleError, ConfigurationError, EmbedderMismatchError
from tutorgraph.index.generations import live_generation
from tutorgraph.index.layout import IndexLayout, load_catalogue
from tutorgraph.index.local import LocalIndex
from tutorgraph.index.pipeline import (
    IngestOptions,
    IngestReport,
    card_texts,
    embed_bundle,
    ingest_bundle,
    ingest_records,
)
from tutorgraph.ingest.bundle import bundle_hash, write_bundle
from tutorgraph.ingest.eedi import EediQuestion, eedi_records
from tutorgraph.models.records import SourceRecords
from tutorgraph.stores.chroma import COLLECTION_NAME, chroma_persistent_client
from tutorgraph.stores.items import items_from_records
from tutorgraph.stores.manifest import Manifest, library_versions

pytestmark = pytest.mark.integration

MODEL = "sentence-transformers/all-MiniLM-L6-v2"
SMALL_QUESTIONS = (2, 474, 929)  # constructs 2774 and 1428


class CountingEmbedder:
    """The real embedder, counting the texts it is asked to embed (not a fake)."""

    def __init__(self, inner) -> None:  # type: ignore[no-untyped-def]
        self._inner = inner
        self.texts: list[str] = []

    @property
    def name(self) -> str:
        return str(self._inner.name)

    def embed(self, texts: list[str]) -> npt.NDArray[np.float32]:
        self.texts.extend(texts)
        return self._inner.embed(texts)  # type: ignore[no-any-return]


@pytest.fixture
def small_records(
    eedi_questions: list[EediQuestion], eedi_misconceptions: dict[int, str]
) -> SourceRecords:
    """Three questions and the misconceptions they reveal: a dozen items, cheap to embed."""
    questions = [q for q in eedi_questions if q.question_id in SMALL_QUESTIONS]
    used = {m for q in questions for m in q.misconception_ids.values() if m is not None}
    return eedi_records(questions, {m: eedi_misconceptions[m] for m in sorted(used)}, [])


def _ingest(bundle: Path, index: Path, embedder, *, prune: bool = False) -> IngestReport:  # type: ignore[no-untyped-def]
    return asyncio.run(ingest_bundle(bundle, index, embedder, IngestOptions(prune=prune)))


def _present(index_dir: Path, item_id: str, text: str) -> dict[str, bool]:
    """Whether an item is in each store: Chroma, BM25 and (for misconceptions) the graph."""
    index = LocalIndex.load(index_dir, embedder=MODEL)
    try:
        in_chroma = item_id in asyncio.run(index.vector.content_hashes())
        lexical = asyncio.run(index.lexical.search(text, 50))
        links = asyncio.run(index.graph.misconceptions_of(["eedi:construct:1428"]))
        return {
            "vector": in_chroma,
            "lexical": item_id in [h.item.id for h in lexical],
            "graph": item_id in [link.misconception.id for link in links],
        }
    finally:
        asyncio.run(index.aclose())


def _count(index_dir: Path) -> int:
    index = LocalIndex.load(index_dir, embedder=MODEL)
    try:
        return asyncio.run(index.vector.count())
    finally:
        asyncio.run(index.aclose())


def test_reingest_is_idempotent_and_incremental(
    tmp_path: Path, small_records: SourceRecords, embedder
) -> None:  # type: ignore[no-untyped-def]
    spy = CountingEmbedder(embedder)
    bundle, index = tmp_path / "bundle", tmp_path / "index"
    write_bundle(small_records, bundle)
    n = len(items_from_records(small_records))
    assert n >= 10

    first = _ingest(bundle, index, spy)
    assert (first.added, first.updated, first.unchanged, first.pruned) == (n, 0, 0, 0)
    # Every item, and every concept card (the linker's), embedded once.
    cards = card_texts(small_records)
    assert first.embedded == n and len(spy.texts) == n + len(cards)
    assert set(cards) <= set(spy.texts)
    assert first.counts["items"] == n and first.rejected == []
    assert _count(index) == n

    spy.texts.clear()
    again = _ingest(bundle, index, spy)
    assert (again.added, again.updated, again.unchanged, again.pruned) == (0, 0, n, 0)
    assert again.embedded == 0
    assert spy.texts == []  # nothing re-embedded, not even a probe
    assert _count(index) == n

    # Change one record's text: exactly that one is re-embedded.
    doc = small_records.documents[0]
    changed = dataclasses.replace(small_records)
    changed.documents = [
        doc.model_copy(update={"text": doc.text + "\nHint: look at the signs."}),
        *small_records.documents[1:],
    ]
    write_bundle(changed, bundle)
    spy.texts.clear()
    third = _ingest(bundle, index, spy)
    assert (third.added, third.updated, third.unchanged) == (0, 1, n - 1)
    assert len(spy.texts) == 1 and spy.texts[0].endswith("Hint: look at the signs.")
    assert _count(index) == n
    manifest = Manifest.read(IndexLayout.live(index).root)
    assert manifest is not None and manifest.bundle_hash == bundle_hash(bundle)


def test_removed_records_stay_without_prune_and_go_with_prune(
    tmp_path: Path, small_records: SourceRecords, embedder
) -> None:  # type: ignore[no-untyped-def]
    bundle, index = tmp_path / "bundle", tmp_path / "index"
    write_bundle(small_records, bundle)
    n = len(items_from_records(small_records))
    _ingest(bundle, index, embedder)

    # A misconception revealed by question 474 or 929 (construct 1428), with its own text.
    gone = next(
        m
        for m in small_records.misconceptions
        if m.concept_ids == ["eedi:construct:1428"] and m.id != "eedi:misconception:2142"
    )
    assert _present(index, gone.id, gone.text) == {"vector": True, "lexical": True, "graph": True}
    smaller = dataclasses.replace(small_records)
    smaller.misconceptions = [m for m in small_records.misconceptions if m.id != gone.id]
    write_bundle(smaller, bundle)

    kept = _ingest(bundle, index, embedder)
    assert (kept.added, kept.updated, kept.pruned, kept.unchanged) == (0, 0, 0, n)
    assert _count(index) == n
    assert _present(index, gone.id, gone.text) == {"vector": True, "lexical": True, "graph": True}

    pruned = _ingest(bundle, index, embedder, prune=True)
    assert (pruned.added, pruned.updated, pruned.pruned, pruned.unchanged) == (0, 0, 1, n - 1)
    assert pruned.counts["items"] == n - 1
    assert _count(index) == n - 1
    assert _present(index, gone.id, gone.text) == {
        "vector": False,
        "lexical": False,
        "graph": False,
    }


def test_manifest_records_embedder_bundle_hash_and_versions(
    session_index: tuple[Path, IngestReport], index_bundle: Path, index_records: SourceRecords
) -> None:
    index_dir, report = session_index
    generation = live_generation(index_dir)
    assert generation is not None
    manifest = Manifest.read(generation)
    assert manifest is not None
    assert manifest.embedder == MODEL
    assert manifest.embedding_dim == 384
    assert manifest.bundle_hash == bundle_hash(index_bundle)
    assert manifest.versions == library_versions()
    assert manifest.counts == report.counts
    assert report.counts["items"] == len(items_from_records(index_records))
    assert report.added == report.counts["items"] and report.updated == 0
    assert {p.name for p in generation.iterdir()} >= {
        "manifest.json",
        "chroma",
        "lexical",
        "catalogue",
        "vectors",
    }
    # Every derived file is recorded with its size and sha256 (Chroma's HNSW files included).
    assert {f.split("/")[0] for f in manifest.files} == {
        "catalogue",
        "lexical",
        "vectors",
        "chroma",
    }


def test_index_of_another_embedder_is_refused(
    tmp_path: Path, small_records: SourceRecords, embedder, session_index
) -> None:  # type: ignore[no-untyped-def]
    other = "intfloat/e5-small-v2"
    Manifest(embedder=other, embedding_dim=384, bundle_hash="x").write(tmp_path)
    with pytest.raises(EmbedderMismatchError) as info:
        asyncio.run(
            ingest_records(small_records, tmp_path, embedder, IngestOptions(source_hash="h"))
        )
    msg = info.value.message
    assert other in msg and MODEL in msg and str(tmp_path) in msg
    assert "TUTORGRAPH_EMBEDDING_MODEL" in msg
    # Refused before anything was written: no generation, the old manifest as it was.
    assert not (tmp_path / "generations").exists()
    assert Manifest.read(tmp_path) == Manifest(embedder=other, embedding_dim=384, bundle_hash="x")

    # And a real index refuses to open for another embedder.
    with pytest.raises(EmbedderMismatchError, match="was built with embedder"):
        LocalIndex.load(session_index[0], embedder=other)


def test_bad_records_are_reported_and_good_ones_ingested(
    tmp_path: Path, small_records: SourceRecords, embedder
) -> None:  # type: ignore[no-untyped-def]
    bundle, index = tmp_path / "bundle", tmp_path / "index"
    write_bundle(small_records, bundle)
    with (bundle / "misconceptions.jsonl").open("a", encoding="utf-8") as fh:
        fh.write('{"id": "eedi:misconception:x", "text": ""}\n')
    report = _ingest(bundle, index, embedder)
    n = len(items_from_records(small_records))
    assert report.added == n
    assert [(e.file, e.line) for e in report.rejected] == [
        ("misconceptions.jsonl", len(small_records.misconceptions) + 1)
    ]


def test_index_retrieval_defaults_are_kept_and_validated(
    tmp_path: Path, small_records: SourceRecords, embedder
) -> None:  # type: ignore[no-untyped-def]
    bundle, index = tmp_path / "bundle", tmp_path / "index"
    write_bundle(small_records, bundle)
    asyncio.run(
        ingest_bundle(
            bundle,
            index,
            embedder,
            IngestOptions(default_retrieval_profile="semantic", default_semantic_weight=0.7),
        )
    )
    _ingest(bundle, index, embedder)  # a later ingest without them keeps them
    manifest = Manifest.read(IndexLayout.live(index).root)
    assert manifest is not None
    assert (manifest.default_retrieval_profile, manifest.default_semantic_weight) == (
        "semantic",
        0.7,
    )
    with pytest.raises(ConfigurationError, match="unknown retrieval profile"):
        asyncio.run(
            ingest_bundle(bundle, index, embedder, IngestOptions(default_retrieval_profile="fast"))
        )
    with pytest.raises(ConfigurationError, match=r"\[0, 1\]"):
        asyncio.run(
            ingest_bundle(bundle, index, embedder, IngestOptions(default_semantic_weight=2.0))
        )


def test_a_graph_writer_gets_the_whole_catalogue(
    tmp_path: Path, small_records: SourceRecords, embedder
) -> None:  # type: ignore[no-untyped-def]
    """The pipeline merges everything the index holds into a `GraphWriter` (Neo4j's path,
    here through the embedded store's write port), and prunes it with the index."""
    from tutorgraph.stores.embedded_graph import EmbeddedGraphStore

    graph = EmbeddedGraphStore(SourceRecords())
    first = SourceRecords(concepts=small_records.concepts, misconceptions=[])
    asyncio.run(ingest_records(first, tmp_path, embedder, graph=graph))
    report = asyncio.run(ingest_records(small_records, tmp_path, embedder, graph=graph))
    assert report.graph is not None and report.graph["misconceptions"] == len(
        small_records.misconceptions
    )
    ids = [c.id for c in small_records.concepts]
    assert asyncio.run(graph.unknown_concepts(ids)) == []
    links = asyncio.run(graph.misconceptions_of(ids))
    assert {link.misconception.id for link in links} == {m.id for m in small_records.misconceptions}

    only = SourceRecords(concepts=small_records.concepts)
    options = IngestOptions(prune=True)
    pruned = asyncio.run(ingest_records(only, tmp_path, embedder, options, graph=graph))
    assert pruned.graph is not None
    left = len(small_records.misconceptions) + len(small_records.documents)
    assert pruned.graph["pruned"] == left
    assert asyncio.run(graph.misconceptions_of(ids)) == []


def test_stored_vectors_build_the_index_a_fresh_ingest_builds(
    small_records: SourceRecords, tmp_path: Path, embedder
) -> None:  # type: ignore[no-untyped-def]
    bundle = tmp_path / "bundle"
    write_bundle(small_records, bundle)
    fresh = _ingest(bundle, tmp_path / "fresh", embedder)
    assert fresh.embedded == fresh.added > 0 and fresh.reused == 0

    assert asyncio.run(embed_bundle(bundle, embedder)) > 0
    counting = CountingEmbedder(embedder)
    stored = _ingest(bundle, tmp_path / "stored", counting)
    assert counting.texts == [] and stored.reused == stored.added == fresh.added
    assert stored.embedded == 0
    assert (
        bundle_hash(bundle) == Manifest.read(IndexLayout.live(tmp_path / "stored").root).bundle_hash
    )  # type: ignore[union-attr]

    def vectors(index: Path) -> dict[str, list[float]]:
        client = chroma_persistent_client(IndexLayout.live(index).chroma)
        got = client.get_collection(COLLECTION_NAME).get(include=["embeddings"])
        return {i: list(v) for i, v in zip(got["ids"], got["embeddings"], strict=True)}

    assert vectors(tmp_path / "stored") == vectors(tmp_path / "fresh")

    # One text changed: only it is embedded; vectors of another model are not used.
    changed = dataclasses.replace(
        small_records,
        misconceptions=[
            m.model_copy(update={"text": m.text + " (edited)"}) if i == 0 else m
            for i, m in enumerate(small_records.misconceptions)
        ],
    )
    write_bundle(changed, bundle)
    counting.texts.clear()
    again = _ingest(bundle, tmp_path / "stored", counting)
    assert again.updated == 1 and len(counting.texts) == 1 and again.reused == 0


def test_an_add_on_bundle_links_to_the_index_and_removes_nothing(
    tmp_path: Path, small_records: SourceRecords, embedder
) -> None:  # type: ignore[no-untyped-def]
    """A bundle that references a concept only the index holds is added to it (the index's
    records all stay, byte for byte); an id in neither is rejected, record by record; with
    `prune` (the index would hold the bundle alone) the index's concepts do not resolve."""
    from tutorgraph_client.models.curriculum import Concept, Document, Prerequisite

    base, index = tmp_path / "base", tmp_path / "index"
    write_bundle(small_records, base)
    _ingest(base, index, embedder)
    before = load_catalogue(IndexLayout.live(index))
    construct = "eedi:construct:1428"
    assert construct in {c.id for c in before.concepts}

    own = Concept(
        id="myclass:halves",
        name="Halving before dividing",
        kind="section",
        parent_ids=[construct],
        source="myclass",
        license="Apache-2.0",
    )
    addon = SourceRecords(
        concepts=[own],
        prerequisites=[
            Prerequisite(
                prerequisite_id=own.id,
                concept_id=construct,
                relation="builds_towards",
                source="myclass",
            )
        ],
        documents=[
            Document(
                id="myclass:lesson:1",
                kind="explanation",
                title="Halving",
                text="To divide by 4, halve and halve again.",
                concept_ids=[own.id, construct],
                source="myclass",
                license="Apache-2.0",
            )
        ],
    )
    bundle = tmp_path / "addon"
    write_bundle(addon, bundle)
    stray = Document(
        id="myclass:lesson:2",
        kind="explanation",
        title="Stray",
        text="About a standard nobody holds.",
        concept_ids=["ccss:9.ZZ.Z.9"],
        source="myclass",
        license="Apache-2.0",
    )
    with (bundle / "documents.jsonl").open("a", encoding="utf-8") as fh:
        fh.write(stray.model_dump_json() + "\n")

    report = _ingest(bundle, index, embedder)

    assert [(e.file, e.line) for e in report.rejected] == [("documents.jsonl", 2)]
    assert "ccss:9.ZZ.Z.9" in report.rejected[0].reason
    assert "in neither the bundle nor the index" in report.rejected[0].reason
    assert (report.added, report.pruned) == (2, 0)  # the concept and its lesson
    after = load_catalogue(IndexLayout.live(index))
    for kind in ("concepts", "prerequisites", "misconceptions", "documents"):
        kept = set(map(repr, getattr(before, kind)))
        assert kept <= set(map(repr, getattr(after, kind))), kind
    assert after.merged(SourceRecords()) == after  # the graph is closed: every edge resolves
    assert own in after.concepts and addon.prerequisites[0] in after.prerequisites
    index_items = LocalIndex.load(index, embedder=MODEL)
    try:
        chains = asyncio.run(index_items.graph.prerequisite_chains([construct], 1))
        assert (own.id, construct) in {c.path for c in chains}
    finally:
        asyncio.run(index_items.aclose())

    # With prune, into a copy of the index: its concepts do not resolve, and a pruning
    # ingest with rejected records is refused whole (it would remove them from the index).
    shutil.copytree(index, tmp_path / "index-pruned")
    with pytest.raises(BundleError, match="nothing was changed") as refused:
        _ingest(bundle, tmp_path / "index-pruned", embedder, prune=True)
    assert [(e.file, e.line) for e in refused.value.errors] == [
        ("concepts.jsonl", 1),
        ("documents.jsonl", 1),
        ("documents.jsonl", 2),
        ("prerequisites.jsonl", 1),
    ]
    assert construct in refused.value.errors[0].reason
    assert not any("index" in e.reason for e in refused.value.errors)
    assert load_catalogue(IndexLayout.live(tmp_path / "index-pruned")) == after

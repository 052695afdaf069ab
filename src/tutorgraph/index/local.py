"""An index on disk, opened: its vector, lexical and graph stores and its manifest.

`LocalIndex.open(dir)` and `LocalIndex.build(records, dir, embedder)` are async context
managers (or awaitables, for an index that outlives a block); the index owns the Chroma
client it opened, and closing it closes every store.

>>> async with LocalIndex.open(Path(".tutorgraph"), embedder=MINILM) as index:
...     print(index.manifest.counts["items"])  # doctest: +SKIP
>>> async with LocalIndex.build(records, Path("/tmp/idx"), embedder) as index:
...     retriever = build_retriever(index, Models(embedder))  # doctest: +SKIP
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Generator, Sequence
from concurrent.futures import Future
from functools import partial
from pathlib import Path
from typing import Any, Self

from tutorgraph.embedding.embedder import Embedder
from tutorgraph.embedding.stored_vectors import StoredVectors
from tutorgraph.errors import (
    ConfigurationError,
    IndexDamagedError,
    IndexNotFoundError,
)
from tutorgraph.index.diskspace import disk_full_reason
from tutorgraph.index.generations import LEGACY, ReaderHold, generation_name, live_generation
from tutorgraph.index.integrity import (
    Problem,
    catalogue_problem,
    check_files,
    nonfinite_rows,
)
from tutorgraph.index.layout import IndexLayout, load_catalogue
from tutorgraph.index.loading import (
    DISK_FULL,
    check_vectors,
    count_when_sound,
    error_text,
    in_thread,
    load_linker,
    vector_store_for,
)
from tutorgraph.index.pipeline import IngestOptions, ingest_records
from tutorgraph.index.vector_check import VectorCheck, Verdict
from tutorgraph.linking import ConceptLinker
from tutorgraph.models.records import SourceRecords
from tutorgraph.stores.bm25 import BM25Index
from tutorgraph.stores.chroma import ChromaVectorStore
from tutorgraph.stores.damaged import DamagedStore
from tutorgraph.stores.embedded_graph import EmbeddedGraphStore
from tutorgraph.stores.exact_vectors import ExactVectors
from tutorgraph.stores.lessons import LessonIndex
from tutorgraph.stores.manifest import Manifest, require_manifest
from tutorgraph.stores.protocols import GraphStore, IndexItem, LexicalIndex, VectorStore
from tutorgraph_client.models.curriculum import Concept

__all__ = ["AsyncClosing", "GraphOnly", "LocalIndex", "Opening"]

log = logging.getLogger(__name__)


class AsyncClosing:
    """Closed by `aclose()`, or at the end of an `async with` block."""

    async def aclose(self) -> None:
        raise NotImplementedError

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()


class LocalIndex(AsyncClosing):
    """The stores of one index generation, ready to search (an `IndexReader`).

    `problems` lists what failed the integrity check at open; each damaged source is a
    `DamagedStore` that refuses every call with the reason, so requests degrade that source.
    `unavailable` lists the sources that are intact but could not be opened (a full disk):
    they degrade too, and are not damage.
    """

    def __init__(
        self,
        manifest: Manifest,
        vector: VectorStore,
        lexical: LexicalIndex,
        graph: GraphStore,
        *,
        generation: str = LEGACY,
        problems: Sequence[Problem] = (),
        hold: ReaderHold | None = None,
        linker: ConceptLinker | None = None,
        lessons: LessonIndex | None = None,
        item_vectors: ExactVectors | None = None,
        unavailable: dict[str, str] | None = None,
    ) -> None:
        self._manifest = manifest
        self._vector = vector
        self._lexical = lexical
        self._graph = graph
        self._generation = generation
        self._problems = list(problems)
        self._unavailable = dict(unavailable or {})
        self._hold = hold
        self._linker = linker
        self._lessons = lessons
        self._item_vectors = item_vectors

    @property
    def manifest(self) -> Manifest:
        return self._manifest

    @property
    def generation(self) -> str:
        """The generation's name (`000007`), or `legacy` for an index without generations."""
        return self._generation

    @property
    def problems(self) -> list[Problem]:
        """What failed the integrity check when the index opened (empty when none did)."""
        return list(self._problems)

    @property
    def unavailable(self) -> dict[str, str]:
        """Source -> why it could not be opened although nothing is damaged (the disk is
        full); empty when every intact source opened."""
        return dict(self._unavailable)

    @property
    def linker(self) -> ConceptLinker | None:
        """The concept linker over this generation's cards (None for an index written before
        it kept their vectors, or whose catalogue is damaged)."""
        return self._linker

    @property
    def lessons(self) -> LessonIndex | None:
        """The lessons with the vectors this generation's ingest stored (None when the
        lexical index, which lists the items, or the stored vectors are damaged)."""
        return self._lessons

    @property
    def item_vectors(self) -> ExactVectors | None:
        """Every item with the vector this generation's ingest stored, read by id (the
        packet's slots compare their candidates with the query); None when the lexical index
        or the stored vectors are damaged."""
        return self._item_vectors

    @property
    def vector(self) -> VectorStore:
        return self._vector

    @property
    def lexical(self) -> LexicalIndex:
        return self._lexical

    @property
    def graph(self) -> GraphStore:
        return self._graph

    def lexical_items(self) -> list[IndexItem]:
        """Every item the lexical index holds (none when it is damaged)."""
        return self._lexical.items if isinstance(self._lexical, BM25Index) else []

    def vocabulary(self) -> dict[str, int]:
        """Term -> how many items hold it, over the lexical index (the spelling corrector's
        vocabulary; empty when the lexical index is damaged)."""
        if isinstance(self._lexical, BM25Index):
            return self._lexical.document_frequencies()
        return {}

    async def aclose(self) -> None:
        for store in (self._vector, self._lexical, self._graph):
            await store.aclose()
        if self._hold is not None:
            self._hold.release()

    @classmethod
    def load(
        cls,
        index_dir: Path,
        *,
        embedder: str,
        vector: VectorStore | None = None,
        graph: GraphStore | None = None,
        isolate: bool = False,
        check: VectorCheck | None = None,
    ) -> LocalIndex:
        """Open the live generation of an index built by `tutorgraph ingest` (blocking:
        checks its files, loads the graph and BM25, probes the vectors).

        `vector` and `graph` replace the embedded stores (a Chroma server, Neo4j); the BM25
        index, the catalogue and the manifest always live in `index_dir`. Without `vector`
        the index opens and owns an embedded Chroma client; with `isolate` it opens it in a
        child process first (`index/vector_check.py`: a store that would crash this process
        is reported as damaged instead), or takes the verdict of `check` when that child was
        started on the same generation. A part that fails its integrity check is left out
        (see `problems`); only a missing index, another embedder's, or an unreadable
        manifest raise.
        """
        generation = live_generation(index_dir)
        if generation is None:
            if check is not None:
                check.cancel()
            raise IndexNotFoundError(index_dir)
        isolate = isolate or check is not None
        if check is not None and check.generation != generation:
            check.cancel()  # the pointer moved since it started: check the new one
            check = None
        hold = ReaderHold(generation)
        try:
            return cls._load(generation, embedder, vector, graph, hold, isolate, check)
        except BaseException:
            hold.release()
            raise
        finally:
            if check is not None:
                check.cancel()

    @classmethod
    def _load(
        cls,
        generation: Path,
        embedder: str,
        vector: VectorStore | None,
        graph: GraphStore | None,
        hold: ReaderHold,
        isolate: bool,
        check: VectorCheck | None,
    ) -> LocalIndex:
        layout = IndexLayout(generation)
        manifest = require_manifest(generation, embedder)
        found = {p.source: p for p in check_files(layout, manifest)}
        problems = dict(found)
        unavailable: dict[str, str] = {}
        own: ChromaVectorStore | None = None
        opened: Future[int] | None = None
        verdict: Future[Verdict] | None = None
        if vector is None and "vector" not in problems:
            if isolate:  # the child opens the store first; its verdict is awaited below
                verdict = in_thread((check or VectorCheck.start(generation)).result)
            # Chroma pages its HNSW index in (in the child, then here once the child found
            # it sound) while BM25 and the graph load.
            own = ChromaVectorStore.embedded(layout.chroma, create=False)  # no I/O yet
            opened = in_thread(partial(count_when_sound, own, verdict))
        expected = manifest.counts
        lexical: LexicalIndex | None = None
        if "lexical" not in problems:
            try:
                bm25 = BM25Index.load(layout.lexical)
            except Exception as exc:  # any failure to read a damaged file is damage
                problems["lexical"] = Problem("lexical", f"cannot be read ({error_text(exc)})")
            else:
                if "items" in expected and len(bm25.items) != expected["items"]:
                    problems["lexical"] = Problem(
                        "lexical",
                        f"holds {len(bm25.items):,} items, the manifest counted "
                        f"{expected['items']:,}",
                    )
                else:
                    lexical = bm25
                    if own is not None:  # the same items: Chroma need not read them
                        own.know_items(bm25.items)
        concepts: list[Concept] | None = None
        if graph is None and "graph" not in problems:
            try:
                records = load_catalogue(layout)
            except Exception as exc:
                problems["graph"] = Problem(
                    "graph", f"the catalogue cannot be read ({error_text(exc)})"
                )
            else:
                if (wrong := catalogue_problem(records, manifest)) is not None:
                    problems["graph"] = wrong
                else:
                    graph = EmbeddedGraphStore(records)
                    concepts = records.concepts
        if verdict is not None:
            found_by_child = verdict.result()
            if found_by_child.problem is not None:
                # Where it was before BM25 and the graph loaded beside the child: first after
                # the files' problems (the one a command reports first).
                later = {k: p for k, p in problems.items() if k not in found}
                problems = {**found, "vector": found_by_child.problem, **later}
            elif found_by_child.disk_full:
                unavailable["vector"] = disk_full_reason(generation)
        try:
            stored = StoredVectors.read(layout.vectors)
        except ConfigurationError as exc:
            stored = None
            problems.setdefault(
                "vector", Problem("vector", f"its vectors cannot be read ({exc})", "vectors")
            )
        if stored is not None and (bad := nonfinite_rows(stored)):
            # Same-size damage passes the size check: a NaN is never searched or served.
            stored = None
            problems.setdefault(
                "vector",
                Problem(
                    "vector",
                    f"vectors/vectors.npy holds {bad:,} vector(s) that are not finite numbers "
                    "(NaN or infinity)",
                    "vectors",
                ),
            )
        if (
            own is not None
            and opened is not None
            and "vector" not in problems
            and "vector" not in unavailable
        ):
            problem = check_vectors(own, opened, manifest, lexical, stored, generation)
            if problem is DISK_FULL:
                unavailable["vector"] = disk_full_reason(generation)
            elif problem is not None:
                problems["vector"] = problem
        exact = (
            ExactVectors.of(lexical.items, stored)
            if stored is not None and isinstance(lexical, BM25Index)
            else None
        )
        if own is not None and exact is not None:  # the same items: searched exactly
            own.search_exactly(exact)
        linker = None if "graph" in problems else load_linker(layout, concepts, stored)
        lessons = (
            LessonIndex.of(lexical.items, stored)
            if isinstance(lexical, BM25Index) and stored is not None
            else None
        )
        for problem in problems.values():
            log.info("index %s: %s", generation, problem)
        for source, reason in unavailable.items():
            log.warning("index %s: %s: %s", generation_name(generation), source, reason)
        if ("vector" in problems or "vector" in unavailable) and own is not None:
            own.close_sync()
        return cls(
            manifest,
            vector_store_for(problems, unavailable, vector, own),
            lexical or DamagedStore(str(problems["lexical"])),
            graph or DamagedStore(str(problems["graph"])),
            generation=generation_name(generation),
            problems=list(problems.values()),
            hold=hold,
            linker=linker,
            lessons=lessons,
            item_vectors=exact,
            unavailable=unavailable,
        )

    @classmethod
    def open(
        cls,
        index_dir: Path,
        *,
        embedder: str,
        isolate: bool = False,
        check: VectorCheck | None = None,
    ) -> Opening:
        """`load` of the embedded stores in a worker thread, as `async with` or `await`."""
        return Opening(
            lambda: asyncio.to_thread(
                cls.load, index_dir, embedder=embedder, isolate=isolate, check=check
            )
        )

    @classmethod
    def build(
        cls,
        records: SourceRecords,
        index_dir: Path,
        embedder: Embedder,
        options: IngestOptions | None = None,
    ) -> Opening:
        """Make the embedded index under `index_dir` hold `records` (merged into what it
        holds, or exactly them with `options.prune`), then open it."""

        async def make() -> LocalIndex:
            await ingest_records(records, index_dir, embedder, options or IngestOptions())
            return await asyncio.to_thread(cls.load, index_dir, embedder=embedder.name)

        return Opening(make)


class GraphOnly(AsyncClosing):
    """The curriculum graph of an index alone: what a concept lookup (`tutorgraph concept`)
    reads, without the vectors, BM25 or any model. `load` reads the live generation's
    catalogue, checked as `LocalIndex.load` checks it; a Neo4j store can stand in."""

    def __init__(
        self, graph: GraphStore, *, generation: str = LEGACY, hold: ReaderHold | None = None
    ) -> None:
        self._graph = graph
        self._generation = generation
        self._hold = hold

    @property
    def graph(self) -> GraphStore:
        return self._graph

    @property
    def generation(self) -> str:
        return self._generation

    async def aclose(self) -> None:
        await self._graph.aclose()
        if self._hold is not None:
            self._hold.release()

    @classmethod
    def load(cls, index_dir: Path) -> GraphOnly:
        """The embedded graph of the live generation (blocking: reads the catalogue). No
        index is an `IndexNotFoundError`; a catalogue whose files are not the sizes the
        manifest recorded, or that cannot be read, or whose counts differ, is an
        `IndexDamagedError` (a lookup has nothing to degrade to)."""
        generation = live_generation(index_dir)
        if generation is None:
            raise IndexNotFoundError(index_dir)
        hold = ReaderHold(generation)
        try:
            layout = IndexLayout(generation)
            manifest = Manifest.read(generation)
            if manifest is None:
                raise IndexNotFoundError(index_dir)
            problem = next(
                (
                    p
                    for p in check_files(layout, manifest, only="catalogue/")
                    if p.source == "graph"
                ),
                None,
            )
            records = SourceRecords()
            if problem is None:
                try:
                    records = load_catalogue(layout)
                except Exception as exc:
                    problem = Problem("graph", f"the catalogue cannot be read ({error_text(exc)})")
                else:
                    problem = catalogue_problem(records, manifest)
            if problem is not None:
                raise IndexDamagedError(f"the index is damaged: {problem} (`tutorgraph doctor`)")
            return cls(
                EmbeddedGraphStore(records), generation=generation_name(generation), hold=hold
            )
        except BaseException:
            hold.release()
            raise


class Opening:
    """An index being opened: `await` it for the index, or `async with` it to close the
    index at the end of the block."""

    def __init__(self, make: Callable[[], Awaitable[LocalIndex]]) -> None:
        self._make = make
        self._index: LocalIndex | None = None

    def __await__(self) -> Generator[Any, None, LocalIndex]:
        return self._make().__await__()

    async def __aenter__(self) -> LocalIndex:
        self._index = await self._make()
        return self._index

    async def __aexit__(self, *exc: object) -> None:
        if self._index is not None:
            await self._index.aclose()

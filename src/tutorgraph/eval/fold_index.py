"""Plumbing shared by the benchmark tasks: stable folds and samples, one index folder reused
fold after fold, the retriever each configuration runs on, and the loop that scores a fold.

A task turns its data into `Fold`s (the records its index may hold, and the test items it
scores) and hands them to `run_folds`, which builds each fold's index, runs every
configuration that is neither skipped (already done) nor unavailable here, and records one
(task, config, fold) unit at a time.

The index folder is reused: each fold's records replace the previous fold's (`prune=True`),
so only what differs between folds is embedded and written, and whatever left the records
(the next fold's test items) is deleted from every store before that fold is scored.

>>> stable_fold("openstax:m81244:exercise:fs-id1", 5) in range(5)
True
>>> stable_sample(["a", "b", "c"], 2, key=str)
['a', 'c']
"""

from __future__ import annotations

import asyncio
import hashlib
import shutil
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from tutorgraph.config import BUNDLED_RERANKER, MSMARCO_RERANKER, Settings
from tutorgraph.embedding.cached_embedder import caching
from tutorgraph.embedding.embedder import Embedder
from tutorgraph.errors import ConfigurationError
from tutorgraph.eval.configs import RunConfig
from tutorgraph.eval.results import ItemScore, UnitKey
from tutorgraph.ingest.indexer import ingest_records
from tutorgraph.models.packet import ReasoningPacket
from tutorgraph.models.records import SourceRecords
from tutorgraph.models.request import MAX_QUERY_CHARS, RetrievalRequest
from tutorgraph.refinement.local import LocalRefiner
from tutorgraph.refinement.refiner import Refiner
from tutorgraph.refinement.spelling import SpellingCorrector
from tutorgraph.retrieval.factory import build_refiner, bundled_reranker_path
from tutorgraph.retrieval.reranker import ONNX_FILES, Backend, CrossEncoderReranker, Reranker
from tutorgraph.retrieval.retriever import HybridRetriever, RetrieverConfig
from tutorgraph.retrieval.router import analyse
from tutorgraph.stores.local_index import OpenIndex, chroma_persistent_client, open_index

__all__ = [
    "BENCH_SOURCE_TIMEOUT_S",
    "N_RESULTS",
    "RERANK_DEPTH",
    "EvalItem",
    "Fold",
    "FoldIndex",
    "FoldTask",
    "Ranker",
    "Scorer",
    "TaskResources",
    "concept_ranking",
    "eval_item",
    "load_resources",
    "openai_unavailable",
    "run_folds",
    "stable_fold",
    "stable_sample",
]

T = TypeVar("T")

# Quality, not latency, is measured here: a busy 2-core machine must not turn a slow source
# into a degraded packet (the server's default is 2 s).
BENCH_SOURCE_TIMEOUT_S = 60.0
N_RESULTS = 50  # the most a request may ask for: rankings as deep as the packet allows
RERANK_DEPTH = 30

# (packet, item) -> ranked ids; (ranked ids, item) -> metric values.
Ranker = Callable[[ReasoningPacket, "EvalItem"], list[str]]
Scorer = Callable[[list[str], "EvalItem"], dict[str, float]]


def stable_fold(key: str, folds: int) -> int:
    """The fold of a string id: sha256-based, so the same on every machine and process."""
    return int(hashlib.sha256(key.encode("utf-8")).hexdigest()[:12], 16) % folds


def stable_sample(items: Sequence[T], n: int | None, *, key: Callable[[T], str]) -> list[T]:
    """The `n` items whose keys hash lowest (all when `n` is None), kept in input order."""
    if n is None or n >= len(items):
        return list(items)
    chosen = set(sorted(range(len(items)), key=lambda i: _digest(key(items[i])))[:n])
    return [it for i, it in enumerate(items) if i in chosen]


def _digest(text: str) -> str:
    return hashlib.sha256(("sample:" + text).encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class EvalItem:
    """One test query: its stable id, text, the concept ids the request passes, the ids that
    count as right, and the router's query type of the text. `extra` holds what a ranker
    needs beyond that (e.g. ids to leave out of the ranking)."""

    item: str
    query: str
    relevant: frozenset[str]
    query_type: str
    concept_ids: tuple[str, ...] = ()
    extra: frozenset[str] = frozenset()


def eval_item(
    item: str,
    query: str,
    relevant: Sequence[str] | frozenset[str],
    *,
    concept_ids: Sequence[str] = (),
    extra: Sequence[str] | frozenset[str] = (),
) -> EvalItem:
    """An `EvalItem` whose query type is the router's reading of `query`.

    >>> eval_item("q1", "What comes before adding fractions?", ["c1"]).query_type
    'prerequisite'
    """
    query = query.strip()[:MAX_QUERY_CHARS]
    return EvalItem(
        item=item,
        query=query,
        relevant=frozenset(relevant),
        query_type=analyse(query).query_type,
        concept_ids=tuple(concept_ids),
        extra=frozenset(extra),
    )


def concept_ranking(packet: ReasoningPacket, prefix: str = "") -> list[str]:
    """Concept ids in packet order: a concept hit's own ids, any other hit's `concept_ids`;
    the first occurrence wins. With `prefix`, only ids of that kind (e.g. ``eedi:construct:``).

    >>> from tutorgraph.models.packet import STAGES, Hit
    >>> def hit(i, kind, cids): return Hit(id=i, ids=[i], kind=kind, text="t", concept_ids=cids,
    ...     score=1.0, rank=1, found_by=["vector"], fused_score=1.0)
    >>> hits = [hit("d1", "exercise", ["s:2"]), hit("s:1", "concept", ["s:1"])]
    >>> p = ReasoningPacket(query="q", timings_ms=dict.fromkeys(STAGES, 0.0), results=hits)
    >>> concept_ranking(p)
    ['s:2', 's:1']
    """
    seen: dict[str, None] = {}
    for hit in packet.results:
        ids = [hit.id, *hit.ids] if hit.kind == "concept" else hit.concept_ids
        for cid in ids:
            if cid.startswith(prefix):
                seen.setdefault(cid)
    return list(seen)


@dataclass
class Fold:
    """One fold of a task: `records` builds what its index holds (called only when some
    configuration still has to run on it), `items` are its test queries."""

    number: int
    records: Callable[[], SourceRecords]
    items: list[EvalItem]

    @classmethod
    def of(cls, number: int, records: SourceRecords, items: list[EvalItem]) -> Fold:
        """A fold whose records are already built."""
        return cls(number, lambda: records, items)


class FoldIndex:
    """One index folder that fold after fold is made to hold exactly that fold's records.

    Under `root` (a `work` folder) it survives an interrupted run, so a resumed run embeds
    only what changed; without one it lives in a temporary folder removed by `cleanup()`.
    """

    def __init__(self, embedder: Embedder, root: Path | None = None) -> None:
        self.embedder = caching(embedder)
        self.root = root
        self._tmp: Path | None = None
        self._client: object | None = None

    async def open(self, records: SourceRecords, *, label: str) -> OpenIndex:
        """Make the folder hold `records` (nothing else) and open its stores."""
        if self.root is None:
            self._tmp = self.root = Path(tempfile.mkdtemp(prefix="tutorgraph-eval-"))
        index_dir = self.root
        index_dir.mkdir(parents=True, exist_ok=True)
        if self._client is None:
            self._client = await asyncio.to_thread(chroma_persistent_client, index_dir / "chroma")
        await ingest_records(
            records,
            index_dir,
            self.embedder,
            source_hash=label,
            prune=True,
            chroma_client=self._client,
        )
        return await asyncio.to_thread(
            open_index, index_dir, embedder=self.embedder.name, chroma_client=self._client
        )

    def cleanup(self) -> None:
        """Close the Chroma client; remove the temporary folder (a `work` folder is kept)."""
        client, self._client = self._client, None
        close = getattr(client, "close", None)  # chromadb >= 1.1 has it
        if callable(close):
            close()
        if self._tmp is not None:
            shutil.rmtree(self._tmp, ignore_errors=True)
            self._tmp = self.root = None


@dataclass
class TaskResources:
    """What a run loads once for all its folds: rerankers by config name, the settings the
    OpenAI refiner reads, and the configurations that cannot run here, with the reason."""

    rerankers: dict[str, Reranker] = field(default_factory=dict)
    settings: Settings | None = None
    not_measured: dict[str, str] = field(default_factory=dict)


def openai_unavailable(settings: Settings) -> str | None:
    """Why the OpenAI refiner cannot run with `settings`, or None when it can."""
    key = settings.openai_api_key.get_secret_value() if settings.openai_api_key else ""
    if not key and not settings.openai_base_url:  # as `build_refiner` decides
        return (
            "no OpenAI key or base URL is configured "
            "(TUTORGRAPH_OPENAI_API_KEY / TUTORGRAPH_OPENAI_BASE_URL)"
        )
    return None


async def load_resources(
    configs: Sequence[RunConfig],
    *,
    domain_reason: str | None = None,
    rerank_reason: str | None = None,
    msmarco_model: str = MSMARCO_RERANKER,
    domain_model: Path | None = None,
    settings: Settings | None = None,
) -> TaskResources:
    """Load the rerankers `configs` use and find the configurations that cannot run.

    `domain_reason`: why the bundled (Eedi-trained) reranker must not be used on this task;
    `rerank_reason`: why no reranker applies to it at all. "domain" runs the bundled model's
    fp32 ONNX graph, "domain-int8" its int8 graph (`domain_model` replaces the bundled
    directory); "msmarco" is the public cross-encoder, measured only where it loads.
    """
    out = TaskResources()
    wanted = {c.reranker for c in configs} - {"none"}
    if any(c.refiner == "openai" for c in configs):
        out.settings = settings or Settings()
        reason = openai_unavailable(out.settings)
        for c in configs:
            if c.refiner == "openai" and reason:
                out.not_measured[c.name] = f"not measured: {reason}"
    reasons: dict[str, str] = {}
    if rerank_reason:
        reasons = dict.fromkeys(wanted, f"not measured: {rerank_reason}")
    else:
        model_dir = domain_model or bundled_reranker_path()
        backends: tuple[tuple[str, Backend], ...] = (
            ("domain", "onnx"),
            ("domain-int8", "onnx-int8"),
        )
        for name, backend in backends:
            if name not in wanted:
                continue
            if domain_reason:
                reasons[name] = f"not measured: {domain_reason}"
            elif not (model_dir / ONNX_FILES[backend]).is_file():
                reasons[name] = (
                    f"not measured: the bundled reranker ships no {ONNX_FILES[backend]} "
                    "(only its int8 graph is packaged)"
                )
            else:
                r = CrossEncoderReranker(model_dir, backend=backend, name=BUNDLED_RERANKER)
                await asyncio.to_thread(r.load)
                out.rerankers[name] = r
        if "msmarco" in wanted:
            ms = CrossEncoderReranker(msmarco_model, backend="torch")
            try:
                await asyncio.to_thread(ms.load)
                out.rerankers["msmarco"] = ms
            except ConfigurationError as exc:
                first = exc.message.strip().splitlines()[0] if exc.message.strip() else "no reason"
                reasons["msmarco"] = f"not measured: {first}"
    for c in configs:
        if c.reranker in reasons:
            out.not_measured[c.name] = reasons[c.reranker]
    return out


class _FoldRetrievers:
    """The retrievers of one fold's index: one per (reranker, refiner) a config asks for."""

    def __init__(self, embedder: Embedder, index: OpenIndex, resources: TaskResources) -> None:
        self._embedder = embedder
        self._index = index
        self._resources = resources
        self._local: LocalRefiner | None = None
        self._openai: Refiner | None = None
        self._made: dict[tuple[str, str], HybridRetriever] = {}

    def _refiner(self, kind: str) -> Refiner:
        if self._local is None:
            lexical = self._index.lexical
            self._local = LocalRefiner(
                self._index.graph, SpellingCorrector(lexical.document_frequencies())
            )
        if kind == "openai":
            if self._openai is None:
                settings = self._resources.settings or Settings()
                # The OpenAI refiner wraps the local one and falls back to it on any failure.
                self._openai = build_refiner(settings, self._index)
            return self._openai
        return self._local

    def get(self, cfg: RunConfig) -> HybridRetriever:
        key = (cfg.reranker, cfg.refiner)
        if key not in self._made:
            self._made[key] = HybridRetriever(
                self._embedder,
                self._index.vector,
                self._index.lexical,
                self._index.graph,
                RetrieverConfig(rerank_depth=RERANK_DEPTH, source_timeout_s=BENCH_SOURCE_TIMEOUT_S),
                reranker=self._resources.rerankers.get(cfg.reranker),
                refiner=self._refiner(cfg.refiner),
            )
        return self._made[key]

    async def aclose(self) -> None:
        if self._openai is not None:
            await self._openai.aclose()


def request_for(cfg: RunConfig, item: EvalItem) -> RetrievalRequest:
    """The request a configuration sends for an item (no context block: only ranks count)."""
    return RetrievalRequest(
        query=item.query,
        n_results=N_RESULTS,
        concept_ids=list(item.concept_ids),
        max_context_tokens=0,
        **cfg.request_fields(),
    )


async def run_folds(
    task: str,
    folds: Sequence[Fold],
    configs: Sequence[RunConfig],
    index: FoldIndex,
    *,
    rank: Ranker,
    score: Scorer,
    skip: Callable[[UnitKey], bool],
    record: Callable[[list[ItemScore]], None],
    progress: Callable[[int, int], None] | None = None,
    status: Callable[[str], None] | None = None,
    domain_reason: str | None = None,
    rerank_reason: str | None = None,
    settings: Settings | None = None,
) -> dict[str, str]:
    """Score every fold under every configuration not skipped nor unavailable; returns the
    unavailable ones with their reasons. A fold whose every configuration is skipped is
    not built."""
    say = status or (lambda _line: None)
    pending = [(f, [c for c in configs if not skip((task, c.name, f.number))]) for f in folds]
    needed = list({c.name: c for _, cs in pending for c in cs}.values())
    resources = await load_resources(
        needed, domain_reason=domain_reason, rerank_reason=rerank_reason, settings=settings
    )
    todo = [(f, [c for c in cs if c.name not in resources.not_measured]) for f, cs in pending]
    total = sum(len(f.items) * len(cs) for f, cs in todo)
    done = 0
    try:
        for fold, runnable in todo:
            if not runnable or not fold.items:
                continue
            head = f"{task} fold {fold.number}"
            records = fold.records()
            say(f"{head}: indexing {_count(records)}")
            opened = await index.open(records, label=f"{task}:{fold.number}")
            retrievers = _FoldRetrievers(index.embedder, opened, resources)
            try:
                for cfg in runnable:
                    say(f"{head}: {cfg.name} on {len(fold.items)} items")
                    retriever = retrievers.get(cfg)
                    scores: list[ItemScore] = []
                    degraded = 0
                    for item in fold.items:
                        packet = await retriever.retrieve(request_for(cfg, item))
                        degraded += bool(packet.degraded_sources)
                        scores.append(
                            ItemScore(
                                task,
                                cfg.name,
                                fold.number,
                                item.item,
                                item.query_type,
                                score(rank(packet, item), item),
                            )
                        )
                        done += 1
                        if progress:
                            progress(done, total)
                    if degraded:
                        say(f"{head}: {cfg.name}: {degraded} degraded packets")
                    record(scores)
            finally:
                await retrievers.aclose()
                await opened.aclose()
    finally:
        index.cleanup()
    return {
        c.name: resources.not_measured[c.name] for c in needed if c.name in resources.not_measured
    }


class FoldTask:
    """A benchmark task scored fold by fold with `run_folds`.

    A subclass names itself and its metrics, builds its folds, and ranks and scores a packet
    (`rank` and `score`, e.g. ``rank = staticmethod(concept_ranking_fn)``). It may say what
    it reads first (`reading`), why the reranker configurations are not measured on it
    (`domain_reason`, `rerank_reason`) and what its folds hold (`folds_note`).

    >>> class Toy(FoldTask):  # doctest: +SKIP
    ...     name, metrics = "toy", ("recall@1",)
    ...     rank = staticmethod(lambda packet, item: concept_ranking(packet))
    ...     score = staticmethod(lambda ranking, item: {"recall@1": ...})
    ...     def build_folds(self): return [Fold.of(0, records, items)]
    """

    name: str
    metrics: tuple[str, ...]
    reading: str | None = None
    domain_reason: str | None = None
    rerank_reason: str | None = None
    work: Path | None = None

    def build_folds(self) -> list[Fold]:
        raise NotImplementedError

    @staticmethod
    def rank(packet: ReasoningPacket, item: EvalItem) -> list[str]:
        raise NotImplementedError

    @staticmethod
    def score(ranking: list[str], item: EvalItem) -> dict[str, float]:
        raise NotImplementedError

    def folds_note(self) -> str | None:
        """A status line about the folds just built (e.g. items no configuration can get)."""
        return None

    async def run(
        self,
        configs: Sequence[RunConfig],
        embedder: Embedder,
        *,
        skip: Callable[[UnitKey], bool],
        record: Callable[[list[ItemScore]], None],
        progress: Callable[[int, int], None] | None = None,
        status: Callable[[str], None] | None = None,
    ) -> dict[str, str]:
        """Score every configuration on every fold; returns the ones not measured here."""
        if status and self.reading:
            status(f"{self.name}: {self.reading}")
        folds = self.build_folds()
        note = self.folds_note()
        if status and note:
            status(f"{self.name}: {note}")
        return await run_folds(
            self.name,
            folds,
            configs,
            FoldIndex(embedder, self.work / self.name if self.work else None),
            rank=self.rank,
            score=self.score,
            skip=skip,
            record=record,
            progress=progress,
            status=status,
            domain_reason=self.domain_reason,
            rerank_reason=self.rerank_reason,
        )


def _count(records: SourceRecords) -> str:
    parts = [
        (len(records.concepts), "concepts"),
        (len(records.prerequisites), "edges"),
        (len(records.misconceptions), "misconceptions"),
        (len(records.documents), "documents"),
    ]
    return ", ".join(f"{n} {what}" for n, what in parts if n)

"""The one fold runner every benchmark task uses: build each fold's index, give each
configuration its retriever, score every test item, record one (task, config, fold) unit
at a time.

A task (`FoldTask`) turns its data into `Fold`s (the records its index may hold, and the
test items it scores). `run_folds` builds each fold's index, lets the task train what it
trains per fold (`FoldTask.fold_models`), runs every configuration that is neither skipped
(already done) nor unavailable here, and records the scores.

The index folder is reused by default: each fold's records replace the previous fold's
(`prune=True`), so only what differs between folds is embedded and written, and whatever
left the records (the next fold's test items) is deleted from every store before that
fold is scored. A task with `fresh_index = True` gets a new folder per fold instead.

>>> await SomeTask(...).run(configs, embedder, skip=lambda u: False, record=print)
... # doctest: +SKIP
"""

from __future__ import annotations

import asyncio
import shutil
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from tutorgraph.config import BUNDLED_RERANKER, MSMARCO_RERANKER, Settings
from tutorgraph.embedding.embedder import Embedder
from tutorgraph.embedding.reranker import ONNX_FILES, Backend, CrossEncoderReranker, Reranker
from tutorgraph.errors import ConfigurationError
from tutorgraph.index.local import LocalIndex, Opening
from tutorgraph.index.pipeline import IngestOptions
from tutorgraph.models.records import SourceRecords
from tutorgraph.ranking.model import LearnedRanker
from tutorgraph.retrieval.factory import (
    Loaded,
    Models,
    build_retriever,
    bundled_reranker_path,
    openai_unavailable,
)
from tutorgraph.retrieval.retriever import HybridRetriever
from tutorgraph.retrieval.retriever_config import OpenAIRefinerConfig, RetrieverConfig
from tutorgraph.retrieval.stage_deps import NO_RANKER, NO_RERANKER
from tutorgraph_client.models.packet import ReasoningPacket
from tutorgraph_client.models.request import RetrievalRequest
from tutorgraph_research.harness.cached_embedder import CachingEmbedder, caching
from tutorgraph_research.harness.configs import RunConfig
from tutorgraph_research.harness.folds import EvalItem, Fold
from tutorgraph_research.harness.results import ItemScore, UnitKey

__all__ = [
    "BENCH_SOURCE_TIMEOUT_S",
    "N_RESULTS",
    "RERANK_DEPTH",
    "FoldIndex",
    "FoldModels",
    "FoldTask",
    "TaskResources",
    "load_resources",
    "request_for",
    "run_folds",
]

# Quality, not latency, is measured here: a busy 2-core machine must not turn a slow source
# into a degraded packet (the server's default is 2 s).
BENCH_SOURCE_TIMEOUT_S = 60.0
N_RESULTS = 50  # the most a request may ask for: rankings as deep as the packet allows
RERANK_DEPTH = 30


class FoldIndex:
    """The index folder of a run: fold after fold it is made to hold exactly that fold's
    records (or, with `fresh`, each fold gets a new folder).

    Under `root` (a `work` folder) it survives an interrupted run, so a resumed run embeds
    only what changed; without one it lives in a temporary folder removed by `cleanup()`.
    """

    def __init__(self, embedder: Embedder, root: Path | None = None, *, fresh: bool = False):
        self.embedder: CachingEmbedder = caching(embedder)
        self.root = root
        self.fresh = fresh
        self._tmp: Path | None = None

    def open(self, records: SourceRecords, *, label: str) -> Opening:
        """Make the folder hold `records` (nothing else) and open it (`async with`)."""
        if self.fresh:
            self.cleanup()
        if self.root is None and self._tmp is None:
            self._tmp = Path(tempfile.mkdtemp(prefix="tutorgraph-eval-"))
        index_dir = self._tmp or self.root
        assert index_dir is not None
        index_dir.mkdir(parents=True, exist_ok=True)
        options = IngestOptions(source_hash=label, prune=True)
        return LocalIndex.build(records, index_dir, self.embedder, options)

    def cleanup(self) -> None:
        """Remove the temporary folder (a `work` folder is kept)."""
        if self._tmp is not None:
            shutil.rmtree(self._tmp, ignore_errors=True)
            self._tmp = None


@dataclass
class TaskResources:
    """What a run loads once for all its folds: rerankers by config name, the settings the
    OpenAI refiner reads, and the configurations that cannot run here, with the reason."""

    rerankers: dict[str, Reranker] = field(default_factory=dict)
    settings: Settings | None = None
    not_measured: dict[str, str] = field(default_factory=dict)


async def load_resources(
    configs: Sequence[RunConfig],
    *,
    domain_reason: str | None = None,
    rerank_reason: str | None = None,
    msmarco_model: str = MSMARCO_RERANKER,
    domain_model: Path | None = None,
    fold_trained: frozenset[str] = frozenset(),
    settings: Settings | None = None,
) -> TaskResources:
    """Load the rerankers `configs` use and find the configurations that cannot run.

    `domain_reason`: why the bundled (Eedi-trained) reranker must not be used on this task;
    `rerank_reason`: why no reranker applies to it at all. "domain" runs the bundled model's
    fp32 ONNX graph, "domain-int8" its int8 graph (`domain_model` replaces the bundled
    directory); "msmarco" is the public cross-encoder, measured only where it loads. The
    rerankers in `fold_trained` are the task's own, trained per fold: none is loaded here.
    """
    out = TaskResources()
    wanted = {c.reranker for c in configs} - {"none"} - fold_trained
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


@dataclass
class FoldModels:
    """What a task trained on one fold's training data: rerankers by config name, and a
    learned ranker for the configurations with `ranker`."""

    rerankers: dict[str, Reranker] = field(default_factory=dict)
    ranker: LearnedRanker | None = None


@dataclass
class _FoldRetrievers:
    """The retrievers of one fold's index, one per distinct setup a configuration asks for."""

    _embedder: Embedder
    _index: LocalIndex
    _resources: TaskResources
    _models: FoldModels
    _depth: int
    _made: dict[tuple[str, str, bool, bool, float | None], HybridRetriever] = field(
        default_factory=dict
    )

    def get(self, cfg: RunConfig) -> HybridRetriever:
        key = (cfg.reranker, cfg.refiner, cfg.ranker, cfg.diagnosis, cfg.near_duplicate_threshold)
        if key not in self._made:
            reranker = self._models.rerankers.get(cfg.reranker) or self._resources.rerankers.get(
                cfg.reranker
            )
            ranker = self._models.ranker if cfg.ranker else None
            models = Models(
                self._embedder,
                Loaded.of(reranker) if reranker is not None else NO_RERANKER,
                ranker=Loaded.of(ranker) if ranker is not None else NO_RANKER,
            )
            config = RetrieverConfig(
                rerank_depth=self._depth,
                source_timeout_s=BENCH_SOURCE_TIMEOUT_S,
                near_duplicate_threshold=cfg.near_duplicate_threshold,
                # A configuration without refinement sends `use_refinement=False`, which
                # leaves the local refiner unused.
                refiner="local" if cfg.refiner == "none" else cfg.refiner,
                diagnosis=cfg.diagnosis,
                # The settings are read only when a configuration refines with OpenAI.
                openai=OpenAIRefinerConfig.from_settings(settings)
                if (settings := self._resources.settings) is not None
                else OpenAIRefinerConfig(),
            )
            self._made[key] = build_retriever(self._index, models, config)
        return self._made[key]

    async def aclose(self) -> None:
        for retriever in self._made.values():
            await retriever.aclose()


def request_for(cfg: RunConfig, item: EvalItem) -> RetrievalRequest:
    """The request a configuration sends for an item (no context block: only ranks count)."""
    return RetrievalRequest(
        query=item.query,
        n_results=N_RESULTS,
        concept_ids=list(item.concept_ids) if cfg.context else [],
        max_context_tokens=0,
        **cfg.request_fields(),
    )


class FoldTask:
    """A benchmark task scored fold by fold with `run_folds`.

    A subclass names itself and its metrics, builds its folds, and ranks and scores a packet
    (`rank` and `score`, e.g. ``rank = staticmethod(concept_ranking_fn)``), or overrides
    `measure` to read more of the packet. It may say what it reads first (`reading`), why
    the reranker configurations are not measured on it (`domain_reason`, `rerank_reason`),
    what its folds hold (`folds_note`), what it trains per fold (`fold_models`, with the
    rerankers it trains named in `fold_trained`), and what its items need from the fold's
    index (`fold_items`).

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
    fold_trained: frozenset[str] = frozenset()
    # Why no configuration of this task runs the learned ranker (None: it trains one per
    # fold): a configuration that differs from another only by having it off would repeat
    # that one's numbers, so it is not measured.
    ranker_reason: str | None = "this task trains no learned ranker, so no row of it runs one"
    fresh_index: bool = False
    rerank_depth: int = RERANK_DEPTH
    msmarco_model: str = MSMARCO_RERANKER
    # Where status lines go (`run`'s `status`).
    say: Callable[[str], None] = staticmethod(lambda _line: None)

    def build_folds(self) -> list[Fold]:
        raise NotImplementedError

    @staticmethod
    def rank(packet: ReasoningPacket, item: EvalItem) -> list[str]:
        raise NotImplementedError

    @staticmethod
    def score(ranking: list[str], item: EvalItem) -> dict[str, float]:
        raise NotImplementedError

    def measure(self, packet: ReasoningPacket, item: EvalItem) -> dict[str, float]:
        """The item's metric values from its packet."""
        return self.score(self.rank(packet, item), item)

    def observe(self, config: str, item: EvalItem, packet: ReasoningPacket) -> None:
        """Sees each packet after `measure` (a hook: a task that keeps rankings overrides it)."""

    def folds_note(self) -> str | None:
        """A status line about the folds just built (e.g. items no configuration can get)."""
        return None

    async def fold_models(
        self,
        fold: Fold,  # noqa: ARG002 (a hook: a task that trains per fold overrides it)
        index: LocalIndex,  # noqa: ARG002
        embedder: Embedder,  # noqa: ARG002
        configs: Sequence[RunConfig],  # noqa: ARG002
    ) -> FoldModels:
        """What this task trains on the fold before its configurations run (nothing)."""
        return FoldModels()

    async def fold_items(self, fold: Fold, index: LocalIndex) -> list[EvalItem]:  # noqa: ARG002
        """The fold's items as its index can serve them (unchanged)."""
        return fold.items

    def close(self) -> None:
        """Remove what the run made for itself (nothing); called when a run ends."""

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
        self.say = status or self.say
        if self.reading:
            self.say(f"{self.name}: {self.reading}")
        try:
            folds = self.build_folds()
            if note := self.folds_note():
                self.say(f"{self.name}: {note}")
            work = self.work / self.name if self.work and not self.fresh_index else None
            index = FoldIndex(embedder, work, fresh=self.fresh_index)
            return await run_folds(
                self, folds, configs, index, skip=skip, record=record, progress=progress
            )
        finally:
            self.close()


async def run_folds(
    task: FoldTask,
    folds: Sequence[Fold],
    configs: Sequence[RunConfig],
    index: FoldIndex,
    *,
    skip: Callable[[UnitKey], bool],
    record: Callable[[list[ItemScore]], None],
    progress: Callable[[int, int], None] | None = None,
    settings: Settings | None = None,
) -> dict[str, str]:
    """Score every fold under every configuration not skipped nor unavailable; returns the
    unavailable ones with their reasons. A fold whose every configuration is skipped is
    not built."""
    say = task.say
    name = task.name
    pending = [(f, [c for c in configs if not skip((name, c.name, f.number))]) for f in folds]
    needed = list({c.name: c for _, cs in pending for c in cs}.values())
    resources = await load_resources(
        needed,
        domain_reason=task.domain_reason,
        rerank_reason=task.rerank_reason,
        msmarco_model=task.msmarco_model,
        fold_trained=task.fold_trained,
        settings=settings,
    )
    if task.ranker_reason:
        with_ranker = [c.describe() for c in needed if c.ranker]
        for c in needed:
            if not c.ranker and {**c.describe(), "ranker": True} in with_ranker:
                resources.not_measured[c.name] = f"not measured: {task.ranker_reason}"
    todo = [(f, [c for c in cs if c.name not in resources.not_measured]) for f, cs in pending]
    total = sum(len(f.items) * len(cs) for f, cs in todo)
    done = 0
    try:
        for fold, runnable in todo:
            if not runnable or not fold.items:
                continue
            head = f"{name} fold {fold.number}"
            records = fold.records()
            say(f"{head}: indexing {_count(records)}")
            async with index.open(records, label=f"{name}:{fold.number}") as opened:
                models = await task.fold_models(fold, opened, index.embedder, runnable)
                items = await task.fold_items(fold, opened)
                retrievers = _FoldRetrievers(
                    index.embedder, opened, resources, models, task.rerank_depth
                )
                try:
                    for cfg in runnable:
                        say(f"{head}: {cfg.name} on {len(items)} items")
                        retriever = retrievers.get(cfg)
                        scores: list[ItemScore] = []
                        degraded = 0
                        for item in items:
                            packet = await retriever.retrieve(request_for(cfg, item))
                            degraded += bool(packet.degraded_sources)
                            values = task.measure(packet, item)
                            task.observe(cfg.name, item, packet)
                            scores.append(
                                ItemScore(
                                    name, cfg.name, fold.number, item.item, item.query_type, values
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
    finally:
        index.cleanup()
    return {
        c.name: resources.not_measured[c.name] for c in needed if c.name in resources.not_measured
    }


def _count(records: SourceRecords) -> str:
    parts = [
        (len(records.concepts), "concepts"),
        (len(records.prerequisites), "edges"),
        (len(records.misconceptions), "misconceptions"),
        (len(records.documents), "documents"),
    ]
    return ", ".join(f"{n} {what}" for n, what in parts if n)

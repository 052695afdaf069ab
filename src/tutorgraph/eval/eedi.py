"""The Eedi misconception-retrieval benchmark (design section 8).

Unit: one labelled (question, wrong answer) pair. For each fold the stores are built from
the fold's training questions (and the misconception list) only; no test question and no
label of a test question reaches them. Only misconception hits count, in packet order.

Two front ends share the fold machinery here: `run_eedi_benchmark` (`tutorgraph bench
eedi`, its config-name grammar and `results.json`) and `EediMisconceptionTask` (the
ablation runner's task, driven by `RunConfig`s and scoring item by item).

>>> results = await run_eedi_benchmark(EediBenchmarkSpec(train=Path("train.csv"), ...))
... # doctest: +SKIP
"""

from __future__ import annotations

import asyncio
import fnmatch
import hashlib
import json
import os
import shutil
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from tutorgraph.config import DEFAULT_EMBEDDING_MODEL, MSMARCO_RERANKER, Settings
from tutorgraph.diagnosis.diagnose import Diagnoser
from tutorgraph.embedding.cached_embedder import CachingEmbedder, caching
from tutorgraph.embedding.embedder import Embedder
from tutorgraph.errors import ConfigurationError
from tutorgraph.eval.configs import RunConfig
from tutorgraph.eval.fold_index import openai_unavailable
from tutorgraph.eval.latency import hardware
from tutorgraph.eval.messages import StudentMessage, read_student_messages
from tutorgraph.eval.metrics import average_precision_at_k, recall_at_k
from tutorgraph.eval.results import ItemScore, UnitKey, bootstrap_ci
from tutorgraph.ingest.eedi import (
    EediQuestion,
    EediSubject,
    eedi_construct_id,
    eedi_misconception_id,
    eedi_query_text,
    eedi_records,
    read_eedi_questions,
    read_misconceptions,
    read_subjects,
)
from tutorgraph.ingest.indexer import ingest_records
from tutorgraph.models.packet import ReasoningPacket
from tutorgraph.models.request import RetrievalRequest, SourceName
from tutorgraph.ranking.model import LearnedRanker
from tutorgraph.refinement.local import LocalRefiner
from tutorgraph.refinement.refiner import Refiner
from tutorgraph.refinement.spelling import SpellingCorrector
from tutorgraph.retrieval.reranker import (
    ONNX_FILES,
    Backend,
    CrossEncoderReranker,
    RerankerOptions,
)
from tutorgraph.retrieval.retriever import HybridRetriever, RetrieverConfig
from tutorgraph.retrieval.router import analyse
from tutorgraph.stores.local_index import OpenIndex, chroma_persistent_client, open_index
from tutorgraph.stores.protocols import GraphStore
from tutorgraph.training.cross_encoder import TrainingConfig
from tutorgraph.training.eedi import eedi_training_groups, fit_and_export, train_eedi_ranker

__all__ = [
    "CONFIG_SOURCES",
    "CONTEXTS",
    "FUSIONS",
    "PROFILE_NAMES",
    "QUICK_FOLDS",
    "QUICK_PAIRS_PER_FOLD",
    "QUICK_TRAIN_QUESTIONS",
    "REFINERS",
    "RERANK_MODELS",
    "EediBenchmarkSpec",
    "EediFold",
    "EediMisconceptionTask",
    "EediPair",
    "config_names",
    "eedi_folds",
    "eedi_pairs",
    "git_commit",
    "misconception_ranking",
    "pair_query_type",
    "run_eedi_benchmark",
]

K = 25
METRICS = (f"map@{K}", f"recall@{K}")
CONFIG_SOURCES: dict[str, list[SourceName]] = {
    "vector": ["vector"],
    "lexical": ["lexical"],
    "graph": ["graph"],
    "hybrid": ["vector", "lexical", "graph"],
}
CONTEXTS = ("text", "construct")
PROFILE_NAMES = ("auto", "exact", "balanced", "semantic")
FUSIONS = ("rrf", "weighted")
# domain: the fold-trained reranker at fp32 (ONNX Runtime); domain-int8: the same, int8;
# msmarco: the public MS MARCO cross-encoder, measured only where it can be loaded.
RERANK_MODELS = ("domain", "domain-int8", "msmarco")
# local: the deterministic refiner over the fold's own index.
REFINERS = ("local",)
# What `default/<context>` runs after `hybrid/<context>/`: the request defaults (profile
# auto, RRF, the local refiner) with the shipped models and the diagnosis. Keep it equal
# to what ships.
DEFAULT_CONFIG = "refine-local/ranker/diagnosis"
_DOMAIN_BACKENDS: dict[str, Backend] = {"domain": "onnx", "domain-int8": "onnx-int8"}
# A quality benchmark, not a latency one: a busy machine must not degrade packets.
_SOURCE_TIMEOUT_S = 60.0

# A quick run (`--quick`, minutes): the first QUICK_FOLDS folds of the same 5-fold rule,
# QUICK_PAIRS_PER_FOLD test pairs spread over each, and fold rerankers trained (same recipe)
# on QUICK_TRAIN_QUESTIONS of the fold's training questions.
QUICK_FOLDS = 1
QUICK_PAIRS_PER_FOLD = 30
QUICK_TRAIN_QUESTIONS = 40

# (done, total) over all retrievals of the run.
BenchProgress = Callable[[int, int], None]
# A line saying which long phase (training, mining) is running.
BenchStatus = Callable[[str], None]


@dataclass(frozen=True)
class EediPair:
    """One labelled wrong answer: the unit of the benchmark."""

    question: EediQuestion
    letter: str
    target: str
    # A free-text message standing for the pair (`eval.messages`), and its split.
    text: str | None = None
    group: str = ""

    @property
    def query(self) -> str:
        return self.text if self.text is not None else eedi_query_text(self.question, self.letter)

    @property
    def item_id(self) -> str:
        """A stable id: `<QuestionId>:<letter>`."""
        return f"{self.question.question_id}:{self.letter}"


@dataclass
class EediBenchmarkSpec:
    train: Path
    misconceptions: Path
    test: Path | None = None
    subjects: Path | None = None
    folds: int = 5
    configs: str = "*"
    limit: int | None = None
    training: TrainingConfig = field(default_factory=TrainingConfig)
    rerank_depth: int = 30
    msmarco_model: str = MSMARCO_RERANKER
    # What the fold rerankers are fine-tuned from (tests pass a tiny local model).
    reranker_base: str = DEFAULT_EMBEDDING_MODEL
    # Score free-text student messages (`eval.messages`) instead of the Eedi query texts;
    # each message is scored in the fold that holds its question out.
    messages: Path | None = None
    # Questions read while writing the bug rules: rows compared with a baseline also report
    # the paired difference over the other questions' pairs (`paired_diff_held_out`).
    read_questions: frozenset[int] = frozenset()


@dataclass(frozen=True)
class EediFold:
    """The questions a fold indexes and the pairs it scores.

    `key` is the fold's value of `int(QuestionId) % folds` (0 for a train/test split);
    `number` counts folds from 1 for messages.
    """

    key: int
    number: int
    of: int
    train: list[EediQuestion]
    pairs: list[EediPair]

    @property
    def label(self) -> str:
        return f"fold {self.number}/{self.of}"


def eedi_pairs(questions: Sequence[EediQuestion]) -> list[EediPair]:
    """Every (question, wrong answer) with a misconception label, in file order."""
    return [
        EediPair(q, letter, eedi_misconception_id(mid))
        for q in questions
        for letter, mid in sorted(q.misconception_ids.items())
        if mid is not None and letter != q.correct_answer
    ]


def eedi_folds(questions: Sequence[EediQuestion], folds: int = 5) -> list[EediFold]:
    """Cross-validation folds: fold k tests the questions with `int(QuestionId) % folds == k`
    and indexes all the others.

    >>> [f.key for f in eedi_folds([], 3)]
    [0, 1, 2]
    """
    if folds < 2:
        raise ConfigurationError("--folds must be at least 2 for cross-validation")
    return [
        EediFold(
            k,
            k + 1,
            folds,
            [q for q in questions if q.question_id % folds != k],
            eedi_pairs([q for q in questions if q.question_id % folds == k]),
        )
        for k in range(folds)
    ]


def config_names(pattern: str = "*") -> list[str]:
    """`<sources>/<context>` with the request defaults, every hybrid profile x fusion, and
    each hybrid one again with `/rerank-<model>`, with `/refine-<refiner>` and with
    `/ranker` (the learned final score, trained per fold); `default/<context>` is what a
    request with the shipped settings runs (`DEFAULT_CONFIG`). `pattern`: comma-separated
    globs."""
    names = [f"{s}/{c}" for s in CONFIG_SOURCES for c in CONTEXTS]
    hybrid = [f"hybrid/{c}" for c in CONTEXTS]
    hybrid += [f"hybrid/{c}/{p}-{f}" for c in CONTEXTS for p in PROFILE_NAMES for f in FUSIONS]
    names += hybrid[len(CONTEXTS) :]
    names += [f"{h}/rerank-{m}" for h in hybrid for m in RERANK_MODELS]
    names += [f"{h}/refine-{r}" for h in hybrid for r in REFINERS]
    names += [f"{h}/ranker" for h in hybrid]
    names += [f"{h}/refine-{r}/ranker" for h in hybrid[: len(CONTEXTS)] for r in REFINERS]
    names += [
        f"{h}/refine-local{r}/diagnosis" for h in hybrid[: len(CONTEXTS)] for r in ("", "/ranker")
    ]
    names += [f"default/{c}" for c in CONTEXTS]
    globs = [g.strip() for g in pattern.split(",") if g.strip()]
    chosen = [n for n in names if any(fnmatch.fnmatchcase(n, g) for g in globs)]
    if not chosen:
        raise ConfigurationError(f"--configs {pattern!r} matches none of {', '.join(names)}")
    return chosen


@dataclass(frozen=True)
class _Config:
    sources: str
    context: str
    tuning: dict[str, Any]
    rerank: str | None
    refine: str | None = None
    ranker: bool = False
    diagnosis: bool = False

    @classmethod
    def parse(cls, name: str) -> _Config:
        sources, context, *rest = name.split("/")
        if sources == "default":
            return cls.parse(f"hybrid/{context}/{DEFAULT_CONFIG}")
        diagnosis = bool(rest) and rest[-1] == "diagnosis"
        if diagnosis:
            rest.pop()
        ranker = bool(rest) and rest[-1] == "ranker"
        if ranker:
            rest.pop()
        refine = rest.pop()[len("refine-") :] if rest and rest[-1].startswith("refine-") else None
        rerank = rest.pop()[len("rerank-") :] if rest and rest[-1].startswith("rerank-") else None
        tuning: dict[str, Any] = {}
        if rest:
            profile, fusion = rest[0].split("-")
            tuning = {"retrieval_profile": profile, "fusion": fusion}
        return cls(sources, context, tuning, rerank, refine, ranker, diagnosis)


@dataclass(frozen=True)
class _Setup:
    """What one configuration asks of a fold: request fields, context, reranker, refiner."""

    fields: dict[str, Any]
    construct_context: bool
    reranker: str | None
    refiner: str | None
    ranker: bool = False
    diagnosis: bool = False

    @classmethod
    def from_bench_name(cls, name: str) -> _Setup:
        cfg = _Config.parse(name)
        fields = {
            **cfg.tuning,
            "sources": CONFIG_SOURCES[cfg.sources],
            "rerank": cfg.rerank is not None,
            "use_refinement": cfg.refine is not None,
        }
        return cls(
            fields, cfg.context == "construct", cfg.rerank, cfg.refine, cfg.ranker, cfg.diagnosis
        )

    @classmethod
    def from_run_config(cls, cfg: RunConfig) -> _Setup:
        # The ablation always passes the construct context (design section 8, issue bars).
        return cls(
            cfg.request_fields(),
            True,
            None if cfg.reranker == "none" else cfg.reranker,
            None if cfg.refiner == "none" else cfg.refiner,
        )


@dataclass(frozen=True)
class _PairScore:
    pair: EediPair
    ap: float
    recall: float
    # The target's 1-based rank among the packet's misconception hits (None: not returned).
    rank: int | None = None
    # Misconception hits that the final stage (reranker or learned ranker) scored.
    scored: int = 0
    # Whether the fold's training questions hold the pair's construct / misconception.
    seen_construct: bool = False
    seen_misconception: bool = False


def misconception_ranking(packet: ReasoningPacket, target: str) -> list[str]:
    """Misconception hits in packet order; a merged hit counts as the target if it holds it."""
    return [
        target if target in hit.ids else hit.id
        for hit in packet.results
        if hit.kind == "misconception"
    ]


def pair_query_type(pair: EediPair) -> str:
    """The router's query type for a pair, as the retriever routes the benchmark's request.

    The request carries no `student_answer` (the answer is part of the query text), so
    without a refiner the retriever routes on the text alone; with one, the refiner's
    extracted answer would make every pair a misconception query. The type is a property
    of the item, the same under every configuration, so that types compare like with like.
    """
    return analyse(pair.query, student_answer=False).query_type


def git_commit() -> str | None:
    """The commit of the checkout the code runs from, or None outside a git checkout."""
    try:
        out = subprocess.run(
            ["git", "rev-parse", "HEAD"],
            # The checkout the code runs from, wherever the benchmark is started.
            cwd=Path(__file__).resolve().parent,
            capture_output=True,
            text=True,
            timeout=5,
            check=True,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None


# -- the fold machinery both front ends share ------------------------------------------------


@dataclass
class _Shared:
    """What every fold of one run uses."""

    misconceptions: dict[int, str]
    subjects: list[EediSubject]
    embedder: CachingEmbedder
    training: TrainingConfig
    reranker_base: str
    rerank_depth: int
    msmarco_model: str
    # Where fold rerankers persist between runs (`<work>/eedi-fold-<k>/reranker`);
    # None: each fold trains into its temporary index folder.
    work: Path | None = None
    # Train fold rerankers on at most this many training questions (quick runs).
    train_limit: int | None = None


class _FoldRunner:
    """Builds each fold's stores and models, and scores configurations over them."""

    def __init__(self, shared: _Shared, say: BenchStatus) -> None:
        self.shared = shared
        self.say = say
        self.options = RerankerOptions(
            max_length=shared.training.max_length,
            query_max_tokens=shared.training.query_max_tokens,
        )
        self.msmarco: CrossEncoderReranker | None = None
        self.settings: Settings | None = None
        # model name ("msmarco", "openai") -> why it is not available here
        self.unavailable: dict[str, str] = {}
        self.trained: list[dict[str, Any]] = []
        self.rankers: list[dict[str, Any]] = []
        self.unseen = 0

    async def prepare(self, setups: Iterable[_Setup]) -> None:
        """Load what all folds share (the MS MARCO model) and check the OpenAI settings."""
        setups = list(setups)
        if any(s.reranker == "msmarco" for s in setups) and "msmarco" not in self.unavailable:
            msmarco = CrossEncoderReranker(self.shared.msmarco_model, backend="torch")
            try:
                await asyncio.to_thread(msmarco.load)
                self.msmarco = msmarco
            except ConfigurationError as exc:
                self.unavailable["msmarco"] = exc.message
        if any(s.refiner == "openai" for s in setups):
            settings = Settings()
            reason = openai_unavailable(settings)
            if reason is None:
                self.settings = settings
            else:
                self.unavailable["openai"] = reason

    def why_not(self, setup: _Setup) -> str | None:
        """Why this machine cannot run `setup`, or None when it can."""
        for model in (setup.reranker, setup.refiner):
            if model in self.unavailable:
                return self.unavailable[model]
        return None

    async def run_fold(
        self,
        fold: EediFold,
        setups: dict[str, _Setup],
        on_unit: Callable[[str, list[_PairScore]], None],
        step: Callable[[], None],
    ) -> None:
        """Index the fold's training questions, then score every setup over its pairs."""
        sh = self.shared
        records = eedi_records(fold.train, sh.misconceptions, sh.subjects)
        with tempfile.TemporaryDirectory(prefix="tutorgraph-bench-") as tmp:
            index_dir = Path(tmp)
            client = chroma_persistent_client(index_dir / "chroma")
            self.say(f"{fold.label}: indexing {len(fold.train)} questions")
            await ingest_records(
                records, index_dir, sh.embedder, source_hash="eedi-bench", chroma_client=client
            )
            index = open_index(index_dir, embedder=sh.embedder.name, chroma_client=client)
            refiners: dict[str, Refiner] = {}
            try:
                local = LocalRefiner(
                    index.graph, SpellingCorrector(index.lexical.document_frequencies())
                )
                refiners["local"] = local
                config = RetrieverConfig(
                    rerank_depth=sh.rerank_depth, source_timeout_s=_SOURCE_TIMEOUT_S
                )
                base = HybridRetriever(
                    sh.embedder, index.vector, index.lexical, index.graph, config, refiner=local
                )
                wanted = {s.reranker for s in setups.values()}
                rerankers: dict[str, CrossEncoderReranker] = {}
                if wanted & set(_DOMAIN_BACKENDS):
                    model_dir = await self._fold_reranker(base, index.graph, fold, index_dir)
                    for name, backend in _DOMAIN_BACKENDS.items():
                        if name in wanted:
                            rerankers[name] = CrossEncoderReranker(
                                model_dir, backend=backend, options=self.options
                            )
                            await asyncio.to_thread(rerankers[name].load)
                if self.msmarco is not None:
                    rerankers["msmarco"] = self.msmarco
                if any(s.refiner == "openai" for s in setups.values()):
                    refiners["openai"] = self._openai_refiner(index)
                ranker = None
                if any(s.ranker for s in setups.values()):
                    ranker = await self._fold_ranker(index.graph, fold)
                diagnoser = Diagnoser.bundled()
                contexts = await self._contexts(index, fold.pairs)
                seen = _seen(fold)
                self.say(f"{fold.label}: scoring {len(fold.pairs)} test pairs")
                for name, setup in setups.items():
                    retriever = HybridRetriever(
                        sh.embedder,
                        index.vector,
                        index.lexical,
                        index.graph,
                        config,
                        reranker=rerankers.get(setup.reranker or ""),
                        refiner=refiners.get(setup.refiner or "local", local),
                        ranker=ranker if setup.ranker else None,
                        diagnoser=diagnoser if setup.diagnosis else None,
                    )
                    scores = []
                    for pair, construct in zip(fold.pairs, contexts, strict=True):
                        ctx = [construct] if construct and setup.construct_context else []
                        scores.append(await _score_pair(retriever, setup, pair, ctx, seen(pair)))
                        step()
                    on_unit(name, scores)
            finally:
                for refiner in refiners.values():
                    await refiner.aclose()
                await index.aclose()

    async def _contexts(self, index: OpenIndex, pairs: Sequence[EediPair]) -> list[str | None]:
        """Each pair's construct id when the fold's graph knows it (else None, counted)."""
        out: list[str | None] = []
        for pair in pairs:
            construct = eedi_construct_id(pair.question.construct_id)
            known = not await index.graph.unknown_concepts([construct])
            self.unseen += 0 if known else 1
            out.append(construct if known else None)
        return out

    async def _fold_ranker(self, graph: GraphStore, fold: EediFold) -> LearnedRanker:
        """The learned ranker trained on the fold's training questions only."""
        sh = self.shared
        self.say(f"{fold.label}: training the learned ranker")
        started = time.perf_counter()
        ranker = await train_eedi_ranker(
            fold.train,
            sh.misconceptions,
            graph,
            sh.embedder,
            progress=lambda line: self.say(f"{fold.label}: ranker: {line}"),
        )
        self.rankers.append(
            {
                "fold": fold.number,
                "train_seconds": round(time.perf_counter() - started, 1),
                **{k: ranker.info[k] for k in ("queries", "pool_recall", "inner_adapter_map@25")},
            }
        )
        return ranker

    def _openai_refiner(self, index: OpenIndex) -> Refiner:
        from tutorgraph.retrieval.factory import build_refiner

        assert self.settings is not None  # prepare() found a key or base URL
        return build_refiner(self.settings, index)

    async def _fold_reranker(
        self, retriever: HybridRetriever, graph: GraphStore, fold: EediFold, index_dir: Path
    ) -> Path:
        """The fold's trained reranker: reused from the work folder when a finished model
        with the same inputs is there, else mined, trained and (atomically) saved."""
        sh = self.shared
        questions = fold.train
        if sh.train_limit is not None and len(questions) > sh.train_limit:
            step = len(questions) / sh.train_limit
            questions = [questions[int(i * step)] for i in range(sh.train_limit)]
        if sh.work is None:
            model_dir = index_dir / "reranker"
            self.trained.append(await self._train(retriever, graph, fold, questions, model_dir))
            return model_dir
        final = sh.work / f"eedi-fold-{fold.key}" / "reranker"
        fingerprint = _training_fingerprint(questions, sh)
        done = final / _FOLD_RECORD
        if done.is_file():
            info = json.loads(done.read_text(encoding="utf-8"))
            if info.get("fingerprint") == fingerprint:
                self.say(f"{fold.label}: reusing the reranker in {final}")
                self.trained.append({**info["info"], "reused": True})
                return final
        # Train beside the final folder and rename it into place: a killed run leaves only
        # a partial folder, never one that looks finished.
        partial = final.with_name(f"reranker.partial-{os.getpid()}")
        for old in final.parent.glob("reranker.partial-*"):
            shutil.rmtree(old, ignore_errors=True)
        info = await self._train(retriever, graph, fold, questions, partial)
        record = {"fingerprint": fingerprint, "info": info}
        (partial / _FOLD_RECORD).write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
        if final.exists():
            shutil.rmtree(final)
        partial.rename(final)
        self.trained.append(info)
        return final

    async def _train(
        self,
        retriever: HybridRetriever,
        graph: GraphStore,
        fold: EediFold,
        questions: list[EediQuestion],
        model_dir: Path,
    ) -> dict[str, Any]:
        """Mine and train on the fold's training questions; returns what the run records."""
        sh = self.shared
        head = fold.label
        groups = await eedi_training_groups(
            retriever,
            graph,
            questions,
            sh.misconceptions,
            progress=lambda d, t: (
                self.say(f"{head}: mining negatives {d}/{t}") if d % 100 == 0 else None
            ),
        )
        result = await fit_and_export(
            groups,
            model_dir,
            sh.training,
            base_model=sh.reranker_base,
            progress=lambda s, t, loss: self.say(f"{head}: training step {s}/{t}, loss {loss:.3f}"),
            # The benchmark measures what was learnt, gates passed or not (recorded below).
            enforce_gates=False,
        )
        sizes = {b: (model_dir / f).stat().st_size for b, f in ONNX_FILES.items()}
        return {
            "fold": fold.number,
            "groups": len(groups),
            "steps": result.steps,
            "train_seconds": round(result.seconds, 1),
            "final_loss": round(result.final_loss, 4),
            "gates": result.gates.to_json() if result.gates else None,
            "device": result.device,
            "onnx_bytes": sizes,
        }


# Written into a finished fold reranker folder: what it was trained on, and how.
_FOLD_RECORD = "fold.json"


def _message_folds(folds: Sequence[EediFold], messages: Sequence[StudentMessage]) -> list[EediFold]:
    """The folds with their test pairs replaced by the messages of their test questions."""
    out = []
    for fold in folds:
        by_id = {p.question.question_id: p.question for p in fold.pairs}
        pairs = [
            EediPair(by_id[m.question_id], m.letter, m.accepted[0], m.message, m.split)
            for m in messages
            if m.question_id in by_id
        ]
        out.append(EediFold(fold.key, fold.number, fold.of, fold.train, pairs))
    return out


def _seen(fold: EediFold) -> Callable[[EediPair], tuple[bool, bool]]:
    """Whether the fold's training questions hold a pair's construct and its misconception."""
    constructs = {q.construct_id for q in fold.train}
    labels = {p.target for p in eedi_pairs(fold.train)}
    return lambda p: (p.question.construct_id in constructs, p.target in labels)


def _training_fingerprint(questions: Sequence[EediQuestion], sh: _Shared) -> str:
    """A hash of everything a fold reranker depends on (a changed input retrains it)."""
    h = hashlib.sha256()
    h.update(repr(list(questions)).encode())
    h.update(repr(sorted(sh.misconceptions.items())).encode())
    h.update(repr(sorted(sh.subjects, key=lambda s: s.subject_id)).encode())
    h.update(json.dumps(asdict(sh.training), sort_keys=True).encode())
    h.update(f"{sh.reranker_base}|{sh.embedder.name}".encode())
    return h.hexdigest()


async def _score_pair(
    retriever: HybridRetriever,
    setup: _Setup,
    pair: EediPair,
    concept_ids: list[str],
    seen: tuple[bool, bool] = (False, False),
) -> _PairScore:
    request = RetrievalRequest(
        **setup.fields,
        max_context_tokens=0,
        query=pair.query,
        n_results=50,
        concept_ids=concept_ids,
    )
    packet = await retriever.retrieve(request)
    ranking = misconception_ranking(packet, pair.target)
    scored = sum(
        1
        for hit in packet.results
        if hit.kind == "misconception"
        and (hit.learned_score is not None or hit.rerank_score is not None)
    )
    return _PairScore(
        pair,
        average_precision_at_k(ranking, {pair.target}, K),
        recall_at_k(ranking, {pair.target}, K),
        rank=ranking.index(pair.target) + 1 if pair.target in ranking else None,
        scored=scored,
        seen_construct=seen[0],
        seen_misconception=seen[1],
    )


def _random_ap(rank: int | None, depth: int) -> float:
    """Expected AP@K of a single target when the top `depth` are shuffled uniformly."""
    if rank is None or rank > depth:
        return 0.0
    return sum(1.0 / p for p in range(1, min(depth, K) + 1)) / depth


def _mean_ci(values: Sequence[float]) -> dict[str, Any]:
    lo, hi = bootstrap_ci(values)
    return {"mean": round(statistics.fmean(values), 6), "ci95": [lo, hi], "n": len(values)}


def _report(
    scores: Sequence[_PairScore],
    baseline: Sequence[_PairScore] | None,
    depth: int,
    read: frozenset[int] = frozenset(),
) -> dict[str, Any]:
    """One configuration's row of `results.json`: means with 95% bootstrap intervals, the
    oracle and random bounds at the rerank depth, seen/unseen splits, and the paired
    difference from the first stage (`baseline`, same pairs in the same order)."""
    ranks = [s.rank for s in scores]
    row: dict[str, Any] = {
        f"map@{K}": round(statistics.fmean(s.ap for s in scores), 6),
        f"recall@{K}": round(statistics.fmean(s.recall for s in scores), 6),
        "n": len(scores),
        f"map@{K}_ci95": list(bootstrap_ci([s.ap for s in scores])),
        f"recall@{K}_ci95": list(bootstrap_ci([s.recall for s in scores])),
        f"recall@{depth}": round(statistics.fmean(r is not None and r <= depth for r in ranks), 6),
        f"oracle_map@{K}": round(statistics.fmean(r is not None and r <= depth for r in ranks), 6),
        f"random_map@{K}": round(statistics.fmean(_random_ap(r, depth) for r in ranks), 6),
        "scored_per_query": round(statistics.fmean(s.scored for s in scores), 2),
        "hit@10": round(statistics.fmean(r is not None and r <= 10 for r in ranks), 6),
    }
    splits: dict[str, Any] = {}
    for name, flag in (("construct", "seen_construct"), ("misconception", "seen_misconception")):
        for seen in (True, False):
            part = [s.ap for s in scores if getattr(s, flag) is seen]
            if part:
                splits[f"{'seen' if seen else 'unseen'}_{name}"] = _mean_ci(part)
    for group in sorted({s.pair.group for s in scores} - {""}):
        members = [s for s in scores if s.pair.group == group]
        splits[group] = {
            **_mean_ci([s.ap for s in members]),
            "hit@10": _mean_ci([float(s.rank is not None and s.rank <= 10) for s in members]),
        }
    row["splits"] = splits
    if baseline is not None:
        diffs = [s.ap - b.ap for s, b in zip(scores, baseline, strict=True)]
        row["paired_diff"] = _mean_ci(diffs)
        held_out = [
            d for d, s in zip(diffs, scores, strict=True) if s.pair.question.question_id not in read
        ]
        if read and held_out:
            row["paired_diff_held_out"] = _mean_ci(held_out)
    return row


def _first_stage(name: str) -> str:
    """The configuration a row is compared with: the same sources and context, request
    defaults, no refiner, reranker or learned ranker (`hybrid/construct` for
    `default/construct`); for a `/diagnosis` row, the same row without it."""
    if name.endswith("/diagnosis"):
        return name.removesuffix("/diagnosis")
    sources, context, *_ = name.split("/")
    return f"{'hybrid' if sources == 'default' else sources}/{context}"


# -- `tutorgraph bench eedi` -----------------------------------------------------------------


async def run_eedi_benchmark(
    spec: EediBenchmarkSpec,
    embedder: Embedder,
    *,
    progress: BenchProgress | None = None,
    status: BenchStatus | None = None,
) -> dict[str, Any]:
    """Run the benchmark and return the `results.json` mapping.

    A `/rerank-domain*` configuration trains a reranker per fold on that fold's training
    questions only (mined with the fold's own retriever), then scores its test pairs.
    """
    started = time.perf_counter()
    names = config_names(spec.configs)
    setups = {n: _Setup.from_bench_name(n) for n in names}
    wanted = {s.reranker for s in setups.values() if s.reranker}
    train = read_eedi_questions(spec.train)
    if spec.test is not None:
        folds = [EediFold(0, 1, 1, train, eedi_pairs(read_eedi_questions(spec.test)))]
    else:
        folds = eedi_folds(train, spec.folds)
    if spec.messages is not None:
        folds = _message_folds(folds, read_student_messages(spec.messages))
    if spec.limit is not None:
        # Spread a quick run over every fold rather than exhausting the first.
        per_fold = max(1, spec.limit // len(folds))
        folds = [EediFold(f.key, f.number, f.of, f.train, f.pairs[:per_fold]) for f in folds]
    shared = _Shared(
        misconceptions=read_misconceptions(spec.misconceptions),
        subjects=read_subjects(spec.subjects) if spec.subjects else [],
        embedder=caching(embedder),
        training=spec.training,
        reranker_base=spec.reranker_base,
        rerank_depth=spec.rerank_depth,
        msmarco_model=spec.msmarco_model,
    )
    runner = _FoldRunner(shared, status or (lambda _line: None))
    await runner.prepare(setups.values())
    measured = {n: s for n, s in setups.items() if runner.why_not(s) is None}
    total = sum(len(f.pairs) for f in folds) * len(measured)
    done = 0

    def step() -> None:
        nonlocal done
        done += 1
        if progress:
            progress(done, total)

    scores: dict[str, list[_PairScore]] = {n: [] for n in names}
    for fold in folds:
        await runner.run_fold(fold, measured, lambda n, s: scores[n].extend(s), step)

    results: dict[str, Any] = {}
    for name in names:
        reason = runner.why_not(setups[name])
        if reason is not None:
            results[name] = {
                f"map@{K}": None,
                f"recall@{K}": None,
                "n": 0,
                "status": f"not measured: {reason}",
            }
            continue
        sc = scores[name]
        if not sc:
            results[name] = {f"map@{K}": 0.0, f"recall@{K}": 0.0, "n": 0}
            continue
        first = _first_stage(name)
        baseline = scores.get(first) if first != name and first in measured else None
        results[name] = {
            **_report(sc, baseline, spec.rerank_depth, spec.read_questions),
            "compared_with": first if baseline else None,
        }
    msmarco_reason = runner.unavailable.get("msmarco")
    results["_meta"] = {
        "task": "eedi-misconceptions",
        "train": str(spec.train),
        "test": str(spec.test) if spec.test else None,
        "folds": len(folds),
        "fold_rule": None if spec.test else f"int(QuestionId) % {spec.folds}",
        "n_pairs": sum(len(f.pairs) for f in folds),
        "messages": str(spec.messages) if spec.messages else None,
        "limit": spec.limit,
        "unseen_context": runner.unseen,
        "embedder": embedder.name,
        "reranker": {
            "depth": spec.rerank_depth,
            "training": asdict(spec.training),
            "folds": runner.trained,
            "msmarco": f"not loaded: {msmarco_reason}" if msmarco_reason else spec.msmarco_model,
        }
        if wanted
        else None,
        "ranker": {"folds": runner.rankers} if runner.rankers else None,
        "seconds": round(time.perf_counter() - started, 1),
        "hardware": hardware(),
        "git_commit": git_commit(),
    }
    return results


# -- the ablation task -----------------------------------------------------------------------


class EediMisconceptionTask:
    """Eedi misconception retrieval under `RunConfig`s, one `ItemScore` per pair.

    Five folds by `int(QuestionId) % 5`; the construct of the question is passed as
    context when its fold knows it. Domain rerankers are trained per fold on that fold's
    training questions and kept under `<work>/eedi-fold-<k>/reranker`, so a resumed run
    reuses a finished fold model.

    >>> task = EediMisconceptionTask(Path("eedi/train.csv"), Path("eedi/misconception_mapping.csv"))
    >>> task.metrics
    ('map@25', 'recall@25')
    """

    name = "eedi-misconceptions"
    metrics: tuple[str, ...] = METRICS

    def __init__(
        self,
        train: Path,
        misconceptions: Path,
        subjects: Path | None = None,
        *,
        quick: bool = False,
        work: Path | None = None,
        folds: int = 5,
        training: TrainingConfig | None = None,
        reranker_base: str = DEFAULT_EMBEDDING_MODEL,
        rerank_depth: int = 30,
        msmarco_model: str = MSMARCO_RERANKER,
    ) -> None:
        self.train = train
        self.misconceptions = misconceptions
        self.subjects = subjects
        self.quick = quick
        self.work = work
        self.folds = folds
        self.training = training or TrainingConfig()
        self.reranker_base = reranker_base
        self.rerank_depth = rerank_depth
        self.msmarco_model = msmarco_model

    def fold_plan(self) -> list[EediFold]:
        """The folds and the pairs each scores (a quick run: the first `QUICK_FOLDS` folds,
        an even sample of each)."""
        folds = eedi_folds(read_eedi_questions(self.train), self.folds)
        if not self.quick:
            return folds
        out = []
        for f in folds[:QUICK_FOLDS]:
            n = min(QUICK_PAIRS_PER_FOLD, len(f.pairs))
            stride = len(f.pairs) / n if n else 1.0
            pairs = [f.pairs[int(i * stride)] for i in range(n)]
            out.append(EediFold(f.key, f.number, f.of, f.train, pairs))
        return out

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
        """Score every (config, fold) unit not skipped; see `BenchmarkTask`."""
        folds = self.fold_plan()
        setups = {c.name: _Setup.from_run_config(c) for c in configs}
        todo = {f.key: [n for n in setups if not skip((self.name, n, f.key))] for f in folds}
        pending = {n for names in todo.values() for n in names}
        shared = _Shared(
            misconceptions=read_misconceptions(self.misconceptions),
            subjects=read_subjects(self.subjects) if self.subjects else [],
            embedder=caching(embedder),
            training=self.training,
            reranker_base=self.reranker_base,
            rerank_depth=self.rerank_depth,
            msmarco_model=self.msmarco_model,
            work=self.work,
            train_limit=QUICK_TRAIN_QUESTIONS if self.quick else None,
        )
        runner = _FoldRunner(shared, status or (lambda _line: None))
        await runner.prepare(setups[n] for n in pending)
        # The first line of a reason is the reason (a hub error adds advice below it).
        not_measured = {
            n: f"not measured: {why.strip().splitlines()[0]}"
            for n in sorted(pending)
            if (why := runner.why_not(setups[n])) is not None
        }
        total = sum(len(f.pairs) for f in folds for n in todo[f.key] if n not in not_measured)
        done = 0

        def step() -> None:
            nonlocal done
            done += 1
            if progress:
                progress(done, total)

        for fold in folds:
            run_here = {n: setups[n] for n in todo[fold.key] if n not in not_measured}
            if not run_here:
                continue  # every unit of this fold is recorded or not measurable

            def on_unit(name: str, scores: list[_PairScore], fold: EediFold = fold) -> None:
                record(
                    [
                        ItemScore(
                            self.name,
                            name,
                            fold.key,
                            s.pair.item_id,
                            pair_query_type(s.pair),
                            {METRICS[0]: s.ap, METRICS[1]: s.recall},
                        )
                        for s in scores
                    ]
                )

            await runner.run_fold(fold, run_here, on_unit, step)
        return not_measured

"""The Eedi misconception-retrieval task (research/docs/EVALUATION.md), a `FoldTask`.

Unit: one labelled (question, wrong answer) pair. For each fold the stores are built from
the fold's training questions (and the misconception list) only; no test question and no
label of a test question reaches them. Only misconception hits count, in packet order.
The construct of a question is passed as context when its fold's graph knows it. Domain
rerankers and the learned ranker are trained per fold (`eedi_models.FoldTrainer`).

`tutorgraph bench eedi` (`eedi_bench`) and the ablation runner both run this task.

>>> task = EediMisconceptionTask(Path("eedi/train.csv"), Path("eedi/misconception_mapping.csv"))
>>> task.metrics
('map@25', 'recall@25')
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from tutorgraph.config import DEFAULT_EMBEDDING_MODEL, MSMARCO_RERANKER, RERANK_DEPTH
from tutorgraph.embedding.embedder import Embedder
from tutorgraph.embedding.reranker import Backend, CrossEncoderReranker, RerankerOptions
from tutorgraph.errors import ConfigurationError
from tutorgraph.index.local import LocalIndex
from tutorgraph.ingest.eedi import (
    EediQuestion,
    eedi_construct_id,
    eedi_fold,
    eedi_misconception_id,
    eedi_query_text,
    eedi_records,
    read_eedi_questions,
    read_misconceptions,
    read_subjects,
)
from tutorgraph.models.records import SourceRecords
from tutorgraph.ranking.metrics import average_precision_at_k, recall_at_k
from tutorgraph.retrieval.factory import Models, build_retriever
from tutorgraph.retrieval.retriever_config import RetrieverConfig
from tutorgraph.retrieval.router import analyse
from tutorgraph.training.cross_encoder import TrainingConfig
from tutorgraph.training.crossfit_encoders import (
    FoldEncoders,
    TunedEncoders,
    fold_model_dir,
    load_fold_encoders,
)
from tutorgraph.training.ranker import RankerTrainingConfig
from tutorgraph_client.models.packet import ReasoningPacket
from tutorgraph_research.harness.configs import RunConfig
from tutorgraph_research.harness.folds import EvalItem, Fold, stable_sample
from tutorgraph_research.harness.runner import BENCH_SOURCE_TIMEOUT_S, FoldModels, FoldTask
from tutorgraph_research.tasks.eedi_models import FoldTrainer
from tutorgraph_research.tasks.messages import StudentMessage

__all__ = [
    "METRICS",
    "QUICK_FOLDS",
    "QUICK_PAIRS_PER_FOLD",
    "QUICK_TRAIN_QUESTIONS",
    "EediFold",
    "EediMisconceptionTask",
    "EediPair",
    "K",
    "PairInfo",
    "eedi_folds",
    "eedi_pairs",
    "message_folds",
    "misconception_ranking",
    "pair_query_type",
]

K = 25
METRICS = (f"map@{K}", f"recall@{K}")
# The fold-trained reranker at fp32 (ONNX Runtime) and int8.
_DOMAIN_BACKENDS: dict[str, Backend] = {"domain": "onnx", "domain-int8": "onnx-int8"}

# A quick run (`--quick`, minutes): the first QUICK_FOLDS folds of the same 5-fold rule,
# QUICK_PAIRS_PER_FOLD test pairs spread over each, and fold models trained (same recipes)
# on QUICK_TRAIN_QUESTIONS of the fold's training questions.
QUICK_FOLDS = 1
QUICK_PAIRS_PER_FOLD = 30
QUICK_TRAIN_QUESTIONS = 40


@dataclass(frozen=True)
class EediPair:
    """One labelled wrong answer: the unit of the benchmark."""

    question: EediQuestion
    letter: str
    target: str
    # A free-text message standing for the pair (`tasks.messages`), and its split.
    text: str | None = None
    group: str = ""

    @property
    def query(self) -> str:
        return self.text if self.text is not None else eedi_query_text(self.question, self.letter)

    @property
    def item_id(self) -> str:
        """A stable id: `<QuestionId>:<letter>`."""
        return f"{self.question.question_id}:{self.letter}"


@dataclass(frozen=True)
class EediFold:
    """The questions a fold indexes and the pairs it scores.

    `key` is the fold's value of `int(QuestionId) % folds` (0 for a train/test split);
    `of` is how many folds the run has.
    """

    key: int
    of: int
    train: list[EediQuestion]
    pairs: list[EediPair]

    @property
    def label(self) -> str:
        return f"fold {self.key + 1}/{self.of}"


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
            folds,
            [q for q in questions if eedi_fold(q.question_id, folds) != k],
            eedi_pairs([q for q in questions if eedi_fold(q.question_id, folds) == k]),
        )
        for k in range(folds)
    ]


def message_folds(folds: Sequence[EediFold], messages: Sequence[StudentMessage]) -> list[EediFold]:
    """The folds with their test pairs replaced by the messages of their test questions."""
    out = []
    for fold in folds:
        by_id = {p.question.question_id: p.question for p in fold.pairs}
        pairs = [
            EediPair(
                by_id[m.question_id],
                m.letter or _letter(by_id[m.question_id], m.accepted[0]),
                m.accepted[0],
                m.message,
                m.split,
            )
            for m in messages
            if m.question_id in by_id
        ]
        out.append(replace(fold, pairs=pairs))
    return out


def _letter(question: EediQuestion, target: str) -> str:
    """The answer letter whose label is `target` (a message that names no letter)."""
    wanted = int(target.rsplit(":", 1)[-1])
    return next((k for k, v in sorted(question.misconception_ids.items()) if v == wanted), "")


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


@dataclass(frozen=True)
class PairInfo:
    """What the scores of one item need beyond its ranking."""

    pair: EediPair
    # Whether the fold's training questions hold the pair's construct / misconception.
    seen_construct: bool
    seen_misconception: bool


class EediMisconceptionTask(FoldTask):
    """Eedi misconception retrieval under `RunConfig`s, one `ItemScore` per pair.

    Five folds by `int(QuestionId) % 5` (or `test` as one held-out fold). Besides MAP@25
    and Recall@25 each score holds the target's rank among the misconception hits (0: not
    returned), how many of them the final stage scored, and whether the fold's training
    questions hold the pair's construct and misconception.
    """

    name = "eedi-misconceptions"
    metrics: tuple[str, ...] = METRICS
    fold_trained = frozenset(_DOMAIN_BACKENDS)
    ranker_reason = None
    # A new index per fold: each fold indexes most of the questions.
    fresh_index = True

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
        rerank_depth: int = RERANK_DEPTH,
        msmarco_model: str = MSMARCO_RERANKER,
        test: Path | None = None,
        messages: Sequence[StudentMessage] | None = None,
        limit: int | None = None,
        per_fold: int | None = None,
        tuned_folds: Path | None = None,
        keep_rankings: int = 0,
        ranker_training: RankerTrainingConfig | None = None,
        only_folds: frozenset[int] | None = None,
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
        self.test = test
        self.messages = messages
        self.limit = limit
        self.per_fold = per_fold
        self.tuned_folds = tuned_folds
        self.ranker_training = ranker_training
        # Score only these folds (keys: `int(QuestionId) % folds`); each trains as in the full
        # run, so its items pair with a full run's (`research/scripts/paired_runs.py`).
        self.only_folds = only_folds
        self._fold_encoders: FoldEncoders | None = None
        # With keep_rankings > 0: per scored packet, its first misconception hits with their
        # final scores (`observe`), for second-stage experiments over the out-of-fold lists.
        self.keep_rankings = keep_rankings
        self.rankings: list[dict[str, Any]] = []
        # Filled while running: the pairs scored, how many had no construct context, and
        # what the fold models were trained on.
        self.info: dict[str, PairInfo] = {}
        self.unseen = 0
        self.trainer: FoldTrainer | None = None
        self._plan: dict[int, EediFold] = {}

    def fold_plan(self) -> list[EediFold]:
        """The folds and the pairs each scores: a train/test split, or cross-validation
        folds (a quick run: the first `QUICK_FOLDS`, an even sample of each; `per_fold`: a
        stable sample of that many pairs per fold; `limit`: at most that many pairs, spread
        over every fold)."""
        train = read_eedi_questions(self.train)
        if self.test is not None:
            folds = [EediFold(0, 1, train, eedi_pairs(read_eedi_questions(self.test)))]
        else:
            folds = eedi_folds(train, self.folds)
        if self.only_folds is not None:
            if self.test is not None or not self.only_folds <= set(range(self.folds)):
                raise ConfigurationError(
                    f"--only-folds takes cross-validation folds 0..{self.folds - 1}, not --test"
                )
            folds = [f for f in folds if f.key in self.only_folds]
        if self.messages is not None:
            folds = message_folds(folds, self.messages)
        if self.per_fold is not None:
            folds = [
                replace(f, pairs=stable_sample(f.pairs, self.per_fold, key=lambda p: p.item_id))
                for f in folds
            ]
        if self.limit is not None:
            per_fold = max(1, self.limit // len(folds))
            folds = [replace(f, pairs=f.pairs[:per_fold]) for f in folds]
        if not self.quick:
            return folds
        out = []
        for f in folds[:QUICK_FOLDS]:
            n = min(QUICK_PAIRS_PER_FOLD, len(f.pairs))
            stride = len(f.pairs) / n if n else 1.0
            out.append(replace(f, pairs=[f.pairs[int(i * stride)] for i in range(n)]))
        return out

    def build_folds(self) -> list[Fold]:
        misconceptions = read_misconceptions(self.misconceptions)
        subjects = read_subjects(self.subjects) if self.subjects else []
        self.trainer = FoldTrainer(
            misconceptions,
            subjects,
            "",
            self.training,
            self.reranker_base,
            self.work,
            QUICK_TRAIN_QUESTIONS if self.quick else None,
            say=self.say,
            ranker_training=self.ranker_training,
        )
        out = []
        for fold in self.fold_plan():
            self._plan[fold.key] = fold
            constructs = {q.construct_id for q in fold.train}
            labels = {p.target for p in eedi_pairs(fold.train)}
            items = []
            for n, p in enumerate(fold.pairs):
                item = EvalItem(
                    # A message's pair may have several messages: each is its own item.
                    p.item_id if p.text is None else f"{p.item_id}/{n}",
                    p.query,
                    frozenset({p.target}),
                    pair_query_type(p),
                    (eedi_construct_id(p.question.construct_id),),
                )
                seen = (p.question.construct_id in constructs, p.target in labels)
                self.info[item.item] = PairInfo(p, *seen)
                items.append(item)

            def records(train: list[EediQuestion] = fold.train) -> SourceRecords:
                return eedi_records(train, misconceptions, subjects)

            out.append(Fold(fold.key, records, items))
        return out

    async def fold_items(self, fold: Fold, index: LocalIndex) -> list[EvalItem]:
        """Each item with its construct as context only when the fold's graph knows it."""
        out = []
        for item in fold.items:
            known = not await index.graph.unknown_concepts(item.concept_ids)
            self.unseen += 0 if known else 1
            out.append(item if known else replace(item, concept_ids=()))
        return out

    async def fold_models(
        self, fold: Fold, index: LocalIndex, embedder: Embedder, configs: Sequence[RunConfig]
    ) -> FoldModels:
        """The fold's domain rerankers and learned ranker, when a configuration uses them."""
        assert self.trainer is not None  # build_folds made it
        self.trainer.embedder_name = embedder.name
        plan = self._plan[fold.number]
        out = FoldModels()
        wanted = {c.reranker for c in configs} & set(_DOMAIN_BACKENDS)
        if wanted:
            # The fold's first stage (with the local refiner) mines the training negatives.
            # Without the diagnosis, as before the library turned it on by default (the
            # benchmark's numbers stay).
            setup = RetrieverConfig(
                rerank_depth=self.rerank_depth,
                source_timeout_s=BENCH_SOURCE_TIMEOUT_S,
                diagnosis=False,
            )
            base = build_retriever(index, Models(embedder), setup)
            model_dir = await self.trainer.reranker(
                base, index.graph, plan.key, plan.label, plan.train
            )
            await base.aclose()
            options = RerankerOptions(
                max_length=self.training.max_length,
                query_max_tokens=self.training.query_max_tokens,
            )
            for name in sorted(wanted):
                reranker = CrossEncoderReranker(
                    model_dir, backend=_DOMAIN_BACKENDS[name], options=options
                )
                await asyncio.to_thread(reranker.load)
                out.rerankers[name] = reranker
        if any(c.ranker for c in configs):
            out.ranker = await self.trainer.ranker(
                index.graph, embedder, plan.key, plan.label, plan.train, await self._tuned(plan)
            )
        return out

    async def _tuned(self, plan: EediFold) -> TunedEncoders | None:
        """Fold `plan`'s tuned encoders: the one trained without its test questions serves
        its ranker; all of them score its training questions, each those it did not see."""
        if self.tuned_folds is None:
            return None
        if self.test is not None or plan.of != self.folds:
            raise ConfigurationError("--tuned-folds needs the cross-validation folds, not --test")
        if self._fold_encoders is None:
            self._fold_encoders = await asyncio.to_thread(
                load_fold_encoders, self.tuned_folds, self.folds
            )
        model = fold_model_dir(self.tuned_folds, plan.key)
        encoders = self._fold_encoders
        return TunedEncoders(encoders.encoders[plan.key], str(model), encoders)

    def measure(self, packet: ReasoningPacket, item: EvalItem) -> dict[str, float]:
        info = self.info[item.item]
        target = info.pair.target
        ranking = misconception_ranking(packet, target)
        scored = sum(
            1
            for hit in packet.results
            if hit.kind == "misconception"
            and (hit.learned_score is not None or hit.rerank_score is not None)
        )
        return {
            METRICS[0]: average_precision_at_k(ranking, {target}, K),
            METRICS[1]: recall_at_k(ranking, {target}, K),
            "rank": float(ranking.index(target) + 1 if target in ranking else 0),
            "scored": float(scored),
            "seen_construct": float(info.seen_construct),
            "seen_misconception": float(info.seen_misconception),
        }

    def observe(self, config: str, item: EvalItem, packet: ReasoningPacket) -> None:
        if self.keep_rankings <= 0:
            return
        info = self.info[item.item]
        hits = [h for h in packet.results if h.kind == "misconception"][: self.keep_rankings]
        self.rankings.append(
            {
                "config": config,
                "item": item.item,
                "question": info.pair.question.question_id,
                "query": info.pair.query,
                "target": info.pair.target,
                "hits": [
                    [info.pair.target if info.pair.target in h.ids else h.id, h.learned_score]
                    for h in hits
                ],
            }
        )

    def close(self) -> None:
        """Remove the fold models' temporary folders."""
        if self.trainer is not None:
            self.trainer.cleanup()

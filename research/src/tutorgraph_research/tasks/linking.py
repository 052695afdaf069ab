"""Concept linking (research/docs/EVALUATION.md): which concept is a question or an exercise about?

Two tasks, both scored with Recall@1, Recall@10 and MRR over a ranking of concept ids read
from the packet (`concept_ranking`): a concept hit's own id, any other hit's `concept_ids`,
first occurrence first, only ids of the target kind.

* ``linking-eedi``: an Eedi question (its text and correct answer; no construct or subject
  name) -> its construct ``eedi:construct:<ConstructId>``. Folds: ``int(QuestionId) % 5``, as
  in the misconception benchmark. A fold's index holds the records built from its training
  questions only (with every misconception and subject); its test questions are never
  indexed, and a construct no training question uses is not in the index at all: such an
  item still counts (a miss) and is counted in ``stats["unseen_targets"]`` (its ids in
  ``stats["unseen_items"]``). Requests carry no concept ids (the construct is the answer),
  so graph scoping acts only through the concepts the graph matches by name in the query
  text. The bundled reranker was trained on every Eedi question, so its configurations are
  not measured here.
* ``linking-openstax``: an OpenStax exercise (its instructions and problem; not its title,
  which names the section, nor its solution) -> its section ``openstax:section:<module>``.
  Every exercise gets a fold from a hash of its id; a fold's index holds all OpenStax records
  except that fold's exercises. Test items are the fold's exercises filed under exactly one
  section (practice-test exercises, filed under a whole chapter, are only left out of the
  index), sampled deterministically per fold.

>>> task = OpenStaxLinkingTask(Path("../shared/data/openstax"), quick=True)  # doctest: +SKIP
>>> await task.run(ablation_grid(), embedder, skip=lambda k: False, record=print)  # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from tutorgraph.ingest.eedi import (
    EediQuestion,
    eedi_construct_id,
    eedi_fold,
    eedi_question_id,
    eedi_records,
    read_eedi_questions,
    read_misconceptions,
    read_subjects,
)
from tutorgraph.mathtext.latex import latex_to_text
from tutorgraph.models.records import SourceRecords
from tutorgraph.ranking.metrics import recall_at_k, reciprocal_rank
from tutorgraph_client.models.curriculum import Document
from tutorgraph_client.models.packet import ReasoningPacket
from tutorgraph_research.harness.folds import (
    EvalItem,
    Fold,
    concept_ranking,
    eval_item,
    stable_fold,
    stable_sample,
)
from tutorgraph_research.harness.runner import FoldTask

__all__ = [
    "LINKING_METRICS",
    "EediLinkingTask",
    "OpenStaxLinkingTask",
    "eedi_linking_query",
    "exercise_query",
    "linking_scores",
    "openstax_folds",
]

LINKING_METRICS: tuple[str, ...] = ("recall@1", "recall@10", "mrr")
EEDI_CONSTRUCT = "eedi:construct:"
OPENSTAX_SECTION = "openstax:section:"
_SOLUTION = "Solution:"

# Full runs: every Eedi question; 100 OpenStax exercises per fold (17 configurations x 500
# items fit the ~10 minutes budgeted for this task). Quick runs: a few items per fold, and
# for OpenStax only the first sections of the books, so the index embeds in seconds.
OPENSTAX_PER_FOLD = 100
QUICK_EEDI_PER_FOLD = 4
QUICK_OPENSTAX_PER_FOLD = 4
QUICK_OPENSTAX_SECTIONS = 6


def linking_scores(ranking: list[str], item: EvalItem) -> dict[str, float]:
    """Recall@1, Recall@10 and MRR of one ranking.

    >>> linking_scores(["c2", "c1"], eval_item("q", "text", ["c1"]))
    {'recall@1': 0.0, 'recall@10': 1.0, 'mrr': 0.5}
    """
    return {
        "recall@1": recall_at_k(ranking, set(item.relevant), 1),
        "recall@10": recall_at_k(ranking, set(item.relevant), 10),
        "mrr": reciprocal_rank(ranking, set(item.relevant)),
    }


def _one_line(raw: str) -> str:
    return " ".join(latex_to_text(raw).split("\n"))


def eedi_linking_query(q: EediQuestion) -> str:
    """The question's text and its correct answer, as the misconception benchmark writes them.

    >>> q = EediQuestion(1, 10, "Add fractions", 5, "Fractions", "A",
    ...     r"\\( \\frac{1}{2}+\\frac{1}{4} \\)",
    ...     {"A": r"\\( \\frac{3}{4} \\)", "B": "2/6", "C": "1", "D": "2"}, dict.fromkeys("ABCD"))
    >>> print(eedi_linking_query(q))
    1/2+1/4
    Correct answer: 3/4
    """
    return "\n".join(
        [
            latex_to_text(q.question_text),
            f"Correct answer: {_one_line(q.answers[q.correct_answer])}",
        ]
    )


def exercise_query(doc: Document) -> str:
    """An exercise as a student meets it: instructions and problem, no title, no solution.

    >>> d = Document(id="openstax:m1:exercise:e1", kind="exercise", title="Add Whole Numbers",
    ...     text="In the following exercises, add.\\n3+4\\nSolution: 7", source="s", license="l")
    >>> print(exercise_query(d))
    In the following exercises, add.
    3+4
    """
    lines = doc.text.split("\n")
    cut = next((i for i, line in enumerate(lines) if line.startswith(_SOLUTION)), len(lines))
    return "\n".join(lines[:cut]).strip() or doc.text


def _rank_constructs(packet: ReasoningPacket, item: EvalItem) -> list[str]:  # noqa: ARG001
    return concept_ranking(packet, EEDI_CONSTRUCT)


def _rank_sections(packet: ReasoningPacket, item: EvalItem) -> list[str]:  # noqa: ARG001
    return concept_ranking(packet, OPENSTAX_SECTION)


class EediLinkingTask(FoldTask):
    """Eedi question -> its construct, 5-fold by ``int(QuestionId) % folds``."""

    name = "linking-eedi"
    metrics = LINKING_METRICS
    domain_reason = "the bundled reranker was trained on these questions"
    rank = staticmethod(_rank_constructs)
    score = staticmethod(linking_scores)

    def __init__(
        self,
        train: Path,
        misconceptions: Path,
        subjects: Path | None = None,
        *,
        folds: int = 5,
        quick: bool = False,
        work: Path | None = None,
        per_fold: int | None = None,
    ) -> None:
        """`per_fold` caps the test questions per fold (quick runs: a few; default: all)."""
        if folds < 2:
            raise ValueError("folds must be at least 2")
        self.train, self.misconceptions, self.subjects = train, misconceptions, subjects
        self.folds = folds
        self.per_fold = (
            per_fold if per_fold is not None else (QUICK_EEDI_PER_FOLD if quick else None)
        )
        self.work = work
        self.stats: dict[str, Any] = {}

    def build_folds(self) -> list[Fold]:
        """The folds: records of the training questions, test items of the rest."""
        questions = read_eedi_questions(self.train)
        misconceptions = read_misconceptions(self.misconceptions)
        subjects = read_subjects(self.subjects) if self.subjects else []
        out: list[Fold] = []
        unseen: dict[int, int] = {}
        unseen_items: list[str] = []
        for f in range(self.folds):
            train = [q for q in questions if eedi_fold(q.question_id, self.folds) != f]
            test = [q for q in questions if eedi_fold(q.question_id, self.folds) == f]
            test = stable_sample(test, self.per_fold, key=lambda q: str(q.question_id))
            known = {q.construct_id for q in train}
            missing = [q for q in test if q.construct_id not in known]
            unseen[f] = len(missing)
            unseen_items += [eedi_question_id(q.question_id) for q in missing]
            items = [
                eval_item(
                    eedi_question_id(q.question_id),
                    eedi_linking_query(q),
                    [eedi_construct_id(q.construct_id)],
                )
                for q in test
            ]

            def records(train: list[EediQuestion] = train) -> SourceRecords:
                return eedi_records(train, misconceptions, subjects)

            out.append(Fold(f, records, items))
        self.stats = {
            "unseen_targets": unseen,
            # Items no configuration can get right: report metrics without them too.
            "unseen_items": sorted(unseen_items),
            "items": {f.number: len(f.items) for f in out},
            "fold_rule": f"int(QuestionId) % {self.folds}",
        }
        return out

    def folds_note(self) -> str:
        unseen = sum(self.stats["unseen_targets"].values())
        return f"test questions whose construct no training question has: {unseen}"


def openstax_folds(
    records: SourceRecords,
    *,
    folds: int = 5,
    per_fold: int | None = None,
    sections: int | None = None,
) -> list[tuple[int, SourceRecords, list[Document]]]:
    """(fold, index records, test exercises) for each fold.

    Every exercise belongs to fold ``stable_fold(id)``; a fold's index records are all of
    `records` but that fold's exercises. Test exercises: the fold's exercises filed under one
    section, `per_fold` of them (a stable sample). `sections` keeps only the first sections in
    book order (and what is filed under them only), for quick runs.
    """
    if sections is not None:
        keep = {c.id for c in records.concepts[:sections]}
        records = SourceRecords(
            concepts=[c for c in records.concepts if c.id in keep],
            prerequisites=[
                p
                for p in records.prerequisites
                if p.concept_id in keep and p.prerequisite_id in keep
            ],
            misconceptions=list(records.misconceptions),
            documents=[d for d in records.documents if set(d.concept_ids) <= keep],
        )
    out = []
    for f in range(folds):
        held = [
            d for d in records.documents if d.kind == "exercise" and stable_fold(d.id, folds) == f
        ]
        held_ids = {d.id for d in held}
        index = SourceRecords(
            concepts=list(records.concepts),
            prerequisites=list(records.prerequisites),
            misconceptions=list(records.misconceptions),
            documents=[d for d in records.documents if d.id not in held_ids],
        )
        test = stable_sample(
            [d for d in held if len(d.concept_ids) == 1], per_fold, key=lambda d: d.id
        )
        out.append((f, index, test))
    return out


class OpenStaxLinkingTask(FoldTask):
    """OpenStax exercise -> its section, 5 folds by a hash of the exercise id."""

    name = "linking-openstax"
    metrics = LINKING_METRICS
    reading = "reading the OpenStax books"
    rank = staticmethod(_rank_sections)
    score = staticmethod(linking_scores)

    def __init__(
        self,
        openstax: Path,
        *,
        folds: int = 5,
        quick: bool = False,
        work: Path | None = None,
        per_fold: int | None = None,
        sections: int | None = None,
        count_tokens: Callable[[str], int] | None = None,
    ) -> None:
        """`openstax`: the CNXML books folder. `per_fold` test exercises per fold and
        `sections` (the first N sections only) default to the full or the quick run's sizes;
        `count_tokens` sizes explanation chunks (default: the MiniLM tokenizer, as ingest)."""
        if folds < 2:
            raise ValueError("folds must be at least 2")
        self.openstax = openstax
        self.folds = folds
        self.per_fold = (
            per_fold
            if per_fold is not None
            else (QUICK_OPENSTAX_PER_FOLD if quick else OPENSTAX_PER_FOLD)
        )
        self.sections = (
            sections if sections is not None else (QUICK_OPENSTAX_SECTIONS if quick else None)
        )
        self.work = work
        self.count_tokens = count_tokens
        self.stats: dict[str, Any] = {}

    def load(self) -> SourceRecords:
        """The OpenStax records, chunked as `tutorgraph build-curriculum` chunks them."""
        from tutorgraph.ingest.build import minilm_token_counter
        from tutorgraph.ingest.openstax import load_openstax

        return load_openstax(
            self.openstax, count_tokens=self.count_tokens or minilm_token_counter()
        )

    def build_folds(self, records: SourceRecords | None = None) -> list[Fold]:
        """The folds over `records` (default: `load()`)."""
        records = records if records is not None else self.load()
        out = []
        for f, index, test in openstax_folds(
            records, folds=self.folds, per_fold=self.per_fold, sections=self.sections
        ):
            items = [eval_item(d.id, exercise_query(d), d.concept_ids) for d in test]
            out.append(Fold.of(f, index, items))
        self.stats = {
            "items": {f.number: len(f.items) for f in out},
            "sections": self.sections,
            "per_fold": self.per_fold,
        }
        return out

"""A request's diagnosis: the problem it states read, the bug rules applied to the student's
answer, and the misconceptions they reproduce put first among the hits, each with an RRF term
like a source's.

The problem is read and the rules applied in a worker thread, off the event loop, under a
deadline: past it nothing is given and the outcome says why (`DiagnosisOutcome.skipped`).

>>> outcome = await diagnose_hits(diagnoser, fetch, facts, hits)  # doctest: +SKIP
>>> outcome.hits, outcome.findings, outcome.check  # doctest: +SKIP
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from tutorgraph.diagnosis.diagnose import Diagnoser, Diagnosis
from tutorgraph.diagnosis.problem import find_problem
from tutorgraph.refinement.reader import read_message
from tutorgraph.retrieval.facts import RequestFacts
from tutorgraph.retrieval.fusion import DIAGNOSIS_WEIGHT, RRF_K
from tutorgraph.retrieval.hits import misconception_hit
from tutorgraph_client.models.curriculum import Misconception
from tutorgraph_client.models.packet import AnswerCheck, DiagnosisFinding, Hit

__all__ = ["DiagnosisOutcome", "diagnose_hits", "read_and_diagnose"]

log = logging.getLogger(__name__)


@dataclass
class DiagnosisOutcome:
    """The hits (the reproduced misconceptions first), the findings and the answer check.
    `ran`: a student answer was known, so the rules were tried; `skipped`: why they gave
    nothing although they were (they passed the deadline)."""

    hits: list[Hit]
    findings: list[DiagnosisFinding] = field(default_factory=list)
    check: AnswerCheck | None = None
    ran: bool = False
    skipped: str | None = None


def read_and_diagnose(
    diagnoser: Diagnoser, text: str, answer: str, correct_answer: str | None, *, message: bool
) -> tuple[str, Diagnosis] | None:
    """The first reading of the problem the rules can solve, and its diagnosis: a message is
    read by the math-message reader first (`read_message`), then, like a problem the caller
    stated, by `find_problem`. An answer the message says is right ("the teacher got 18",
    "Correct answer: 3/4") checks each reading, as the caller's `correct_answer` does."""
    reading = read_message(text) if message else None
    if reading is not None and reading.labelled:
        # A labelled answer ("Student answer: 16%") is a question's own layout, not a
        # student's words: it is read as a stated problem is (measured on Eedi: the reader
        # added readings there that explained no labelled misconception).
        reading = None
    first = reading.problem if reading is not None else None
    if correct_answer is None and reading is not None and reading.claimed_right is not None:
        correct_answer = reading.claimed_right.value
    candidates = [first.value] if first is not None else []
    if (found := find_problem(text, student_answer=answer)) is not None:
        candidates.append(found)
    # The first reading under which a rule reproduces the answer, else the first that
    # decides whether it is right: "What is 3/5 as a decimal?" read as the fraction 3/5
    # decides nothing a conversion rule explains; read as a conversion, it does.
    results = [
        (p, diagnoser.diagnose(p, answer, correct_answer)) for p in dict.fromkeys(candidates)
    ]
    return next(
        (r for r in results if r[1].findings),
        next((r for r in results if r[1].correct is not None), results[0] if results else None),
    )


def _unanswerable(facts: RequestFacts) -> AnswerCheck | None:
    """A message that asks about its answer but gives no answer: what it did give."""
    read = facts.reading
    if facts.given_problem is not None or read is None:
        return None
    if read.request not in ("why_wrong", "is_right") or read.problem is None:
        return None
    return AnswerCheck(problem=read.problem.value, missing=["answer"])


def _unchecked(facts: RequestFacts, problem: str | None) -> AnswerCheck | None:
    """In a dialogue, the problem and the answer read when neither the diagnosis nor its
    rules can judge them ("What time is it?" ... "3 oclock"): the app still learns which
    answer to which problem the turn gave (`correct` null); None outside a dialogue, whose
    packets stay as they were."""
    if facts.dialogue is None or facts.student_answer is None:
        return None
    return AnswerCheck(problem=problem or facts.problem, student_answer=facts.student_answer)


async def diagnose_hits(
    diagnoser: Diagnoser,
    fetch: Callable[[list[str]], Awaitable[list[Misconception] | None]],
    facts: RequestFacts,
    hits: list[Hit],
    *,
    timeout_s: float,
) -> DiagnosisOutcome:
    """Which bug rules reproduce the student's answer (`facts`: the answer, wherever it came
    from, and the text the problem is read from: the request's `problem`, else the message,
    both read by the same reader); their misconceptions lead the hits (found by
    `diagnosis`, fetched with `fetch` when no source had them). Reading and the rules take
    well under a millisecond for a message, tens of milliseconds at most for 2,000 hostile
    characters; `timeout_s` is the wall-clock deadline past which the stage gives nothing
    and says why."""
    answer = facts.student_answer
    if not answer:
        return DiagnosisOutcome(hits, check=_unanswerable(facts))
    text = facts.problem_text
    work = asyncio.to_thread(
        read_and_diagnose,
        diagnoser,
        text,
        answer,
        facts.correct_answer,
        message=True,
    )
    try:
        read = await asyncio.wait_for(work, timeout_s)
    except TimeoutError:
        # The thread runs on (the readers are linear in the text, so not for long).
        skipped = f"reading the problem took over {timeout_s:g} s"
        log.warning("diagnosis skipped for a %d-character text: %s", len(text), skipped)
        return DiagnosisOutcome(hits, ran=True, skipped=skipped)
    if read is None:
        # A message with an answer but no problem at all: say so rather than guess (a
        # problem the caller stated that is not arithmetic is no missing problem).
        check = None
        if facts.given_problem is None:
            check = AnswerCheck(student_answer=answer, missing=["problem"])
        return DiagnosisOutcome(hits, check=check or _unchecked(facts, None), ran=True)
    problem, result = read
    if result.correct is None or result.correct_answer is None:
        return DiagnosisOutcome(hits, check=_unchecked(facts, problem), ran=True)
    check = AnswerCheck(
        problem=problem,
        student_answer=answer,
        correct=result.correct,
        correct_answer=result.correct_answer,
    )
    findings = [
        DiagnosisFinding(
            misconception_id=m,
            rule=f.rule,
            reproduced_answer=f.reproduced_answer,
            explanation=f.explanation,
        )
        for f in result.findings
        for m in f.misconception_ids
    ]
    ids = list(dict.fromkeys(d.misconception_id for d in findings))
    if not ids:
        return DiagnosisOutcome(hits, findings, check, ran=True)
    have = {h.id: h for h in hits}
    if missing := [m for m in ids if m not in have]:
        found = await fetch(missing)
        for misconception in found or []:
            have[misconception.id] = misconception_hit(misconception)
    lead = []
    for rank, mid in enumerate((m for m in ids if m in have), start=1):
        hit = have[mid]
        # An RRF term like any source's; a hit no source found scores by it alone.
        part = DIAGNOSIS_WEIGHT / (RRF_K + rank)
        if not hit.found_by:  # fetched for the finding (a proposal keeps its learned score)
            hit.score = round(part, 9)
        hit.found_by = [*hit.found_by, "diagnosis"]
        hit.source_ranks = {**hit.source_ranks, "diagnosis": rank}
        hit.source_contributions = {**hit.source_contributions, "diagnosis": round(part, 9)}
        hit.fused_score = round(hit.fused_score + part, 9)
        lead.append(hit)
    chosen = {id(h) for h in lead}
    # Only misconceptions that exist in this index are shown as hits.
    findings = [d for d in findings if d.misconception_id in have]
    rest = [h for h in hits if id(h) not in chosen]
    return DiagnosisOutcome(lead + rest, findings, check, ran=True)

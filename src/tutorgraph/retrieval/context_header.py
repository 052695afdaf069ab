"""What the packet knows about the message, as the first lines of its context: the topic
(the first linked Common Core standard and the grade), the answer check (the student's
answer, whether it is right, the right answer) and the diagnosis (how the answer comes
about, and the misconception that gives it).

The lines state facts the model would otherwise have to work out (or get wrong); none opens
with `[`, so none reads as a citable item of the context (`synthesis/citations.py`). Each
line has a `keep` rank for a short budget (`context.py`): the answer check first, then the
diagnosis, the grade, and last the topic, whose statement can be long (the one line that
may be cut).

>>> [k.text for k in known_lines(linked, grade, check, findings, hits)]  # doctest: +SKIP
['Topic: Common Core 2.NBT.B.5: Fluently add and subtract within 100 ...',
 'Grade: 2 (given with the request)',
 "Answer check: the student's answer to 52 - 38 is 26, which is wrong; the right answer is 14.",
 'Diagnosis: 26 is what you get by taking the smaller digit from the larger in each column ...']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tutorgraph.linking.linker import STRUCTURED as COMMON_CORE
from tutorgraph_client.models.packet import (
    AnswerCheck,
    DiagnosisFinding,
    GradeInfo,
    Hit,
    LinkedConcept,
)

__all__ = ["CONTEXT_HEADER", "Known", "known_lines"]

# The context's first section: what the packet knows about the message.
CONTEXT_HEADER = "About this message"
# A standard's statement past this many words is cut (some carry long examples).
_STATEMENT_WORDS = 40


@dataclass(frozen=True)
class Known:
    """A line of what the packet knows; on a short budget the lowest `keep` goes in first,
    and only a line that `may_cut` is cut to fit (a fact is stated whole or not at all)."""

    text: str
    keep: int
    may_cut: bool = False


def _words(text: str, limit: int) -> str:
    words = text.split()
    return " ".join(words) if len(words) <= limit else " ".join(words[:limit]) + " …"


def _topic(linked: Sequence[LinkedConcept], lead: str | None) -> str | None:
    core = [c for c in linked if c.taxonomy == COMMON_CORE]
    standard = next((c for c in core if c.id == lead), core[0] if core else None)
    if standard is None:
        return None
    statement = _words(standard.description, _STATEMENT_WORDS)
    code = f"Common Core {standard.name}"
    return f"Topic: {code}: {statement}" if statement else f"Topic: {code}"


def _grade(grade: GradeInfo) -> str | None:
    if grade.source == "request" and grade.grade is not None:
        return f"Grade: {grade.grade} (given with the request)"
    if grade.band is not None:
        return f"Grade band: {grade.band} (read from the message)"
    return None


def _answer_check(check: AnswerCheck | None) -> str | None:
    if check is None:
        return None
    answer, problem = check.student_answer, check.problem
    if answer is None:
        if problem is None:
            return None
        return f"Answer check: the problem is {problem}; the message gives no answer to check."
    if problem is not None and check.correct is None:
        # A dialogue's problem the rules cannot judge ("What time is it?").
        return f"Answer check: the student's answer to {problem} is {answer}; it was not checked."
    if problem is None or check.correct is None:
        return (
            f"Answer check: the student's answer is {answer}; the message gives no problem "
            "to check it against."
        )
    said = f"Answer check: the student's answer to {problem} is {answer}, which is"
    if check.correct:
        return f"{said} right."
    right = f"; the right answer is {check.correct_answer}" if check.correct_answer else ""
    return f"{said} wrong{right}."


def _diagnosis(findings: Sequence[DiagnosisFinding], hits: Sequence[Hit]) -> list[str]:
    """One line per bug rule: how it gives the answer, and the misconceptions it names (by
    their text where a hit holds it, else their id; the hit itself is a cited item below)."""
    named = {h.id: " ".join(h.text.split()) for h in hits if h.kind == "misconception"}
    by_rule: dict[str, tuple[DiagnosisFinding, list[str]]] = {}
    for f in findings:
        _, ids = by_rule.setdefault(f.rule, (f, []))
        if f.misconception_id not in ids:
            ids.append(f.misconception_id)
    lines = []
    for finding, ids in by_rule.values():
        names = "; ".join(named.get(i) or i for i in ids).rstrip(".")
        kind = "misconception that gives" if len(ids) == 1 else "misconceptions that give"
        explanation = " ".join(finding.explanation.split()).rstrip(".")
        lines.append(f"Diagnosis: {explanation}. The {kind} {finding.reproduced_answer}: {names}.")
    return lines


def known_lines(
    linked: Sequence[LinkedConcept],
    grade: GradeInfo,
    check: AnswerCheck | None,
    findings: Sequence[DiagnosisFinding],
    hits: Sequence[Hit],
    lead: str | None = None,
) -> list[Known]:
    """The lines stating what the packet knows, in order: topic (the slots' `lead` standard
    when it is linked, else the first linked), grade, answer check, diagnosis (`hits` name
    the diagnosed misconceptions); those it does not know are left out."""
    lines = [Known(t, 3, may_cut=True) for t in [_topic(linked, lead)] if t]
    lines += [Known(t, k) for t, k in [(_grade(grade), 2), (_answer_check(check), 0)] if t]
    return lines + [Known(t, 1) for t in _diagnosis(findings, hits)]

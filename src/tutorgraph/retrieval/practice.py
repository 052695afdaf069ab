"""The packet's generated practice (issue 62): a few problems for the exact skill, made when
the packet is built, with their answers and worked steps.

The skill is the standard the teach slot leads with (`retrieval/slots.py`: the linker's
probability, a reproduced misconception's standard, the child's grade and similarity weigh
it), else the packet's first linked Common Core standard, when a generator covers it
(`tutorgraph.problems.covers`) and its grade band is the request's (when the request gives
a grade). The problems share the structure of the
student's problem where the standard has it (`RequestFacts.problem`; a word problem's
calculation, `story`, asks for word problems) with new numbers, else they are the standard's
bare exercises; they are printed in a teacher's voice (`tutorgraph.problems.practice`). The
draw is seeded by sha256 of the request's text and the standard, so the same request gives
the same problems in any process. No model is called: four draws of the engine, about a
millisecond (p50; `research/scripts/practice_latency.py`), plus, once per process, the data
files' read and each standard's phrasings (a few milliseconds each).

Each problem is a `Hit` with `generated: true`, kind `exercise`, `found_by: ["generator"]`,
its `answer` and `steps`, no score (0) and rank 0 (it is not among the results); its id is
`generated:<standard code>:<sha256 of its text, 12 hex>`. A packet flagged `no_match` gets
none (the message is not the maths the standard was linked from).

>>> made = generated_practice(state, no_match=None)  # doctest: +SKIP
>>> made.hits[0].text, made.hits[0].answer  # doctest: +SKIP
('92 - 11 = ?', '81')
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

from tutorgraph.linking.linker import STRUCTURED as COMMON_CORE
from tutorgraph.problems import Problem, covers, practice
from tutorgraph.retrieval.state import RequestState
from tutorgraph_client.models.grade import band, standard_grade
from tutorgraph_client.models.packet import Hit

__all__ = ["GENERATED", "GeneratedPractice", "generated_hit", "generated_practice"]

# The id prefix of a generated problem (never an id of the index).
GENERATED = "generated:"


@dataclass(frozen=True)
class GeneratedPractice:
    """What the packet's generated practice is, and why there is none when there is none
    (the debug block's `practice`)."""

    hits: list[Hit] = field(default_factory=list)
    standard: str | None = None
    shape: str | None = None
    matched: int = 0
    reason: str | None = None

    def debug(self) -> dict[str, Any]:
        """The debug block's entry: the standard, the student's problem's shape, how many
        problems were made and how many share it, and why none (no time: the packet's
        bytes, timings aside, are the same for the same request)."""
        return {
            "standard": self.standard,
            "shape": self.shape,
            "generated": len(self.hits),
            "matched": self.matched,
            "reason": self.reason,
        }


def generated_hit(problem: Problem) -> Hit:
    """A generated problem as a practice hit (see the module's docstring)."""
    digest = hashlib.sha256(problem.text.encode()).hexdigest()[:12]
    id_ = f"{GENERATED}{problem.standard.removeprefix('ccss:')}:{digest}"
    return Hit(
        id=id_,
        ids=[id_],
        kind="exercise",
        title="",
        text=problem.text,
        concept_ids=[problem.standard],
        score=0.0,
        rank=0,
        found_by=["generator"],
        fused_score=0.0,
        generated=True,
        answer=problem.answer,
        steps=list(problem.steps),
    )


def _standard(state: RequestState) -> str | None:
    """The standard of the teach slot's first item that came through one, else the first
    linked (dev: practice on target 0.383 -> 0.443 typed, 0.650 -> 0.694 with the grade)."""
    lead = state.slots.lead_standard if state.slots is not None else None
    return lead or next((c.id for c in state.linked if c.taxonomy == COMMON_CORE), None)


def _refused(state: RequestState, standard: str | None, no_match: str | None) -> str | None:
    """Why the request gets no generated practice, or None."""
    if no_match is not None:
        return "the packet is flagged no_match"
    if standard is None:
        return "no Common Core standard is linked"
    if not covers(standard):
        return f"no generator covers {standard}"
    asked, grade = state.request.grade, standard_grade(standard)
    if asked is not None and (grade is None or band(grade) != band(asked)):
        return f"{standard} is outside the request's grade band ({band(asked)})"
    return None


def generated_practice(state: RequestState, no_match: str | None) -> GeneratedPractice:
    """The packet's generated practice for a request whose stages have all run, given its
    `no_match_reason` (see the module's docstring)."""
    standard = _standard(state)
    reason = _refused(state, standard, no_match)
    if reason is not None or standard is None:
        return GeneratedPractice(standard=standard, reason=reason)
    facts = state.facts
    made = practice(
        standard,
        key=facts.link_text or state.request.query,
        like=facts.problem,
        story=facts.story is not None,
    )
    return GeneratedPractice(
        hits=[generated_hit(p) for p in made.problems],
        standard=standard,
        shape=made.shape,
        matched=made.matched,
        reason=None if made.problems else f"the generators of {standard} made no problem",
    )

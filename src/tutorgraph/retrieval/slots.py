"""Filling a packet's slots (issue 62): teach, practice and misconceptions held together by
the standards the message is linked to.

Each slot ranks one list of candidates (`slot_sources.Candidate`): the linked standards'
content first in line (their own records, then through `aligned_with`), then the message's
nearest content (the lessons search's lessons, the search's exercises, questions and
misconceptions), by one score (`slot_score`), each standard's content at most
`TEACH_PER_STANDARD` / `PRACTICE_PER_STANDARD` times, so that a slot covers the likely
standards rather than four items of the first guess. An item says where it came from
(`via`), its standard and its grade.

**The child's level.** The request's grade, else the inferred band, is the child's range
(`content_level.child_range`); content above it is demoted by the score, further above
more. A K-2 child gets no negative numbers, algebra or coordinate graphs while anything
else exists; when nothing else does the slot holds them and its `note` says so.

**Misconceptions.** With a stated answer, the misconceptions the bug rules reproduce it
with come first (`role: reproduces_answer`, the diagnosis's measured precision as their
confidence); the others follow only when their own calibrated probability reaches `LIKELY`
(`role: possible`, `slot_score.misconception_confidence`). Without one, the slot holds the
most likely standard's own common errors (its own and its constructs', `role:
topic_error`) when the linker gives that standard at least `STANDARD_CONFIDENCE`, and
nothing otherwise.

>>> picks = fill_slots(content, inputs)  # doctest: +SKIP
>>> picks.teach.hits[0].via  # doctest: +SKIP
'standard'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final

from tutorgraph.retrieval.concepts import PRACTICE_KINDS
from tutorgraph.retrieval.content_level import (
    EARLY_BAND,
    beyond_early_grades,
    grade_of_level,
    item_level,
)
from tutorgraph.retrieval.slot_score import (
    DIAGNOSED_CONFIDENCE,
    LIKELY,
    STANDARD_CONFIDENCE,
    TEACH_WEIGHTS,
    SlotFeatures,
    SlotWeights,
    grade_gap,
    misconception_confidence,
    slot_score,
)
from tutorgraph.retrieval.slot_sources import Candidate, StandardContent
from tutorgraph.stores.lessons import LESSON_KINDS
from tutorgraph.stores.protocols import IndexItem
from tutorgraph_client.models.packet import Hit, SlotHit

__all__ = [
    "FALLBACK_LESSONS",
    "MISCONCEPTION_SLOTS",
    "PRACTICE_PER_STANDARD",
    "PRACTICE_SLOTS",
    "TEACH_PER_STANDARD",
    "SlotInputs",
    "SlotPick",
    "SlotPicks",
    "fill_slots",
    "message_candidates",
]

# The message's nearest lessons the teach slot falls back on (at least: more when the request
# asks for more lessons), the same whatever the slot's size.
FALLBACK_LESSONS: Final = 10
# Items of one standard in the teach slot: 1 / 2 / 3 gave dev teach@10 0.765 / 0.727 / 0.683
# typed and 0.902 / 0.885 / 0.874 with the grade (`results/slot_weights.json`, the slot and the
# first ten results): the slot covers four likely standards rather than one.
TEACH_PER_STANDARD: Final = 1
# The practice slot: a few items, most of one standard (no labelled data tunes it).
PRACTICE_SLOTS: Final = 5
PRACTICE_PER_STANDARD: Final = 3
# A standard's common errors shown for a message that states no answer, and the most
# misconceptions shown for a stated answer.
MISCONCEPTION_SLOTS: Final = 3
STATED_SLOTS: Final = 5
# The misconceptions a stated answer's slot weighs beside the reproduced ones: the first ten
# of the rest, in the results' order (`slot_score.MISCONCEPTION_COEFFICIENTS` were fitted on
# them).
STATED_CANDIDATES: Final = 10


@dataclass(frozen=True)
class SlotPick:
    """One slot's hits, best first, and what the packet says about it."""

    hits: list[SlotHit] = field(default_factory=list)
    note: str | None = None
    empty_reason: str | None = None


@dataclass(frozen=True)
class SlotPicks:
    """The three slots, and the teach slot's hits as the packet's `lessons` (plain hits
    whose `score` is their cosine with the query, as the context and the scope read them)."""

    teach: SlotPick
    practice: SlotPick
    misconceptions: SlotPick
    stated_answer: bool
    lessons: list[Hit] = field(default_factory=list)

    @property
    def lead_standard(self) -> str | None:
        """The standard the teach slot leads with (its first item that came through one):
        the packet's topic, which its generated practice and its context name too."""
        taught = (h.standard for h in self.teach.hits if h.via == "standard")
        return next((s for s in taught if s is not None), None)


@dataclass(frozen=True)
class SlotInputs:
    """What the request gives the slots besides the standards' content: the message's own
    candidates, each candidate's cosine with the query, the child's grade range, whether an
    answer was stated and which misconceptions the bug rules reproduced it with."""

    lessons: Sequence[Hit]
    hits: Sequence[Hit]
    similarities: Mapping[str, float]
    child: tuple[int, int] | None
    teach_slots: int
    # Why the teach slot is empty when the request wants none (`teach_slots` 0).
    teach_empty: str | None = None
    stated: bool = False
    findings: Sequence[str] = ()
    weights: SlotWeights = TEACH_WEIGHTS


def message_candidates(hits: Sequence[Hit], content: StandardContent) -> list[Candidate]:
    """The message's own hits as candidates (`via: message`), each with the linked standard
    it belongs to, where one does, and its grade."""
    out = []
    for hit in hits:
        standard, probability, own = content.standard_of(hit.concept_ids)
        item = IndexItem(hit.id, hit.kind, hit.title, hit.text, tuple(hit.concept_ids))
        level = item_level(hit.concept_ids, content.levels)
        out.append(Candidate(item, "message", standard, probability, level, own, hit))
    return out


def fill_slots(content: StandardContent, inputs: SlotInputs) -> SlotPicks:
    """The three slots of a request (see the module's docstring)."""
    early = inputs.child is not None and inputs.child[1] <= EARLY_BAND[1]
    teach_pool = [c for c in content.documents if c.item.kind in LESSON_KINDS]
    teach_pool += message_candidates(inputs.lessons, content)
    if inputs.teach_slots > 0:
        teach = _choose(
            teach_pool,
            inputs,
            inputs.teach_slots,
            TEACH_PER_STANDARD,
            early,
            empty="no explanation or worked example of the linked standards or near the message",
        )
    else:
        teach = SlotPick(
            empty_reason=inputs.teach_empty or "the request asked for no lessons (lessons = 0)"
        )
    practice_pool = [c for c in content.documents if c.item.kind in PRACTICE_KINDS]
    practice_pool += message_candidates(
        [h for h in inputs.hits if h.kind in PRACTICE_KINDS], content
    )
    practice = _choose(
        practice_pool,
        inputs,
        PRACTICE_SLOTS,
        PRACTICE_PER_STANDARD,
        early,
        empty="no exercise or question of the linked standards or among the message's candidates",
    )
    if inputs.stated:
        misconceptions = _stated(content, inputs, early)
    else:
        misconceptions = _topic_errors(content, inputs, early)
    lessons = [_lesson(h, inputs, rank) for rank, h in enumerate(teach.hits, start=1)]
    return SlotPicks(teach, practice, misconceptions, inputs.stated, lessons)


def _features(c: Candidate, inputs: SlotInputs) -> SlotFeatures:
    above, below = grade_gap(c.level, inputs.child)
    return SlotFeatures(
        probability=c.probability,
        similarity=_similarity(c, inputs),
        above=above,
        below=below,
        kind=c.item.kind,
        own=c.own,
        via=c.via,
    )


def _similarity(c: Candidate, inputs: SlotInputs) -> float:
    """Its cosine with the query: the stored vector's, else the dense search's."""
    found = inputs.similarities.get(c.item.id)
    if found is not None:
        return found
    if c.hit is not None:
        return c.hit.source_scores.get("vector", 0.0)
    return 0.0


def _choose(
    pool: Sequence[Candidate],
    inputs: SlotInputs,
    k: int,
    per_standard: int | None,
    early: bool,
    *,
    empty: str,
    role: str | None = None,
) -> SlotPick:
    """The `k` best of `pool` by the slot score (each id once, the first candidate of an id
    kept: the standards' before the message's), at most `per_standard` of one standard."""
    scored: dict[str, tuple[float, Candidate]] = {}
    for c in pool:
        if c.item.id not in scored:
            scored[c.item.id] = (slot_score(_features(c, inputs), inputs.weights), c)
    ranked = sorted(scored.values(), key=lambda sc: (-sc[0], sc[1].item.id))
    chosen = _take(ranked, k, per_standard, early)
    note = None
    if early and not chosen and ranked:
        # Nothing at a K-2 level: what there is, saying what it uses.
        chosen = _take(ranked, k, per_standard, early=False)
        uses = sorted({b for _, c in chosen if (b := beyond_early_grades(_text(c.item)))})
        note = f"nothing at a K-2 level: these use {', '.join(uses)}"
    hits = [_slot_hit(c, score, role=role) for score, c in chosen]
    return SlotPick(hits, note if hits else None, None if hits else empty)


def _take(
    ranked: Sequence[tuple[float, Candidate]], k: int, per_standard: int | None, early: bool
) -> list[tuple[float, Candidate]]:
    """The first `k` of `ranked`, at most `per_standard` of one standard, none beyond the
    early grades when `early` (read only as far as the slot goes)."""
    chosen: list[tuple[float, Candidate]] = []
    taken: dict[str, int] = {}
    for score, c in ranked:
        if len(chosen) >= k:
            break
        key = (c.standard if c.via == "standard" else None) or c.item.id
        if per_standard is not None and taken.get(key, 0) >= per_standard:
            continue
        if early and beyond_early_grades(_text(c.item)) is not None:
            continue
        taken[key] = taken.get(key, 0) + 1
        chosen.append((score, c))
    return chosen


def _text(item: IndexItem) -> str:
    return f"{item.title}. {item.text}" if item.title else item.text


def _slot_hit(
    c: Candidate,
    score: float,
    *,
    role: str | None = None,
    confidence: float | None = None,
) -> SlotHit:
    fields: dict[str, object] = {
        "via": c.via,
        "standard": c.standard,
        "grade": grade_of_level(c.level),
        "score": score,
        "role": role,
        "confidence": confidence,
    }
    if c.hit is not None:
        return SlotHit.of(c.hit, **fields)
    item = c.item
    return SlotHit(
        id=item.id,
        ids=[item.id],
        kind=item.kind,
        title=item.title,
        text=item.text,
        concept_ids=list(item.concept_ids),
        rank=0,
        found_by=["graph"],
        fused_score=0.0,
        **fields,
    )


def _lesson(hit: SlotHit, inputs: SlotInputs, rank: int) -> Hit:
    """A teach slot's hit as a packet lesson: its cosine with the query as its score."""
    cosine = inputs.similarities.get(hit.id, hit.source_scores.get("vector", 0.0))
    plain = Hit.model_validate(hit.model_dump(include=set(Hit.model_fields)))
    return plain.model_copy(update={"score": cosine, "rank": rank})


def _stated(content: StandardContent, inputs: SlotInputs, early: bool) -> SlotPick:
    """A stated answer's misconceptions: those the bug rules reproduce it with, then those
    likely on their own calibrated probability."""
    by_id = {h.id: h for h in inputs.hits if h.kind == "misconception"}
    out: list[SlotHit] = []
    for mid in dict.fromkeys(inputs.findings):
        hit = by_id.get(mid)
        if hit is not None:
            c = message_candidates([hit], content)[0]
            out.append(
                _slot_hit(
                    c,
                    DIAGNOSED_CONFIDENCE,
                    role="reproduces_answer",
                    confidence=DIAGNOSED_CONFIDENCE,
                )
            )
    shown = {h.id for h in out}
    # The first of the others in the results' order: those the probability was fitted on.
    others = [h for h in by_id.values() if h.id not in shown][:STATED_CANDIDATES]
    likely: list[tuple[float, Candidate]] = []
    for c in message_candidates(others, content):
        p = misconception_confidence(
            c.hit.learned_score if c.hit else None,
            diagnosed_other=bool(out),
            owned=content.owned(c.item.concept_ids),
        )
        if p >= LIKELY and not (early and beyond_early_grades(_text(c.item))):
            likely.append((p, c))
    likely.sort(key=lambda pc: (-pc[0], pc[1].item.id))
    for p, c in likely[: max(0, STATED_SLOTS - len(out))]:
        out.append(_slot_hit(c, p, role="possible", confidence=p))
    if out:
        return SlotPick(out)
    return SlotPick(
        empty_reason="no misconception reproduces the stated answer, and none is likely "
        f"on its own (calibrated probability {LIKELY} or more)"
    )


def _topic_errors(content: StandardContent, inputs: SlotInputs, early: bool) -> SlotPick:
    """No answer stated: the most likely standard's own common errors, when the linker is
    sure enough of it; else nothing."""
    first = content.standards[0] if content.standards else None
    if first is None or first.probability < STANDARD_CONFIDENCE:
        best = f" (the most likely, {_code(first.id)}, at {first.probability:.2f})" if first else ""
        return SlotPick(
            empty_reason="no answer stated, and no standard is linked with probability "
            f"{STANDARD_CONFIDENCE} or more{best}: its common errors would be a guess"
        )
    pool = [c for c in content.misconceptions if c.standard == first.id]
    return _choose(
        pool,
        inputs,
        MISCONCEPTION_SLOTS,
        None,
        early,
        empty=f"no answer stated, and {_code(first.id)} has no common errors recorded",
        role="topic_error",
    )


def _code(standard: str) -> str:
    """A standard as a person reads it in a reason (its code, `2.NBT.B.5`)."""
    return standard.removeprefix("ccss:")

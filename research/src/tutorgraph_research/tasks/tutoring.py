"""The whole-packet benchmark (issue 47, item 6): does a packet carry what a tutor needs?

Each message of `data/benchmarks/packet_messages.jsonl` (`tasks/packet_messages.py`) is
retrieved as an app sends it, and its packet is judged against the set's labels, which
were made by reading the curriculum, never the product's output. The parts, each 1.0 or
0.0 per message, and only where they apply:

- ``standard@1`` / ``standard@3``: an accepted standard is the packet's first `ccss:`
  concept / among its first three (math messages);
- ``teach@10``: an explanation or worked example of an accepted section, or one aligned by id
  to an accepted standard (issue 61's own lessons), is in the top 10 results or the
  prompt-ready context (math messages); what the packet carries elsewhere (its `lessons`)
  counts once it reaches the context, since an app's model reads the context;
- ``teach_band@10``: an explanation or worked example written for the message's grade band
  (K-2, 3-5, 6-8, HS: the band of a standard it is aligned to by id) is there (math messages
  with a grade);
- ``misconception@10``: an accepted misconception is in the top 10 results or the context
  (stated errors);
- ``balanced``: the top 10 or the context carry teaching (any explanation or worked
  example), plus a misconception for a stated error (math messages);
- ``flagged``: the packet says it found no match (`no_match`, or `off_topic`, when the
  packet has such a field; every message, so that the flag's precision and recall on math
  messages come out of the same rows);
- ``packet``: the mean of the parts that apply (for an off-topic message, ``flagged``
  alone; for a math message, ``standard@3``, ``teach@10``, ``misconception@10`` and
  ``balanced`` where they apply, and not being flagged).

Reported beside them, never in the packet score:

- ``reader_none``: a message that states no answer, read with no student answer (the
  reader's precision); ``reader_read``: one that states an answer, read with one (recall);
- ``teach_empty``: the packet's teach slot is empty (math messages; `empty_by_grade`);
- ``teach_slot_band``: the share of the teach slot's items written for the message's grade
  band (aligned by id to a standard of that band, as ``teach_band@10`` reads it; math
  messages with a grade and a non-empty slot; `teach_by_band` gives it per band and for
  K-5);
- ``practice_on_target``: the practice slot's first item is on target, i.e. aligned by id to
  an accepted standard, generated for one, or given by the slot as the content of one
  (`SlotHit.standard`, through the judged `aligned_with` edges); an empty slot is 0.0;
  ``practice_share``: the share of the slot's items on target (math messages with
  accepted standards);
- ``context_answer``: a message that states an answer, whose packet read one: the context
  holds the answer check (``Answer check:``); ``context_diagnosis``: a packet whose bug
  rules reproduced the answer: the context holds the diagnosis (``Diagnosis:``);
  ``context_no_match``: a flagged packet: the context holds no content (no ``[id]`` line);
- ``misconception_own``: a message that states no answer, whose misconceptions slot holds
  only the accepted standards' own misconceptions (each standard's and those of the
  constructs aligned with it, `retrieval.concepts.concept_misconceptions`), or none: 1.0,
  else 0.0 (math messages, when the runner is given the graph);
- `reliability`: the packet's `confidence` (that its first Common Core concept is right)
  in bins, against how often it was right (off-topic messages count as wrong).

`summarise` gives each part's mean with a 95% bootstrap interval per kind and overall, and
`paired` the difference of two runs over the same messages.

>>> score_packet(message, packet).parts["standard@1"]  # doctest: +SKIP
1.0
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from tutorgraph.retrieval.concepts import concept_misconceptions
from tutorgraph.retrieval.retriever import HybridRetriever
from tutorgraph.stores.protocols import GraphStore
from tutorgraph_client.models.grade import band, standard_grade
from tutorgraph_client.models.packet import Hit, ReasoningPacket
from tutorgraph_client.models.request import RetrievalRequest
from tutorgraph_research.harness.results import mean_cell
from tutorgraph_research.harness.results import paired_parts as paired
from tutorgraph_research.tasks.packet_messages import GRADES, OFF_TOPIC, PacketMessage

__all__ = [
    "PARTS",
    "MessageScore",
    "paired",
    "reliability",
    "request_for",
    "run_tutoring_benchmark",
    "score_packet",
    "summarise",
]

PARTS = (
    "standard@1",
    "standard@3",
    "teach@10",
    "teach_band@10",
    "misconception@10",
    "balanced",
    "flagged",
    "packet",
    "reader_none",
    "reader_read",
    "teach_empty",
    "teach_slot_band",
    "practice_on_target",
    "practice_share",
    "context_answer",
    "context_diagnosis",
    "context_no_match",
    "misconception_own",
)
TEACHING = frozenset({"explanation", "worked_example"})
TOP = 10
RELIABILITY_BINS = 5
_CONTEXT_ID = re.compile(r"^\[([^\]\s]+)\]", re.MULTILINE)


@dataclass(frozen=True)
class MessageScore:
    """One message's parts (only those that apply to it)."""

    id: str
    kind: str
    split: str
    grade: str | None
    parts: dict[str, float]
    # The packet's calibrated confidence that its first Common Core concept is right.
    confidence: float | None = None


def request_for(
    message: PacketMessage, *, fields: bool = False, grade: bool = False
) -> RetrievalRequest:
    """The request an app sends: the message as typed or, with `fields`, its problem and
    stated answer in the request's own fields (where the set gives them); with `grade`, the
    message's grade too (an app that knows its student's)."""
    known = {"grade": message.grade} if grade and message.grade is not None else {}
    if fields and message.problem is not None:
        return RetrievalRequest(
            query=message.text,
            problem=message.problem,
            student_answer=message.student_answer,
            **known,
        )
    return RetrievalRequest(query=message.text, **known)


def _flagged(packet: ReasoningPacket) -> bool:
    return any(bool(getattr(packet, name, False)) for name in ("no_match", "off_topic"))


def _bands(concept_ids: Sequence[str]) -> set[str]:
    """The grade bands of the standards an item is aligned to by id."""
    return {band(g) for g in map(standard_grade, concept_ids) if g is not None}


def _on_target(hit: Hit, standards: Collection[str]) -> bool:
    """Aligned by id to one of `standards`, generated for one, or in the slot as one's."""
    through = getattr(hit, "standard", None)
    return bool(set(standards).intersection([*hit.concept_ids, *([through] if through else [])]))


def score_packet(
    message: PacketMessage, packet: ReasoningPacket, own: Collection[str] | None = None
) -> MessageScore:
    """The parts of `message`'s packet that apply to it (see the module's docstring); `own`:
    the accepted standards' own misconceptions (None: `misconception_own` is not judged)."""
    flagged = 1.0 if _flagged(packet) else 0.0
    parts: dict[str, float] = {"flagged": flagged}
    read = packet.answer_check is not None and packet.answer_check.student_answer is not None
    if message.stated_answer is None:
        parts["reader_none"] = float(not read)
    else:
        parts["reader_read"] = float(read)
    confidence = getattr(packet, "confidence", None)
    if message.stated_answer is not None and read:
        parts["context_answer"] = float("Answer check:" in packet.context)
    if packet.diagnosis:
        parts["context_diagnosis"] = float("Diagnosis:" in packet.context)
    if flagged:
        parts["context_no_match"] = float(not _CONTEXT_ID.search(packet.context))
    if message.kind == OFF_TOPIC:
        parts["packet"] = flagged
        return MessageScore(
            message.id, message.kind, message.split, message.grade, parts, confidence
        )
    slots = getattr(packet, "slots", None)
    if slots is not None:
        parts["teach_empty"] = float(not slots.teach.hits)
        if message.grade is not None and slots.teach.hits:
            child_band = band(message.grade)
            written = [child_band in _bands(h.concept_ids) for h in slots.teach.hits]
            parts["teach_slot_band"] = float(np.mean(written))
        if message.standards:
            on_target = [_on_target(h, message.standards) for h in slots.practice.hits]
            parts["practice_on_target"] = float(bool(on_target) and on_target[0])
            if on_target:
                parts["practice_share"] = float(np.mean(on_target))
        if own is not None and message.stated_answer is None:
            parts["misconception_own"] = float(
                all(set(h.ids) & set(own) for h in slots.misconceptions.hits)
            )
    in_context = set(_CONTEXT_ID.findall(packet.context))
    top = packet.results[:TOP]
    shown = top + [h for h in [*packet.results[TOP:], *packet.lessons] if h.id in in_context]
    ccss = [c.id for c in packet.concepts if c.id.startswith("ccss:")]
    accepted = set(message.standards)
    parts["standard@1"] = float(bool(ccss[:1]) and ccss[0] in accepted)
    parts["standard@3"] = float(bool(accepted.intersection(ccss[:3])))
    teaching = [h for h in shown if h.kind in TEACHING]
    if message.sections or accepted:
        sections = set(message.sections)
        parts["teach@10"] = float(
            any(h.title in sections or accepted.intersection(h.concept_ids) for h in teaching)
        )
    if message.grade is not None:
        wanted_band = band(message.grade)
        parts["teach_band@10"] = float(any(wanted_band in _bands(h.concept_ids) for h in teaching))
    has_misconception = any(h.kind == "misconception" for h in shown)
    if message.misconceptions:
        wanted = set(message.misconceptions)
        parts["misconception@10"] = float(
            any(h.kind == "misconception" and wanted.intersection(h.ids) for h in shown)
        )
    stated = message.kind == "stated_error"
    parts["balanced"] = float(bool(teaching) and (has_misconception or not stated))
    judged = [
        parts[p] for p in ("standard@3", "teach@10", "misconception@10", "balanced") if p in parts
    ]
    parts["packet"] = float(np.mean([*judged, 1.0 - flagged]))
    return MessageScore(message.id, message.kind, message.split, message.grade, parts, confidence)


async def run_tutoring_benchmark(
    retriever: HybridRetriever,
    messages: Sequence[PacketMessage],
    *,
    fields: bool = False,
    grade: bool = False,
    graph: GraphStore | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[list[MessageScore], dict[str, ReasoningPacket]]:
    """Score every message's packet (one at a time, as a tutor's app would send them); with
    `graph`, the accepted standards' own misconceptions are read from it
    (`misconception_own`)."""
    scores: list[MessageScore] = []
    packets: dict[str, ReasoningPacket] = {}
    owned: dict[str, set[str]] = {}
    for done, message in enumerate(messages, start=1):
        packet = await retriever.retrieve(request_for(message, fields=fields, grade=grade))
        packets[message.id] = packet
        own: set[str] | None = None
        if graph is not None:
            own = set()
            for standard in message.standards:
                if standard not in owned:
                    found = await concept_misconceptions(graph, standard)
                    owned[standard] = {f.misconception.id for f in found}
                own |= owned[standard]
        scores.append(score_packet(message, packet, own))
        if progress is not None:
            progress(done, len(messages))
    return scores, packets


def summarise(scores: Sequence[MessageScore]) -> dict[str, dict[str, Any]]:
    """Per group ("all", "math", each kind) and part: mean, 95% interval and n; plus the
    flag's precision and recall for off-topic messages (with the counts behind them)."""
    groups: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for s in scores:
        names = ["all", s.kind] + ([] if s.kind == OFF_TOPIC else ["math"])
        for part, value in s.parts.items():
            for name in names:
                groups[name][part].append(value)
    out: dict[str, dict[str, Any]] = {
        name: {part: mean_cell(vals) for part, vals in parts.items()}
        for name, parts in sorted(groups.items())
    }
    flagged_off = sum(s.parts["flagged"] for s in scores if s.kind == OFF_TOPIC)
    flagged_math = sum(s.parts["flagged"] for s in scores if s.kind != OFF_TOPIC)
    off = sum(s.kind == OFF_TOPIC for s in scores)
    flagged = flagged_off + flagged_math
    out["off_topic_flag"] = {
        "precision": round(flagged_off / flagged, 4) if flagged else None,
        "recall": round(flagged_off / off, 4) if off else None,
        "flagged_off_topic": int(flagged_off),
        "flagged_math": int(flagged_math),
        "math_messages": len(scores) - off,
    }
    by_grade: dict[str, list[float]] = defaultdict(list)
    for s in scores:
        if "teach_empty" in s.parts and s.grade is not None:
            by_grade[s.grade].append(s.parts["teach_empty"])
    out["empty_by_grade"] = {
        g: {"teach_empty": round(float(np.mean(v)), 4), "n": len(v)}
        for g, v in sorted(by_grade.items(), key=lambda kv: GRADES.index(kv[0]))
    }
    by_band: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for s in scores:
        if s.grade is not None:
            names = [band(s.grade)] + (["K-5"] if band(s.grade) in ("K-2", "3-5") else [])
            for part in ("teach@10", "teach_band@10", "teach_slot_band"):
                if part in s.parts:
                    for name in names:
                        by_band[name][part].append(s.parts[part])
    out["teach_by_band"] = {
        b: {part: mean_cell(vals) for part, vals in parts.items()}
        for b, parts in sorted(by_band.items())
    }
    out["reliability"] = reliability(scores)
    return out


def reliability(scores: Sequence[MessageScore], bins: int = RELIABILITY_BINS) -> dict[str, Any]:
    """The packet's `confidence` against its first concept being right, in equal-width bins
    (an off-topic message's first concept is never right), and the expected calibration
    error (the bins' gaps weighted by their counts).

    >>> reliability([])["ece"] is None
    True
    """
    pairs = [
        (s.confidence, s.parts.get("standard@1", 0.0)) for s in scores if s.confidence is not None
    ]
    rows: list[dict[str, Any]] = []
    gap = 0.0
    for b in range(bins):
        lo, hi = b / bins, (b + 1) / bins
        inside = [(c, y) for c, y in pairs if lo <= c < hi or (b == bins - 1 and c == 1.0)]
        if inside:
            predicted = float(np.mean([c for c, _ in inside]))
            observed = float(np.mean([y for _, y in inside]))
            gap += len(inside) * abs(predicted - observed)
            rows.append(
                {
                    "bin": [lo, hi],
                    "n": len(inside),
                    "predicted": round(predicted, 4),
                    "observed": round(observed, 4),
                }
            )
    ece = round(gap / len(pairs), 4) if pairs else None
    return {"bins": rows, "ece": ece, "n": len(pairs)}

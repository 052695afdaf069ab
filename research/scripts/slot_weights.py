"""Tune the slots' score (`tutorgraph.retrieval.slot_score`) on `bench tutoring`'s
development messages only (issue 62); the held-out third is never read.

    python research/scripts/slot_weights.py --index-dir IDX [--out results/slot_weights.json]

IDX is an index of the shipped bundle. Each development message is retrieved twice, as
typed and with its grade (`request_for(..., grade=True)`), up to the lessons stage; the
script keeps what the slots are filled from (the standards' content, the message's own
candidates, the similarities) and then:

1. the softmax temperature of the linker's probabilities: the mean log-probability of the
   accepted standards over the messages whose accepted standard is among the linked ten,
   for each temperature of `TEMPERATURES` (the shipped one is the best);
2. the weights and the per-standard cap of the teach slot: coordinate ascent over
   `GRID`, from the shipped weights, of teach@10 + 0.3 x the K-5 share of the teach slot
   written for the message's band, summed over the two ways of asking, where teach@10 is
   read as the bench reads it, from the slot's lessons (which the context carries) or
   the first ten results;
3. the threshold of a standard's own misconceptions for a message that states no answer:
   for each of `THRESHOLDS`, the share of messages whose slot holds only the accepted
   standards' own (`misconception_own`) and the share with a filled slot.

Prints and writes the tables. Takes about three minutes on two cores.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tutorgraph.config import Settings
from tutorgraph.index.service import open_retriever
from tutorgraph.retrieval import slots as slot_module
from tutorgraph.retrieval.concepts import concept_misconceptions
from tutorgraph.retrieval.content_level import child_range
from tutorgraph.retrieval.pipeline import run_stages
from tutorgraph.retrieval.slot_score import TEACH_WEIGHTS, TEMPERATURE, SlotWeights
from tutorgraph.retrieval.slot_sources import StandardContent, standard_content
from tutorgraph.retrieval.slots import FALLBACK_LESSONS, SlotInputs, fill_slots
from tutorgraph.retrieval.state import RequestState
from tutorgraph_client.models.grade import band, standard_grade
from tutorgraph_research.tasks.packet_messages import OFF_TOPIC, PacketMessage
from tutorgraph_research.tasks.packet_messages import load_packet_messages as load
from tutorgraph_research.tasks.tutoring import request_for

ROOT = Path(__file__).resolve().parents[2]
TEMPERATURES = (0.03, 0.04, 0.05, 0.06, 0.07, 0.08, 0.1)
THRESHOLDS = (0.3, 0.4, 0.5, 0.6, 0.7, 0.8)
GRID: dict[str, Sequence[float]] = {
    "probability": (0.25, 0.5, 1.0, 2.0),
    "similarity": (0.0, 0.1, 0.3, 0.5, 1.0),
    "above": (0.0, 0.02, 0.05, 0.1, 0.2),
    "below": (0.0, 0.05, 0.1, 0.2),
    "explanation": (0.0, 0.05, 0.1, 0.2),
    "own": (0.0, 0.1, 0.2, 0.4),
    "standard": (0.0, 0.1, 0.2, 0.4),
}
CAPS = (1, 2, 3)
TEACHING = frozenset({"explanation", "worked_example"})


@dataclasses.dataclass
class Case:
    message: PacketMessage
    content: StandardContent
    inputs: SlotInputs
    results_teach: bool
    # The linker's Common Core standards and scores, best first.
    linked: list[tuple[str, float]]


async def cases(index_dir: Path, grade: bool) -> list[Case]:
    opened = open_retriever(Settings(index_dir=index_dir))
    out: list[Case] = []
    try:
        retriever = opened.retriever
        before = [s for s in retriever.stages if s.name not in ("lessons", "scope", "finish")]
        messages = load(ROOT / "data/benchmarks/packet_messages.jsonl")
        for m in messages:
            if m.split != "dev" or m.kind == OFF_TOPIC:
                continue
            state = await run_stages(before, RequestState(request_for(m, grade=grade)))
            lessons = next(s for s in retriever.stages if s.name == "lessons")
            await lessons._nearest(state, FALLBACK_LESSONS)  # type: ignore[attr-defined]
            content, inputs = await _inputs(state, opened)
            accepted, sections = set(m.standards), set(m.sections)
            top = state.hits[:10]
            results_teach = any(
                h.kind in TEACHING and (h.title in sections or accepted & set(h.concept_ids))
                for h in top
            )
            core = [
                (c.id, float(c.score))
                for c in state.linked
                if c.taxonomy == "common-core" and c.score is not None
            ]
            out.append(Case(m, content, inputs, results_teach, core))
    finally:
        await opened.aclose()
    return out


async def _inputs(state: RequestState, opened: Any) -> tuple[StandardContent, SlotInputs]:
    """What `request_slots` fills the slots from (its own steps, kept)."""
    from tutorgraph.retrieval.slot_sources import weighted_standards
    from tutorgraph.stores.protocols import IndexItem

    vector = await state.query_embedding()
    standards = weighted_standards(state.linked)
    message = [
        IndexItem(h.id, h.kind, h.title, h.text, tuple(h.concept_ids))
        for h in (*state.lessons, *state.hits)
    ]
    content = await standard_content(
        opened.index.graph, standards, findings=[], message_items=message, misconceptions="first"
    )
    ids = [c.item.id for c in (*content.documents, *content.misconceptions)]
    ids += [it.id for it in message]
    similarities = opened.index.item_vectors.similarities(vector, ids)
    grade = state.grade_info
    inputs = SlotInputs(
        lessons=state.lessons,
        hits=state.hits,
        similarities=similarities,
        child=child_range(state.request.grade, grade.band if grade.source else None),
        teach_slots=4,
    )
    return content, inputs


def teach_objective(
    all_cases: Sequence[Sequence[Case]], weights: SlotWeights, cap: int
) -> list[float]:
    slot_module.TEACH_PER_STANDARD = cap  # type: ignore[misc]
    out = []
    for group in all_cases:
        teach, shares = [], []
        for c in group:
            picks = fill_slots(c.content, dataclasses.replace(c.inputs, weights=weights))
            accepted, sections = set(c.message.standards), set(c.message.sections)
            hits = picks.teach.hits
            teach.append(
                c.results_teach
                or any(h.title in sections or accepted & set(h.concept_ids) for h in hits)
            )
            wanted = band(c.message.grade or "K")
            if hits and c.message.grade is not None and wanted in ("K-2", "3-5"):
                written = [
                    any(band(g) == wanted for g in map(standard_grade, h.concept_ids) if g)
                    for h in hits
                ]
                shares.append(sum(written) / len(written))
        out += [sum(teach) / len(teach), sum(shares) / max(len(shares), 1)]
    return out


def temperature_table(all_cases: Sequence[Case]) -> dict[str, float]:
    table = {}
    for tau in TEMPERATURES:
        logs = []
        for c in all_cases:
            ids = [i for i, _ in c.linked]
            if not ids or not set(c.message.standards) & set(ids):
                continue
            top = max(s for _, s in c.linked)
            weights = [math.exp((s - top) / tau) for _, s in c.linked]
            mass = sum(w for i, w in zip(ids, weights, strict=True) if i in c.message.standards)
            logs.append(math.log(mass / sum(weights)))
        table[str(tau)] = round(sum(logs) / len(logs), 4)
    return table


async def threshold_table(all_cases: Sequence[Case], graph: Any) -> dict[str, dict[str, float]]:
    owned: dict[str, set[str]] = {}
    out = {}
    for threshold in THRESHOLDS:
        own, filled, n = 0, 0, 0
        for c in all_cases:
            if c.message.stated_answer is not None:
                continue
            n += 1
            first = c.content.standards[0] if c.content.standards else None
            if first is None or first.probability < threshold:
                own += 1
                continue
            filled += 1
            accepted: set[str] = set()
            for s in c.message.standards:
                if s not in owned:
                    owned[s] = {m.misconception.id for m in await concept_misconceptions(graph, s)}
                accepted |= owned[s]
            if first.id not in owned:
                owned[first.id] = {
                    m.misconception.id for m in await concept_misconceptions(graph, first.id)
                }
            own += owned[first.id] <= accepted or not owned[first.id]
        out[str(threshold)] = {"own": round(own / n, 4), "filled": round(filled / n, 4), "n": n}
    return out


async def main(index_dir: Path) -> dict[str, Any]:
    typed, graded = await cases(index_dir, False), await cases(index_dir, True)
    report: dict[str, Any] = {"temperature": temperature_table([*typed, *graded])}
    weights, cap = TEACH_WEIGHTS, slot_module.TEACH_PER_STANDARD

    def value(w: SlotWeights, k: int) -> float:
        t1, b1, t2, b2 = teach_objective([typed, graded], w, k)
        return t1 + t2 + 0.3 * (b1 + b2)

    best = value(weights, cap)
    parts = teach_objective([typed, graded], weights, cap)
    report["shipped"] = {"objective": round(best, 4), "parts": parts}
    report["per_standard, shipped weights"] = {
        str(k): teach_objective([typed, graded], weights, k) for k in CAPS
    }
    for _ in range(2):
        for name, values in GRID.items():
            for v in values:
                trial = dataclasses.replace(weights, **{name: v})
                if (got := value(trial, cap)) > best + 1e-9:
                    best, weights = got, trial
        for k in CAPS:
            if (got := value(weights, k)) > best + 1e-9:
                best, cap = got, k
    report["tuned"] = {
        "objective": round(best, 4),
        "weights": dataclasses.asdict(weights),
        "per_standard": cap,
        "parts (typed teach, typed K-5 share, graded teach, graded K-5 share)": teach_objective(
            [typed, graded], weights, cap
        ),
    }
    opened = open_retriever(Settings(index_dir=index_dir))
    try:
        report["threshold"] = {
            "typed": await threshold_table(typed, opened.index.graph),
            "graded": await threshold_table(graded, opened.index.graph),
        }
    finally:
        await opened.aclose()
    report["_meta"] = {"temperature_shipped": TEMPERATURE, "messages": "dev only"}
    return report


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--index-dir", type=Path, required=True)
    parser.add_argument("--out", type=Path, default=ROOT / "results/slot_weights.json")
    args = parser.parse_args()
    found = asyncio.run(main(args.index_dir))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(found, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(found, indent=1))

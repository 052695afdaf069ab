"""Issue 31 probe, step 1: training pairs and evaluation sets for a linking embedder.

Pairs: every Eedi question (its text, no title: the title is the construct's name) and every
OpenStax exercise and worked example (no title, no solution) with the card of the concept it
is filed under (name, description, first parent's description). Evaluation: MathFish's
teacher-aligned rows (codes masked) and the tutoring messages (dev and heldout), against
cards of the Common Core standards (description and cluster description). Nothing of the
evaluation sets is trained on.

    python research/scripts/linker_probe/prep.py OUT_DIR   # writes OUT_DIR/data.json.gz
"""

from __future__ import annotations

import gzip
import json
import re
import sys
from pathlib import Path

from tutorgraph.ingest.bundle import load_trusted
from tutorgraph_client.models.curriculum import Concept
from tutorgraph_research.tasks.standards_data import read_mathfish, read_messages, read_standards

BUNDLE = Path("data/curriculum")
MATHFISH = Path("../shared/data/mathfish/generated_problems_teacher_annotations.csv")
MESSAGES = Path("data/benchmarks/tutoring_messages.jsonl")
TARGETS = ("eedi:construct:", "openstax:section:")


def card(concept: Concept, concepts: dict[str, Concept], *, name: bool = True) -> str:
    parts = [concept.name] if name else []
    if concept.description:
        parts.append(concept.description)
    for parent in concept.parent_ids[:1]:
        if parent in concepts:
            parts.append(concepts[parent].description or concepts[parent].name)
    return ". ".join(parts or [concept.name])


def main(out: Path) -> None:
    records = load_trusted(BUNDLE)
    concepts = {c.id: c for c in records.concepts}
    pairs = []
    for doc in records.documents:
        if doc.kind not in ("question", "exercise", "worked_example"):
            continue
        text = doc.text.split("Solution:")[0].strip()
        if doc.source == "eedi":
            text = re.sub(r"\nCorrect answer: [A-D]\s*$", "", text)
        targets = [c for c in doc.concept_ids if c.startswith(TARGETS)]
        if targets and len(text) >= 8:
            pairs.append({"q": text[:1000], "c": targets[0], "group": doc.source})
    cards = {cid: card(concepts[cid], concepts) for cid in {p["c"] for p in pairs}}
    standards = read_standards(BUNDLE / "concepts.jsonl")
    known = {s.id for s in standards}
    std_cards = {s.id: card(concepts[s.id], concepts, name=False) for s in standards}
    mathfish = read_mathfish(MATHFISH, known)
    messages = read_messages(MESSAGES, known)
    evals = [
        {"set": "mathfish", "text": it.text, "std": list(it.standards)} for it in mathfish.items
    ]
    evals += [
        {"set": f"msg-{it.split}", "text": it.text, "std": list(it.standards), "kind": it.kind}
        for it in messages.items
    ]
    out.mkdir(parents=True, exist_ok=True)
    with gzip.open(out / "data.json.gz", "wt") as fh:
        json.dump({"pairs": pairs, "cards": cards, "std_cards": std_cards, "evals": evals}, fh)
    print(f"{len(pairs)} pairs, {len(cards)} cards, {len(std_cards)} standards, {len(evals)} evals")


if __name__ == "__main__":
    main(Path(sys.argv[1]))

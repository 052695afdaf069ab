"""The linker's candidate Common Core standards for every OpenStax section and Eedi subject
(issue 61): the pool a person judges into `data/teaching/alignment_sections_subjects.jsonl`.

    python research/scripts/alignment_candidates_sections.py \\
        --out /work/probe/i61/align_sections/candidates.jsonl [--top 8] [--items 3]

The linker is the product's (`ConceptLinker` over the bundle's cards, with the bundled
standards model fused in, no grade). Each concept is read as several short queries, as the
linker was tuned on short messages: its card text (a section's title and learning
objectives; a subject's name and its parent's), and up to `--items` worked examples and as
many exercises of a section, or `--items` x 2 questions of the constructs under a subject
(its own and its descendants'), each cut to 400 characters. A standard's score is the mean
of the card query's score and the items' mean score (the card query alone when there are no
items); the `--top` best are written, one line per concept (sections, then subjects, each by
id) with `rank` (1 = best) and `score` per candidate. Deterministic for a given bundle and
model; about two minutes on two cores, most of it embedding.

>>> _combine([1.0, 0.0], [[0.0, 0.0], [1.0, 1.0]]).tolist()
[0.75, 0.25]
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt

from tutorgraph.config import Settings
from tutorgraph.ingest.bundle import read_bundle
from tutorgraph.linking.alignment import item_text
from tutorgraph.linking.cards import build_cards
from tutorgraph.linking.linker import ConceptLinker
from tutorgraph.linking.standards_model import StandardModel
from tutorgraph.retrieval.factory import bundled_standards_path, make_embedder
from tutorgraph_client.models.curriculum import Concept, Document

ROOT = Path(__file__).resolve().parents[2]
BUNDLE = ROOT / "data/curriculum"
ITEM_CHARS = 400


def _combine(card: npt.ArrayLike, items: Sequence[npt.ArrayLike]) -> npt.NDArray[np.float64]:
    """Half the card query's scores, half the items' mean (the card's alone without items)."""
    head: npt.NDArray[np.float64] = np.asarray(card, dtype=np.float64)
    if not items:
        return head
    out: npt.NDArray[np.float64] = 0.5 * head + 0.5 * np.asarray(items, np.float64).mean(axis=0)
    return out


def _items(documents: Sequence[Document]) -> dict[str, dict[str, list[str]]]:
    """Concept -> item kind -> its items' texts (by document id, cut to `ITEM_CHARS`)."""
    out: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    for doc in sorted(documents, key=lambda d: d.id):
        if doc.kind not in ("worked_example", "exercise", "question"):
            continue
        text = " ".join(item_text(doc).split())[:ITEM_CHARS]
        if len(text) < 8:
            continue
        for cid in doc.concept_ids:
            out[cid][doc.kind].append(text)
    return out


def queries(
    concepts: Sequence[Concept], documents: Sequence[Document], per_kind: int
) -> dict[str, tuple[str, list[str]]]:
    """Section or subject id -> (its card query, its item queries)."""
    by_id = {c.id: c for c in concepts}
    items = _items(documents)
    children: dict[str, list[str]] = defaultdict(list)
    for c in sorted(concepts, key=lambda c: c.id):
        for p in c.parent_ids:
            children[p].append(c.id)

    def constructs_under(subject: str) -> list[str]:
        found, stack = [], [subject]
        while stack:
            for kid in children.get(stack.pop(), []):
                if by_id[kid].kind == "construct":
                    found.append(kid)
                elif by_id[kid].kind == "subject":
                    stack.append(kid)
        return sorted(found)

    out: dict[str, tuple[str, list[str]]] = {}
    for c in sorted(concepts, key=lambda c: (c.kind != "section", c.id)):
        if c.kind == "section":
            head = f"{c.name}. {c.description}".strip()
            own = items.get(c.id, {})
            texts = own.get("worked_example", [])[:per_kind] + own.get("exercise", [])[:per_kind]
        elif c.kind == "subject":
            parent = next((by_id[p].name for p in c.parent_ids if p in by_id), "")
            head = f"{c.name}. {parent}." if parent else f"{c.name}."
            texts = []
            for construct in constructs_under(c.id):
                texts.extend(items.get(construct, {}).get("question", [])[:1])
                if len(texts) >= 2 * per_kind:
                    break
        else:
            continue
        out[c.id] = (head, texts)
    return out


def main(args: argparse.Namespace) -> None:
    settings = Settings()
    records = read_bundle(BUNDLE)
    embedder = make_embedder(settings)
    linker = ConceptLinker.build(build_cards(records.concepts), embedder).with_model(
        StandardModel.load(bundled_standards_path())
    )
    ids = linker.standard_ids
    asked = queries(records.concepts, records.documents, args.items)
    texts = sorted({t for head, items in asked.values() for t in [head, *items]})
    # One batched embedding pass, then the linker scores each text with its vector.
    vectors = dict(zip(texts, embedder.embed(texts), strict=True))
    score = {t: linker.standard_scores(t, vectors[t]) for t in texts}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with args.out.open("w") as f:
        for cid, (head, items) in asked.items():
            combined = _combine(score[head], [score[t] for t in items])
            best = np.lexsort((np.arange(len(ids)), -combined))[: args.top]
            row = {
                "concept_id": cid,
                "query": head,
                "items": len(items),
                "candidates": [
                    {"standard": ids[k], "rank": r + 1, "score": round(float(combined[k]), 4)}
                    for r, k in enumerate(best)
                ],
            }
            f.write(json.dumps(row) + "\n")
    print(f"{len(asked)} concepts, {len(texts)} queries -> {args.out}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--top", type=int, default=8)
    parser.add_argument("--items", type=int, default=3)
    main(parser.parse_args())

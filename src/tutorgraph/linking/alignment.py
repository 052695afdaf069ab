"""Cross-taxonomy alignment: which Common Core standard an Eedi construct or an OpenStax
section teaches, as `aligned_with` edges (standard -> construct or section) of the graph.

Two methods, each naming at most one standard per concept:

* ``item-similarity``: the mean vector of the concept's own items (an Eedi construct's
  questions, an OpenStax section's exercises and worked examples, their text only, at most
  `MAX_ITEMS` of them) against every standard's card;
* ``card-similarity``: the concept's card (`cards.build_cards`) against every standard's card.

When both methods name the same standard with a cosine of at least `THRESHOLD`, one edge
says ``item-and-card-similarity`` and carries the larger score; an edge only one method
names needs `SINGLE_THRESHOLD`. (Both were set after reading 24 edges at 0.5.) On a separate
judged sample (`tests/data/alignment_judgments.jsonl`, `research/scripts/alignment_sample.py`) the
agreed edges were right for 21 of 30, the single-method ones for 10 of 20 each, so only the
agreed edges are built by default (`SHIPPED`); the others on request. The
Learning Commons crosswalk joins California's standards to Common Core, not to Eedi or
OpenStax, so it has no part here. The edges are built at bundle time (`tutorgraph
align-bundle`), deterministically for a given bundle and model.

>>> cosine_top(np.eye(2, dtype=np.float32), ["ccss:a", "ccss:b"], np.array([0.6, 0.8]))
('ccss:b', 0.8)
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

import numpy as np
import numpy.typing as npt

from tutorgraph.linking.cards import ConceptCard
from tutorgraph_client.models.curriculum import Document, Prerequisite

__all__ = [
    "ALIGNED",
    "METHODS",
    "SHIPPED",
    "SINGLE_THRESHOLD",
    "THRESHOLD",
    "alignments",
    "cosine_top",
    "item_text",
    "items_by_concept",
]

ALIGNED = "aligned_with"
SOURCE = "tutorgraph-alignment"
METHODS = ("item-similarity", "card-similarity", "item-and-card-similarity")
# The methods whose edges a bundle gets by default (see the precision above).
SHIPPED = ("item-and-card-similarity",)
# The cosine an edge both methods name needs, and one that only one method names.
THRESHOLD = 0.5
SINGLE_THRESHOLD = 0.65
# Items read per concept: enough for a stable mean, bounded for the bundle build's time.
MAX_ITEMS = 40
_ITEM_KINDS = ("question", "exercise", "worked_example")
_LINKED = ("eedi:construct:", "openstax:section:")
_EEDI_KEY = re.compile(r"\nCorrect answer: [A-D]\s*$")


def item_text(doc: Document) -> str:
    """An item's own text: no title (an Eedi question's is its construct's name), no worked
    solution, no answer key."""
    text = doc.text.split("Solution:")[0].strip()
    return _EEDI_KEY.sub("", text) if doc.source == "eedi" else text


def items_by_concept(documents: Sequence[Document]) -> dict[str, list[str]]:
    """Construct or section -> the texts of its first `MAX_ITEMS` items (by id)."""
    out: dict[str, list[str]] = {}
    for doc in sorted(documents, key=lambda d: d.id):
        if doc.kind not in _ITEM_KINDS:
            continue
        text = item_text(doc)
        if len(text) < 8:
            continue
        for cid in doc.concept_ids:
            if cid.startswith(_LINKED) and len(texts := out.setdefault(cid, [])) < MAX_ITEMS:
                texts.append(text)
    return out


def cosine_top(
    standards: npt.NDArray[np.float32], ids: Sequence[str], vector: npt.NDArray[np.float32]
) -> tuple[str, float]:
    """The standard whose (unit) vector is nearest `vector`, and its cosine."""
    unit = vector / (np.linalg.norm(vector) or 1.0)
    scores = standards @ unit.astype(np.float32)
    best = int(np.argmax(scores))
    return ids[best], round(float(scores[best]), 4)


def alignments(
    cards: Sequence[ConceptCard],
    card_vectors: npt.NDArray[np.float32],
    item_vectors: Mapping[str, npt.NDArray[np.float32]],
    threshold: float = THRESHOLD,
    single_threshold: float = SINGLE_THRESHOLD,
    methods: Sequence[str] = SHIPPED,
) -> list[Prerequisite]:
    """The `aligned_with` edges of every construct and section.

    `card_vectors` are the cards' (row for row); `item_vectors` maps a construct or section to
    the vectors of its items.
    """
    rows = [i for i, c in enumerate(cards) if c.taxonomy == "common-core"]
    ids = [cards[i].concept_id for i in rows]
    standards = np.asarray(card_vectors[rows], dtype=np.float32)
    edges: list[Prerequisite] = []
    for i, card in enumerate(cards):
        if card.taxonomy == "common-core":
            continue
        found: dict[str, list[tuple[str, float]]] = {}
        sid, score = cosine_top(standards, ids, card_vectors[i])
        if score >= threshold:
            found.setdefault(sid, []).append(("card-similarity", score))
        items = item_vectors.get(card.concept_id)
        if items is not None and len(items):
            sid, score = cosine_top(standards, ids, np.asarray(items).mean(axis=0))
            if score >= threshold:
                found.setdefault(sid, []).append(("item-similarity", score))
        for sid, made in sorted(found.items()):
            if len(made) == 1 and made[0][1] < single_threshold:
                continue
            method = made[0][0] if len(made) == 1 else "item-and-card-similarity"
            if method not in methods:
                continue
            edges.append(
                Prerequisite(
                    prerequisite_id=sid,
                    concept_id=card.concept_id,
                    relation=ALIGNED,
                    source=SOURCE,
                    score=max(s for _, s in made),
                    method=method,
                )
            )
    return edges

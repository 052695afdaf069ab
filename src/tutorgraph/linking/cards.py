"""Concept cards: the text a message is matched against for each concept a linker names.

A card is more than a concept's name. For a Common Core standard it is its description and
its cluster's (the standard's code is left out: a code matches nothing a student writes, and
it lowered hit@1 on MathFish from 0.485 to 0.419 in a probe); for an Eedi construct, its name
and its subject's; for an OpenStax section, its title and learning objectives. Cards are built
from the records alone, deterministically (sorted by concept id), so the same bundle gives
the same cards, byte for byte.

>>> from tutorgraph_client.models.curriculum import Concept
>>> std = Concept(id="ccss:6.RP.A.3.c", name="6.RP.A.3.c", kind="standard",
...     description="Find a percent of a quantity as a rate per 100.",
...     parent_ids=["ccss:6.RP.A"], source="learning-commons", license="CC-BY-4.0")
>>> cluster = Concept(id="ccss:6.RP.A", name="6.RP.A", kind="grouping",
...     description="Understand ratio concepts.", source="learning-commons", license="CC-BY-4.0")
>>> build_cards([std, cluster])[0].text
'Find a percent of a quantity as a rate per 100. Understand ratio concepts.'
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from tutorgraph_client.models.curriculum import Concept
from tutorgraph_client.models.packet_info import Taxonomy

__all__ = ["TAXONOMIES", "ConceptCard", "build_cards", "taxonomy_of"]

# Taxonomy -> the id prefix and concept kind of the concepts it links to (every one of the
# API's `TAXONOMY_NAMES`, in their order).
TAXONOMIES: dict[Taxonomy, tuple[str, str]] = {
    "common-core": ("ccss:", "standard"),
    "eedi": ("eedi:construct:", "construct"),
    "openstax": ("openstax:section:", "section"),
}


@dataclass(frozen=True)
class ConceptCard:
    """One concept as a linker reads it."""

    concept_id: str
    taxonomy: Taxonomy
    name: str
    text: str
    # The concept's own description (a standard's name is only its code).
    description: str = ""


def taxonomy_of(concept: Concept) -> Taxonomy | None:
    """The taxonomy a concept is linked in, or None (groupings, subjects)."""
    for taxonomy, (prefix, kind) in TAXONOMIES.items():
        if concept.id.startswith(prefix) and concept.kind == kind:
            return taxonomy
    return None


def _sentence(text: str) -> str:
    text = " ".join(text.split())
    return text if not text or text[-1] in ".?!" else text + "."


def build_cards(concepts: Iterable[Concept]) -> list[ConceptCard]:
    """A card for every standard, construct and section, sorted by concept id."""
    by_id = {c.id: c for c in concepts}
    cards = []
    for concept in sorted(by_id.values(), key=lambda c: c.id):
        taxonomy = taxonomy_of(concept)
        if taxonomy is None:
            continue
        parent = next((by_id[p] for p in concept.parent_ids if p in by_id), None)
        if taxonomy == "common-core":
            parts = [concept.description or concept.name]
            if parent is not None:
                parts.append(parent.description or parent.name)
        elif taxonomy == "eedi":
            parts = [concept.name] + ([parent.name] if parent is not None else [])
        else:
            parts = [concept.name, concept.description]
        text = " ".join(_sentence(p) for p in parts if p.strip())
        cards.append(ConceptCard(concept.id, taxonomy, concept.name, text, concept.description))
    return cards

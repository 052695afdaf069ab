"""Concept linking: which concepts of each taxonomy a message is about (issue 31).

>>> cards = build_cards(records)  # doctest: +SKIP
>>> linker = ConceptLinker.build(cards, embedder)  # doctest: +SKIP
>>> linker.link("what is 40% of 120?")["common-core"][0].concept_id  # doctest: +SKIP
'ccss:6.RP.A.3.c'
"""

from tutorgraph.linking.cards import TAXONOMIES, ConceptCard, build_cards, taxonomy_of
from tutorgraph.linking.linker import ConceptLinker

__all__ = [
    "TAXONOMIES",
    "ConceptCard",
    "ConceptLinker",
    "build_cards",
    "taxonomy_of",
]

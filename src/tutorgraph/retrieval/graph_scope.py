"""Graph scoping: the dense and lexical candidates of the request's concepts (or their
prerequisites) are boosted, never filtered.

>>> [r.item.id for r in scoped(results, {"ccss:5.NF.A.1"})]  # doctest: +SKIP
"""

from __future__ import annotations

from tutorgraph.stores.protocols import IndexItem, ScoredItem

__all__ = ["SCOPE_BOOST", "scoped"]

# Graph scoping multiplies the dense/lexical score of in-scope candidates by 1 + SCOPE_BOOST
# and re-ranks each list; it never removes a candidate (a Chroma `where` filter to restrict
# instead costs far more than the search itself).
SCOPE_BOOST = 0.2


def _in_scope(item: IndexItem, scope: set[str]) -> bool:
    return item.id in scope or not scope.isdisjoint(item.concept_ids)


def scoped(results: list[ScoredItem], scope: set[str]) -> list[ScoredItem]:
    """Boost in-scope candidates and re-rank; ties keep their id order."""
    boosted = [
        ScoredItem(r.item, r.score * (1.0 + SCOPE_BOOST)) if _in_scope(r.item, scope) else r
        for r in results
    ]
    return sorted(boosted, key=lambda r: (-r.score, r.item.id))

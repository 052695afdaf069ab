"""Near-duplicate merge: hits whose stored vectors are nearly the same become one hit.

After the content-hash merge and fusion, the hits are walked best first; a hit whose
cosine similarity to a better hit of the same kind reaches the threshold is folded into
it. The surviving hit keeps every id (`ids`) and records, in `corroborated_by`, every
source that found it or a near-duplicate of it, and each near-duplicate's id, similarity
and sources. Scores are not changed: what the sources agree on is left to the learned
final score, which reads each source's rank.

Concepts and misconceptions are never merged: each is a distinct label (two Common Core
standards, or two misconceptions, can read alike and still differ), so only content kinds
are (OpenStax repeats its sections across its books).

>>> hits, merged = merge_near_duplicates(hits, vectors, threshold=0.85)  # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import get_args

import numpy as np
import numpy.typing as npt

from tutorgraph_client.models.packet import Corroboration, Hit, HitKind, HitSource, NearDuplicate

__all__ = ["MERGEABLE_KINDS", "merge_near_duplicates"]

MERGEABLE_KINDS: frozenset[HitKind] = frozenset(
    {"explanation", "worked_example", "exercise", "question"}
)

_SOURCE_ORDER: tuple[HitSource, ...] = get_args(HitSource)


def _unit(v: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    norm = float(np.linalg.norm(v))
    return v / norm if norm else v


def merge_near_duplicates(
    hits: Sequence[Hit], vectors: Mapping[str, npt.NDArray[np.float32]], threshold: float
) -> tuple[list[Hit], int]:
    """Fold each hit into the best earlier hit of its kind with cosine >= `threshold`.

    `hits` are best first; a hit without a vector (the store lacks it) is kept as it is.
    Returns the surviving hits, in order, and how many hits were folded.
    """
    kept: list[Hit] = []
    kept_vectors: dict[HitKind, list[tuple[Hit, npt.NDArray[np.float32]]]] = {}
    folded = 0
    for hit in hits:
        vector = vectors.get(hit.id)
        if hit.kind not in MERGEABLE_KINDS or vector is None:
            kept.append(hit)
            continue
        unit = _unit(vector)
        peers = kept_vectors.setdefault(hit.kind, [])
        best: tuple[float, Hit] | None = None
        for peer, peer_vector in peers:
            if peer.id in hit.conflicts_with:
                continue  # a factual conflict: both stay, for the tutor to see
            similarity = float(np.dot(unit, peer_vector))
            if similarity >= threshold and (best is None or similarity > best[0]):
                best = (similarity, peer)
        if best is None:
            kept.append(hit)
            peers.append((hit, unit))
            continue
        _fold(best[1], hit, best[0])
        folded += 1
    return kept, folded


def _fold(into: Hit, dup: Hit, similarity: float) -> None:
    into.ids = sorted({*into.ids, *dup.ids})
    corroboration = into.corroborated_by or Corroboration(sources=list(into.found_by))
    found = {*corroboration.sources, *dup.found_by}
    corroboration.sources = [s for s in _SOURCE_ORDER if s in found]
    corroboration.near_duplicates.append(
        NearDuplicate(
            id=dup.id, ids=dup.ids, similarity=round(similarity, 6), found_by=dup.found_by
        )
    )
    into.corroborated_by = corroboration

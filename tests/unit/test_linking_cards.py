"""Concept cards and the linker's fusion, on the bundled curriculum's concepts (no model:
the dense side is a fixed matrix)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tutorgraph.ingest.bundle import load_trusted
from tutorgraph.linking import ConceptLinker, build_cards

pytestmark = pytest.mark.unit

BUNDLE = Path(__file__).resolve().parents[2] / "data" / "curriculum"


@pytest.fixture(scope="module")
def concepts():  # type: ignore[no-untyped-def]
    return load_trusted(BUNDLE, documents=False).concepts


def test_cards_cover_each_taxonomy_deterministically(concepts) -> None:  # type: ignore[no-untyped-def]
    cards = build_cards(concepts)
    assert cards == build_cards(list(reversed(concepts)))
    assert [c.concept_id for c in cards] == sorted(c.concept_id for c in cards)
    by_taxonomy = {
        t: [c for c in cards if c.taxonomy == t] for t in ("common-core", "eedi", "openstax")
    }
    assert all(by_taxonomy.values())
    percent = next(c for c in cards if c.concept_id == "ccss:6.RP.A.3.c")
    assert "percent" in percent.text.lower() and "6.RP" not in percent.text  # no code
    assert all(not c.concept_id.startswith(("lc:", "eedi:subject:")) for c in cards)


class _NoEmbedder:
    name = "none"

    def embed(self, texts: list[str]) -> np.ndarray:
        raise AssertionError("vectors are given")


def test_the_linker_fuses_dense_and_lexical_ranks_per_taxonomy(concepts) -> None:  # type: ignore[no-untyped-def]
    cards = [c for c in build_cards(concepts) if c.taxonomy in ("common-core", "openstax")]
    rng = np.random.default_rng(0)
    vectors = rng.normal(size=(len(cards), 8)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    linker = ConceptLinker(cards, vectors, _NoEmbedder())  # type: ignore[arg-type]
    target = next(i for i, c in enumerate(cards) if c.concept_id == "ccss:6.RP.A.3.c")
    got = linker.link("find a percent of a quantity as a rate per 100", 5, vectors[target])
    assert set(got) == {"common-core", "openstax"} and len(got["common-core"]) == 5
    first = got["common-core"][0]
    # First by cosine and matched by its words: both ranks are its evidence.
    assert first.concept_id == "ccss:6.RP.A.3.c"
    assert first.evidence["dense_rank"] == 1 and first.evidence["lexical_rank"] is not None
    scores = [c.score for c in got["common-core"]]
    assert scores == sorted(scores, reverse=True)

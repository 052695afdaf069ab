"""The structural tags a linker reads from a message and from a standard's card."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tutorgraph.ingest.bundle import load_trusted
from tutorgraph.linking import ConceptLinker, build_cards
from tutorgraph.linking.structure import structure_of, structure_overlap

pytestmark = pytest.mark.unit

BUNDLE = Path(__file__).resolve().parents[2] / "data" / "curriculum"


@pytest.mark.parametrize(
    ("text", "tags"),
    [
        ("Sam has 24 stickers and gives 9 to his sister. How many are left?",
         {"op:subtract", "size:100", "task:word-problem"}),
        ("what is 40% of 120?", {"num:percent", "size:1000"}),
        ("how do I find the median of 3, 9, 4, 7, 5?", {"task:statistics", "size:10"}),
        # A fraction's parts are not sizes.
        ("how do I compare 5/8 and 3/5?", {"num:fraction"}),
        ("is 0.3 × 0.2 = 0.06", {"num:decimal", "op:multiply"}),
        ("7 - 2", {"op:subtract", "size:10"}),
        ("Add and subtract within 20.", {"op:add", "op:subtract", "size:20"}),
        ("", set()),
    ],
)  # fmt: skip
def test_structure_of_messages_and_cards(text: str, tags: set[str]) -> None:
    assert structure_of(text) == tags


def test_a_cards_size_is_what_it_says_not_the_numbers_it_holds() -> None:
    assert structure_of("Count to 100 by ones and by tens.", card=True) == frozenset()
    assert "size:20" in structure_of("Fluently add and subtract within 20.", card=True)
    assert "size:100" in structure_of("Count to 100 by ones and by tens.")


def test_structure_reads_huge_text_in_linear_time() -> None:
    # Long runs that a backtracking pattern would revisit: digits, commas, words.
    text = "1," * 50_000 + "a" * 100_000 + " 3/" * 30_000
    assert "num:fraction" in structure_of(text)


def test_overlap_is_a_cosine_of_tag_sets() -> None:
    a = frozenset({"op:add", "size:20"})
    assert structure_overlap(a, a) == pytest.approx(1.0)
    assert structure_overlap(a, frozenset()) == 0.0
    assert structure_overlap(a, frozenset({"num:percent"})) == 0.0


def test_the_linker_adds_structure_to_standards_only() -> None:
    concepts = load_trusted(BUNDLE, documents=False).concepts
    cards = [c for c in build_cards(concepts) if c.taxonomy in ("common-core", "openstax")]
    vectors = np.zeros((len(cards), 4), np.float32)  # every cosine 0: structure decides
    text = "Sam has 24 stickers and gives 9 to his sister. How many are left?"
    plain = ConceptLinker(
        cards, vectors, structure_weight=0.0, story_weight=0.0, lexical_weight=0.0
    )
    shaped = ConceptLinker(
        cards, vectors, structure_weight=0.1, story_weight=0.3, lexical_weight=0.0
    )
    query = np.zeros(4, np.float32)
    assert all(c.score == 0.0 for c in plain.link(text, 5, query)["common-core"])
    got = shaped.link(text, 5, query)
    best = got["common-core"][0]
    # A story weighs its structure at the story weight.
    assert best.evidence["structure"] and best.score == pytest.approx(
        0.3 * best.evidence["structure"], abs=1e-4
    )
    assert "word problems" in best.description.lower() or "subtract" in best.description.lower()
    assert all(c.evidence["structure"] is None for c in got["openstax"])

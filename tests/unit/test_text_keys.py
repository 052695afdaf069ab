"""The BM25 tokeniser (math tokens kept) and the content hash behind merging."""

from __future__ import annotations

import hashlib

import pytest

from tutorgraph.stores.items import content_hash, items_from_records, normalise_text
from tutorgraph.stores.tokenize import tokenize

pytestmark = pytest.mark.unit


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        ("Why is 3/4 bigger than 2/3?", ["3", "/", "4", "bigger", "2", "/", "3"]),
        ("3 / 4", ["3", "/", "4"]),
        ("x^2 + 5x + 6 = 0", ["x", "^", "2", "+", "5", "x", "+", "6", "=", "0"]),
        ("0.25 × 4 − 1 ≤ y", ["0.25", "×", "4", "−", "1", "≤", "y"]),
        ("√9 is 3 and 50% of 8 is 4", ["√", "9", "3", "50", "%", "8", "4"]),
        ("Ｆａｃｔｏｒｉｓｅ ３x", ["factorise", "3", "x"]),  # NFKC + casefold
        ("What is the a of a and the?", []),  # stopwords only
    ],
)
def test_tokenize_keeps_math_tokens(text: str, tokens: list[str]) -> None:
    assert tokenize(text) == tokens


def test_tokenize_drops_punctuation_but_not_operators() -> None:
    assert tokenize("(a+b), [c-d]; {e*f}: g!") == ["+", "b", "c", "-", "d", "e", "*", "f", "g"]


def test_content_hash_normalises_case_whitespace_and_unicode_forms() -> None:
    base = content_hash("Add the numerators; keep the denominator")
    assert base == content_hash("  add  the NUMERATORS;\tkeep\nthe denominator ")
    assert base == content_hash("Ａｄｄ the numerators; keep the denominator")  # full width
    assert base != content_hash("Add the numerators; keep the denominators")
    assert content_hash("ﬁve") == content_hash("five")  # ligature, NFKC


def test_content_hash_is_sha256_of_the_normalised_text_and_process_independent() -> None:
    assert normalise_text("  Hello\tWORLD \n") == "hello world"
    # A fixed value: unlike hash(), it cannot change between processes or runs.
    assert content_hash("  Hello\tWORLD \n") == (
        "b94d27b9934d3e08a52e52d7da7dabfac484efe37a5380ee9088f7ace2efcde9"
    )
    assert content_hash("x") == hashlib.sha256(b"x").hexdigest()


def test_items_from_records_covers_every_searchable_text(full_slice_records) -> None:  # type: ignore[no-untyped-def]
    items = items_from_records(full_slice_records)
    r = full_slice_records
    assert len(items) == len(r.concepts) + len(r.misconceptions) + len(r.documents)
    assert [it.id for it in items] == sorted(it.id for it in items)
    kinds = {it.id: it.kind for it in items}
    assert kinds["ccss:6.NS.A.1"] == "concept"
    assert kinds["eedi:misconception:2142"] == "misconception"
    assert kinds["eedi:question:163"] == "question"
    construct = next(it for it in items if it.id == "eedi:construct:1428")
    # A concept with no description is searchable by its name.
    assert construct.text == construct.title != ""
    assert construct.concept_ids == ("eedi:construct:1428",)

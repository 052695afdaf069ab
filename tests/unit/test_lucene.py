"""Lucene escaping: hostile user text never reaches the full-text parser as syntax."""

from __future__ import annotations

import doctest
import re

import pytest

from hostile_text import HOSTILE
from tutorgraph.stores import lucene
from tutorgraph.stores.lucene import (
    LUCENE_SPECIAL_CHARS,
    MAX_QUERY_TERMS,
    MAX_TERM_CHARS,
    escape_lucene,
    fulltext_query,
)

pytestmark = pytest.mark.unit


_OPERATOR = re.compile(r"(?<![\w\\])(AND|OR|NOT)(?!\w)")


def _unescaped_specials(text: str) -> list[str]:
    """Special characters that are not preceded by an escaping backslash."""
    found, i = [], 0
    while i < len(text):
        if text[i] == "\\":
            assert i + 1 < len(text), f"dangling backslash in {text[-20:]!r}"
            i += 2
            continue
        if text[i] in LUCENE_SPECIAL_CHARS:
            found.append(text[i])
        i += 1
    return found


def _unescape(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text, flags=re.DOTALL)


@pytest.mark.parametrize("text", HOSTILE, ids=lambda t: repr(t[:30]))
def test_escape_lucene_leaves_no_syntax(text: str) -> None:
    escaped = escape_lucene(text)
    assert _unescaped_specials(escaped) == []
    assert _OPERATOR.search(escaped) is None
    # Nothing is lost: undoing the escapes gives the text, operator words lower-cased.
    expected = re.sub(r"\b(AND|OR|NOT)\b", lambda m: m[0].lower(), text)
    assert _unescape(escaped) == expected


@pytest.mark.parametrize("text", HOSTILE, ids=lambda t: repr(t[:30]))
def test_fulltext_query_is_an_or_of_safe_terms(text: str) -> None:
    query = fulltext_query(text)
    if query is None:
        return
    terms = query.split(" OR ")
    assert 1 <= len(terms) <= MAX_QUERY_TERMS
    for term in terms:
        assert term and not any(ch.isspace() for ch in term)
        assert _unescaped_specials(term) == []
        assert _OPERATOR.search(term) is None
        assert len(_unescape(term)) <= MAX_TERM_CHARS
        assert any(ch.isalnum() for ch in term)
    assert len(terms) == len({t.casefold() for t in terms})  # de-duplicated


@pytest.mark.parametrize(
    "text",
    ["", "   ", None, "*:*", '+-&&||!(){}[]^"~*?:\\/', "AND OR NOT", "what is it?", "-- ??"],
)
def test_nothing_searchable_gives_none(text: str | None) -> None:
    assert fulltext_query(text) is None


def test_examples() -> None:
    assert escape_lucene("(a+b)^2") == r"\(a\+b\)\^2"
    assert escape_lucene('"x:y"') == r"\"x\:y\""
    assert escape_lucene("a\\") == "a\\\\"  # a trailing backslash cannot escape what follows
    assert escape_lucene("AND ANDROID OR_ NOT") == "and ANDROID OR_ not"
    assert fulltext_query('what is (a+b)^2 ? "x:y" AND OR NOT') == r"\(a\+b\)\^2 OR \"x\:y\""
    assert fulltext_query("Dividing FRACTIONS 6.NS.A.1") == "Dividing OR FRACTIONS OR 6.NS.A.1"
    assert fulltext_query("x x X") == "x"
    assert fulltext_query("½ x²") == "1⁄2 OR x2"  # NFKC, as the analyzer would see it


def test_long_input_is_bounded() -> None:
    words = " ".join(f"w{i}" for i in range(1000))
    query = fulltext_query(words)
    assert query is not None
    assert query.split(" OR ") == [f"w{i}" for i in range(MAX_QUERY_TERMS)]
    one_word = fulltext_query("(" * 10_000 + "x")
    assert one_word is None  # the kept prefix holds no letter or digit


def test_doctests() -> None:
    assert doctest.testmod(lucene).failed == 0

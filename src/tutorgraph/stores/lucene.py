"""User text made safe for Neo4j full-text (Lucene classic query parser) queries.

The parser reads `+ - && || ! ( ) { } [ ] ^ " ~ * ? : \\ /` and the upper-case words `AND`,
`OR`, `NOT` as syntax; a student's `(a+b)^2` or `x:y` must stay plain text, never a
malformed or widened query (`*:*` matches everything).

>>> escape_lucene('(a+b)^2 AND "x:y"')
'\\\\(a\\\\+b\\\\)\\\\^2 and \\\\"x\\\\:y\\\\"'
>>> fulltext_query("What is (a+b)^2 AND x?")
'\\\\(a\\\\+b\\\\)\\\\^2 OR x\\\\?'
>>> fulltext_query("*:* what is it?") is None
True
"""

from __future__ import annotations

import re
import unicodedata

from tutorgraph.stores.tokenize import STOPWORDS

__all__ = [
    "LUCENE_OPERATOR_WORDS",
    "LUCENE_SPECIAL_CHARS",
    "MAX_QUERY_TERMS",
    "MAX_TERM_CHARS",
    "escape_lucene",
    "fulltext_query",
]

# Every character Lucene's classic QueryParser treats as syntax (single & and | too: they form
# && and ||). Escaping each one on its own covers the two-character operators.
LUCENE_SPECIAL_CHARS = frozenset('\\+-!():^[]"{}~*?|&/')
LUCENE_OPERATOR_WORDS = frozenset({"AND", "OR", "NOT"})

# Bounds that keep one query well below Lucene's default limit of 1024 boolean clauses, even
# when the analyzer splits a term further (`a-b-c` is three tokens).
MAX_QUERY_TERMS = 64
MAX_TERM_CHARS = 32

_OPERATOR_RE = re.compile(r"\b(?:AND|OR|NOT)\b")
_ESCAPE_RE = re.compile("([" + re.escape("".join(sorted(LUCENE_SPECIAL_CHARS))) + "])")


def escape_lucene(text: str) -> str:
    """Escape every Lucene special character and disarm the operator words.

    `AND`, `OR` and `NOT` are lower-cased: the parser reads them as operators only in upper
    case, and the index's analyzer lower-cases every term anyway, so matching is unchanged.

    >>> escape_lucene("*:*")
    '\\\\*\\\\:\\\\*'
    >>> escape_lucene("NOT x OR y")
    'not x or y'
    """
    text = _OPERATOR_RE.sub(lambda m: m[0].lower(), text)
    return _ESCAPE_RE.sub(r"\\\1", text)


def fulltext_query(text: str | None) -> str | None:
    """An OR of the escaped terms of `text`, or None when nothing searchable remains.

    Terms are the whitespace-separated words (NFKC-normalised, de-duplicated, at most
    `MAX_QUERY_TERMS` of `MAX_TERM_CHARS` characters); a word without a letter or digit, or
    an English stopword (the BM25 tokenizer's list), is dropped, so the index's own analyzer
    splits what is left the same way it split the indexed text.

    >>> fulltext_query("6.NS.A.1 fractions")
    '6.NS.A.1 OR fractions'
    >>> fulltext_query('"" && || !') is None
    True
    """
    if not text:
        return None
    terms: dict[str, str] = {}
    for word in unicodedata.normalize("NFKC", text).split():
        # Cut before escaping, so that a cut never splits an escape sequence.
        word = word[:MAX_TERM_CHARS]
        core = "".join(ch for ch in word if ch.isalnum()).casefold()
        if not core or core in STOPWORDS:
            continue
        terms.setdefault(word.casefold(), escape_lucene(word))
        if len(terms) >= MAX_QUERY_TERMS:
            break
    return " OR ".join(terms.values()) or None

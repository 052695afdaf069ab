"""Deterministic query routing: profiles, the auto analyser and the query type. No LLM.

The analyser reads surface signals. Lexical ones (quotes, symbols, identifiers, standard
codes, error strings, short keyword queries, numbers) favour BM25; semantic ones (question
words, long natural sentences, conversational phrasing) favour dense search; a math
expression is a signal of its own. Mixed signals fall back to `balanced`.

>>> analyse("why is 3/4 bigger than 2/3?").profile
'balanced'
>>> analyse("6.NS.A.1").signals
['standard_code', 'symbols', 'short', 'numbers']
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from tutorgraph_client.models.curriculum import STANDARD_CODE_RE
from tutorgraph_client.models.request import ConcreteProfile

__all__ = [
    "PROFILES",
    "ConcreteProfile",
    "Profile",
    "QueryAnalysis",
    "QueryType",
    "Route",
    "analyse",
    "resolve_route",
]

QueryType = Literal["concept_lookup", "prerequisite", "misconception", "similar_problems"]


@dataclass(frozen=True)
class Profile:
    """What a profile sets: the semantic weight (lexical gets 1 - w), depths, scope, rerank."""

    name: ConcreteProfile
    semantic_weight: float
    vector_depth: int
    lexical_depth: int
    graph_scope: bool
    rerank: bool


PROFILES: dict[ConcreteProfile, Profile] = {
    # Identifier-like queries: BM25 finds exact terms, dense search adds little.
    "exact": Profile(
        "exact", 0.2, vector_depth=30, lexical_depth=60, graph_scope=False, rerank=False
    ),
    "balanced": Profile(
        "balanced", 0.5, vector_depth=50, lexical_depth=50, graph_scope=True, rerank=True
    ),
    "semantic": Profile(
        "semantic", 0.8, vector_depth=60, lexical_depth=30, graph_scope=True, rerank=True
    ),
}

_QUOTED = re.compile(r"\"[^\"]{2,}\"|“[^”]{2,}”|'[^']{3,}'(?!\w)")
_SYMBOLS = re.compile(r"::|->|=>|\w_\w|[A-Za-z]\.[A-Za-z]|[A-Za-z]/[A-Za-z]")
_CAMEL = re.compile(r"\b[a-z]+[A-Z][A-Za-z]*\b|\b[A-Z][a-z]+[A-Z][A-Za-z]*\b")
_IDENTIFIER = re.compile(r"\b[a-z]+:[a-z0-9_.:-]+\b|\bm\d{5}\b", re.I)
_ERROR = re.compile(r"\w*(?:Error|Exception)\b|\bERROR\b|\bTraceback\b|\bNaN\b|\bundefined\b")
_NUMBER = re.compile(r"(?<![A-Za-z])\d+(?:[.,]\d+)*")
_MATH = re.compile(
    r"\d\s*/\s*\d|\\frac|\\sqrt|sqrt\(|[a-z0-9)]\s*\^\s*[\w(]|[²³½¼¾⅓⅔]"
    r"|[\w)]\s*[-+×÷*=<>≤≥]\s*[\w(-]"
    r"|\b\d*[a-z]\s*[-+=]\s*\d"
)
_QUESTION = re.compile(
    r"\?|^\s*(?:what|what's|why|how|when|where|which|who|can|could|should|would|is|are|"
    r"does|do|did|explain|tell)\b",
    re.I,
)
_CONVERSATIONAL = re.compile(
    r"\b(?:i|i'm|im|me|my|we|you|your|please|help|don't|dont|doesn't|understand|confused|"
    r"stuck|kid|student|students|daughter|son)\b",
    re.I,
)
_WORD = re.compile(r"[A-Za-z][A-Za-z']*")

_MISCONCEPTION = re.compile(
    r"\b(?:i got|got \S+ for|my answer|answer (?:was|is)|wrong|mistakes?|misconceptions?|"
    r"i think|thinks?|i said|wrote|did i do|is that right|not equal|keeps? (?:adding|getting|"
    r"making|saying))\b",
    re.I,
)
_PREREQUISITE = re.compile(
    r"\b(?:prerequisites?|prereqs?|comes? before|before (?:i|we|you|they|starting|learning|"
    r"teaching|moving|\d)|need to know before|know before|foundational|foundations?|"
    r"review before|need to review)\b",
    re.I,
)
_SIMILAR = re.compile(
    r"\b(?:practice|more (?:problems|questions|exercises|examples)|worksheets?|"
    r"(?:problems|questions|examples|exercises) like|similar|like this one)\b",
    re.I,
)


@dataclass(frozen=True)
class QueryAnalysis:
    """What the analyser saw and what it decided."""

    profile: ConcreteProfile
    query_type: QueryType
    signals: list[str]
    lexical_signals: list[str]
    semantic_signals: list[str]
    math: bool


def _is_natural_sentence(words: list[str]) -> bool:
    """Five or more words that are not a Title Case heading, or eight or more words."""
    if len(words) >= 8:
        return True
    if len(words) < 5:
        return False
    capitalised = sum(1 for w in words if w[0].isupper())
    return capitalised / len(words) < 0.5


def analyse(query: str, *, student_answer: bool = False) -> QueryAnalysis:
    """Read the query's signals and choose a profile and a query type.

    A known student answer (from the request or the refiner) makes it a misconception query.
    """
    text = query.strip()
    words = _WORD.findall(text)
    lexical: list[str] = []
    if _QUOTED.search(text):
        lexical.append("quoted_phrase")
    if STANDARD_CODE_RE.search(text):
        lexical.append("standard_code")
    if _IDENTIFIER.search(text):
        lexical.append("identifier")
    if _CAMEL.search(text) or re.search(r"\b[a-z]+_[a-z_]+\b", text):
        lexical.append("code_case")
    if _SYMBOLS.search(text):
        lexical.append("symbols")
    if _ERROR.search(text):
        lexical.append("error_string")

    semantic: list[str] = []
    if _QUESTION.search(text):
        semantic.append("question_words")
    if _CONVERSATIONAL.search(text):
        semantic.append("conversational")
    if _is_natural_sentence(words):
        semantic.append("long_sentence")

    if not semantic and len(text.split()) <= 6:
        lexical.append("short")
    if _NUMBER.search(text):
        lexical.append("numbers")
    math = bool(_MATH.search(text))

    profile: ConcreteProfile
    if semantic and (lexical or math):
        profile = "balanced"
    elif semantic:
        profile = "semantic"
    elif lexical or math:
        profile = "exact"
    else:
        profile = "balanced"
    signals = [*lexical, *(["math_expression"] if math else []), *semantic]
    if student_answer:
        signals.append("student_answer")
    return QueryAnalysis(
        profile=profile,
        query_type="misconception" if student_answer else _query_type(text),
        signals=signals,
        lexical_signals=lexical,
        semantic_signals=semantic,
        math=math,
    )


def _query_type(text: str) -> QueryType:
    if _MISCONCEPTION.search(text):
        return "misconception"
    if _PREREQUISITE.search(text):
        return "prerequisite"
    if _SIMILAR.search(text):
        return "similar_problems"
    return "concept_lookup"


@dataclass(frozen=True)
class Route:
    """Every routing decision for one request, as the debug block reports it."""

    profile_requested: str
    profile: Profile
    semantic_weight: float
    graph_scope: bool
    rerank: bool
    analysis: QueryAnalysis


def resolve_route(
    *,
    query: str,
    retrieval_profile: str | None,
    semantic_weight: float | None,
    graph_scope: bool | None,
    rerank: bool | None,
    default_profile: str = "auto",
    default_semantic_weight: float | None = None,
    student_answer: bool = False,
) -> Route:
    """Request beats index default beats profile; an explicit `semantic_weight` beats both.

    >>> resolve_route(query="6.NS.A.1", retrieval_profile=None, semantic_weight=None,
    ...               graph_scope=None, rerank=None).profile.name
    'exact'
    """
    analysis = analyse(query, student_answer=student_answer)
    requested = retrieval_profile or default_profile
    if requested == "auto":
        name: ConcreteProfile = analysis.profile
    elif requested in PROFILES:
        name = requested
    else:
        raise ValueError(f"unknown retrieval profile {requested!r}")
    profile = PROFILES[name]
    if semantic_weight is not None:
        weight = semantic_weight
    elif retrieval_profile is None and default_semantic_weight is not None:
        weight = default_semantic_weight
    else:
        weight = profile.semantic_weight
    return Route(
        profile_requested=requested,
        profile=profile,
        semantic_weight=weight,
        graph_scope=profile.graph_scope if graph_scope is None else graph_scope,
        rerank=profile.rerank if rerank is None else rerank,
        analysis=analysis,
    )

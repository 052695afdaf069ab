"""The default refiner: deterministic rules, no network, a few milliseconds.

>>> refiner = LocalRefiner(index.graph, SpellingCorrector(index.lexical.document_frequencies()))
... # doctest: +SKIP
>>> (await refiner.refine("i got 2/6 for ½+¼ why is it rong")).student_answer  # doctest: +SKIP
'2/6'
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from tutorgraph.mathtext.spans import MathSpan, canonical_math, math_spans, plain_text
from tutorgraph.refinement.language import detect_language
from tutorgraph.refinement.reader import answer_in, read_message
from tutorgraph.refinement.spelling import SpellingCorrector
from tutorgraph.stores.breaker import CircuitBreaker
from tutorgraph.stores.guard import guarded
from tutorgraph.stores.protocols import MAX_TEXT_SEEDS, MIN_RELATIVE_MATCH, GraphStore
from tutorgraph.stores.tokenize import STOPWORDS
from tutorgraph_client.models.curriculum import STANDARD_CODE_RE, Concept
from tutorgraph_client.models.refined_query import RefinedQuery

__all__ = ["READ_TIMEOUT_S", "LocalRefiner", "answer_in"]

log = logging.getLogger(__name__)
T = TypeVar("T")
# The deadline for reading a query (a few milliseconds, at most tens for 2,000 hostile
# characters); past it the query is searched as written.
READ_TIMEOUT_S = 0.5


_WORD = re.compile(r"[A-Za-z]+(?:'[a-z]+)?")
# Words that say how the student feels or what they did, not what the math is about.
_FILLER = frozenset(
    """
    answer answers answered got get getting put wrote said think thought wrong right help
    please pls plz idk dont don't understand confused stuck explain mean means know
    kid son daughter child student teacher book says say tell thanks thank hi hello
    keep keeps doing did does lol ok okay really still why how what whats
    """.split()  # noqa: SIM905 - a word list reads better as prose
)
_MIN_TERM_LENGTH = 3
# "Why is 3/4 bigger than 2/3?": everyday comparatives for what the curriculum calls
# comparing and ordering numbers; the texts use those words, students rarely do.
_COMPARATIVE = re.compile(
    r"\b(?:bigger|larger|greater|smaller|less|more|higher|lower)\s+than\b"
    r"|\bwhich\s+(?:one\s+)?is\s+(?:the\s+)?(?:bigger|larger|greater|smaller|biggest|largest"
    r"|greatest|smallest)\b",
    re.I,
)
_COMPARE_TERMS = ("compare", "order")


@dataclass(frozen=True)
class _Reading:
    """What the rules read from the text, before the concept search."""

    text: str  # plain, spelling corrected (when it reads as English)
    answer: str | None
    optimized: str
    expressions: list[str]
    terms: list[str]
    problem: str | None


class LocalRefiner:
    """Math extraction, concept recognition (the graph's concept-name index), stated answers."""

    name = "local"

    def __init__(
        self,
        graph: GraphStore,
        speller: SpellingCorrector | None = None,
        *,
        concept_timeout_s: float = 0.5,
        read_timeout_s: float = READ_TIMEOUT_S,
        breaker: CircuitBreaker | None = None,
    ) -> None:
        """`concept_timeout_s` bounds the concept-name search, so a slow graph cannot hold up
        refinement (the graph search then degrades on its own timeout); `breaker` is the
        graph's circuit breaker (the retriever's), so a graph that is down is not asked. The
        text is read in a worker thread, off the event loop; past `read_timeout_s` the query
        is searched as written and `fallback_reason` says so."""
        self._graph = graph
        self._breaker = breaker
        self._speller = speller
        self._concept_timeout_s = concept_timeout_s
        self._read_timeout_s = read_timeout_s

    async def refine(self, query: str, *, student_answer: str | None = None) -> RefinedQuery:
        reading = await self._off_loop(query, lambda: self._read(query, student_answer))
        if reading is None:
            return RefinedQuery(
                original_query=query,
                optimized_query=query,
                student_answer=student_answer,
                refiner="local",
                fallback_reason=(
                    f"local: reading the text took over {self._read_timeout_s:g} s;"
                    " the query is searched as written"
                ),
            )
        # A graph that is down costs the concepts, not the refinement (its search degrades).
        search = self._graph.search_concepts(reading.text, k=MAX_TEXT_SEEDS)
        matches = (
            await guarded("graph", search, self._concept_timeout_s, breaker=self._breaker) or []
        )
        return RefinedQuery(
            original_query=query,
            optimized_query=reading.optimized,
            math_expressions=reading.expressions,
            key_concepts=[
                m.concept.id for m in matches if m.exact or m.score >= MIN_RELATIVE_MATCH
            ],
            search_terms=reading.terms,
            student_answer=reading.answer,
            problem=reading.problem,
            refiner="local",
        )

    async def candidate_concepts(self, query: str, k: int) -> list[Concept]:
        """The concepts whose names best match the text (the curriculum context of a prompt)."""
        text = await self._off_loop(query, lambda: self._corrected(query))
        if text is None:
            return []
        # Under the same bound and breaker as `refine`'s search: a graph that is down or hung
        # costs the prompt its concepts, not the refinement its deadline.
        search = self._graph.search_concepts(text, k=k)
        matches = await guarded("graph", search, self._concept_timeout_s, breaker=self._breaker)
        return [m.concept for m in matches or []]

    async def aclose(self) -> None:
        return None

    async def _off_loop(self, query: str, read: Callable[[], T]) -> T | None:
        """`read()` of `query` in a worker thread; None past the deadline (the thread runs
        on, but the readers are linear in the text, so not for long)."""
        try:
            return await asyncio.wait_for(asyncio.to_thread(read), self._read_timeout_s)
        except TimeoutError:
            log.warning(
                "reading a %d-character query took over %g s", len(query), self._read_timeout_s
            )
            return None

    def _read(self, query: str, student_answer: str | None) -> _Reading:
        # The answer is read before spelling correction: its cue words ("wrote", "said") are
        # everyday English that a curriculum vocabulary may lack.
        read = read_message(query)
        answer = canonical_math(student_answer) if student_answer else answer_in(query)
        text = self._corrected(query)
        spans = math_spans(text)
        optimized, terms = _with_canonical_math(text, spans), _search_terms(text, spans)
        if _COMPARATIVE.search(text) and any(c.isdigit() for c in text):
            optimized = " ".join([optimized, *_COMPARE_TERMS])
            terms = list(dict.fromkeys([*terms, *_COMPARE_TERMS]))
        expressions = list(dict.fromkeys(s.text for s in spans))
        problem = read.problem.value if read.problem is not None else None
        return _Reading(text, answer, optimized, expressions, terms, problem)

    def _corrected(self, query: str) -> str:
        """The query as plain text, spelling corrected when it reads as English: the
        corrector knows English words only, and would rewrite another language into them
        (German "eines" to "lines"; `refinement/language.py`)."""
        plain = plain_text(query)
        speller = self._speller
        if speller is None or not detect_language(query).english:
            return plain

        def fix(m: re.Match[str]) -> str:
            word = m[0].casefold()
            if word in STOPWORDS or word in _FILLER:
                return m[0]
            return speller.correct(word) or m[0]

        return _WORD.sub(fix, plain)


def _with_canonical_math(text: str, spans: list[MathSpan]) -> str:
    out, pos = [], 0
    for s in spans:
        out += [text[pos : s.start], s.text]
        pos = s.end
    out.append(text[pos:])
    return "".join(out)


def _search_terms(text: str, spans: list[MathSpan]) -> list[str]:
    """Standard codes, then content words, once each; math is listed separately."""
    # Blank the math out, keeping offsets (in one pass: a copy per span is quadratic).
    parts, pos = [], 0
    for s in spans:
        parts += [text[pos : s.start], " " * (s.end - s.start)]
        pos = s.end
    rest = "".join([*parts, text[pos:]])
    codes = [m[0] for m in STANDARD_CODE_RE.finditer(rest)]
    rest = STANDARD_CODE_RE.sub(" ", rest)
    words = [
        w
        for w in (m[0].casefold() for m in _WORD.finditer(rest))
        if len(w) >= _MIN_TERM_LENGTH and w not in STOPWORDS and w not in _FILLER
    ]
    return list(dict.fromkeys([*codes, *words]))

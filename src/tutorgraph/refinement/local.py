"""The default refiner: deterministic rules, no network, a few milliseconds.

>>> refiner = LocalRefiner(index.graph, SpellingCorrector(index.lexical.document_frequencies()))
... # doctest: +SKIP
>>> (await refiner.refine("i got 2/6 for ½+¼ why is it rong")).student_answer  # doctest: +SKIP
'2/6'
"""

from __future__ import annotations

import re

from tutorgraph.mathtext.spans import MathSpan, canonical_math, math_spans, plain_text
from tutorgraph.models.curriculum import STANDARD_CODE_RE, Concept
from tutorgraph.models.refined_query import RefinedQuery
from tutorgraph.refinement.answer import stated_answer
from tutorgraph.refinement.spelling import SpellingCorrector
from tutorgraph.stores.guard import guarded
from tutorgraph.stores.protocols import MAX_TEXT_SEEDS, MIN_RELATIVE_MATCH, GraphStore
from tutorgraph.stores.tokenize import STOPWORDS

__all__ = ["LocalRefiner"]


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


class LocalRefiner:
    """Math extraction, concept recognition (the graph's concept-name index), stated answers."""

    name = "local"

    def __init__(
        self,
        graph: GraphStore,
        speller: SpellingCorrector | None = None,
        *,
        concept_timeout_s: float = 0.5,
    ) -> None:
        """`concept_timeout_s` bounds the concept-name search, so a slow graph cannot hold up
        refinement (the graph search then degrades on its own timeout)."""
        self._graph = graph
        self._speller = speller
        self._concept_timeout_s = concept_timeout_s

    async def refine(self, query: str, *, student_answer: str | None = None) -> RefinedQuery:
        plain = plain_text(query)
        # The answer is read before spelling correction: its cue words ("wrote", "said") are
        # everyday English that a curriculum vocabulary may lack.
        answer = canonical_math(student_answer) if student_answer else stated_answer(plain)
        text = self._correct(plain)
        spans = math_spans(text)
        # A graph that is down costs the concepts, not the refinement (its search degrades).
        search = self._graph.search_concepts(text, k=MAX_TEXT_SEEDS)
        matches = await guarded("graph", search, self._concept_timeout_s) or []
        concepts = [m.concept.id for m in matches if m.exact or m.score >= MIN_RELATIVE_MATCH]
        optimized, terms = _with_canonical_math(text, spans), _search_terms(text, spans)
        if _COMPARATIVE.search(text) and any(c.isdigit() for c in text):
            optimized = " ".join([optimized, *_COMPARE_TERMS])
            terms = list(dict.fromkeys([*terms, *_COMPARE_TERMS]))
        return RefinedQuery(
            original_query=query,
            optimized_query=optimized,
            math_expressions=list(dict.fromkeys(s.text for s in spans)),
            key_concepts=concepts,
            search_terms=terms,
            student_answer=answer,
            refiner="local",
        )

    async def candidate_concepts(self, query: str, k: int) -> list[Concept]:
        """The concepts whose names best match the text (the curriculum context of a prompt)."""
        text = self._correct(plain_text(query))
        return [m.concept for m in await self._graph.search_concepts(text, k=k)]

    async def aclose(self) -> None:
        return None

    def _correct(self, text: str) -> str:
        speller = self._speller
        if speller is None:
            return text

        def fix(m: re.Match[str]) -> str:
            word = m[0].casefold()
            if word in STOPWORDS or word in _FILLER:
                return m[0]
            return speller.correct(word) or m[0]

        return _WORD.sub(fix, text)


def _with_canonical_math(text: str, spans: list[MathSpan]) -> str:
    out, pos = [], 0
    for s in spans:
        out += [text[pos : s.start], s.text]
        pos = s.end
    out.append(text[pos:])
    return "".join(out)


def _search_terms(text: str, spans: list[MathSpan]) -> list[str]:
    """Standard codes, then content words, once each; math is listed separately."""
    rest = text
    for s in spans:  # blank the math out, keeping offsets
        rest = rest[: s.start] + " " * (s.end - s.start) + rest[s.end :]
    codes = [m[0] for m in STANDARD_CODE_RE.finditer(rest)]
    rest = STANDARD_CODE_RE.sub(" ", rest)
    words = [
        w
        for w in (m[0].casefold() for m in _WORD.finditer(rest))
        if len(w) >= _MIN_TERM_LENGTH and w not in STOPWORDS and w not in _FILLER
    ]
    return list(dict.fromkeys([*codes, *words]))

"""The learned ranker at request time, shared by the route and rank stages: which model scores
a request (`scoring_ranker`, worked out once per request: `scoring_of`), its
query embedded (`ranker_query_vector`, started by `route` so that it overlaps the search), and
a ranker loaded on first need (`DeferredRanker`, a one-shot command's).

A request whose concepts the prior has labelled examples for is scored by the ranker with
the concepts' names; any other (text only, an unseen construct) that states a student's
answer by its text-only ranker, which reads what the student states: the problem and their
answer, as the reader reads a message (a worksheet's text as written).

Every function reads the request's facts (`retrieval/facts.py`) as the facts stage read them
once: nothing here reads the message again.

>>> scoring = scoring_ranker(ranker, request, facts)  # doctest: +SKIP
>>> query = await ranker_query_vector(scoring, graph, embedder, request, facts)  # doctest: +SKIP
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable

import numpy as np

from tutorgraph.config import SOURCE_TIMEOUT_S
from tutorgraph.embedding.batching import embed_async
from tutorgraph.embedding.embedder import Embedder
from tutorgraph.errors import ConfigurationError
from tutorgraph.ranking.model import LearnedRanker, RankerQuery, Scoring
from tutorgraph.ranking.query_text import concept_names, named_query, stated_query
from tutorgraph.retrieval.facts import RequestFacts, request_facts
from tutorgraph.retrieval.loaded import Loaded
from tutorgraph.retrieval.state import RequestState
from tutorgraph.stores.breaker import CircuitBreaker
from tutorgraph.stores.guard import guarded
from tutorgraph.stores.protocols import GraphStore
from tutorgraph_client.models.request import RetrievalRequest

__all__ = [
    "DeferredRanker",
    "may_be_scored",
    "ranker_query_vector",
    "scoring_of",
    "scoring_ranker",
    "stated_text",
]


_NO_CONCEPTS = "the request names no concept_ids, and the learned score needs its concept"
_NO_EVIDENCE = "no labelled examples on the request's concepts; first-stage order kept"


def scoring_ranker(
    ranker: LearnedRanker, request: RetrievalRequest, facts: RequestFacts
) -> Scoring:
    """The ranker that scores `request` (None: none will), the concepts it reads, and why
    none does. Without labelled examples on the request's concepts the concept ranker lost
    to the first stage in 5-fold CV, so such requests go to the text-only ranker, when a
    student's answer is known: it learnt from wrong answers only, and would put Eedi's
    misconceptions over an index's own for a plain question."""
    concepts = list(request.concept_ids)
    if concepts and ranker.prior.knows(concepts):
        return Scoring(ranker, concepts, "")
    why = _NO_EVIDENCE if concepts else _NO_CONCEPTS
    if ranker.text_only is None:
        return Scoring(None, [], why)
    if not facts.student_answer:
        return Scoring(None, [], f"{why}; the text-only ranker needs a student's answer")
    return Scoring(ranker.text_only, [], "")


def scoring_of(state: RequestState, ranker: LearnedRanker) -> Scoring:
    """Which of `ranker`'s models scores the request of `state` (`scoring_ranker`), worked out
    by the first stage that asks (route, or rank for a ranker loaded on first need) and kept
    in `state.scoring` for the others."""
    if state.scoring is None:
        state.scoring = scoring_ranker(ranker, state.request, state.facts)
    return state.scoring


def may_be_scored(request: RetrievalRequest) -> bool:
    """Whether a learned ranker may score `request`, as far as the request itself tells
    before any model runs: it names concepts, or gives or states a student's answer. (The
    refiner may still read an answer where this says no: a `DeferredRanker` then loads.)"""
    return bool(request.concept_ids) or request_facts(request, None).student_answer is not None


class DeferredRanker:
    """A learned ranker loaded when a request first needs one: a one-shot command's (a
    plain question, with no concept and no student's answer, never does; loading it is up
    to a second of a cold start on a busy 2-core machine). `load` gives the ranker or None
    and why (`load_ranker`'s answer); it runs once, in a worker thread. Until then the
    ranker is known by its `name` and by whether it has a text-only ranker (`text_only`),
    which is all it takes to say that a request will not be scored, in the words a loaded
    ranker would use."""

    def __init__(
        self,
        load: Callable[[], Loaded[LearnedRanker]],
        *,
        name: str,
        text_only: bool,
        status: Callable[[str], None] | None = None,
    ) -> None:
        self._load = load
        self._lock = threading.Lock()
        self._done: Loaded[LearnedRanker] | None = None
        self._status = status
        self.name = name
        self.text_only = text_only

    @property
    def loaded(self) -> LearnedRanker | None:
        """The ranker, once a request has loaded it (None before, or when it failed)."""
        return self._done[0] if self._done is not None else None

    def unscored(self, request: RetrievalRequest, facts: RequestFacts) -> str | None:
        """Why no ranker will score `request` whatever it has learnt (as `scoring_ranker`
        says it), or None when one may: then it must be loaded to know."""
        if request.concept_ids:
            return None
        if not self.text_only:
            return _NO_CONCEPTS
        if not facts.student_answer:
            return f"{_NO_CONCEPTS}; the text-only ranker needs a student's answer"
        return None

    def _get(self) -> Loaded[LearnedRanker]:
        with self._lock:
            if self._done is None:
                if self._status is not None:
                    self._status("loading the learned ranker")
                self._done = self._load()
            return self._done

    async def get(self) -> Loaded[LearnedRanker]:
        """The ranker (loaded now, off the event loop, if no request has yet) or None and
        why not."""
        if self._done is not None:
            return self._done
        return await asyncio.to_thread(self._get)


def stated_text(request: RetrievalRequest, facts: RequestFacts) -> str:
    """What the text-only ranker reads: the problem and the student's answer when the
    request gives or a message states them; a worksheet's text (it labels its answers) and
    a message whose problem is not read, as written.

    >>> request = RetrievalRequest(query="i got 1 for 0.6x0.4 but its wrong??")
    >>> stated_text(request, request_facts(request, None))
    '0.6 × 0.4\\nStudent answer: 1'
    """
    answer = facts.student_answer
    if facts.given_problem:  # the request's problem, or the dialogue's
        return stated_query(facts.given_problem, answer)
    reading = facts.reading
    if reading is None or reading.problem is None or reading.labelled:
        return named_query(request.query, [], student_answer=answer)
    return stated_query(reading.problem.value, answer)


async def ranker_query_vector(
    scoring: Scoring,
    graph: GraphStore,
    embedder: Embedder,
    request: RetrievalRequest,
    facts: RequestFacts,
    *,
    timeout_s: float = SOURCE_TIMEOUT_S,
    breaker: CircuitBreaker | None = None,
) -> RankerQuery | None:
    """The scoring model's query (the query with its concepts' names, or what the student
    states) embedded by the index's embedder and, when it reads one, the tuned encoder; None
    when no ranker will score this request (`scoring`: `scoring_ranker`'s answer). The route
    stage starts it so that it overlaps the search. The names are read from the graph under
    `timeout_s` and its `breaker`: a graph that is down leaves the query without them."""
    model, concepts, _ = scoring
    if model is None:
        return None
    if concepts:
        call = concept_names(graph, concepts)
        names = await guarded("graph", call, timeout_s, breaker=breaker) or []
        text = named_query(request.query, names, student_answer=facts.student_answer)
    else:
        text = stated_text(request, facts)
    tuned = model.tuned
    if tuned is None:
        vectors = await embed_async(embedder, [text])
        return RankerQuery(np.asarray(vectors[0], dtype=np.float32))
    if tuned.embedder is None:
        raise ConfigurationError("the ranker reads a tuned encoder, and none is loaded")
    vectors, tuned_vectors = await asyncio.gather(
        embed_async(embedder, [text]), embed_async(tuned.embedder, [text])
    )
    return RankerQuery(np.asarray(vectors[0], dtype=np.float32), tuned.query(tuned_vectors[0]))

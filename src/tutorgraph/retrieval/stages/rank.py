"""The rank stage: misconception hits get the learned ranker's score, the ranker's own
proposals join them, and the misconceptions are re-ordered by it.

A request whose concepts the prior has labelled examples for is scored by the ranker with
the concepts' names; any other (text only, an unseen construct) that states a student's
answer by its text-only ranker, which reads what the student states: the problem and their
answer, as the reader reads a message (a worksheet's text as written).

>>> hits, info, parts = await learned_rank(ranker, graph, embedder, request, None, route,
...     hits, proposals=40)  # doctest: +SKIP
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Callable

import numpy as np

from tutorgraph.embedding.batching import embed_async
from tutorgraph.embedding.embedder import Embedder
from tutorgraph.errors import ConfigurationError
from tutorgraph.ranking.model import CandidateSignals, LearnedRanker, RankerQuery
from tutorgraph.ranking.query_text import concept_names, named_query, stated_query
from tutorgraph.retrieval.facts import request_facts
from tutorgraph.retrieval.hits import misconception_hit
from tutorgraph.retrieval.pipeline import RequestState, Stage, await_shared
from tutorgraph.retrieval.router import Route
from tutorgraph.stores.protocols import GraphStore
from tutorgraph_client.models.packet import Hit, RankerInfo
from tutorgraph_client.models.refined_query import RefinedQuery
from tutorgraph_client.models.request import RetrievalRequest

__all__ = [
    "DeferredRanker",
    "RankStage",
    "learned_rank",
    "may_be_scored",
    "ranker_query_vector",
    "scoring_ranker",
    "stated_text",
]

_NO_CONCEPTS = "the request names no concept_ids, and the learned score needs its concept"
_NO_EVIDENCE = "no labelled examples on the request's concepts; first-stage order kept"


def scoring_ranker(
    ranker: LearnedRanker, request: RetrievalRequest, refined: RefinedQuery | None
) -> tuple[LearnedRanker | None, list[str], str]:
    """The ranker that scores `request` (None: none will), the concepts it reads, and why
    none does. Without labelled examples on the request's concepts the concept ranker lost
    to the first stage in 5-fold CV, so such requests go to the text-only ranker, when a
    student's answer is known: it learnt from wrong answers only, and would put Eedi's
    misconceptions over an index's own for a plain question."""
    concepts = list(request.concept_ids)
    if concepts and ranker.prior.knows(concepts):
        return ranker, concepts, ""
    why = _NO_EVIDENCE if concepts else _NO_CONCEPTS
    if ranker.text_only is None:
        return None, [], why
    if not _student_answer(request, refined):
        return None, [], f"{why}; the text-only ranker needs a student's answer"
    return ranker.text_only, [], ""


def may_be_scored(request: RetrievalRequest) -> bool:
    """Whether a learned ranker may score `request`, as far as the request itself tells
    before any model runs: it names concepts, or gives or states a student's answer. (The
    refiner may still read an answer where this says no: a `DeferredRanker` then loads.)"""
    return bool(request.concept_ids) or _student_answer(request, None) is not None


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
        load: Callable[[], tuple[LearnedRanker | None, str]],
        *,
        name: str,
        text_only: bool,
        status: Callable[[str], None] | None = None,
    ) -> None:
        self._load = load
        self._lock = threading.Lock()
        self._done: tuple[LearnedRanker | None, str] | None = None
        self._status = status
        self.name = name
        self.text_only = text_only

    @property
    def loaded(self) -> LearnedRanker | None:
        """The ranker, once a request has loaded it (None before, or when it failed)."""
        return self._done[0] if self._done is not None else None

    def unscored(self, request: RetrievalRequest, refined: RefinedQuery | None) -> str | None:
        """Why no ranker will score `request` whatever it has learnt (as `scoring_ranker`
        says it), or None when one may: then it must be loaded to know."""
        if request.concept_ids:
            return None
        if not self.text_only:
            return _NO_CONCEPTS
        if not _student_answer(request, refined):
            return f"{_NO_CONCEPTS}; the text-only ranker needs a student's answer"
        return None

    def _get(self) -> tuple[LearnedRanker | None, str]:
        with self._lock:
            if self._done is None:
                if self._status is not None:
                    self._status("loading the learned ranker")
                self._done = self._load()
            return self._done

    async def get(self) -> tuple[LearnedRanker | None, str]:
        """The ranker (loaded now, off the event loop, if no request has yet) or None and
        why not."""
        if self._done is not None:
            return self._done
        return await asyncio.to_thread(self._get)


def _student_answer(request: RetrievalRequest, refined: RefinedQuery | None) -> str | None:
    """The request's facts' answer (`retrieval/facts.py`: the request's, else the one the
    message states, else the refiner's; the reader is cached, so this reads nothing twice)."""
    return request_facts(request, refined).student_answer


def stated_text(request: RetrievalRequest, refined: RefinedQuery | None) -> str:
    """What the text-only ranker reads: the problem and the student's answer when the
    request gives or a message states them; a worksheet's text (it labels its answers) and
    a message whose problem is not read, as written.

    >>> stated_text(RetrievalRequest(query="i got 1 for 0.6x0.4 but its wrong??"), None)
    '0.6 × 0.4\\nStudent answer: 1'
    """
    facts = request_facts(request, refined)
    answer = facts.student_answer
    if request.problem:
        return stated_query(request.problem, answer)
    reading = facts.reading
    if reading is None or reading.problem is None or reading.labelled:
        return named_query(request.query, [], student_answer=answer)
    return stated_query(reading.problem.value, answer)


async def ranker_query_vector(
    ranker: LearnedRanker,
    graph: GraphStore,
    embedder: Embedder,
    request: RetrievalRequest,
    refined: RefinedQuery | None,
) -> RankerQuery | None:
    """The scoring ranker's query (the query with its concepts' names, or what the student
    states) embedded by the index's embedder and, when it reads one, the tuned encoder; None
    when no ranker will score this request. The retriever starts it beside the first
    stage."""
    model, concepts, _ = scoring_ranker(ranker, request, refined)
    if model is None:
        return None
    if concepts:
        answer = _student_answer(request, refined)
        names = await concept_names(graph, concepts)
        text = named_query(request.query, names, student_answer=answer)
    else:
        text = stated_text(request, refined)
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


async def learned_rank(
    ranker: LearnedRanker,
    graph: GraphStore,
    embedder: Embedder,
    request: RetrievalRequest,
    refined: RefinedQuery | None,
    route: Route,
    hits: list[Hit],
    *,
    proposals: int,
    query_vector: Awaitable[RankerQuery | None] | None = None,
) -> tuple[list[Hit], RankerInfo, dict[str, dict[str, float]]]:
    """Give misconceptions their learned score, add those it proposes, and re-order them.

    The misconceptions keep the places the earlier stages gave misconceptions, now in
    learned order; proposals compete for those places. For a misconception query (a
    student's answer is known) the misconceptions come first. Returns the hits, what
    happened, and each scored hit's feature contributions (for the debug block).
    """
    model, concepts, reason = scoring_ranker(ranker, request, refined)
    if model is None:
        return hits, RankerInfo(model=_name(ranker, None), reason=reason), {}
    combiner = model.combiner
    assert combiner is not None  # the retriever runs this stage only with one
    name = _name(ranker, model)
    query = await (
        query_vector
        if query_vector is not None
        else ranker_query_vector(ranker, graph, embedder, request, refined)
    )
    assert query is not None  # the checks above are the ones it makes
    vector, tuned = query
    slots = [i for i, h in enumerate(hits) if h.kind == "misconception"]
    known = {i for h in hits if h.kind == "misconception" for i in h.ids}
    proposed_ids = [
        m
        for m in await asyncio.to_thread(model.propose, vector, concepts, proposals, tuned=tuned)
        if m not in known
    ]
    proposed = [misconception_hit(m) for m in await graph.get_misconceptions(proposed_ids)]
    pool = [hits[i] for i in slots] + proposed
    signals = [
        CandidateSignals(
            h.id,
            h.source_ranks,
            h.source_scores,
            h.fused_score if h.found_by else None,
            h.rerank_score,
        )
        for h in pool
    ]
    rows = await asyncio.to_thread(model.features, vector, concepts, signals, tuned=tuned)
    scores = combiner.score(rows)
    parts = combiner.contributions(rows) if request.debug else []
    for hit, s in zip(pool, scores, strict=True):
        hit.learned_score = s
        hit.score = s
    order = sorted(range(len(pool)), key=lambda n: (-scores[n], pool[n].id))
    ranked = [pool[n] for n in order]
    contributions = {pool[n].id: parts[n] for n in order} if parts else {}
    if route.analysis.query_type == "misconception":  # every misconception will lead
        out = ranked + [h for h in hits if h.kind != "misconception"]
    else:
        out = list(hits)
        for slot, hit in zip(slots, ranked, strict=False):
            out[slot] = hit
    for hit in proposed:  # provenance, set after scoring (the features read `found_by`)
        hit.found_by = ["ranker"]
        hit.source_scores = {"ranker": hit.learned_score or 0.0}
    # `proposed` is counted by the finish stage, after the final cut.
    info = RankerInfo(applied=True, model=name)
    return out, info, contributions


def _name(ranker: LearnedRanker, model: LearnedRanker | None) -> str:
    """The scoring model's name (the ranker's when none scores)."""
    name = str(ranker.info.get("name", "learned-ranker"))
    return name if model is None else str(model.info.get("name", name))


class RankStage(Stage):
    """Re-orders the misconceptions of `state.hits`; sets `state.ranker_info` and, for the
    debug block, `state.contributions`. A ranker that fails keeps the first-stage order."""

    name = "rank"
    timing = "rank"
    required = False

    def __init__(
        self,
        ranker: LearnedRanker | DeferredRanker | None,
        graph: GraphStore,
        embedder: Embedder,
        *,
        proposals: int,
        unavailable: str,
    ) -> None:
        self._ranker = ranker
        self._graph = graph
        self._embedder = embedder
        self._proposals = proposals
        self._unavailable = unavailable

    async def run(self, state: RequestState) -> bool:
        ranker = self._ranker
        unavailable = self._unavailable
        if isinstance(ranker, DeferredRanker):
            reason = ranker.unscored(state.request, state.refined)
            if reason is not None:  # not loaded for a request it would not score
                state.ranker_info = RankerInfo(model=ranker.name, reason=reason)
                return False
            ranker, unavailable = await ranker.get()
        if ranker is None or ranker.combiner is None:
            state.ranker_info = RankerInfo(reason=unavailable)
            return False
        state.hits, state.ranker_info, state.contributions = await learned_rank(
            ranker,
            self._graph,
            self._embedder,
            state.request,
            state.refined,
            state.route,
            state.hits,
            proposals=self._proposals,
            query_vector=(
                None
                if state.ranker_vector is None
                else await_shared(state.ranker_vector, "ranker's query embedding")
            ),
        )
        return state.ranker_info.applied

    def degrade(self, state: RequestState, reason: str) -> None:
        ranker = self._ranker
        if isinstance(ranker, DeferredRanker):
            if ranker.loaded is None:  # it failed while loading
                state.ranker_info = RankerInfo(model=ranker.name, reason=reason)
                return
            ranker = ranker.loaded
        assert ranker is not None  # it only fails when it runs
        model = scoring_ranker(ranker, state.request, state.refined)[0]
        state.ranker_info = RankerInfo(model=_name(ranker, model), reason=reason)

"""What one request has gathered so far (`RequestState`), passed from stage to stage, and
the shared waits its stages use: the query embedding (`await_shared`) and the link stage's
task (`await_linking`).

The state holds data, no policy: which ranker scores a request is `ranker_runtime`'s to say,
and the runner (`pipeline.py`) imports no model.

>>> state = RequestState(RetrievalRequest(query="why is 3/4 bigger than 2/3?"))
>>> state.facts.student_answer is None
True
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from tutorgraph.errors import SourceUnavailableError, TutorGraphError
from tutorgraph.retrieval.facts import RequestFacts
from tutorgraph_client.models.packet import (
    TIMING_KEYS,
    AnswerCheck,
    Conflict,
    DiagnosisFinding,
    GradeInfo,
    Hit,
    LanguageInfo,
    LinkedConcept,
    RankerInfo,
    RerankerInfo,
    ScopeInfo,
)
from tutorgraph_client.models.refined_query import RefinedQuery
from tutorgraph_client.models.request import RetrievalRequest, SourceName

if TYPE_CHECKING:  # field types only: the state imports no model or stage
    import numpy as np
    import numpy.typing as npt

    from tutorgraph.ranking.model import RankerQuery, Scoring
    from tutorgraph.retrieval.candidates import Candidate
    from tutorgraph.retrieval.fusion import FusedHit
    from tutorgraph.retrieval.graph_search import GraphPlan, GraphSearchResult
    from tutorgraph.retrieval.merge import MergedHit
    from tutorgraph.retrieval.router import Route
    from tutorgraph.retrieval.slots import SlotPicks
    from tutorgraph.retrieval.topic import Topic
    from tutorgraph.stores.protocols import ScoredItem

__all__ = [
    "INITIAL",
    "Linking",
    "NearDuplicates",
    "RequestState",
    "await_linking",
    "await_shared",
]

T = TypeVar("T")


async def await_shared(task: asyncio.Task[T], what: str) -> T:
    """`task`'s result without letting the caller's cancellation reach it.

    Several stages await one task (the query embedding); a source's timeout cancels its own
    await, and without the shield it would cancel the task for every other stage too. A task
    that failed or was cancelled raises `SourceUnavailableError`, an ordinary exception that
    degrades the source or stage awaiting it, never a `CancelledError` that fails the request.
    The caller's own cancellation still propagates.
    """
    try:
        return await asyncio.shield(task)
    except asyncio.CancelledError:
        if not task.cancelled():
            raise  # the caller itself was cancelled
        raise SourceUnavailableError(f"the {what} was cancelled") from None
    except TutorGraphError:
        raise
    except Exception as exc:
        raise SourceUnavailableError(f"the {what} failed: {type(exc).__name__}: {exc}") from exc


@dataclass(frozen=True)
class Linking:
    """What the link stage found: the caller's concepts, then the linker's (with chains), and
    whether the linker ran (False: no linker, or no query embedding to link with)."""

    concepts: list[LinkedConcept]
    linker_ran: bool


@dataclass(frozen=True)
class NearDuplicates:
    """What the dedupe stage's near-duplicate merge did (the debug block's
    `near_duplicates`): its threshold (None: off), how many hits it folded, and why it was
    skipped (the vector store failed)."""

    threshold: float | None
    merged: int = 0
    skipped: str | None = None

    def debug(self) -> dict[str, Any]:
        """The debug block's entry (`skipped` only when it was)."""
        out: dict[str, Any] = {"threshold": self.threshold, "merged": self.merged}
        if self.skipped is not None:
            out["skipped"] = self.skipped
        return out


@dataclass
class RequestState:
    """What one request has gathered so far; each stage fills its own fields."""

    request: RetrievalRequest
    # The packet's contract timings (0 for a stage that did not run), and every stage's own.
    timings: dict[str, float] = field(default_factory=lambda: dict.fromkeys(TIMING_KEYS, 0.0))
    stage_ms: dict[str, float] = field(default_factory=dict)
    degraded_stages: dict[str, str] = field(default_factory=dict)
    started: float = field(default_factory=time.perf_counter)
    refined: RefinedQuery | None = None
    # The message's language (refine stage; `refinement/language.py`): another language is
    # not spell-corrected, and the packet says so.
    language: LanguageInfo = field(default_factory=LanguageInfo)
    # The request's facts, read once by the facts stage (`retrieval/facts.py`); until then
    # (and when the reading fails or runs out of time) the request's own fields.
    facts: RequestFacts = field(init=False)
    route: Route = field(init=False)
    # Embeddings started by `route` so that they overlap the search; stages await the shared
    # query embedding through `query_embedding()`, never the task itself.
    query_vector: asyncio.Task[npt.NDArray[np.float32]] | None = None
    ranker_vector: asyncio.Task[RankerQuery | None] | None = None
    # The message as typed, when the refiner rewrote it and a scope model reads it (`route`
    # starts it once the query embedding is done; `scope` awaits it).
    message_vector: asyncio.Task[npt.NDArray[np.float32]] | None = None
    # Which learned model scores the request, worked out once (`ranker_runtime.scoring_of`).
    scoring: Scoring | None = None
    # The concepts the request is about, linked by `link` (before the search, in a task that
    # awaits the query embedding); the graph search seeds from them, `search` sets `linked`.
    linking: asyncio.Task[Linking] | None = None
    raw: dict[SourceName, list[ScoredItem]] = field(default_factory=dict)
    graph: GraphSearchResult | None = None
    # The graph plan the search ran (the debug block reports it as it was decided).
    graph_plan: GraphPlan | None = None
    # Each source that failed, timed out or was skipped by its circuit breaker, and why.
    degraded: dict[SourceName, str] = field(default_factory=dict)
    linked: list[LinkedConcept] = field(default_factory=list)
    # A dialogue's topic for this turn (link stage; `retrieval/topic.py`); None without one.
    topic: Topic | None = None
    # The concepts whose candidates graph scoping boosted (merge stage; empty: unscoped).
    graph_scope: set[str] = field(default_factory=set)
    results: dict[SourceName, list[Candidate]] = field(default_factory=dict)
    merged: list[MergedHit] = field(default_factory=list)
    fused: list[FusedHit] = field(default_factory=list)
    # The weight each source's results were fused with (fuse stage).
    fusion_weights: dict[SourceName, float] = field(default_factory=dict)
    hits: list[Hit] = field(default_factory=list)
    # The final order before the cut to `n_results` (the packet's slots reach past the cut).
    uncut: list[Hit] = field(default_factory=list)
    conflicts: list[Conflict] = field(default_factory=list)
    near_duplicates: NearDuplicates | None = None
    reranker_info: RerankerInfo = field(default_factory=RerankerInfo)
    ranker_info: RankerInfo = field(default_factory=RankerInfo)
    contributions: dict[str, dict[str, float]] = field(default_factory=dict)
    findings: list[DiagnosisFinding] = field(default_factory=list)
    # The lessons nearest the query (`stages/lessons.py`); then the teach slot's (`slots`).
    lessons: list[Hit] = field(default_factory=list)
    # The packet's slots, held together by the linked standards (`stages/_slots.py`); None
    # when the stage did not run (the packet then splits the results by kind).
    slots: SlotPicks | None = None
    answer_check: AnswerCheck | None = None
    diagnosis_skipped: str | None = None
    # The scope stage's verdict: in scope or not, and the calibrated confidences.
    scope_info: ScopeInfo = field(default_factory=ScopeInfo)
    # The grade the linker used (the request's, else the one it inferred; link stage).
    grade_info: GradeInfo = field(default_factory=GradeInfo)
    confidence: dict[str, float | None] = field(default_factory=dict)
    context: str = ""

    def __post_init__(self) -> None:
        self.facts = RequestFacts.given(self.request)

    async def query_embedding(self) -> npt.NDArray[np.float32]:
        """The shared query embedding (`await_shared`); raises `SourceUnavailableError` when
        it failed, was cancelled or was never started."""
        if self.query_vector is None:
            raise SourceUnavailableError("the query was not embedded")
        return await await_shared(self.query_vector, "query embedding")


async def await_linking(state: RequestState, timeout_s: float) -> Linking | None:
    """The link stage's concepts, waiting at most `timeout_s` for them (never cancelling the
    task: the graph search and the search stage both wait); None when the stage did not run,
    was cancelled or has not finished by then."""
    task = state.linking
    if task is None:
        return None
    if not task.done():
        await asyncio.wait({task}, timeout=timeout_s)
    if not task.done() or task.cancelled():
        return None
    return task.result()


# The fields a request starts with: the request and the pipeline's bookkeeping, which every
# stage may read and add to (`run_stages` times them; a degraded stage says why).
INITIAL = frozenset({"request", "timings", "stage_ms", "degraded_stages", "started"})

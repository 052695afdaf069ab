"""The request pipeline: a state carried through stages, one timer and one failure policy.

Each stage reads what the stages before it left in the `RequestState` and adds its own part.
`run_stages` times every stage (`RequestState.stage_ms`; the packet's `timings_ms` keys get
the time of the stages that report under them) and applies one failure policy: an optional
stage that fails degrades, with its name and the reason, and the request goes on; a required
one that fails raises the library's error naming the stage (a `TutorGraphError` it raised on
purpose, such as an unknown concept, propagates as it is).

Each stage declares the `RequestState` fields it reads and writes (`Stage.reads`,
`Stage.writes`); `check_stage_order` refuses a list in which a stage reads a field that no
earlier stage writes (the request and the bookkeeping fields, `INITIAL`, are there from the
start), and `retrieval/stage_table.py` renders the declarations as DESIGN section 2's table.

>>> state = RequestState(RetrievalRequest(query="why is 3/4 bigger than 2/3?"))
>>> await run_stages(retriever.stages, state)  # doctest: +SKIP
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, TypeVar

import numpy as np
import numpy.typing as npt

from tutorgraph.errors import (
    ConfigurationError,
    SourceUnavailableError,
    StageFailedError,
    TutorGraphError,
    failure_reason,
)
from tutorgraph.ranking.model import LearnedRanker, RankerQuery
from tutorgraph.retrieval.candidates import Candidate
from tutorgraph.retrieval.facts import RequestFacts
from tutorgraph.retrieval.fusion import FusedHit
from tutorgraph.retrieval.graph_search import GraphSearchResult
from tutorgraph.retrieval.merge import MergedHit
from tutorgraph.retrieval.ranker_runtime import Scoring, scoring_ranker
from tutorgraph.retrieval.router import Route
from tutorgraph.stores.protocols import ScoredItem
from tutorgraph_client.models.packet import (
    STAGES,
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

if TYPE_CHECKING:  # the stages' `make` only; neither module imports this one's stages
    from tutorgraph.retrieval.retriever_config import RetrieverConfig
    from tutorgraph.retrieval.stage_deps import StageDeps

__all__ = [
    "INITIAL",
    "Linking",
    "NearDuplicates",
    "RequestState",
    "Stage",
    "await_linking",
    "await_shared",
    "check_stage_order",
    "declared",
    "run_stages",
]

log = logging.getLogger(__name__)
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


def elapsed_ms(start: float) -> float:
    """Milliseconds since `start` (a `time.perf_counter()` reading), to the microsecond."""
    return round((time.perf_counter() - start) * 1000.0, 3)


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
    timings: dict[str, float] = field(default_factory=lambda: dict.fromkeys(STAGES, 0.0))
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
    # Which learned model scores the request, worked out once (`ranker_scoring`).
    scoring: Scoring | None = None
    # The concepts the request is about, linked by `link` (before the search, in a task that
    # awaits the query embedding); the graph search seeds from them, `search` sets `linked`.
    linking: asyncio.Task[Linking] | None = None
    raw: dict[SourceName, list[ScoredItem]] = field(default_factory=dict)
    graph: GraphSearchResult | None = None
    # Each source that failed, timed out or was skipped by its circuit breaker, and why.
    degraded: dict[SourceName, str] = field(default_factory=dict)
    linked: list[LinkedConcept] = field(default_factory=list)
    scope: set[str] = field(default_factory=set)
    results: dict[SourceName, list[Candidate]] = field(default_factory=dict)
    merged: list[MergedHit] = field(default_factory=list)
    fused: list[FusedHit] = field(default_factory=list)
    hits: list[Hit] = field(default_factory=list)
    # The final order before the cut to `n_results` (the packet's slots reach past the cut).
    uncut: list[Hit] = field(default_factory=list)
    conflicts: list[Conflict] = field(default_factory=list)
    near_duplicates: NearDuplicates | None = None
    reranker_info: RerankerInfo = field(default_factory=RerankerInfo)
    ranker_info: RankerInfo = field(default_factory=RankerInfo)
    contributions: dict[str, dict[str, float]] = field(default_factory=dict)
    findings: list[DiagnosisFinding] = field(default_factory=list)
    # The lessons nearest the query (`stages/lessons.py`).
    lessons: list[Hit] = field(default_factory=list)
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

    def ranker_scoring(self, ranker: LearnedRanker) -> Scoring:
        """Which of `ranker`'s models scores this request (`scoring_ranker`), worked out by
        the first stage that asks (route, or rank for a ranker loaded on first need) and kept
        in `scoring` for the others."""
        if self.scoring is None:
            self.scoring = scoring_ranker(ranker, self.request, self.facts)
        return self.scoring


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


class Stage(Protocol):
    """One step of the pipeline. Stages subclass this to inherit its defaults.

    `name` names the stage in `stage_ms`, logs and errors; `timing` is the `timings_ms` key
    its time adds to (None: the total only); an optional stage that fails is `degrade`d.
    `reads` and `writes` name the `RequestState` fields it reads and writes (besides
    `INITIAL`'s), including those of the tasks it starts; `check_stage_order` checks them.
    """

    name: ClassVar[str]
    timing: ClassVar[str | None] = None
    required: ClassVar[bool] = True
    reads: ClassVar[frozenset[str]]
    writes: ClassVar[frozenset[str]]

    @classmethod
    def make(cls, deps: StageDeps, config: RetrieverConfig) -> Stage:
        """The stage, made with what it needs of `deps` and `config` (`build_stages`)."""
        ...

    async def run(self, state: RequestState) -> bool:
        """Do the stage's work on `state`; False when it had nothing to do (its `timings_ms`
        key then stays 0, as for a stage that did not run)."""
        ...

    def degrade(self, state: RequestState, reason: str) -> None:
        """Leave `state` as the stage's failure leaves it (optional stages only; by default
        the fields the stage did not get to set keep their empty values)."""
        del state, reason


async def run_stages(stages: Sequence[Stage], state: RequestState) -> RequestState:
    """Run `stages` in order on `state`, each timed, under the one failure policy."""
    for stage in stages:
        started = time.perf_counter()
        try:
            ran = await stage.run(state)
        except Exception as exc:
            if stage.required:
                if isinstance(exc, TutorGraphError):
                    raise
                raise StageFailedError(stage.name, exc) from exc
            reason = failure_reason(stage.name, exc)
            # A backend that is down says why in one line; a bug gets its trace.
            trace = None if isinstance(exc, TutorGraphError) else exc
            log.warning(
                "stage %s failed (%s); the request goes on without it",
                stage.name,
                exc,
                exc_info=trace,
            )
            state.degraded_stages[stage.name] = reason
            stage.degrade(state, reason)
            ran = True
        ms = elapsed_ms(started)
        state.stage_ms[stage.name] = ms
        if stage.timing is not None and ran:
            state.timings[stage.timing] = round(state.timings[stage.timing] + ms, 3)
    return state


def declared(stage: Stage | type[Stage], what: str) -> frozenset[str]:
    """The fields `stage` declares it `what`s ("reads" or "writes"); `ConfigurationError`
    when it declares none."""
    value = getattr(stage, what, None)
    if not isinstance(value, frozenset):
        raise ConfigurationError(
            f"the {stage.name} stage declares no `{what}` (a frozenset of RequestState fields)"
        )
    return value


def check_stage_order(stages: Iterable[Stage | type[Stage]]) -> None:
    """Raise `ConfigurationError` unless every stage reads only fields that an earlier stage
    writes (or `INITIAL` ones), names only `RequestState` fields, and has a name of its own.

    >>> check_stage_order([FinishStage])  # doctest: +SKIP
    ConfigurationError: the finish stage reads hits, lessons, ranker_info, route, which no
    earlier stage writes (stages in order: finish)
    """
    known = {f.name for f in fields(RequestState)}
    written = set(INITIAL)
    order: list[str] = []
    for stage in stages:
        reads, writes = declared(stage, "reads"), declared(stage, "writes")
        if stage.name in order:
            raise ConfigurationError(f"two stages are named {stage.name!r}")
        order.append(stage.name)
        if unknown := sorted((reads | writes) - known):
            raise ConfigurationError(
                f"the {stage.name} stage declares {', '.join(unknown)}, "
                "which RequestState does not have"
            )
        if missing := sorted(reads - written):
            raise ConfigurationError(
                f"the {stage.name} stage reads {', '.join(missing)}, which no earlier stage "
                f"writes (stages in order: {', '.join(order)})"
            )
        written |= writes

"""The request pipeline: a state carried through stages (`state.py`), one timer and one
failure policy. The runner knows stages and the state's fields, nothing of what a stage does:
it imports no model.

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

import logging
import time
from collections.abc import Iterable, Sequence
from dataclasses import fields
from typing import TYPE_CHECKING, ClassVar, Protocol

from tutorgraph.errors import (
    ConfigurationError,
    StageFailedError,
    TutorGraphError,
    failure_reason,
)
from tutorgraph.retrieval.state import INITIAL, RequestState
from tutorgraph_client.models.packet import TIMING_KEYS

if TYPE_CHECKING:  # the stages' `make` only; neither module imports this one's stages
    from tutorgraph.retrieval.retriever_config import RetrieverConfig
    from tutorgraph.retrieval.stage_deps import StageDeps

__all__ = ["Stage", "check_stage_order", "declared", "elapsed_ms", "run_stages"]

log = logging.getLogger(__name__)


def elapsed_ms(start: float) -> float:
    """Milliseconds since `start` (a `time.perf_counter()` reading), to the microsecond."""
    return round((time.perf_counter() - start) * 1000.0, 3)


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
    writes (or `INITIAL` ones), names only `RequestState` fields, reports its time under a
    key of `timings_ms` (or none), and has a name of its own.

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
        if stage.timing is not None and stage.timing not in TIMING_KEYS:
            raise ConfigurationError(
                f"the {stage.name} stage reports its time under {stage.timing!r}, which is no "
                f"key of a packet's timings_ms ({', '.join(TIMING_KEYS)})"
            )
        if missing := sorted(reads - written):
            raise ConfigurationError(
                f"the {stage.name} stage reads {', '.join(missing)}, which no earlier stage "
                f"writes (stages in order: {', '.join(order)})"
            )
        written |= writes

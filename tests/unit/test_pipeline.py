"""The request pipeline's one timer and one failure policy (`retrieval.pipeline`)."""

from __future__ import annotations

import asyncio

import pytest

from tutorgraph.errors import SourceUnavailableError, StageFailedError, UnknownConceptError
from tutorgraph.retrieval.pipeline import Stage, run_stages
from tutorgraph.retrieval.state import RequestState
from tutorgraph_client.models.request import RetrievalRequest

pytestmark = pytest.mark.unit


class _Sleep(Stage):
    name = "merge"
    timing = "merge"

    def __init__(self, ran: bool = True) -> None:
        self._ran = ran

    async def run(self, state: RequestState) -> bool:
        await asyncio.sleep(0.01)
        return self._ran


class _Dedupe(_Sleep):
    name = "dedupe"


class _Broken(Stage):
    name = "rerank"
    timing = "rerank"
    required = False

    async def run(self, state: RequestState) -> bool:
        raise RuntimeError("boom")

    def degrade(self, state: RequestState, reason: str) -> None:
        state.diagnosis_skipped = reason


class _Down(_Broken):
    async def run(self, state: RequestState) -> bool:
        raise SourceUnavailableError("neo4j is down")


class _Bug(Stage):
    name = "fuse"

    async def run(self, state: RequestState) -> bool:
        raise KeyError("oops")


class _Refuses(Stage):
    name = "check"

    async def run(self, state: RequestState) -> bool:
        raise UnknownConceptError(["ccss:9.ZZ.Z.9"])


def _state() -> RequestState:
    return RequestState(RetrievalRequest(query="why is 3/4 bigger than 2/3?"))


async def test_every_stage_is_timed_and_stages_sharing_a_key_add_up() -> None:
    state = await run_stages([_Sleep(), _Dedupe()], _state())
    assert set(state.stage_ms) == {"merge", "dedupe"}
    assert min(state.stage_ms.values()) >= 10.0
    assert state.timings["merge"] == pytest.approx(sum(state.stage_ms.values()), abs=0.01)


async def test_a_stage_that_did_nothing_reports_zero_under_its_key() -> None:
    state = await run_stages([_Sleep(ran=False)], _state())
    assert state.timings["merge"] == 0.0 and state.stage_ms["merge"] >= 10.0


async def test_a_failed_optional_stage_degrades_with_its_name_and_reason() -> None:
    state = await run_stages([_Broken(), _Sleep()], _state())
    assert state.degraded_stages == {"rerank": "rerank failed: RuntimeError"}
    assert state.diagnosis_skipped == "rerank failed: RuntimeError"
    assert "merge" in state.stage_ms  # the request went on


async def test_a_failed_required_stage_raises_the_library_error_naming_it() -> None:
    with pytest.raises(StageFailedError, match="the fuse stage failed: KeyError") as caught:
        await run_stages([_Bug(), _Sleep()], _state())
    assert caught.value.details == {"stage": "fuse"} and caught.value.code == "stage_failed"
    assert isinstance(caught.value.__cause__, KeyError)


async def test_an_error_raised_on_purpose_propagates_as_it_is() -> None:
    with pytest.raises(UnknownConceptError):
        await run_stages([_Refuses()], _state())


async def test_a_backend_that_is_down_is_one_line_and_a_bug_gets_its_trace(
    caplog: pytest.LogCaptureFixture,
) -> None:
    await run_stages([_Down(), _Broken()], _state())
    down, bug = caplog.records
    assert "neo4j is down" in down.getMessage() and down.exc_info is None
    assert bug.exc_info is not None and isinstance(bug.exc_info[1], RuntimeError)

"""`tutorgraph_client` against the real served app: uvicorn on a free loopback port over a
copy of the session index (real MiniLM, Chroma, BM25, graph), a real OpenAI-compatible
answer model on another port, and real HTTP in between."""

from __future__ import annotations

import asyncio
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from tests.contract.chroma_server import free_port
from tests.integration.api_support import ADMIN, LIMITED, READ, settings_for, tar_gz
from tests.integration.local_openai import LocalOpenAI, local_openai_server, serving

from tutorgraph.api import create_app
from tutorgraph.errors import (
    APIConnectionError,
    AuthenticationError,
    ConceptNotFoundError,
    PermissionDeniedError,
    RateLimitedError,
    UnknownConceptError,
)
from tutorgraph.synthesis.citations import citable_ids
from tutorgraph_client import AsyncTutorGraph, Turn, TutorGraph
from tutorgraph_client.models.answer import AnswerResult
from tutorgraph_client.models.packet import ReasoningPacket
from tutorgraph_client.models.request import RetrievalRequest

pytestmark = pytest.mark.integration

QUERY = "why is 3/4 bigger than 2/3?"


@dataclass
class Served:
    url: str
    answer_model: LocalOpenAI
    index_dir: Path


@pytest.fixture(scope="module")
def served(session_index, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:  # type: ignore[no-untyped-def]
    index_dir = tmp_path_factory.mktemp("client") / "index"
    shutil.copytree(session_index[0], index_dir)
    with local_openai_server() as model:
        settings = settings_for(
            index_dir,
            reranker_model="",
            rate_limit_per_minute=2000,
            openai_base_url=model.base_url,
            answer_model="local-model",
        )
        # Models load at start-up: a generous start timeout on a busy 2-core runner.
        with serving(create_app(settings), start_timeout_s=300) as url:
            yield Served(url, model, index_dir)


def test_sync_retrieve_is_the_library_packet(served: Served, retriever) -> None:  # type: ignore[no-untyped-def]
    request = RetrievalRequest(query=QUERY, use_refinement=False, n_results=15)
    with TutorGraph(served.url, api_key=READ) as tg:
        over_http = tg.retrieve(request)
        by_fields = tg.retrieve(QUERY, use_refinement=False, n_results=15)
    direct = asyncio.run(retriever.retrieve(request))
    assert isinstance(over_http, ReasoningPacket)
    assert [h.id for h in over_http.results] == [h.id for h in direct.results]
    assert [h.id for h in by_fields.results] == [h.id for h in direct.results]
    # The served app loads the bundled scope model: confidences and slots come over HTTP.
    assert over_http.scope.applied and over_http.confidence is not None
    assert not over_http.no_match and over_http.slots.teach.hits
    with TutorGraph(served.url, api_key=READ) as tg:
        unsure = tg.retrieve("can you tell me who won the football game last night")
        graded = tg.retrieve(QUERY, grade=6)
    assert unsure.no_match and (unsure.no_match_reason or "").startswith("off_topic")
    # The served app loads the bundled standards model: a packet without a grade reports
    # the band it reads, one with a grade reports that grade (issue 48).
    assert over_http.grade.source == "inferred" and over_http.grade.band is not None
    assert graded.grade.grade == "6" and graded.grade.source == "request"


def test_retrieve_a_turn_of_a_dialogue(served: Served) -> None:
    """`tg.retrieve(turn, conversation=[...])`: the turns as `Turn`s or dicts (issue 63)."""
    conversation = [
        Turn(role="tutor", text="What is 7 x 6?"),
        {"role": "student", "text": "brb"},
    ]
    with TutorGraph(served.url, api_key=READ) as tg:
        packet = tg.retrieve("i got 41", conversation=conversation)
    dialogue = packet.dialogue
    assert dialogue is not None and (dialogue.turns, dialogue.problem_turn) == (2, 0)
    assert dialogue.student_answer_turn == 2 and dialogue.topic == "carried"
    check = packet.answer_check
    assert check is not None and (check.problem, check.correct) == ("7 × 6", False)


def test_async_answer_stream_and_json(served: Served) -> None:
    served.answer_model.reset("bad_citation")

    async def go() -> tuple[list[object], object]:
        async with AsyncTutorGraph(served.url, api_key=READ) as tg:
            events = [e async for e in tg.answer_stream(QUERY)]
            one = await tg.answer(QUERY)
            return events, one

    events, one = asyncio.run(go())
    packet, *pieces, result = events
    assert isinstance(packet, ReasoningPacket) and isinstance(result, AnswerResult)
    assert len(pieces) > 3 and all(isinstance(p, str) for p in pieces)
    assert result.answer == "".join(pieces).strip()  # type: ignore[arg-type]
    assert set(result.citations) <= citable_ids(packet) and result.removed_citations
    assert one.answer and set(one.citations) <= citable_ids(one.packet)  # type: ignore[attr-defined]


def test_sync_answer_stream(served: Served) -> None:
    served.answer_model.reset("valid")
    with TutorGraph(served.url, api_key=READ) as tg:
        events = list(tg.answer_stream(QUERY))
    assert isinstance(events[0], ReasoningPacket) and isinstance(events[-1], AnswerResult)
    assert events[-1].answer and events[-1].citations


def test_graph_calls(served: Served, retriever) -> None:  # type: ignore[no-untyped-def]
    with TutorGraph(served.url, api_key=READ) as tg:
        found = tg.concepts("fractions", limit=3)
        assert 0 < len(found.results) <= 3
        first = found.results[0].concept.id
        assert tg.concept(first).id == first
        assert tg.prerequisites(first, depth=2).concept_id == first
        assert tg.misconceptions(first).concept_id == first


def test_error_bodies_become_the_library_errors(served: Served) -> None:
    with TutorGraph(served.url, api_key=READ) as tg:
        with pytest.raises(UnknownConceptError) as unknown:
            tg.retrieve("q", concept_ids=["ccss:9.ZZ.Z.9"])
        assert unknown.value.status_code == 422
        assert unknown.value.details == {"unknown_concept_ids": ["ccss:9.ZZ.Z.9"]}
        with pytest.raises(ConceptNotFoundError):
            tg.concept("ccss:9.ZZ.Z.9")
        with pytest.raises(PermissionDeniedError):
            tg.job("nope")
    with TutorGraph(served.url, api_key="wrong-key-0123456789") as tg:
        with pytest.raises(AuthenticationError) as auth:
            tg.retrieve(QUERY)
        assert auth.value.status_code == 401
    gone = f"http://127.0.0.1:{free_port()}"
    with TutorGraph(gone, api_key=READ) as tg, pytest.raises(APIConnectionError):
        tg.retrieve(QUERY)


def test_a_rate_limit_outlasting_the_retries_is_raised_with_retry_after(served: Served) -> None:
    # The LIMITED key shares the server's limit (2,000 a minute): spend it without retries.
    tg = TutorGraph(served.url, api_key=LIMITED, max_retries=0)
    with tg, pytest.raises(RateLimitedError) as limited:
        for _ in range(2100):
            tg.concepts("x", limit=1)
    assert limited.value.status_code == 429 and limited.value.retry_after >= 1


def test_ingest_and_wait_for_the_job(served: Served, slice_bundle: Path) -> None:
    with TutorGraph(served.url, api_key=ADMIN) as tg:
        job = tg.ingest(tar_gz(slice_bundle))
        assert job.status in ("queued", "validating", "ingesting", "activating")
        done = tg.wait_for_job(job.job_id, poll_s=0.5, timeout_s=600)
    assert done.status == "succeeded", done.error
    assert done.report is not None and done.report.counts["items"] > 0

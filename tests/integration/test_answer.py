"""Answers with citations: the real `openai` client against a real local OpenAI-compatible
server (streamed chat completions over loopback HTTP), packets from the real session index,
and `POST /v1/answer` and `tutorgraph answer` end to end."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from openai import AsyncOpenAI
from tests.integration.api_support import R, running, settings_for
from tests.integration.local_openai import BOGUS_ID, LocalOpenAI, local_openai_server

from tutorgraph.stores.breaker import CircuitBreaker
from tutorgraph.synthesis.answerer import Delta, OpenAIAnswerer, collect
from tutorgraph.synthesis.citations import citable_ids
from tutorgraph.synthesis.prompt import PROMPT_VERSION, SYSTEM_PROMPT
from tutorgraph_client.models.answer import AnswerResult
from tutorgraph_client.models.packet import ReasoningPacket
from tutorgraph_client.models.request import RetrievalRequest

pytestmark = pytest.mark.integration

QUERY = "why is 3/4 bigger than 2/3?"


@pytest.fixture(scope="module")
def server() -> Iterator[LocalOpenAI]:
    with local_openai_server() as s:
        yield s


@pytest.fixture(scope="module")
def packet(retriever) -> ReasoningPacket:  # type: ignore[no-untyped-def]
    return asyncio.run(retriever.retrieve(RetrievalRequest(query=QUERY)))


def _answerer(base_url: str, timeout_s: float = 20.0) -> OpenAIAnswerer:
    client = AsyncOpenAI(api_key="no-key", base_url=base_url, max_retries=0)
    return OpenAIAnswerer(client, model="local-model", timeout_s=timeout_s)


def _run(answerer: OpenAIAnswerer, packet: ReasoningPacket) -> tuple[list[str], AnswerResult]:
    async def go() -> tuple[list[str], AnswerResult]:
        deltas: list[str] = []
        result = None
        try:
            async for event in answerer.stream(packet):
                if isinstance(event, Delta):
                    deltas.append(event.text)
                else:
                    result = event
        finally:
            await answerer.aclose()
        assert result is not None
        return deltas, result

    return asyncio.run(go())


def test_a_streamed_answer_cites_only_the_packet(
    server: LocalOpenAI, packet: ReasoningPacket
) -> None:
    server.reset("valid")
    deltas, result = _run(_answerer(server.base_url), packet)
    assert len(deltas) > 3  # it streamed
    assert result.answer == "".join(deltas).strip()
    assert len(result.citations) == 2 and set(result.citations) <= citable_ids(packet)
    assert all(f"[{c}]" in result.answer for c in result.citations)
    assert result.removed_citations == [] and result.reason is None
    assert (result.model, result.prompt_version) == ("local-model", PROMPT_VERSION)
    sent = server.requests[-1]
    assert sent["stream"] is True and sent["model"] == "local-model"
    assert packet.context in sent["messages"][-1]["content"]


def test_a_citation_outside_the_packet_is_removed_and_reported(
    server: LocalOpenAI, packet: ReasoningPacket
) -> None:
    server.reset("bad_citation")
    _, result = _run(_answerer(server.base_url), packet)
    assert result.answer is not None and BOGUS_ID not in result.answer
    assert result.answer.endswith("Try a number line.")
    assert result.removed_citations == [BOGUS_ID] and len(result.citations) == 2


def test_a_slow_model_times_out_into_no_answer(
    server: LocalOpenAI, packet: ReasoningPacket
) -> None:
    server.reset("slow")
    server.delay_s = 3.0  # 0.3 s a chunk
    _, result = _run(_answerer(server.base_url, timeout_s=1.0), packet)
    assert result.answer is None
    assert result.reason == "the answer model failed: no answer within 1 s"


def test_a_refusal_is_no_answer(server: LocalOpenAI, packet: ReasoningPacket) -> None:
    server.reset("refusal")
    _, result = _run(_answerer(server.base_url), packet)
    assert result.answer is None and result.reason == "the model refused: I can't help with that."


def test_a_server_that_is_down_or_refuses_the_key_is_no_answer(
    server: LocalOpenAI, packet: ReasoningPacket
) -> None:
    with local_openai_server() as gone:
        url = gone.base_url
    _, result = _run(_answerer(url), packet)
    assert result.answer is None and result.reason == "the answer model failed: APIConnectionError"
    server.reset("unauthorised")
    _, result = _run(_answerer(server.base_url), packet)
    assert result.reason == "the answer model failed: HTTP 401"


def test_no_context_means_no_call_and_no_answer(
    server: LocalOpenAI, packet: ReasoningPacket
) -> None:
    server.reset("valid")
    empty = packet.model_copy(update={"context": ""})
    result = asyncio.run(collect(_answerer(server.base_url), empty))
    assert result.answer is None and result.reason == "the packet has no context to answer from"
    assert server.requests == []


# -- over HTTP ---------------------------------------------------------------------------------


def _sse(text: str) -> list[tuple[str, Any]]:
    events = []
    for block in text.strip().split("\n\n"):
        lines = dict(line.split(": ", 1) for line in block.splitlines())
        events.append((lines["event"], json.loads(lines["data"])))
    return events


@pytest.fixture(scope="module")
def http(session_index, server: LocalOpenAI) -> Iterator[Any]:  # type: ignore[no-untyped-def]
    """Runs `fn(client)` on the app with the local server as its answer model."""

    def call(fn: Any, **overrides: Any) -> Any:
        fields = {"openai_base_url": server.base_url, "answer_model": "local-model"}
        settings = settings_for(session_index[0], reranker_model="", **(fields | overrides))

        async def go() -> Any:
            client: httpx.AsyncClient
            async with running(settings) as client:
                return await fn(client)

        return asyncio.run(go())

    yield call


def test_post_answer_streams_packet_deltas_and_done(http: Any, server: LocalOpenAI) -> None:
    server.reset("bad_citation")

    async def go(client: httpx.AsyncClient) -> tuple[httpx.Response, str]:
        resp = await client.post("/v1/answer", json={"query": QUERY}, headers=R)
        metrics = (await client.get("/metrics")).text
        return resp, metrics

    resp, metrics = http(go)
    assert resp.status_code == 200 and resp.headers["content-type"].startswith("text/event-stream")
    events = _sse(resp.text)
    names = [e for e, _ in events]
    assert names[0] == "packet" and names[-1] == "done" and names.count("delta") > 3
    packet = ReasoningPacket.model_validate(events[0][1])
    done = AnswerResult.model_validate(events[-1][1])
    assert done.answer == "".join(d["text"] for e, d in events if e == "delta").strip()
    assert set(done.citations) <= citable_ids(packet) and done.removed_citations == [BOGUS_ID]
    assert 'tutorgraph_answers_total{outcome="answered"} 1.0' in metrics
    assert "tutorgraph_answer_removed_citations_total 1.0" in metrics


def test_post_answer_as_one_json_response(http: Any, server: LocalOpenAI) -> None:
    server.reset("valid")

    async def go(client: httpx.AsyncClient) -> httpx.Response:
        return await client.post("/v1/answer", json={"query": QUERY, "stream": False}, headers=R)

    body = http(go).json()
    assert body["answer"] and body["packet"]["query"] == QUERY
    assert set(body["citations"]) <= citable_ids(ReasoningPacket.model_validate(body["packet"]))


def test_without_a_model_the_packet_comes_with_the_reason(http: Any) -> None:
    async def go(client: httpx.AsyncClient) -> tuple[httpx.Response, httpx.Response]:
        one = await client.post("/v1/answer", json={"query": QUERY, "stream": False}, headers=R)
        sse = await client.post("/v1/answer", json={"query": QUERY}, headers=R)
        return one, sse

    one, sse = http(go, openai_base_url=None)
    body = one.json()
    assert body["answer"] is None and body["reason"].startswith("no answer model")
    assert body["packet"]["results"]
    assert [e for e, _ in _sse(sse.text)] == ["packet", "done"]


# -- the CLI -------------------------------------------------------------------------------------


def test_the_cli_streams_an_answer_whose_citations_resolve(
    run_cli: Any, session_index: tuple[Path, object], server: LocalOpenAI
) -> None:
    server.reset("valid")
    index = str(session_index[0])
    out = run_cli(
        "answer", QUERY, "--index-dir", index,
        TUTORGRAPH_OPENAI_BASE_URL=server.base_url,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    assert "The student most likely compares" in out.stdout and "cited: " in out.stderr
    as_json = run_cli(
        "answer", QUERY, "--json", "--index-dir", index,
        TUTORGRAPH_OPENAI_BASE_URL=server.base_url,
    )  # fmt: skip
    body = json.loads(as_json.stdout)
    packet = ReasoningPacket.model_validate(body["packet"])
    assert body["citations"] and set(body["citations"]) <= citable_ids(packet)


def test_the_cli_answers_a_turn_of_a_dialogue(
    run_cli: Any, session_index: tuple[Path, object], server: LocalOpenAI, tmp_path: Path
) -> None:
    """Issue 63: `tutorgraph answer --conversation FILE` reads the turn after the dialogue
    (the answer checked against the tutor's question) and shows the model the dialogue."""
    server.reset("valid")
    turns = tmp_path / "turns.json"
    turns.write_text(json.dumps([{"role": "tutor", "text": "What is 7 + 6?"}]), "utf-8")
    out = run_cli(
        "answer", "12?", "--conversation", str(turns), "--json",
        "--index-dir", str(session_index[0]), TUTORGRAPH_OPENAI_BASE_URL=server.base_url,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    packet = ReasoningPacket.model_validate(json.loads(out.stdout)["packet"])
    assert packet.dialogue is not None and packet.dialogue.problem_turn == 0
    assert packet.answer_check is not None and packet.answer_check.correct is False
    user = _answer_calls(server)[-1]["messages"][-1]["content"]
    assert user.startswith("DIALOGUE SO FAR (the latest 1 of 1 turns, oldest first):\n")


def test_the_cli_without_a_model_prints_the_packet_and_why(
    run_cli: Any, session_index: tuple[Path, object]
) -> None:
    out = run_cli("answer", QUERY, "--index-dir", str(session_index[0]))
    assert out.returncode == 0, out.stderr
    assert " 1. " in out.stdout  # the packet, readable
    assert "no answer: no answer model" in out.stderr.replace("\n", " ")


def test_a_hung_answer_model_costs_its_timeout_until_its_breaker_opens(
    server: LocalOpenAI, packet: ReasoningPacket
) -> None:
    # Issue 59: a model that accepts the request and never answers cost every answer its
    # timeout. After 2 timeouts in a row the breaker answers at once, without asking it;
    # once the cool-down is over one answer probes it, and its success closes the breaker.
    breaker = CircuitBreaker("answer", failures=2, cooldown_s=1.5)

    async def answers(n: int) -> list[tuple[float, AnswerResult]]:
        client = AsyncOpenAI(api_key="no-key", base_url=server.base_url, max_retries=0)
        answerer = OpenAIAnswerer(client, model="local-model", timeout_s=0.5, breaker=breaker)
        out = []
        try:
            for _ in range(n):
                started = time.perf_counter()
                result = await collect(answerer, packet)
                out.append((time.perf_counter() - started, result))
        finally:
            await answerer.aclose()
        return out

    server.reset("hang")
    try:
        timed = asyncio.run(answers(5))
    finally:
        server.reset("valid")
    paid, skipped = timed[:2], timed[2:]
    assert [r.reason for _, r in paid] == ["the answer model failed: no answer within 0.5 s"] * 2
    assert all(s >= 0.5 for s, _ in paid)
    for s, r in skipped:
        assert r.answer is None and s < 0.25, (s, r.reason)
        assert (r.reason or "").startswith("the answer model failed: circuit breaker open")
    assert breaker.state == "open"
    time.sleep(1.6)
    (_, probed), *_ = asyncio.run(answers(1))
    assert probed.answer and len(server.requests) == 1
    assert breaker.state == "closed"


# -- what the context states (issue 62, part 5) ---------------------------------------------------


def _answer_calls(server: LocalOpenAI) -> list[dict[str, Any]]:
    """The requests the answerer sent (the app's OpenAI refiner asks the same server)."""
    return [r for r in server.requests if r["messages"][0]["content"] == SYSTEM_PROMPT]


def test_a_stated_wrong_answer_reaches_the_model_as_facts(http: Any, server: LocalOpenAI) -> None:
    """The context opens with the answer check: the student's 26 is wrong and the answer is
    14; the model is sent it, and its citations still resolve to the items below."""
    server.reset("valid")

    async def go(client: httpx.AsyncClient) -> httpx.Response:
        body = {"query": "I did 52 - 38 and got 26", "stream": False}
        return await client.post("/v1/answer", json=body, headers=R)

    body = http(go).json()
    packet = ReasoningPacket.model_validate(body["packet"])
    known, _, items = packet.context.partition("\n\n## ")
    assert known.startswith("## About this message\n") and items
    said = "the student's answer to 52 - 38 is 26, which is wrong; the right answer is 14."
    assert f"Answer check: {said}" in known.splitlines()
    assert not any(line.startswith("[") for line in known.splitlines())
    (sent,) = _answer_calls(server)
    assert said in sent["messages"][-1]["content"]
    assert body["answer"] and body["citations"]
    assert set(body["citations"]) <= citable_ids(packet)


def test_an_off_topic_message_gets_no_content_and_no_model_call(
    http: Any, server: LocalOpenAI
) -> None:
    """A `no_match` packet's context says only that nothing matched, and why; the answer is
    "not sure" without asking the model, streamed or not."""
    server.reset("valid")
    query = "hey whats up, can we talk about football"

    async def go(client: httpx.AsyncClient) -> tuple[httpx.Response, httpx.Response]:
        one = await client.post("/v1/answer", json={"query": query, "stream": False}, headers=R)
        sse = await client.post("/v1/answer", json={"query": query}, headers=R)
        return one, sse

    one, sse = http(go)
    body = one.json()
    packet = ReasoningPacket.model_validate(body["packet"])
    reason = packet.no_match_reason or ""
    assert packet.no_match and reason.startswith("off_topic: ")
    assert packet.context == (
        "## No match\nNothing in the curriculum matches this message, so there is nothing to "
        f"answer from ({reason})."
    )
    assert citable_ids(packet) == set() and packet.results  # the hits stay, for the app
    assert body["answer"] is None and body["reason"] == f"not sure: {reason}"
    events = _sse(sse.text)
    assert [e for e, _ in events] == ["packet", "done"]
    assert events[-1][1]["reason"] == f"not sure: {reason}"
    assert _answer_calls(server) == []  # the answer model was never asked
    # The answerer alone, on that packet: no request reaches the server at all.
    server.reset("valid")
    result = asyncio.run(collect(_answerer(server.base_url), packet))
    assert result.answer is None and result.reason == f"not sure: {reason}"
    assert server.requests == []


def test_a_dialogue_reaches_the_model_as_its_latest_labelled_turns(
    http: Any, server: LocalOpenAI
) -> None:
    """Issue 63: `POST /v1/answer` with a `conversation` shows the model the dialogue so far,
    each turn labelled, before the student's message and the context (prompt answer-v3),
    streamed or not; the answer's citations still resolve to the packet."""
    server.reset("valid")
    turns = [
        {"role": "tutor", "text": "Let's practise subtracting.\nWhat is 52 - 38?"},
        {"role": "student", "text": "hmm let me think"},
    ]
    query = "I did 52 - 38 and got 26"

    async def go(client: httpx.AsyncClient) -> tuple[httpx.Response, httpx.Response]:
        body = {"query": query, "conversation": turns}
        one = await client.post("/v1/answer", json={**body, "stream": False}, headers=R)
        sse = await client.post("/v1/answer", json=body, headers=R)
        return one, sse

    one, sse = http(go)
    body = one.json()
    assert one.status_code == 200 and body["answer"] and body["prompt_version"] == "answer-v3"
    assert set(body["citations"]) <= citable_ids(ReasoningPacket.model_validate(body["packet"]))
    assert _sse(sse.text)[-1][1]["prompt_version"] == "answer-v3"
    sent = _answer_calls(server)
    assert len(sent) == 2
    for call in sent:
        user = call["messages"][-1]["content"]
        assert user.startswith(
            "DIALOGUE SO FAR (the latest 2 of 2 turns, oldest first):\n"
            "TUTOR: Let's practise subtracting. What is 52 - 38?\n"
            "STUDENT: hmm let me think\n\n"
            f"STUDENT MESSAGE (the turn to answer):\n{query}\n\nCONTEXT:\n## About this message"
        )

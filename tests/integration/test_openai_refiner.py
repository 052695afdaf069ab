"""The OpenAI refiner against a real OpenAI-compatible HTTP server on loopback, through the
real `openai` client: a good answer is used, a slow or malformed one falls back to the local
refiner and says so, and a repeated query is answered from the cache."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator

import pytest
from openai import AsyncOpenAI
from tests.integration.local_openai import LocalOpenAI, local_openai_server

from tutorgraph.config import Settings
from tutorgraph.refinement.local import LocalRefiner
from tutorgraph.refinement.openai_refiner import (
    ConceptChoice,
    LinkerCandidates,
    OpenAIRefiner,
)
from tutorgraph.retrieval.factory import build_refiner
from tutorgraph.retrieval.retriever_config import RetrieverConfig
from tutorgraph_client.models.request import RetrievalRequest

pytestmark = pytest.mark.integration

QUERY = "i got 2/6 for ½ + ¼ why is it wrong"
# The slow server answers after 3 s, past TIMEOUT_S; tests that expect an answer wait
# ANSWER_TIMEOUT_S, so a loaded CI machine does not turn them into fallbacks.
TIMEOUT_S = 0.5
ANSWER_TIMEOUT_S = 10.0


@pytest.fixture(scope="module")
def server() -> Iterator[LocalOpenAI]:
    with local_openai_server() as s:
        yield s


def _refiner(
    server: LocalOpenAI, opened_index, timeout_s: float = ANSWER_TIMEOUT_S
) -> OpenAIRefiner:  # type: ignore[no-untyped-def]
    client = AsyncOpenAI(api_key="test-key", base_url=server.base_url, max_retries=0)
    return OpenAIRefiner(client, LocalRefiner(opened_index.graph), timeout_s=timeout_s)


async def _refine_once(refiner: OpenAIRefiner, *queries: str):  # type: ignore[no-untyped-def]
    try:
        return [await refiner.refine(q) for q in queries]
    finally:
        await refiner.aclose()


def test_a_valid_structured_answer_is_used(server: LocalOpenAI, opened_index) -> None:  # type: ignore[no-untyped-def]
    server.reset("valid")
    (refined,) = asyncio.run(_refine_once(_refiner(server, opened_index), QUERY))
    assert refined.refiner == "openai" and refined.fallback_reason is None
    assert refined.original_query == QUERY
    assert refined.optimized_query.startswith("adding fractions with unlike denominators")
    assert refined.math_expressions == ["1/2 + 1/4", "2/6"]  # canonicalised on our side
    assert refined.student_answer == "2/6"
    # Only concepts the prompt offered survive; the invented id is dropped.
    assert "ccss:NOT.A.CODE" not in refined.key_concepts
    assert len(refined.key_concepts) == 1

    (body,) = server.requests
    assert body["model"] == "gpt-4o-mini"
    assert body["response_format"]["type"] == "json_schema"
    assert body["response_format"]["json_schema"]["strict"] is True
    prompt = body["messages"][-1]["content"]
    assert "Curriculum concepts:" in prompt and QUERY in prompt
    assert refined.key_concepts[0] in prompt


def _offered(prompt: str) -> list[str]:
    return [line[2:].split(": ", 1)[0] for line in prompt.splitlines() if line.startswith("- ")]


def test_the_prompt_lists_the_linkers_candidates_with_descriptions(
    server: LocalOpenAI,
    opened_index,
    embedder,  # type: ignore[no-untyped-def]
) -> None:
    """Issue 47: the model chooses among the concepts the linker links the message to, as
    the packet's `concepts` lists them, each with its description, not bare codes."""
    server.reset("valid")
    linker = opened_index.linker
    assert linker is not None
    client = AsyncOpenAI(api_key="test-key", base_url=server.base_url, max_retries=0)
    refiner = OpenAIRefiner(
        client,
        LocalRefiner(opened_index.graph),
        timeout_s=ANSWER_TIMEOUT_S,
        candidates=LinkerCandidates(linker, embedder, per_taxonomy=3),
    )
    (refined,) = asyncio.run(_refine_once(refiner, QUERY))
    assert refined.refiner == "openai"
    (body,) = server.requests
    prompt = body["messages"][-1]["content"]
    # The linker's best 3 of each taxonomy for the message's plain text, in its order.
    text = "i got 2/6 for 1/2 + 1/4 why is it wrong"
    found = linker.link(text, 3, embedder.embed([text])[0])
    expected = [c.concept_id for cards in found.values() for c in cards[:3]]
    assert _offered(prompt) == expected and len(expected) >= 6
    standards = [c for cards in found.values() for c in cards if c.taxonomy == "common-core"]
    for card in standards:
        # The code and its description: "- ccss:4.NF.B.3.a: 4.NF.B.3.a — Understand ..."
        line = next(x for x in prompt.splitlines() if x.startswith(f"- {card.concept_id}: "))
        assert " — " in line and " ".join(card.description.split())[:40] in line
    # The model's choice is kept to what the prompt offered (the invented id is dropped).
    assert refined.key_concepts == expected[:1]


def test_a_failing_candidate_source_offers_the_name_matches(
    server: LocalOpenAI, opened_index
) -> None:  # type: ignore[no-untyped-def]
    async def broken(query: str) -> list[ConceptChoice]:
        raise RuntimeError("linker down")

    server.reset("valid")
    client = AsyncOpenAI(api_key="test-key", base_url=server.base_url, max_retries=0)
    local = LocalRefiner(opened_index.graph)
    refiner = OpenAIRefiner(client, local, timeout_s=ANSWER_TIMEOUT_S, candidates=broken)
    (refined,) = asyncio.run(_refine_once(refiner, QUERY))
    assert refined.refiner == "openai" and refined.fallback_reason is None
    (body,) = server.requests
    offered = _offered(body["messages"][-1]["content"])
    names = asyncio.run(local.candidate_concepts(QUERY, k=8))
    assert offered and set(offered) >= {c.id for c in names}


def test_a_slow_answer_times_out_and_falls_back(server: LocalOpenAI, opened_index) -> None:  # type: ignore[no-untyped-def]
    server.reset("slow")
    started = time.perf_counter()
    (refined,) = asyncio.run(_refine_once(_refiner(server, opened_index, TIMEOUT_S), QUERY))
    elapsed = time.perf_counter() - started
    assert refined.refiner == "local"
    assert refined.fallback_reason == f"openai failed: no answer within {TIMEOUT_S:g} s"
    assert refined.student_answer == "2/6"  # the local refiner's reading
    assert elapsed < server.delay_s  # the hard timeout cut the wait short
    assert len(server.requests) == 1


@pytest.mark.parametrize(
    ("mode", "reason"),
    [
        ("malformed", "openai: invalid answer"),
        ("off_schema", "openai: invalid answer"),
        ("refusal", "openai: the model refused"),
        ("unauthorised", "openai failed: the API key is missing or was rejected"),
    ],
)
def test_a_bad_answer_is_rejected_and_falls_back(
    server: LocalOpenAI,
    opened_index,  # type: ignore[no-untyped-def]
    mode: str,
    reason: str,
) -> None:
    server.reset(mode)  # type: ignore[arg-type]
    (refined,) = asyncio.run(_refine_once(_refiner(server, opened_index), QUERY))
    assert refined.refiner == "local"
    assert refined.fallback_reason is not None and refined.fallback_reason.startswith(reason)
    assert refined.math_expressions == ["2/6", "1/2 + 1/4"]


def test_a_server_that_is_down_falls_back(opened_index) -> None:  # type: ignore[no-untyped-def]
    with local_openai_server() as gone:
        url = gone.base_url
    client = AsyncOpenAI(api_key="test-key", base_url=url, max_retries=0)
    refiner = OpenAIRefiner(client, LocalRefiner(opened_index.graph), timeout_s=TIMEOUT_S)
    (refined,) = asyncio.run(_refine_once(refiner, QUERY))
    assert refined.refiner == "local"
    assert refined.fallback_reason == "openai failed: APIConnectionError"


def test_a_repeated_query_is_served_from_the_cache(server: LocalOpenAI, opened_index) -> None:  # type: ignore[no-untyped-def]
    server.reset("valid")
    refiner = _refiner(server, opened_index)
    first, again, spaced = asyncio.run(
        _refine_once(refiner, QUERY, QUERY, "  I GOT 2/6 for ½ + ¼   why is it wrong ")
    )
    assert len(server.requests) == 1  # one request for three refinements
    assert again == first
    assert spaced.refiner == "openai" and spaced.original_query.startswith("  I GOT")


def test_failures_are_not_cached(server: LocalOpenAI, opened_index) -> None:  # type: ignore[no-untyped-def]
    refiner = _refiner(server, opened_index)

    async def run() -> tuple[str, str]:
        try:
            server.reset("malformed")
            bad = await refiner.refine(QUERY)
            server.mode = "valid"
            good = await refiner.refine(QUERY)
            return bad.refiner, good.refiner
        finally:
            await refiner.aclose()

    assert asyncio.run(run()) == ("local", "openai")
    assert len(server.requests) == 2


def test_the_retriever_uses_the_openai_refiner_from_settings(
    server: LocalOpenAI,
    opened_index,
    embedder,  # type: ignore[no-untyped-def]
) -> None:
    from tests.conftest import index_retriever

    server.reset("valid")
    settings = Settings(openai_base_url=server.base_url, refiner_timeout_s=ANSWER_TIMEOUT_S)
    refiner = build_refiner(RetrieverConfig.from_settings(settings), opened_index, embedder)
    assert isinstance(refiner, OpenAIRefiner)
    retriever = index_retriever(opened_index, embedder, refiner=refiner)

    async def run():  # type: ignore[no-untyped-def]
        try:
            return await retriever.retrieve(RetrievalRequest(query=QUERY, debug=True))
        finally:
            await retriever.aclose()

    packet = asyncio.run(run())
    assert packet.refined_query is not None and packet.refined_query.refiner == "openai"
    assert packet.timings_ms["refine"] > 0
    assert packet.debug is not None and packet.debug["query_type"] == "misconception"
    assert len(server.requests) == 1
    # The prompt offered the linker's concepts (of the message as typed; the link stage links
    # again with the refined query's embedding), and the model's key concepts seed nothing.
    offered = _offered(server.requests[0]["messages"][-1]["content"])
    assert offered and set(offered) & {c.id for c in packet.concepts}
    assert all(
        " — " in line
        for line in server.requests[0]["messages"][-1]["content"].splitlines()
        if line.startswith("- ccss:")
    )
    seeds = {c["id"]: c["seed"] for c in packet.graph_context.concepts}
    assert all(
        seeds.get(c) in (None, "evidence", "linked") for c in packet.refined_query.key_concepts
    )


def test_without_a_key_or_url_the_local_refiner_is_used(opened_index) -> None:  # type: ignore[no-untyped-def]
    settings = Settings(openai_api_key=None, openai_base_url=None)
    config = RetrieverConfig.from_settings(settings)
    assert config.refiner == "local"
    assert isinstance(build_refiner(config, opened_index), LocalRefiner)

"""The HTTP API in process, over the real session index (real MiniLM, Chroma, BM25, graph,
the bundled reranker): `httpx.AsyncClient` on `ASGITransport`, with the app's lifespan run.

Every endpoint and every error class of the envelope; auth (no key, a wrong key, a read key
on an admin route); the rate limit; a degraded answer and the 503 when no source answers.
The ingest jobs are `test_api_ingest_jobs.py`'s; the shared wiring is `api_support.py`.
"""

from __future__ import annotations

import json
import math
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
import pytest_asyncio
from tests.integration.api_support import (
    LIMITED,
    QUERY,
    RATE,
    A,
    R,
    error,
    running,
    settings_for,
    switchable_opener,
)
from tests.unit.api_fakes import SwitchableGraph

from tutorgraph.index.generations import live_generation
from tutorgraph.index.layout import IndexLayout, load_catalogue
from tutorgraph.models.records import SourceRecords

pytestmark = [pytest.mark.integration, pytest.mark.asyncio(loop_scope="module")]


@dataclass
class Api:
    client: httpx.AsyncClient
    graph: SwitchableGraph
    index_dir: Path


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def api(session_index, embedder) -> AsyncIterator[Api]:  # type: ignore[no-untyped-def]
    graphs: list[SwitchableGraph] = []
    settings = settings_for(session_index[0])  # the bundled reranker is loaded
    async with running(settings, switchable_opener(embedder, graphs)) as client:
        yield Api(client, graphs[0], session_index[0])


@pytest.fixture(scope="module")
def catalogue(session_index) -> SourceRecords:  # type: ignore[no-untyped-def]
    return load_catalogue(IndexLayout.live(session_index[0]))


@pytest.fixture(scope="module")
def concept_with_prerequisites(catalogue: SourceRecords) -> str:
    # A Common Core standard, so that its code can be searched for too.
    return sorted(
        p.concept_id for p in catalogue.prerequisites if p.concept_id.startswith("ccss:")
    )[0]


@pytest.fixture(scope="module")
def concept_with_misconceptions(catalogue: SourceRecords) -> str:
    return sorted(cid for m in catalogue.misconceptions for cid in m.concept_ids)[0]


# -- health, readiness, metrics ----------------------------------------------------------------


async def test_health_and_readiness_need_no_key(api: Api) -> None:
    assert (await api.client.get("/healthz")).json() == {"status": "ok"}
    ready = (await api.client.get("/readyz")).json()
    assert ready["status"] == "ready"
    live = live_generation(api.index_dir)
    assert live is not None and ready["generation"] == live.name
    assert str(api.index_dir) not in json.dumps(ready)  # no path on a route without a key
    deps = ready["dependencies"]
    assert all(deps[name]["ok"] for name in ("index", "embedder", "vector", "lexical", "graph"))
    assert deps["reranker"] == {
        "state": "ok",
        "ok": True,
        "detail": "tutorgraph/eedi-minilm-reranker",
        "latency_ms": None,
        "breaker": None,
    }
    assert deps["refiner"]["detail"] == "local"


# -- retrieval ----------------------------------------------------------------------------------


async def test_retrieve_returns_the_reasoning_packet(api: Api) -> None:
    resp = await api.client.post(
        "/v1/retrieve", json={"query": QUERY, "rerank": True, "debug": True}, headers=R
    )
    assert resp.status_code == 200, resp.text
    packet = resp.json()
    assert packet["query"] == QUERY and packet["degraded_sources"] == []
    assert packet["reranker"] == {
        "applied": True,
        "model": "tutorgraph/eedi-minilm-reranker",
        "reason": None,
    }
    assert len(packet["results"]) == 10 and packet["results"][0]["rank"] == 1
    assert set(packet["timings_ms"]) >= {"refine", "embed", "vector", "lexical", "graph", "total"}
    assert packet["refined_query"]["refiner"] == "local"
    assert packet["debug"]["retrieval_profile_effective"]
    assert packet["context"]
    # The student's grade, as an app sends it, is read and reported (issue 48).
    resp = await api.client.post(
        "/v1/retrieve", json={"query": QUERY, "grade": "Grade 6"}, headers=R
    )
    assert resp.status_code == 200, resp.text
    assert resp.json()["grade"] == {
        "grade": "6", "band": "6-8", "source": "request", "probability": None
    }  # fmt: skip


async def test_the_http_packet_is_the_library_packet(api: Api, opened_index, embedder) -> None:  # type: ignore[no-untyped-def]
    from tests.conftest import index_retriever

    from tutorgraph.diagnosis.diagnose import Diagnoser
    from tutorgraph_client.models.request import RetrievalRequest

    # The app's setup applies the bug rules: the message states its answer (2/6).
    retriever = index_retriever(opened_index, embedder, diagnoser=Diagnoser.bundled())
    body = {"query": QUERY, "rerank": False, "use_refinement": False, "n_results": 15}
    over_http = (await api.client.post("/v1/retrieve", json=body, headers=A)).json()
    direct = await retriever.retrieve(RetrievalRequest.model_validate(body))
    assert over_http["answer_check"]["student_answer"] == "2/6"
    assert [h["id"] for h in over_http["results"]] == [h.id for h in direct.results]
    assert over_http["graph_context"] == direct.graph_context.model_dump(mode="json")


async def test_a_wrong_answer_is_diagnosed_and_its_misconception_leads(api: Api) -> None:
    """Real HTTP, the real slice index: the bug rule's misconception (Eedi 2481, in the
    slice) is the first hit, found by `diagnosis`, with the rule's sentence."""
    for body in (
        {"problem": "0.6 * 0.2", "student_answer": "1.2"},
        {"query": "i got 1.2 for 0.6 × 0.2, why is it wrong?"},
    ):
        resp = await api.client.post("/v1/retrieve", json=body, headers=R)
        assert resp.status_code == 200, resp.text
        packet = resp.json()
        assert packet["answer_check"] == {
            "problem": "0.6 × 0.2",
            "student_answer": "1.2",
            "correct": False,
            "correct_answer": "0.12",
            "missing": [],
        }
        (finding,) = packet["diagnosis"]
        assert finding["misconception_id"] == "eedi:misconception:2481"
        assert finding["rule"] == "decimal_multiply_wrong_power_of_ten"
        assert finding["explanation"].startswith("1.2 is what you get by multiplying the digits")
        first = packet["results"][0]
        assert first["id"] == "eedi:misconception:2481" and "diagnosis" in first["found_by"]
        assert first["source_ranks"]["diagnosis"] == 1
        assert first["source_contributions"]["diagnosis"] == round(1 / 61, 9)
        assert first["fused_score"] >= first["source_contributions"]["diagnosis"]
        assert packet["timings_ms"]["diagnose"] > 0
    # The correct answer confirms the reading; one the problem does not give vetoes it.
    for correct, diagnosed in (("0.12", True), ("12", False)):
        body = {"problem": "0.6 * 0.2", "student_answer": "1.2", "correct_answer": correct}
        packet = (await api.client.post("/v1/retrieve", json=body, headers=R)).json()
        assert bool(packet["diagnosis"]) is diagnosed
    # Two rules reproduce 6 for 3^2: both are listed. A right answer is said to be right.
    both = (
        await api.client.post(
            "/v1/retrieve", json={"problem": "3^2", "student_answer": "6"}, headers=R
        )
    ).json()
    assert {d["misconception_id"] for d in both["diagnosis"]} == {
        "eedi:misconception:2316",
        "eedi:misconception:1072",
    }
    right = (
        await api.client.post(
            "/v1/retrieve", json={"problem": "3^2", "student_answer": "9"}, headers=R
        )
    ).json()
    assert right["answer_check"]["correct"] is True and right["diagnosis"] == []
    # No answer, or a problem that is not arithmetic: no diagnosis, no verdict.
    for body in (
        {"query": "0.6 * 0.2"},
        {"problem": "expand (x + 1)^2", "student_answer": "x^2 + 1"},
    ):
        packet = (await api.client.post("/v1/retrieve", json=body, headers=R)).json()
        assert packet["answer_check"] is None and packet["diagnosis"] == []


async def test_bad_requests_are_422_in_the_envelope(api: Api, catalogue: SourceRecords) -> None:
    c = api.client
    err = error(
        await c.post("/v1/retrieve", json={"query": "x" * 2001}, headers=R), 422, "invalid_request"
    )
    assert err["details"]["errors"][0]["loc"] == ["body", "query"]
    for body in (
        {"query": "q", "n_results": 0},
        {"query": "q", "sources": []},
        {"query": "q", "sources": ["web"]},
        {"query": "q", "semantic_weight": 2},
        {"query": "q", "grade": "13"},
        {"query": "q", "unknown_field": 1},
        {"n_results": 3},
    ):
        error(await c.post("/v1/retrieve", json=body, headers=R), 422, "invalid_request")
    err = error(
        await c.post(
            "/v1/retrieve",
            json={"query": "q", "local_context": [{"id": "hint-2", "text": " "}]},
            headers=R,
        ),
        422,
        "invalid_request",
    )
    assert "local document 'hint-2': text is empty" in str(err["details"])
    known = catalogue.concepts[0].id
    err = error(
        await c.post(
            "/v1/retrieve", json={"query": "q", "concept_ids": [known, "ccss:9.ZZ.Z.9"]}, headers=R
        ),
        422,
        "unknown_concept",
    )
    assert err["details"] == {"unknown_concept_ids": ["ccss:9.ZZ.Z.9"]}
    error(await c.get("/v1/concepts/x/prerequisites?depth=0", headers=R), 422, "invalid_request")


# -- the graph endpoints --------------------------------------------------------------------------


async def test_concepts_prerequisites_and_misconceptions(
    api: Api, concept_with_prerequisites: str, concept_with_misconceptions: str
) -> None:
    c = api.client
    concept = (await c.get(f"/v1/concepts/{concept_with_prerequisites}", headers=R)).json()
    assert concept["id"] == concept_with_prerequisites and concept["name"]

    one = (
        await c.get(f"/v1/concepts/{concept_with_prerequisites}/prerequisites", headers=R)
    ).json()
    two = (
        await c.get(
            f"/v1/concepts/{concept_with_prerequisites}/prerequisites",
            params={"depth": 2},
            headers=R,
        )
    ).json()
    assert one["depth"] == 1 and one["paths"]
    assert all(
        p["depth"] == 1 and p["path"][-1] == concept_with_prerequisites for p in one["paths"]
    )
    assert {tuple(p["path"]) for p in one["paths"]} <= {tuple(p["path"]) for p in two["paths"]}
    named = {x["id"] for x in two["concepts"]}
    assert {cid for p in two["paths"] for cid in p["path"]} == named

    mis = (
        await c.get(f"/v1/concepts/{concept_with_misconceptions}/misconceptions", headers=R)
    ).json()
    assert mis["misconceptions"] and mis["query"] is None
    text = mis["misconceptions"][-1]["misconception"]["text"]
    ranked = (
        await c.get(
            f"/v1/concepts/{concept_with_misconceptions}/misconceptions",
            params={"q": text},
            headers=R,
        )
    ).json()
    scores = [m["relevance"] for m in ranked["misconceptions"]]
    assert scores == sorted(scores, reverse=True) and scores[0] > 0
    target = next(m for m in ranked["misconceptions"] if m["misconception"]["text"] == text)
    assert target["relevance"] == scores[0]  # its own text matches it best

    code = concept_with_prerequisites.removeprefix("ccss:")
    found = (await c.get("/v1/concepts", params={"q": code, "limit": 3}, headers=R)).json()
    assert found["results"][0]["concept"]["id"] == concept_with_prerequisites
    assert found["results"][0]["exact"] is True and len(found["results"]) <= 3


async def test_teaching_lists_lessons_then_practice_and_the_misconceptions(
    api: Api, concept_with_misconceptions: str, catalogue: SourceRecords
) -> None:
    c = api.client
    cid = concept_with_misconceptions
    got = (await c.get(f"/v1/concepts/{cid}/teaching", params={"limit": 3}, headers=R)).json()
    assert got["concept"]["id"] == cid
    mis = (await c.get(f"/v1/concepts/{cid}/misconceptions", headers=R)).json()
    assert got["misconceptions"] == mis["misconceptions"]
    assert {d["document"]["kind"] for d in got["practice"]} <= {"exercise", "question"}
    assert {d["document"]["kind"] for d in got["lessons"]} <= {"explanation", "worked_example"}
    assert len(got["practice"]) <= 3 and len(got["lessons"]) <= 3
    own = [d for d in catalogue.documents if cid in d.concept_ids and d.kind == "question"]
    assert [d["document"]["id"] for d in got["practice"]] == sorted(d.id for d in own)[:3]
    error(
        await c.get(f"/v1/concepts/{cid}/teaching", params={"limit": 0}, headers=R),
        422,
        "invalid_request",
    )


async def test_not_found_is_404(api: Api) -> None:
    c = api.client
    for path in ("", "/prerequisites", "/misconceptions", "/teaching"):
        err = error(
            await c.get(f"/v1/concepts/ccss:9.ZZ.Z.9{path}", headers=R), 404, "concept_not_found"
        )
        assert err["details"] == {"concept_id": "ccss:9.ZZ.Z.9"}
    error(await c.get("/v1/ingest/0123456789abcdef", headers=A), 404, "job_not_found")
    error(await c.get("/v1/nothing-here", headers=R), 404, "not_found")
    error(await c.delete("/v1/retrieve", headers=R), 405, "method_not_allowed")


# -- auth, limits ---------------------------------------------------------------------------------


async def test_auth_no_key_a_wrong_key_and_a_read_key_on_admin_routes(api: Api) -> None:
    c = api.client
    body = {"query": QUERY}
    error(await c.post("/v1/retrieve", json=body), 401, "unauthenticated")
    error(
        await c.post("/v1/retrieve", json=body, headers={"X-API-Key": "guess"}),
        401,
        "unauthenticated",
    )
    error(await c.get("/v1/concepts?q=fractions"), 401, "unauthenticated")
    err = error(
        await c.post("/v1/ingest", content=b"\x1f\x8b", headers=R), 403, "permission_denied"
    )
    assert err["details"] == {"required_role": "admin", "key_role": "read"}
    error(await c.get("/v1/ingest/anything", headers=R), 403, "permission_denied")
    # The health endpoints stay open.
    for path in ("/healthz", "/readyz", "/metrics"):
        assert (await c.get(path)).status_code == 200


async def test_the_rate_limit_answers_429_with_retry_after(
    api: Api, catalogue: SourceRecords
) -> None:
    path = f"/v1/concepts/{catalogue.concepts[0].id}"
    limited = {"X-API-Key": LIMITED}
    allowed = 0
    # A moving window of a minute: exactly RATE pass, then the oldest must leave it.
    for _ in range(2 * RATE):
        resp = await api.client.get(path, headers=limited)
        if resp.status_code != 200:
            break
        allowed += 1
    assert allowed == RATE
    err = error(resp, 429, "rate_limited")
    assert 50 < err["details"]["retry_after_s"] <= 60
    assert resp.headers["retry-after"] == str(math.ceil(err["details"]["retry_after_s"]))
    assert (await api.client.get(path, headers=R)).status_code == 200  # other keys unaffected


async def test_a_body_over_the_limit_is_413(api: Api) -> None:
    body = {"query": "q", "student_answer": "y" * 10_000}
    err = error(
        await api.client.post("/v1/retrieve", json=body, headers=R), 413, "payload_too_large"
    )
    assert err["details"] == {"limit_bytes": 8192}


# -- degraded, unavailable, internal errors ---------------------------------------------------


async def test_a_failed_graph_degrades_the_packet_and_alone_is_503(api: Api) -> None:
    c = api.client
    api.graph.fail = True
    try:
        resp = await c.post("/v1/retrieve", json={"query": QUERY}, headers=R)
        assert resp.status_code == 200
        packet = resp.json()
        assert packet["degraded_sources"] == ["graph"]
        assert packet["results"] and packet["graph_count"] == 0
        err = error(
            await c.post("/v1/retrieve", json={"query": QUERY, "sources": ["graph"]}, headers=R),
            503,
            "source_unavailable",
        )
        assert err["details"] == {"degraded_sources": ["graph"]}
        error(await c.get("/v1/concepts?q=fractions", headers=R), 503, "source_unavailable")
        ready = await c.get("/readyz")
        assert ready.status_code == 200 and ready.json()["status"] == "degraded"
        assert ready.json()["dependencies"]["graph"]["ok"] is False
    finally:
        api.graph.fail = False
    assert (await c.post("/v1/retrieve", json={"query": QUERY}, headers=R)).json()[
        "degraded_sources"
    ] == []


async def test_an_unexpected_failure_is_a_bare_500(api: Api) -> None:
    api.graph.crash = True
    try:
        resp = await api.client.get("/v1/concepts?q=fractions", headers=R)
    finally:
        api.graph.crash = False
    err = error(resp, 500, "internal_error")
    assert err == {"code": "internal_error", "message": "internal server error", "details": {}}


async def test_metrics_report_requests_stages_degraded_sources_and_reranker_use(api: Api) -> None:
    text = (await api.client.get("/metrics")).text
    assert 'tutorgraph_http_requests_total{method="POST",route="/v1/retrieve",status="200"}' in text
    assert 'route="/v1/concepts/{concept_id}",status="429"} 1' in text
    assert 'tutorgraph_retrieval_stage_duration_seconds_count{stage="embed"}' in text
    assert 'tutorgraph_retrieval_stage_duration_seconds_bucket{le="+Inf",stage="rerank"}' in text
    assert 'tutorgraph_degraded_sources_total{source="graph"} 1' in text
    assert 'tutorgraph_reranker_total{applied="true"}' in text
    assert 'tutorgraph_http_request_duration_seconds_count{route="/v1/retrieve"}' in text


async def test_openapi_lists_every_endpoint(api: Api) -> None:
    schema = (await api.client.get("/openapi.json")).json()
    assert set(schema["paths"]) == {
        "/healthz",
        "/readyz",
        "/metrics",
        "/v1/retrieve",
        "/v1/answer",
        "/v1/concepts",
        "/v1/concepts/{concept_id}",
        "/v1/concepts/{concept_id}/prerequisites",
        "/v1/concepts/{concept_id}/misconceptions",
        "/v1/concepts/{concept_id}/teaching",
        "/v1/ingest",
        "/v1/ingest/{job_id}",
    }
    assert {
        "ErrorResponse",
        "ReasoningPacket",
        "RetrievalRequest",
        "IngestJobOut",
        "AnswerRequest",
        "AnswerResponse",
        "LocalDocument",
        "Corroboration",
    } <= set(schema["components"]["schemas"])
    answer = schema["paths"]["/v1/answer"]["post"]["responses"]["200"]["content"]
    assert {"application/json", "text/event-stream"} <= set(answer)

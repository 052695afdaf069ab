"""The HTTP layer's logic over a tiny in-memory index (no models): the error envelope and every
status it maps, auth and roles, the rate limit, body limits, degraded answers, readiness,
metrics, CORS and the OpenAPI schema. Requests go through the real ASGI stack with the
app's lifespan run (`tests/integration/test_api*.py` do the same over the real index)."""

from __future__ import annotations

import json
import logging
import tempfile
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path

import httpx
import pytest
from tests.unit.api_fakes import FakeOpener, write_fake_index

from tutorgraph.api import create_app
from tutorgraph.api.auth import key_entry
from tutorgraph.config import Settings
from tutorgraph.index.generations import generations

pytestmark = pytest.mark.unit

READ = "unit-read-key-0123456789"
ADMIN = "unit-admin-key-0123456789"
KEYS = f"{key_entry(READ, 'read')},{key_entry(ADMIN, 'admin')}"
R = {"X-API-Key": READ}
A = {"X-API-Key": ADMIN}

Client = httpx.AsyncClient


@asynccontextmanager
async def serve(
    tmp_path: Path, opener: FakeOpener | None = None, **overrides: object
) -> AsyncIterator[Client]:
    """The app over a fake index, its lifespan entered, and an HTTP client on it."""
    fields: dict[str, object] = {
        "index_dir": write_fake_index(tmp_path / "index"),
        "api_keys": KEYS,
        "source_timeout_s": 2.0,
        "allowed_hosts": "test",  # the client's base URL
    }
    fields.update(overrides)
    app = create_app(Settings.model_validate(fields), opener=opener or FakeOpener())
    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
    async with (
        app.router.lifespan_context(app),
        httpx.AsyncClient(transport=transport, base_url="http://test") as client,
    ):
        yield client


def error(resp: httpx.Response, status: int, code: str) -> dict[str, object]:
    assert resp.status_code == status, resp.text
    body = resp.json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message", "details"}
    assert body["error"]["code"] == code, body
    assert "Traceback" not in resp.text
    return dict(body["error"])


@pytest.fixture
def opener() -> FakeOpener:
    return FakeOpener()


async def test_health_readiness_and_metrics_need_no_key(tmp_path: Path) -> None:
    async with serve(tmp_path) as c:
        assert (await c.get("/healthz")).json() == {"status": "ok"}
        ready = await c.get("/readyz")
        assert ready.status_code == 200 and ready.json()["status"] == "ready"
        deps = ready.json()["dependencies"]
        assert {"index", "embedder", "vector", "lexical", "graph", "reranker", "refiner"} <= set(
            deps
        )
        assert deps["vector"]["ok"] and deps["graph"]["latency_ms"] is not None
        assert {deps[name]["state"] for name in ("index", "vector", "lexical", "graph")} == {"ok"}
        metrics = await c.get("/metrics")
        assert metrics.status_code == 200
        assert metrics.headers["content-type"].startswith("text/plain; version=0.0.4")
        assert "# TYPE tutorgraph_http_requests_total counter" in metrics.text


async def test_auth_no_key_wrong_key_and_a_read_key_on_an_admin_route(tmp_path: Path) -> None:
    body = {"query": "adding fractions"}
    async with serve(tmp_path) as c:
        err = error(await c.post("/v1/retrieve", json=body), 401, "unauthenticated")
        assert "X-API-Key" in str(err["message"])
        resp = await c.post("/v1/retrieve", json=body, headers={"X-API-Key": "wrong"})
        error(resp, 401, "unauthenticated")
        assert "APIKey" in resp.headers["www-authenticate"]
        assert (await c.post("/v1/retrieve", json=body, headers=R)).status_code == 200
        assert (await c.post("/v1/retrieve", json=body, headers=A)).status_code == 200
        error(await c.post("/v1/ingest", content=b"x", headers=R), 403, "permission_denied")
        error(await c.get("/v1/ingest/abc", headers=R), 403, "permission_denied")
        error(await c.get("/v1/ingest/abc", headers=A), 404, "job_not_found")
        error(await c.get("/v1/concepts/ccss:6.NS.A.1"), 401, "unauthenticated")


async def test_validation_errors_are_reshaped_into_the_envelope(tmp_path: Path) -> None:
    async with serve(tmp_path) as c:
        err = error(
            await c.post("/v1/retrieve", json={"query": "   "}, headers=R), 422, "invalid_request"
        )
        (first,) = err["details"]["errors"]  # type: ignore[index]
        assert first["loc"] == ["body", "query"] and first["type"] == "string_too_short"
        err = error(
            await c.post("/v1/retrieve", json={"query": "q", "n_results": 99, "x": 1}, headers=R),
            422,
            "invalid_request",
        )
        assert len(err["details"]["errors"]) == 2  # type: ignore[index]
        resp = await c.post(
            "/v1/retrieve",
            content=b"{not json",
            headers={**R, "Content-Type": "application/json"},
        )
        error(resp, 422, "invalid_request")
        err = error(
            await c.post(
                "/v1/retrieve", json={"query": "q", "concept_ids": ["ccss:9.ZZ.Z.9"]}, headers=R
            ),
            422,
            "unknown_concept",
        )
        assert err["details"] == {"unknown_concept_ids": ["ccss:9.ZZ.Z.9"]}
        error(
            await c.get("/v1/concepts/ccss:6.NS.A.1/prerequisites?depth=3", headers=R),
            422,
            "invalid_request",
        )
        error(await c.get("/v1/concepts?q=%20%20", headers=R), 422, "invalid_request")
        error(await c.get("/v1/concepts", headers=R), 422, "invalid_request")


async def test_concept_endpoints(tmp_path: Path) -> None:
    async with serve(tmp_path) as c:
        concept = (await c.get("/v1/concepts/ccss:6.NS.A.1", headers=R)).json()
        assert concept["id"] == "ccss:6.NS.A.1" and concept["kind"] == "standard"
        error(await c.get("/v1/concepts/ccss:9.ZZ.Z.9", headers=R), 404, "concept_not_found")
        error(
            await c.get("/v1/concepts/ccss:9.ZZ.Z.9/prerequisites", headers=R),
            404,
            "concept_not_found",
        )
        error(
            await c.get("/v1/concepts/ccss:9.ZZ.Z.9/misconceptions", headers=R),
            404,
            "concept_not_found",
        )
        pre = (await c.get("/v1/concepts/ccss:6.NS.A.1/prerequisites", headers=R)).json()
        assert pre["depth"] == 1
        assert pre["paths"] == [
            {
                "path": ["ccss:5.NF.A.1", "ccss:6.NS.A.1"],
                "relations": ["builds_towards"],
                "depth": 1,
            }
        ]
        assert [x["id"] for x in pre["concepts"]] == ["ccss:5.NF.A.1", "ccss:6.NS.A.1"]
        mis = (
            await c.get("/v1/concepts/ccss:5.NF.A.1/misconceptions?q=adds numerators", headers=R)
        ).json()
        assert mis["query"] == "adds numerators"
        (only,) = mis["misconceptions"]
        assert only["misconception"]["id"] == "eedi:misconception:1" and only["relevance"] > 0
        found = (await c.get("/v1/concepts", params={"q": "6.NS.A.1 dividing"}, headers=R)).json()
        assert found["results"][0]["concept"]["id"] == "ccss:6.NS.A.1"
        assert found["results"][0]["exact"] is True


async def test_a_failing_source_degrades_and_no_source_at_all_is_503(
    tmp_path: Path, opener: FakeOpener
) -> None:
    async with serve(tmp_path, opener) as c:
        opener.graph.fail = True
        resp = await c.post("/v1/retrieve", json={"query": "adding fractions"}, headers=R)
        assert resp.status_code == 200
        assert resp.json()["degraded_sources"] == ["graph"] and resp.json()["results"]
        err = error(
            await c.post("/v1/retrieve", json={"query": "q", "sources": ["graph"]}, headers=R),
            503,
            "source_unavailable",
        )
        assert err["details"] == {"degraded_sources": ["graph"]}
        error(await c.get("/v1/concepts/ccss:6.NS.A.1", headers=R), 503, "source_unavailable")
        ready = await c.get("/readyz")
        assert ready.status_code == 200 and ready.json()["status"] == "degraded"
        assert ready.json()["dependencies"]["graph"] == {
            "state": "failed",
            "ok": False,
            "detail": "graph failed: StoreError",
            "latency_ms": None,
            "breaker": None,  # an in-process graph has no circuit breaker
        }
        opener.vector.fail = True
        ready = await c.get("/readyz")
        assert ready.json()["status"] == "degraded"  # BM25 still answers
        metrics = (await c.get("/metrics")).text
        assert 'tutorgraph_degraded_sources_total{source="graph"} 1' in metrics
        assert (
            'tutorgraph_http_requests_total{method="POST",route="/v1/retrieve",status="503"} 1'
            in metrics
        )


async def test_an_unexpected_error_is_a_500_without_a_trace(
    tmp_path: Path, opener: FakeOpener, caplog: pytest.LogCaptureFixture
) -> None:
    async with serve(tmp_path, opener) as c:
        opener.graph.crash = True
        with caplog.at_level(logging.ERROR):
            resp = await c.get("/v1/concepts/ccss:6.NS.A.1", headers=R)
        err = error(resp, 500, "internal_error")
        assert err == {"code": "internal_error", "message": "internal server error", "details": {}}
        assert "RuntimeError" not in resp.text and "a bug" not in resp.text
        assert "a bug in the graph store" in caplog.text  # the trace is in the log instead


async def test_unknown_routes_and_methods_use_the_envelope(tmp_path: Path) -> None:
    async with serve(tmp_path) as c:
        error(await c.get("/v2/nothing", headers=R), 404, "not_found")
        resp = await c.get("/v1/retrieve", headers=R)
        error(resp, 405, "method_not_allowed")
        assert "POST" in resp.headers["allow"]


async def test_bodies_over_the_limit_are_413(tmp_path: Path) -> None:
    async with serve(tmp_path, max_body_bytes=2048) as c:
        big = {"query": "q", "student_answer": "x" * 5000}
        err = error(await c.post("/v1/retrieve", json=big, headers=R), 413, "payload_too_large")
        assert err["details"] == {"limit_bytes": 2048}

        async def chunks() -> AsyncIterator[bytes]:  # no Content-Length: cut off while read
            yield b'{"query": "q", "student_answer": "'
            for _ in range(10):
                yield b"x" * 500
            yield b'"}'

        resp = await c.post(
            "/v1/retrieve", content=chunks(), headers={**R, "Content-Type": "application/json"}
        )
        err = error(resp, 413, "payload_too_large")
        assert err["details"] == {"limit_bytes": 2048}


async def test_the_rate_limit_is_per_key_and_answers_429_with_retry_after(tmp_path: Path) -> None:
    async with serve(tmp_path, rate_limit_per_minute=3) as c:
        for _ in range(3):
            assert (await c.get("/v1/concepts/ccss:6.NS.A.1", headers=R)).status_code == 200
        resp = await c.get("/v1/concepts/ccss:6.NS.A.1", headers=R)
        err = error(resp, 429, "rate_limited")
        # A moving window of a minute: the first request leaves it 60 s after it came.
        assert resp.headers["retry-after"] == "60"
        assert 58 < err["details"]["retry_after_s"] <= 60  # type: ignore[index,operator]
        assert (await c.get("/v1/concepts/ccss:6.NS.A.1", headers=A)).status_code == 200
        assert (await c.get("/healthz")).status_code == 200  # no key, no limit


async def test_without_keys_auth_is_off_and_the_server_warns_once(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger="tutorgraph.api.app"):
        async with serve(tmp_path, api_keys="") as c:
            assert (await c.post("/v1/retrieve", json={"query": "fractions"})).status_code == 200
            assert (await c.get("/v1/ingest/nope")).status_code == 404  # admin routes open too
    warnings = [r for r in caplog.records if "authentication is OFF" in r.getMessage()]
    assert len(warnings) == 1


async def test_ingest_is_refused_where_it_cannot_work(tmp_path: Path) -> None:
    async with serve(tmp_path, neo4j_uri="bolt://127.0.0.1:1") as c:
        err = error(await c.post("/v1/ingest", content=b"x", headers=A), 409, "conflict")
        assert "tutorgraph ingest" in str(err["message"])
    async with serve(tmp_path, http_ingest=False) as c:
        error(await c.post("/v1/ingest", content=b"x", headers=A), 409, "conflict")


async def test_bad_uploads_are_refused_and_leave_nothing_behind(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    uploads = tmp_path / "uploads"
    uploads.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(uploads))
    async with serve(tmp_path) as c:
        error(await c.post("/v1/ingest", content=b"", headers=A), 422, "invalid_request")
        err = error(
            await c.post("/v1/ingest", content=b"not a tarball", headers=A), 422, "invalid_bundle"
        )
        assert "tar.gz" in str(err["message"])
        # A JSON body is not an archive: refused by its type before it is read.
        error(await c.post("/v1/ingest", json={"a": 1}, headers=A), 415, "unsupported_media_type")
    assert not any(uploads.iterdir())
    assert [g.name for g in generations(tmp_path / "index")] == ["000001"]


async def test_cors_is_off_unless_configured(tmp_path: Path) -> None:
    origin = {"Origin": "https://tutor.example"}
    async with serve(tmp_path) as c:
        resp = await c.get("/healthz", headers=origin)
        assert "access-control-allow-origin" not in resp.headers
    async with serve(tmp_path, cors_origins="https://tutor.example") as c:
        resp = await c.get("/healthz", headers=origin)
        assert resp.headers["access-control-allow-origin"] == "https://tutor.example"
        pre = await c.options(
            "/v1/retrieve",
            headers={
                **origin,
                "Access-Control-Request-Method": "POST",
                "Access-Control-Request-Headers": "X-API-Key, Content-Type",
            },
        )
        assert pre.status_code == 200


async def test_metrics_count_routes_by_template_and_observe_packets(tmp_path: Path) -> None:
    async with serve(tmp_path) as c:
        for cid in ("ccss:6.NS.A.1", "ccss:5.NF.A.1"):
            await c.get(f"/v1/concepts/{cid}", headers=R)
        await c.post("/v1/retrieve", json={"query": "adding fractions"}, headers=R)
        text = (await c.get("/metrics")).text
    route = 'route="/v1/concepts/{concept_id}"'
    assert f'tutorgraph_http_requests_total{{method="GET",{route},status="200"}} 2' in text
    assert 'tutorgraph_retrieval_stage_duration_seconds_count{stage="total"} 1' in text
    assert 'tutorgraph_retrieval_stage_duration_seconds_bucket{le="+Inf",stage="total"} 1' in text
    assert 'tutorgraph_reranker_total{applied="false"} 1' in text
    assert "tutorgraph_http_requests_in_flight" in text


async def test_the_openapi_schema_lists_every_endpoint_and_the_envelope(tmp_path: Path) -> None:
    async with serve(tmp_path) as c:
        schema = (await c.get("/openapi.json")).json()
    paths = schema["paths"]
    for path, method in [
        ("/v1/retrieve", "post"),
        ("/v1/concepts", "get"),
        ("/v1/concepts/{concept_id}", "get"),
        ("/v1/concepts/{concept_id}/prerequisites", "get"),
        ("/v1/concepts/{concept_id}/misconceptions", "get"),
        ("/v1/ingest", "post"),
        ("/v1/ingest/{job_id}", "get"),
        ("/healthz", "get"),
        ("/readyz", "get"),
        ("/metrics", "get"),
    ]:
        assert method in paths[path], path
    retrieve = paths["/v1/retrieve"]["post"]
    assert retrieve["responses"]["422"]["content"]["application/json"]["schema"]["$ref"].endswith(
        "/ErrorResponse"
    )
    assert "ReasoningPacket" in json.dumps(retrieve["responses"]["200"])
    # The packet's slots, confidence and "not sure" flag are part of the published schema.
    packet = schema["components"]["schemas"]["ReasoningPacket"]["properties"]
    assert {"slots", "confidence", "no_match", "no_match_reason", "scope"} <= set(packet)
    slot = schema["components"]["schemas"]["Slot"]["properties"]
    assert {"hits", "scale", "confidence", "empty_reason", "stated_answer", "note"} == set(slot)
    # Each slot's hit says where it came from, its grade, and a misconception its own claim.
    slot_hit = schema["components"]["schemas"]["SlotHit"]["properties"]
    assert {"via", "standard", "grade", "role", "confidence"} <= set(slot_hit)
    assert "ranker" in json.dumps(schema["components"]["schemas"]["Hit"]["properties"]["found_by"])
    assert schema["components"]["securitySchemes"]["APIKeyHeader"]["name"] == "X-API-Key"
    assert "application/gzip" in paths["/v1/ingest"]["post"]["requestBody"]["content"]


async def test_readyz_names_the_live_generation_and_no_path(
    tmp_path: Path, opener: FakeOpener
) -> None:
    async with serve(tmp_path, opener) as c:
        ready = (await c.get("/readyz")).json()
    assert ready["generation"] == "000001"
    assert str(tmp_path) not in json.dumps(ready)


async def test_readyz_tells_an_optional_part_that_is_off_from_one_that_failed(
    tmp_path: Path,
) -> None:
    # The fake opener loads no reranker and no ranker, whatever the settings say.
    async with serve(tmp_path, reranker_model="", ranker_model="") as c:
        ready = await c.get("/readyz")
    assert ready.status_code == 200 and ready.json()["status"] == "ready"
    deps = ready.json()["dependencies"]
    for name in ("reranker", "ranker"):
        # Off by configuration: not a fault, so `ok` stays true for clients that read it.
        assert deps[name]["state"] == "off" and deps[name]["ok"] is True, deps[name]
        assert "_MODEL is empty" in deps[name]["detail"]
    assert deps["refiner"]["state"] == "off"  # the fake retriever has none
    async with serve(tmp_path, reranker_model="some/reranker") as c:
        ready = await c.get("/readyz")
    # Configured but not loaded: failed, and still ready (packets say they are not reranked).
    assert ready.status_code == 200 and ready.json()["status"] == "ready"
    reranker = ready.json()["dependencies"]["reranker"]
    assert reranker["state"] == "failed" and reranker["ok"] is False, reranker


def test_create_app_refuses_malformed_keys_and_builds_nothing(tmp_path: Path) -> None:
    from tutorgraph.errors import ConfigurationError

    calls: list[Settings] = []
    recorder: Callable[[Settings], object] = calls.append  # type: ignore[assignment]
    with pytest.raises(ConfigurationError):
        create_app(Settings(index_dir=tmp_path, api_keys="sha256:nope:read"))
    create_app(Settings(index_dir=tmp_path / "none"), opener=recorder)  # type: ignore[arg-type]
    assert calls == []  # nothing is opened before the lifespan

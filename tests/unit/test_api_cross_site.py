"""Writes from another site's web page are refused (issue 46): every route that is not a GET
and not one of the read-only POSTs answers 403 `cross_site_request` to a request whose
`Origin` is another origin or whose `Sec-Fetch-Site` is `cross-site` or `same-site`, unless
the origin is listed in `TUTORGRAPH_CORS_ORIGINS`. Through the real ASGI stack over a fake
index (no models)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import httpx
import pytest
from starlette.datastructures import Headers
from tests.unit.api_fakes import FakeOpener, write_fake_index

from tutorgraph.api import create_app
from tutorgraph.api.app import READ_ONLY_POSTS
from tutorgraph.api.middleware import SAFE_METHODS, cross_site_reason
from tutorgraph.config import Settings

pytestmark = pytest.mark.unit

EVIL = "https://evil.example"
TUTOR = "https://tutor.example"
GZIP = {"Content-Type": "application/gzip"}


@asynccontextmanager
async def _api(tmp_path: Path, **overrides: object) -> AsyncIterator[httpx.AsyncClient]:
    fields: dict[str, object] = {
        "index_dir": write_fake_index(tmp_path / "index"),
        "api_keys": "",
        "allowed_hosts": "test",  # the client's base URL
    }
    fields.update(overrides)
    app = create_app(Settings.model_validate(fields), opener=FakeOpener())
    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
    async with (
        app.router.lifespan_context(app),
        httpx.AsyncClient(transport=transport, base_url="http://test") as client,
    ):
        yield client


def _write_routes(tmp_path: Path) -> list[tuple[str, str]]:
    app = create_app(Settings(index_dir=write_fake_index(tmp_path / "index")), opener=FakeOpener())
    return sorted(
        (method.upper(), path)
        for path, operations in app.openapi()["paths"].items()
        for method in operations
        if method.upper() not in SAFE_METHODS and path not in READ_ONLY_POSTS
    )


def test_the_write_routes_are_known(tmp_path: Path) -> None:
    """A new non-GET route is a write unless it is added to READ_ONLY_POSTS on purpose."""
    assert _write_routes(tmp_path) == [("POST", "/v1/ingest")]


CROSS_SITE = [
    {"Origin": EVIL},
    {"Origin": "null"},
    {"Origin": "http://test:8080"},  # same host, another port
    {"Origin": "not a url"},
    {"Sec-Fetch-Site": "cross-site"},
    {"Sec-Fetch-Site": "same-site"},
    {"Origin": "http://test", "Sec-Fetch-Site": "cross-site"},
]


@pytest.mark.parametrize("headers", CROSS_SITE)
async def test_every_write_refuses_another_sites_page(
    tmp_path: Path, headers: dict[str, str]
) -> None:
    async with _api(tmp_path) as c:
        for method, path in [*_write_routes(tmp_path), ("PUT", "/v1/ingest"), ("DELETE", "/x")]:
            resp = await c.request(method, path, content=b"x", headers={**GZIP, **headers})
            assert resp.status_code == 403, (method, path, resp.text)
            body = resp.json()["error"]
            assert body["code"] == "cross_site_request" and body["details"]["reason"]


@pytest.mark.parametrize(
    "headers",
    [
        {},  # not a browser: curl, httpx, the Python client
        {"Origin": "http://test"},
        {"Origin": "http://TEST:80/"},
        # The scheme is not compared: behind a proxy that ends TLS, the page is https and
        # the server sees http with the same Host.
        {"Origin": "https://test"},
        {"Sec-Fetch-Site": "same-origin", "Origin": "http://test"},
        {"Sec-Fetch-Site": "none"},  # typed into the address bar
    ],
)
async def test_the_servers_own_origin_and_non_browsers_may_write(
    tmp_path: Path, headers: dict[str, str]
) -> None:
    async with _api(tmp_path) as c:
        resp = await c.post("/v1/ingest", content=b"not a tarball", headers={**GZIP, **headers})
        assert resp.status_code == 422, resp.text  # past the check, at the archive reader


async def test_a_listed_origin_may_write_and_a_star_may_not(tmp_path: Path) -> None:
    listed = {"Origin": TUTOR, "Sec-Fetch-Site": "cross-site"}
    async with _api(tmp_path, cors_origins=f"{TUTOR}/, https://other.example") as c:
        # The preflight a page must send for an application/gzip body passes CORS...
        pre = await c.options(
            "/v1/ingest",
            headers={
                "Origin": TUTOR,
                "Access-Control-Request-Method": "POST",
                "Access-Control-Request-Headers": "Content-Type",
            },
        )
        assert pre.status_code == 200
        # ...and so does the write.
        resp = await c.post("/v1/ingest", content=b"not a tarball", headers={**GZIP, **listed})
        assert resp.status_code == 422, resp.text
        assert resp.headers["access-control-allow-origin"] == TUTOR
        resp = await c.post("/v1/ingest", content=b"x", headers={**GZIP, "Origin": EVIL})
        assert resp.status_code == 403
    async with _api(tmp_path, cors_origins="*") as c:
        resp = await c.post("/v1/ingest", content=b"x", headers={**GZIP, "Origin": TUTOR})
        assert resp.status_code == 403 and resp.json()["error"]["code"] == "cross_site_request"
        # A read from any page, as "*" says.
        read = await c.post("/v1/retrieve", json={"query": "fractions"}, headers={"Origin": TUTOR})
        assert read.status_code == 200 and read.headers["access-control-allow-origin"] == "*"


async def test_reads_from_another_page_are_not_refused_here(tmp_path: Path) -> None:
    async with _api(tmp_path) as c:
        cross = {"Origin": EVIL, "Sec-Fetch-Site": "cross-site"}
        assert (await c.get("/healthz", headers=cross)).status_code == 200
        assert (await c.get("/v1/concepts/ccss:5.NF.A.1", headers=cross)).status_code == 200
        resp = await c.post("/v1/retrieve", json={"query": "fractions"}, headers=cross)
        assert resp.status_code == 200


@pytest.mark.parametrize(
    ("headers", "refused"),
    [
        ({"host": "[::1]:8000", "origin": "http://[::1]:8000"}, False),
        ({"host": "[::1]:8000", "origin": "http://[::1]:8001"}, True),
        ({"host": "127.0.0.1", "origin": "http://127.0.0.1:80"}, False),
        ({"host": "api.example", "origin": "https://api.example"}, False),
        ({"host": "api.example", "origin": "https://api.example:8443"}, True),
        ({"host": "127.0.0.1:8000", "origin": "http://[::1"}, True),
        ({"host": "127.0.0.1:8000", "origin": "http://127.0.0.1:99999"}, True),
        ({"host": "127.0.0.1:8000", "origin": "file://"}, True),
        ({"host": "127.0.0.1:8000", "origin": "http://127.0.0.1:8000/path"}, True),
        ({"origin": "http://127.0.0.1:8000"}, True),  # no Host: nothing to compare with
        ({"host": "127.0.0.1:8000", "sec-fetch-site": "Cross-Site"}, True),
        ({"host": "127.0.0.1:8000", "sec-fetch-site": "same-origin"}, False),
    ],
)
def test_cross_site_reason(headers: dict[str, str], refused: bool) -> None:
    assert (cross_site_reason(Headers(headers), frozenset()) is not None) is refused

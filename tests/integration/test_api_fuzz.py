"""Schemathesis fuzzing of every route of the HTTP API, from the app's own OpenAPI schema.

One app for the module, over a COPY of the session index (real MiniLM, Chroma, BM25, graph;
no reranker, no rate limit), so that a fuzzed `POST /v1/ingest` can never touch the shared
index. Schemathesis runs the app in process (its ASGI client, one event loop, the app's
lifespan entered once) and generates requests for every operation of `/openapi.json`:
the schema's examples, its coverage cases, then `FUZZ_EXAMPLES` Hypothesis examples, valid
and invalid ones alike.

- With an admin key on every request, so that each request gets past auth into the handler:
  nothing may answer 5xx, and nothing sent with the key may answer 401/403 (Schemathesis'
  own "no X-API-Key" negative cases drop the key; those must answer 401).
- Without a valid key (none, or whatever Schemathesis makes up): still no 5xx, a protected
  route never answers 2xx, and every protected route answered 401 at least once.
- The three routes without parameters (`/healthz`, `/readyz`, `/metrics`), on which
  Schemathesis finds next to nothing to vary, get `FUZZ_EXAMPLES` requests each with junk
  query strings and `X-API-Key`/`Accept` headers: all 200.
- Afterwards the server is still up: `/healthz` and `/readyz` answer 200, a real retrieval
  works, and `/metrics` counted no 5xx at all.
"""

from __future__ import annotations

import copy
import re
import shutil
from collections import Counter, defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from fastapi import FastAPI
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error
from schemathesis.python import asgi

from tutorgraph.api import create_app
from tutorgraph.api.auth import API_KEY_HEADER as API_KEY
from tutorgraph.api.auth import key_entry
from tutorgraph.config import Settings

pytestmark = pytest.mark.integration

ADMIN = "fuzz-admin-key-0123456789abcdef"
READ = "fuzz-read-key-0123456789abcdef"
# Hypothesis examples per operation in the keyed run (on top of Schemathesis' explicit
# examples and coverage cases), and in the smaller run without a key.
FUZZ_EXAMPLES = 200
NO_KEY_EXAMPLES = 50
# A request is answered in process; generous, as a retrieval on a busy 2-core runner is slow.
TIMEOUT_S = 120
PUBLIC_PATHS = frozenset({"/healthz", "/readyz", "/metrics"})

# What each operation answered, per run: {run: {label: Counter(status)}}.
SEEN: dict[str, defaultdict[str, Counter[int]]] = {
    "admin": defaultdict(Counter),
    "no-key": defaultdict(Counter),
    "junk": defaultdict(Counter),
}

FUZZ_SETTINGS: dict[str, Any] = {
    "deadline": None,
    "suppress_health_check": list(HealthCheck),
    # No example database: a failure is reported with its curl command instead.
    "database": None,
}


@pytest.fixture(scope="module")
def fuzz_index(session_index, tmp_path_factory: pytest.TempPathFactory) -> Path:  # type: ignore[no-untyped-def]
    """A copy of the session index: fuzzed ingest jobs build their generations beside it."""
    base = tmp_path_factory.mktemp("fuzz") / "index"
    shutil.copytree(session_index[0], base)
    return base


def _schema_app(index_dir: Path) -> FastAPI:
    """The app the fuzzing runs against: auth on (an admin and a read key), no reranker (a
    fast retrieval), no rate limit, a generous source timeout (slow is not a 503 here)."""
    return create_app(
        Settings.model_validate(
            {
                "index_dir": index_dir,
                "api_keys": f"{key_entry(ADMIN, 'admin')},{key_entry(READ, 'read')}",
                "reranker_model": "",
                "rate_limit_per_minute": 0,
                "source_timeout_s": 60,
                "allowed_hosts": "testserver",  # the Host its ASGI client sends
            }
        )
    )


# The schema is the app's own `/openapi.json`, taken at import: `create_app` does no I/O, and
# its routes (so its schema) do not depend on settings. The app that answers is built once
# for the module by `fuzz_app`, over the index copy, and given to every `case.call(app=...)`.
# (`schemathesis.pytest.from_fixture` would load the schema from a fixture instead, but
# schemathesis 4.32.5's lazy loader sets `Function._nodeid`, which pytest 9.2 no longer has.)
_OPENAPI = _schema_app(Path("unused-index")).openapi()
# `POST /v1/ingest` takes `application/gzip` (or octet-stream) bytes: sent as they are.
schemathesis.serializer.alias("application/gzip", "application/octet-stream")
# The admin key as a configured header: every generated request carries it, and negative
# cases never drop or mangle it (a key passed to `case.call` is removed from a case whose
# mutation was "no X-API-Key").
with_key = schemathesis.openapi.from_dict(
    copy.deepcopy(_OPENAPI), config=schemathesis.Config.from_dict({"headers": {API_KEY: ADMIN}})
)
# Without: Schemathesis sends no key, or makes one up from the API key security scheme.
without_key = schemathesis.openapi.from_dict(copy.deepcopy(_OPENAPI))


@pytest.fixture(scope="module")
def fuzz_app(fuzz_index: Path) -> Iterator[FastAPI]:
    """The app over the index copy, its lifespan entered (index opened, models loaded) on
    Schemathesis' event loop, once; shut down (ingest jobs cancelled, stores closed) after."""
    app = _schema_app(fuzz_index)
    with asgi.get_client(app) as client:
        assert client.get("/healthz", timeout=TIMEOUT_S).status_code == 200
    try:
        yield app
    finally:
        asgi.shutdown_lifespans()


def _record(run: str, case: schemathesis.Case, status: int) -> None:
    SEEN[run][case.operation.label][status] += 1


@with_key.parametrize()
@settings(max_examples=FUZZ_EXAMPLES, **FUZZ_SETTINGS)
def test_no_request_with_an_admin_key_is_a_server_error(
    case: schemathesis.Case, fuzz_app: FastAPI
) -> None:
    response = case.call_and_validate(app=fuzz_app, checks=[not_a_server_error], timeout=TIMEOUT_S)
    _record("admin", case, response.status_code)
    assert response.status_code < 500, case.as_curl_command()
    if response.request.headers.get(API_KEY) == ADMIN:
        # A valid admin key: the request got past auth, to its route's handler.
        assert response.status_code not in (401, 403), (response.text, case.as_curl_command())
    else:
        # Schemathesis' own "no X-API-Key" negative case (it drops the configured header).
        assert response.status_code == 401, (response.text, case.as_curl_command())


@without_key.parametrize()
@settings(max_examples=NO_KEY_EXAMPLES, **FUZZ_SETTINGS)
def test_without_a_valid_key_protected_routes_answer_401_not_5xx(
    case: schemathesis.Case, fuzz_app: FastAPI
) -> None:
    # No key of ours: Schemathesis sends none, or a made-up X-API-Key value.
    response = case.call_and_validate(app=fuzz_app, checks=[not_a_server_error], timeout=TIMEOUT_S)
    _record("no-key", case, response.status_code)
    status = response.status_code
    assert status < 500, case.as_curl_command()
    if case.operation.path in PUBLIC_PATHS:
        return
    # A protected route never answers without a valid key (a body that is too large or not
    # JSON at all may be refused before auth runs, but never with a 2xx).
    assert not 200 <= status < 300, (response.text, case.as_curl_command())
    if status == 401:
        body = response.json()
        assert body["error"]["code"] == "unauthenticated", body
        assert response.headers["www-authenticate"][0].startswith("APIKey"), response.headers


# Printable ASCII: what a header can carry; up to 600 characters, past the 512 a key may have.
_HEADER_TEXT = st.text(st.characters(min_codepoint=0x21, max_codepoint=0x7E), max_size=600)


@pytest.mark.parametrize("path", sorted(PUBLIC_PATHS))
@settings(max_examples=FUZZ_EXAMPLES, **FUZZ_SETTINGS)
@given(
    query=st.dictionaries(st.text(min_size=1, max_size=20), st.text(max_size=60), max_size=5),
    key=_HEADER_TEXT,
    accept=_HEADER_TEXT,
)
def test_parameterless_routes_answer_200_to_any_query_and_headers(
    fuzz_app: FastAPI, path: str, query: dict[str, str], key: str, accept: str
) -> None:
    # Schemathesis has next to nothing to vary on a route without parameters (a handful of
    # requests each above): these get `FUZZ_EXAMPLES` requests with junk instead.
    with asgi.get_client(fuzz_app) as client:
        resp = client.get(
            path, params=query, headers={API_KEY: key, "Accept": accept}, timeout=TIMEOUT_S
        )
    SEEN["junk"][f"GET {path}"][resp.status_code] += 1
    assert resp.status_code == 200, (path, query, resp.text[:500])


def test_the_server_is_still_up_after_fuzzing(fuzz_app: FastAPI) -> None:
    with asgi.get_client(fuzz_app) as client:
        assert client.get("/healthz", timeout=TIMEOUT_S).json() == {"status": "ok"}
        ready = client.get("/readyz", timeout=TIMEOUT_S)
        assert ready.status_code == 200 and ready.json()["status"] == "ready", ready.text
        packet = client.post(
            "/v1/retrieve",
            json={"query": "why is 1/2 + 1/4 not 2/6", "rerank": False},
            headers={API_KEY: READ},
            timeout=TIMEOUT_S,
        )
        assert packet.status_code == 200, packet.text
        assert packet.json()["results"] and packet.json()["degraded_sources"] == []
        metrics = client.get("/metrics", timeout=TIMEOUT_S).text
    # The server's own count: no route answered 5xx during the whole module.
    server_errors = [line for line in metrics.splitlines() if re.search(r'status="5\d\d"', line)]
    assert server_errors == [], server_errors

    operations = {result.ok().label for result in with_key.get_all_operations()}
    for run, seen in SEEN.items():
        if not seen:  # that fuzz test was deselected
            continue
        print(f"\n{run}: requests and statuses per operation")
        for label in sorted(operations if run != "junk" else seen):
            print(f"  {label}: {sum(seen[label].values())} {dict(sorted(seen[label].items()))}")
        if run != "junk":
            assert set(seen) == operations, operations ^ set(seen)
    no_key = SEEN["no-key"]
    for label in sorted(no_key):
        if label.split(" ", 1)[1] not in PUBLIC_PATHS:
            assert no_key[label][401] > 0, (label, no_key[label])

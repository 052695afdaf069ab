"""What the in-process HTTP API tests share: the keys, the settings, the app run with its
lifespan, the switchable graph's opener, the error-envelope check and the bundle archive.

Used by `test_api.py`, `test_api_ingest_jobs.py` and the other tests that drive the API in
process (the client, the answer route, the UI, the README examples)::

    async with running(settings_for(index_dir)) as client:
        error(await client.get("/v1/concepts/x:y", headers=R), 404, "concept_not_found")
"""

from __future__ import annotations

import io
import tarfile
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
from tests.unit.api_fakes import SwitchableGraph

from tutorgraph.api import create_app
from tutorgraph.api.auth import key_entry
from tutorgraph.api.live_index import RetrieverOpener
from tutorgraph.config import BUNDLED_RERANKER, Settings
from tutorgraph.index.local import LocalIndex
from tutorgraph.index.service import OpenRetriever, open_index
from tutorgraph.retrieval.factory import Models, build_retriever, load_reranker
from tutorgraph.retrieval.retriever_config import RetrieverConfig

__all__ = [
    "ADMIN",
    "LIMITED",
    "QUERY",
    "RATE",
    "READ",
    "A",
    "R",
    "error",
    "running",
    "settings_for",
    "switchable_opener",
    "tar_gz",
]

READ = "integration-read-key-0123456789"
ADMIN = "integration-admin-key-0123456789"
LIMITED = "integration-limited-key-0123456789"
R = {"X-API-Key": READ}
A = {"X-API-Key": ADMIN}
RATE = 100
QUERY = "why is 1/2 + 1/4 not 2/6"


def settings_for(index_dir: Path, **overrides: Any) -> Settings:
    """The API's settings over `index_dir`: three keys (read, admin, a rate-limited read),
    RATE requests a minute, an 8 KiB body cap and the bundled reranker; `overrides` win."""
    fields: dict[str, Any] = {
        "index_dir": index_dir,
        # Generous: a busy 2-core runner must not degrade packets by accident.
        "source_timeout_s": 60,
        "api_keys": ",".join(
            [key_entry(READ, "read"), key_entry(ADMIN, "admin"), key_entry(LIMITED, "read")]
        ),
        "rate_limit_per_minute": RATE,
        "max_body_bytes": 8192,
        # Off by default (it lowers MAP@25); on here so HTTP covers the rerank path.
        "reranker_model": BUNDLED_RERANKER,
    }
    fields.update(overrides)
    return Settings.model_validate(fields)


def switchable_opener(embedder: Any, graphs: list[SwitchableGraph]) -> RetrieverOpener:
    """`open_retriever`'s wiring, with the session's MiniLM and the graph made switchable
    (to fail on demand: the degraded path). Everything else is the real thing."""

    def open_(settings: Settings) -> OpenRetriever:
        opened = open_index(settings)
        graph = SwitchableGraph(opened.graph)
        graphs.append(graph)
        index = LocalIndex(
            opened.manifest,
            opened.vector,
            opened.lexical,
            graph,  # type: ignore[arg-type]
            generation=opened.generation,
            problems=opened.problems,
            linker=opened.linker,
            lessons=opened.lessons,
        )
        models = Models(embedder, load_reranker(settings))
        return OpenRetriever(
            build_retriever(index, models, RetrieverConfig.from_settings(settings)), index
        )

    return open_


@asynccontextmanager
async def running(
    settings: Settings, opener: RetrieverOpener | None = None
) -> AsyncIterator[httpx.AsyncClient]:
    """A client of the app in process, its lifespan run (the index opened, then closed)."""
    app = create_app(settings, opener=opener)
    # raise_app_exceptions=False: the client sees the 500 a real server would send.
    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
    async with (
        app.router.lifespan_context(app),
        httpx.AsyncClient(transport=transport, base_url="http://localhost", timeout=300) as client,
    ):
        yield client


def error(resp: httpx.Response, status: int, code: str) -> dict[str, Any]:
    """Check `resp` is `status` with the error envelope of `code` (no traceback, no source
    path) and return the envelope's body."""
    assert resp.status_code == status, resp.text
    body = resp.json()
    assert list(body) == ["error"] and sorted(body["error"]) == ["code", "details", "message"]
    assert body["error"]["code"] == code, body
    assert "Traceback" not in resp.text and 'File "' not in resp.text
    return dict(body["error"])


def tar_gz(bundle_dir: Path, *, folder: str = "bundle") -> bytes:
    """The files of `bundle_dir` as a gzipped tar, under `folder/` (as `/v1/ingest` takes)."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        for path in sorted(bundle_dir.iterdir()):
            tar.add(path, arcname=f"{folder}/{path.name}")
    return buf.getvalue()

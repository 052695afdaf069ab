"""Ingest jobs over the HTTP API in process, on a copy of the real session index: a pruning
job that fails validation and leaves the live index untouched, an unsafe or broken archive
refused at once, a job that succeeds, swaps the new generation in, and is still served after
a restart, and a bundle with bad records that the job and a real `tutorgraph ingest` treat
alike. (The other routes are `test_api.py`'s; the shared wiring is `api_support.py`.)
"""

from __future__ import annotations

import asyncio
import io
import json
import shutil
import tarfile
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
import pytest_asyncio
from tests.integration.api_support import (
    QUERY,
    error,
    running,
    settings_for,
    switchable_opener,
    tar_gz,
)
from tests.unit.api_fakes import SwitchableGraph

from tutorgraph.config import Settings
from tutorgraph.index.generations import generations, live_generation
from tutorgraph.index.layout import IndexLayout, load_catalogue
from tutorgraph.ingest.bundle import write_bundle
from tutorgraph.models.records import SourceRecords
from tutorgraph_client.models.curriculum import Concept, Document, Misconception

pytestmark = [pytest.mark.integration, pytest.mark.asyncio(loop_scope="module")]

LICENSE = "CC0-1.0"
NEW_CONCEPT = "test:api-zorblax"


def zorblax_records() -> SourceRecords:
    return SourceRecords(
        concepts=[
            Concept(
                id=NEW_CONCEPT,
                name="Zorblax fractions",
                description="A made-up topic that only the API test ingests",
                kind="construct",
                source="api-test",
                license=LICENSE,
            )
        ],
        misconceptions=[
            Misconception(
                id="test:api-zorblax-misconception",
                text="Thinks a zorblax fraction is always smaller than one",
                concept_ids=[NEW_CONCEPT],
                source="api-test",
                license=LICENSE,
            )
        ],
        documents=[
            Document(
                id="test:api-zorblax-doc",
                kind="explanation",
                title="Zorblax fractions",
                text="A zorblax fraction has a numerator larger than its denominator.",
                concept_ids=[NEW_CONCEPT],
                source="api-test",
                license=LICENSE,
            )
        ],
    )


@pytest.fixture(scope="module")
def zorblax_bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("zorblax-bundle")
    write_bundle(zorblax_records(), out)
    return out


@dataclass
class IngestApi:
    client: httpx.AsyncClient
    base: Path
    settings: Settings


@pytest.fixture(scope="module")
def live_copy(session_index, tmp_path_factory: pytest.TempPathFactory) -> Path:  # type: ignore[no-untyped-def]
    """A copy of the session index: ingest tests swap generations next to it."""
    base = tmp_path_factory.mktemp("live") / "index"
    shutil.copytree(session_index[0], base)
    return base


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def ingest_api(live_copy: Path) -> AsyncIterator[IngestApi]:
    # Auth off, no reranker, and the production opener (`open_retriever`, models loaded).
    settings = settings_for(live_copy, api_keys="", reranker_model="", rate_limit_per_minute=0)
    async with running(settings) as client:
        yield IngestApi(client, live_copy, settings)


async def wait_for_job(
    client: httpx.AsyncClient, job_id: str, timeout_s: float = 600
) -> dict[str, Any]:
    deadline = asyncio.get_running_loop().time() + timeout_s
    while True:
        job = (await client.get(f"/v1/ingest/{job_id}")).json()
        if job["status"] in ("succeeded", "failed"):
            return dict(job)
        assert asyncio.get_running_loop().time() < deadline, job
        await asyncio.sleep(0.25)


def siblings(base: Path) -> list[str]:
    return sorted(p.name for p in base.parent.iterdir() if p.name != base.name)


def live_manifest(base: Path) -> bytes:
    generation = live_generation(base)
    assert generation is not None
    return (generation / "manifest.json").read_bytes()


def generation_names(base: Path) -> list[str]:
    return [g.name for g in generations(base)]


async def test_a_pruning_job_with_a_bad_record_fails_and_changes_nothing(
    ingest_api: IngestApi, zorblax_bundle: Path, tmp_path: Path
) -> None:
    # Without pruning the valid records would go in (the CLI's rule, the last test); a
    # pruning ingest keeps only the bundle, so one bad record refuses it whole.
    c, base = ingest_api.client, ingest_api.base
    bad = tmp_path / "bad"
    shutil.copytree(zorblax_bundle, bad)
    with (bad / "concepts.jsonl").open("a", encoding="utf-8") as fh:
        fh.write('{"id": "no prefix here", "name": "x", "kind": "standard"}\n')
    manifest_before = live_manifest(base)
    names_before = generation_names(base)
    ready_before = (await c.get("/readyz")).json()["generation"]
    before = (await c.post("/v1/retrieve", json={"query": QUERY, "rerank": False})).json()

    resp = await c.post(
        "/v1/ingest",
        params={"prune": "true"},
        content=tar_gz(bad),
        headers={"Content-Type": "application/gzip"},
    )
    assert resp.status_code == 202, resp.text
    assert resp.headers["location"] == f"/v1/ingest/{resp.json()['job_id']}"
    job = await wait_for_job(c, resp.json()["job_id"])
    assert job["status"] == "failed" and job["report"] is None and job["generation"] is None
    assert job["error"]["code"] == "invalid_bundle"
    assert "nothing was changed" in job["error"]["message"]
    assert job["error"]["details"]["errors"][0].startswith("concepts.jsonl:2: ")

    # Nothing changed: no new generation, the same live one, the same answers.
    assert siblings(base) == []
    assert generation_names(base) == names_before
    assert live_manifest(base) == manifest_before
    assert (await c.get("/readyz")).json()["generation"] == ready_before
    error(await c.get(f"/v1/concepts/{NEW_CONCEPT}"), 404, "concept_not_found")
    after = (await c.post("/v1/retrieve", json={"query": QUERY, "rerank": False})).json()
    assert [h["id"] for h in after["results"]] == [h["id"] for h in before["results"]]


async def test_an_unsafe_or_broken_archive_is_refused_at_once(ingest_api: IngestApi) -> None:
    c = ingest_api.client
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        info = tarfile.TarInfo("../../concepts.jsonl")
        data = b"{}\n"
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
    err = error(await c.post("/v1/ingest", content=buf.getvalue()), 422, "invalid_bundle")
    assert "unsafe archive entry" in err["message"]
    error(await c.post("/v1/ingest", content=b"\x1f\x8b not really gzip"), 422, "invalid_bundle")
    assert siblings(ingest_api.base) == []
    assert len(generation_names(ingest_api.base)) == 1


async def test_an_ingest_job_swaps_in_a_new_generation_that_survives_a_restart(
    ingest_api: IngestApi, zorblax_bundle: Path, embedder
) -> None:  # type: ignore[no-untyped-def]
    c, base = ingest_api.client, ingest_api.base
    old = live_generation(base)
    assert old is not None
    manifest_before = live_manifest(base)
    resp = await c.post("/v1/ingest", content=tar_gz(zorblax_bundle, folder="curriculum"))
    assert resp.status_code == 202, resp.text
    assert resp.json()["status"] == "queued"
    # One job at a time.
    busy = await c.post("/v1/ingest", content=tar_gz(zorblax_bundle))
    error(busy, 409, "conflict")
    job = await wait_for_job(c, resp.json()["job_id"])
    assert job["status"] == "succeeded", job
    generation = job["generation"]
    assert generation > old.name and str(base) not in json.dumps(job)
    report = job["report"]
    # Incremental: the three new texts are embedded, every old one is kept as it was.
    assert (report["added"], report["updated"], report["pruned"]) == (3, 0, 0)
    assert report["unchanged"] > 100

    assert (await c.get("/readyz")).json()["generation"] == generation
    concept = (await c.get(f"/v1/concepts/{NEW_CONCEPT}")).json()
    assert concept["name"] == "Zorblax fractions"
    packet = (await c.post("/v1/retrieve", json={"query": "what is a zorblax fraction"})).json()
    hits = {h["id"]: h for h in packet["results"]}
    new_ids = {NEW_CONCEPT, "test:api-zorblax-misconception", "test:api-zorblax-doc"}
    assert new_ids <= set(hits)
    # Found by the dense search too: the new vectors are in the new generation's Chroma.
    assert all("vector" in hits[i]["found_by"] for i in new_ids)

    # The old generation was never written; the pointer names the new one.
    assert (old / "manifest.json").read_bytes() == manifest_before
    assert (base / "CURRENT").read_text().strip() == generation
    assert siblings(base) == []
    metrics = (await c.get("/metrics")).text
    assert 'tutorgraph_ingest_jobs_total{status="succeeded"} 1' in metrics
    assert 'tutorgraph_ingest_jobs_total{status="failed"} 1' in metrics
    assert "tutorgraph_index_swaps_total 1" in metrics

    # A restart reads the pointer and serves the new generation.
    graphs: list[SwitchableGraph] = []
    async with running(ingest_api.settings, switchable_opener(embedder, graphs)) as again:
        assert (await again.get("/readyz")).json()["generation"] == generation
        assert (await again.get(f"/v1/concepts/{NEW_CONCEPT}")).status_code == 200


def bad_records_bundle(out: Path) -> Path:
    """Two good records (a concept, its lesson) and four bad ones: a concept name over its
    limit, a record over the record limit (a 200 KB name, the issue's kind of upload), a
    lesson about a concept nobody holds, and a line that is not JSON."""
    write_bundle(
        SourceRecords(
            concepts=[
                Concept(
                    id="test:limits-good",
                    name="Quorbic ratios",
                    kind="construct",
                    source="limits-test",
                    license=LICENSE,
                )
            ],
            documents=[
                Document(
                    id="test:limits-lesson",
                    kind="explanation",
                    title="Quorbic ratios",
                    text="A quorbic ratio compares a part with the whole it came from.",
                    concept_ids=["test:limits-good"],
                    source="limits-test",
                    license=LICENSE,
                )
            ],
        ),
        out,
    )
    concept = {"kind": "construct", "source": "limits-test", "license": LICENSE}
    bad_lesson = {
        "id": "test:limits-stray",
        "kind": "explanation",
        "text": "About a concept that no one holds.",
        "concept_ids": ["test:limits-nowhere"],
        "source": "limits-test",
        "license": LICENSE,
    }
    with (out / "concepts.jsonl").open("a", encoding="utf-8") as fh:
        fh.write(json.dumps({"id": "test:limits-long", "name": "n" * 600, **concept}) + "\n")
        fh.write(json.dumps({"id": "test:limits-huge", "name": "h" * 200_000, **concept}) + "\n")
        fh.write("{oops\n")
    with (out / "documents.jsonl").open("a", encoding="utf-8") as fh:
        fh.write(json.dumps(bad_lesson) + "\n")
    return out


EXPECTED_REJECTS = [
    "concepts.jsonl:2: concept 'test:limits-long': name has 600 characters, at most 500",
    "concepts.jsonl:3: concept 'test:limits-huge': the record has 200,",  # its size follows
    "concepts.jsonl:4: invalid JSON",
    "documents.jsonl:2: unknown concept_ids ['test:limits-nowhere'] (in neither the bundle "
    "nor the index)",
]


def _matches(lines: list[str]) -> bool:
    return len(lines) == len(EXPECTED_REJECTS) and all(
        line.startswith(want) for line, want in zip(lines, EXPECTED_REJECTS, strict=True)
    )


async def test_a_bad_bundle_is_ingested_alike_by_the_job_and_the_cli(
    ingest_api: IngestApi,
    session_index,  # type: ignore[no-untyped-def]
    run_cli,  # type: ignore[no-untyped-def]
    tmp_path: Path,
) -> None:
    """One rule for bad records: the CLI's. The same bundle through `POST /v1/ingest` and a
    real `tutorgraph ingest` process (on another copy of the same index): the good records
    go in, each bad one is rejected with the same `file:line: reason`, the same counts."""
    bundle = bad_records_bundle(tmp_path / "bad-records")
    c = ingest_api.client
    resp = await c.post("/v1/ingest", content=tar_gz(bundle))
    assert resp.status_code == 202, resp.text
    job = await wait_for_job(c, resp.json()["job_id"])
    assert job["status"] == "succeeded", job
    report = job["report"]
    assert report["rejected"] == 4 and _matches(report["rejected_records"]), report
    assert all(len(line) < 200 for line in report["rejected_records"])  # no value dumped
    assert (report["added"], report["updated"], report["pruned"]) == (2, 0, 0)
    assert (await c.get("/v1/concepts/test:limits-good")).status_code == 200
    for rejected in ("test:limits-long", "test:limits-huge"):
        error(await c.get(f"/v1/concepts/{rejected}"), 404, "concept_not_found")

    index = tmp_path / "cli-index"
    shutil.copytree(session_index[0], index)
    proc = await asyncio.to_thread(
        run_cli, "ingest", str(bundle), "--index-dir", str(index), timeout=300
    )
    assert proc.returncode == 1, proc.stderr  # the CLI's way of saying "some were rejected"
    printed = [
        line.removeprefix("rejected ")
        for line in proc.stderr.splitlines()
        if line.startswith("rejected ")
    ]
    assert printed == report["rejected_records"], proc.stderr
    out = " ".join(proc.stdout.split())
    assert "2 added, 0 updated," in out and "0 pruned, 4 rejected;" in out, out
    catalogue = {c.id for c in load_catalogue(IndexLayout.live(index)).concepts}
    assert "test:limits-good" in catalogue
    assert not {"test:limits-long", "test:limits-huge"} & catalogue

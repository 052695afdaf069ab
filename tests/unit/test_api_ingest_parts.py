"""The parts of HTTP ingest that need no model: safe unpacking of an uploaded `.tar.gz`
(`./`-rooted archives from the `tar` command included), the route's body types and its
writer lock, and the live-index swap (requests finish on the generation they started on; the
server follows the index's pointer to a newer generation, and keeps the old one when the new
cannot open). Also the metrics exposition format."""

from __future__ import annotations

import asyncio
import io
import subprocess
import tarfile
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.unit.api_fakes import FakeOpener, manifest, write_fake_index

from tutorgraph.api import create_app, live_index
from tutorgraph.api.errors import PayloadTooLargeError
from tutorgraph.api.ingest_jobs import extract_bundle
from tutorgraph.api.live_index import LiveIndex
from tutorgraph.api.metrics import ApiMetrics
from tutorgraph.config import Settings
from tutorgraph.errors import BundleError, BundleRecordError, IndexBusyError, IndexDamagedError
from tutorgraph.index import references
from tutorgraph.index.generations import activate, live_generation, new_generation
from tutorgraph.index.lock import WriterLock
from tutorgraph.ingest.bundle import ValidationReport

pytestmark = pytest.mark.unit

LINE = b'{"id": "x"}\n'


def _tar(path: Path, members: list[tuple[tarfile.TarInfo, bytes | None]]) -> Path:
    with tarfile.open(path, "w:gz") as tar:
        for info, data in members:
            if data is not None:
                info.size = len(data)
                tar.addfile(info, io.BytesIO(data))
            else:
                tar.addfile(info)
    return path


def _file(name: str, data: bytes = LINE) -> tuple[tarfile.TarInfo, bytes]:
    return tarfile.TarInfo(name), data


def test_bundle_files_at_the_top_or_in_one_folder_are_unpacked(tmp_path: Path) -> None:
    archive = _tar(
        tmp_path / "a.tar.gz",
        [
            _file("curriculum/concepts.jsonl"),
            _file("curriculum/documents.jsonl", b"doc\n"),
            _file("curriculum/NOTICE"),  # not a bundle file: skipped
            _file("deep/er/misconceptions.jsonl"),  # too deep: skipped
        ],
    )
    out = tmp_path / "out"
    assert extract_bundle(archive, out, max_bytes=1 << 20) == ["concepts.jsonl", "documents.jsonl"]
    assert (out / "documents.jsonl").read_bytes() == b"doc\n"
    assert sorted(p.name for p in out.iterdir()) == ["concepts.jsonl", "documents.jsonl"]
    top = _tar(tmp_path / "b.tar.gz", [_file("./prerequisites.jsonl")])
    assert extract_bundle(top, tmp_path / "out2", max_bytes=1 << 20) == ["prerequisites.jsonl"]


def _link(name: str, target: str, kind: bytes) -> tuple[tarfile.TarInfo, None]:
    info = tarfile.TarInfo(name)
    info.type = kind
    info.linkname = target
    return info, None


@pytest.mark.parametrize(
    ("member", "reason"),
    [
        (_file("/etc/concepts.jsonl"), "absolute path"),
        (_file("../concepts.jsonl"), "'..'"),
        (_file("bundle/../../concepts.jsonl"), "'..'"),
        (_link("concepts.jsonl", "/etc/passwd", tarfile.SYMTYPE), "a link"),
        (_link("concepts.jsonl", "other", tarfile.LNKTYPE), "a link"),
        (_link("fifo", "", tarfile.FIFOTYPE), "a special file"),
    ],
)
def test_unsafe_entries_are_refused(
    tmp_path: Path, member: tuple[tarfile.TarInfo, bytes | None], reason: str
) -> None:
    archive = _tar(tmp_path / "a.tar.gz", [_file("concepts.jsonl"), member])
    with pytest.raises(BundleError, match="unsafe archive entry") as err:
        extract_bundle(archive, tmp_path / "out", max_bytes=1 << 20)
    assert reason in err.value.message
    assert not (tmp_path / "passwd").exists()


def test_broken_duplicated_empty_and_oversized_archives(tmp_path: Path) -> None:
    out = tmp_path / "out"
    plain = tmp_path / "plain.tar.gz"
    plain.write_bytes(b"just some bytes, not gzip")
    with pytest.raises(BundleError, match=r"\.tar\.gz"):
        extract_bundle(plain, out, max_bytes=1 << 20)
    twice = _tar(tmp_path / "twice.tar.gz", [_file("concepts.jsonl"), _file("a/concepts.jsonl")])
    with pytest.raises(BundleError, match="twice"):
        extract_bundle(twice, tmp_path / "o2", max_bytes=1 << 20)
    nothing = _tar(tmp_path / "none.tar.gz", [_file("README.md")])
    with pytest.raises(BundleError, match="holds none of"):
        extract_bundle(nothing, tmp_path / "o3", max_bytes=1 << 20)
    # A gzip bomb stops at the unpacked limit: 1 MiB of zeros compresses to ~1 KiB.
    bomb = _tar(tmp_path / "bomb.tar.gz", [_file("documents.jsonl", b"\0" * (1 << 20))])
    assert bomb.stat().st_size < 10_000
    with pytest.raises(PayloadTooLargeError):
        extract_bundle(bomb, tmp_path / "o4", max_bytes=100_000)
    many = _tar(tmp_path / "many.tar.gz", [_file(f"f{i}") for i in range(1001)])
    with pytest.raises(BundleError, match="more than 1000 entries"):
        extract_bundle(many, tmp_path / "o5", max_bytes=1 << 20)


# -- live index generations ----------------------------------------------------------------


def _live(tmp_path: Path, opener: FakeOpener, reload_s: float = 0) -> LiveIndex:
    index = write_fake_index(tmp_path / "index")
    return LiveIndex(Settings(index_dir=index, index_reload_s=reload_s), opener)


def _next_generation(index: Path) -> str:
    """A writer's work: a new generation made live by the pointer switch."""
    generation = new_generation(index, live_generation(index))
    manifest().write(generation)
    activate(index, generation)
    return generation.name


async def test_swap_waits_for_running_requests_then_closes_the_old(tmp_path: Path) -> None:
    opener = FakeOpener()
    live = _live(tmp_path, opener)
    await live.open()
    first = live.current
    assert first is not None and first.name == "000001"

    release = asyncio.Event()
    seen: list[str] = []

    async def long_request() -> None:
        async with live.use() as generation:
            await release.wait()
            seen.append(generation.name)

    request = asyncio.create_task(long_request())
    await asyncio.sleep(0)
    assert _next_generation(tmp_path / "index") == "000002"
    await live.swap()
    assert live.current is not None and live.current.name == "000002"
    async with live.use() as generation:  # new requests see the new generation at once
        assert generation.name == "000002"
    await asyncio.sleep(0.05)
    assert not opener.indexes[0].vector.closed  # type: ignore[attr-defined]
    release.set()
    await request
    assert seen == ["000001"]  # the old request finished on the old index
    for _ in range(100):
        if opener.indexes[0].vector.closed:  # type: ignore[attr-defined]
            break
        await asyncio.sleep(0.01)
    assert opener.indexes[0].vector.closed  # type: ignore[attr-defined]
    # A swap to the generation already served opens nothing.
    await live.swap()
    assert len(opener.indexes) == 2
    await live.aclose()
    assert live.current is None


async def test_the_server_follows_a_generation_another_writer_made_live(tmp_path: Path) -> None:
    opener = FakeOpener()
    live = _live(tmp_path, opener, reload_s=0.02)
    await live.open()
    _next_generation(tmp_path / "index")  # as `tutorgraph ingest` from a shell would
    for _ in range(200):
        if live.current is not None and live.current.name == "000002":
            break
        await asyncio.sleep(0.01)
    assert live.current is not None and live.current.name == "000002"
    assert live.stale is None
    await live.aclose()


async def test_a_generation_that_cannot_open_changes_nothing_and_is_reported(
    tmp_path: Path,
) -> None:
    opener = FakeOpener()
    live = _live(tmp_path, opener, reload_s=0.02)
    await live.open()

    def broken(settings: Settings) -> object:
        raise IndexDamagedError("vector: chroma/chroma.sqlite3 is missing")

    live._opener = broken  # type: ignore[assignment]
    _next_generation(tmp_path / "index")
    with pytest.raises(IndexDamagedError):
        await live.swap()
    assert live.current is not None and live.current.name == "000001"
    assert live.stale is not None and "chroma.sqlite3" in live.stale
    await asyncio.sleep(0.1)  # the watcher keeps trying, and keeps serving the old one
    assert live.current is not None and live.current.name == "000001"
    await live.aclose()


async def test_a_stuck_request_cannot_keep_the_old_generation_forever(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(live_index, "DRAIN_TIMEOUT_S", 0.05)
    opener = FakeOpener()
    live = _live(tmp_path, opener)
    await live.open()
    never = asyncio.Event()

    async def stuck() -> None:
        async with live.use():
            await never.wait()

    task = asyncio.create_task(stuck())
    await asyncio.sleep(0)
    _next_generation(tmp_path / "index")
    await live.swap()
    await asyncio.sleep(0.3)
    assert opener.indexes[0].vector.closed  # type: ignore[attr-defined]
    task.cancel()
    await live.aclose()


# -- metrics exposition ----------------------------------------------------------------------


def test_api_metrics_render_parseable_text_with_escaped_labels() -> None:
    from prometheus_client.parser import text_string_to_metric_families

    metrics = ApiMetrics()
    metrics.observe_request("GET", '/a"b\\c\nd', 200, 0.05)
    for seconds in (0.05, 0.7, 3.0):
        metrics.observe_request("POST", "/v1/retrieve", 200, seconds)
    text = metrics.render()
    samples = {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }
    route = (("method", "GET"), ("route", '/a"b\\c\nd'), ("status", "200"))
    assert samples[("tutorgraph_http_requests_total", route)] == 1
    post = (("method", "POST"), ("route", "/v1/retrieve"), ("status", "200"))
    assert samples[("tutorgraph_http_requests_total", post)] == 3
    bucket = "tutorgraph_http_request_duration_seconds_bucket"
    assert samples[(bucket, (("le", "0.05"), ("route", "/v1/retrieve")))] == 1
    assert samples[(bucket, (("le", "1.0"), ("route", "/v1/retrieve")))] == 2
    assert samples[(bucket, (("le", "+Inf"), ("route", "/v1/retrieve")))] == 3
    # An unlabelled series exists from the start.
    assert samples[("tutorgraph_index_swaps_total", ())] == 0
    # Two apps in one process keep their own registries.
    assert "tutorgraph_http_requests_total{" not in ApiMetrics().render()


# -- archives the tar command makes (issue 46) -----------------------------------------------


def test_dot_rooted_and_empty_names_are_fine(tmp_path: Path) -> None:
    """`tar -czf b.tar.gz -C dir .` writes `./` first, then `./concepts.jsonl`: that crashed
    the unsafe-entry check with an IndexError (a 500)."""
    top = tarfile.TarInfo("./")
    top.type = tarfile.DIRTYPE
    bare = tarfile.TarInfo(".")
    bare.type = tarfile.DIRTYPE
    empty = tarfile.TarInfo("")
    empty.type = tarfile.DIRTYPE
    archive = _tar(
        tmp_path / "a.tar.gz",
        [(top, None), (bare, None), (empty, None), _file("./concepts.jsonl"), _file("./x/NOTICE")],
    )
    assert extract_bundle(archive, tmp_path / "out", max_bytes=1 << 20) == ["concepts.jsonl"]


def test_an_archive_from_the_tar_command_is_unpacked(tmp_path: Path) -> None:
    bundle = tmp_path / "bundle"
    bundle.mkdir()
    (bundle / "concepts.jsonl").write_bytes(LINE)
    (bundle / "documents.jsonl").write_bytes(LINE)
    archive = tmp_path / "b.tar.gz"
    subprocess.run(["tar", "-czf", str(archive), "-C", str(bundle), "."], check=True)
    names = extract_bundle(archive, tmp_path / "out", max_bytes=1 << 20)
    assert sorted(names) == ["concepts.jsonl", "documents.jsonl"]


# -- the ingest route: body types, the writer lock (issue 46) ------------------------------


@asynccontextmanager
async def _api(tmp_path: Path, **fields: Any) -> AsyncIterator[httpx.AsyncClient]:
    """The app (auth off) over a fake index, its lifespan entered; `fields` are settings."""
    settings = Settings(
        index_dir=write_fake_index(tmp_path / "index"),
        api_keys="",
        allowed_hosts="test",
        **fields,
    )
    app = create_app(settings, opener=FakeOpener())
    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
    async with (
        app.router.lifespan_context(app),
        httpx.AsyncClient(transport=transport, base_url="http://test") as client,
    ):
        yield client


def _code(resp: httpx.Response) -> tuple[int, str]:
    assert "Traceback" not in resp.text
    return resp.status_code, resp.json()["error"]["code"]


@pytest.mark.parametrize(
    "content_type",
    [
        "text/plain",
        "text/plain;charset=UTF-8",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
        "application/json",
        "application/x-tar",
        "",
    ],
)
async def test_the_ingest_body_must_be_gzip_or_bytes(tmp_path: Path, content_type: str) -> None:
    async with _api(tmp_path) as c:
        resp = await c.post("/v1/ingest", content=b"x", headers={"Content-Type": content_type})
        assert _code(resp) == (415, "unsupported_media_type")
        assert "application/gzip" in resp.json()["error"]["message"]


@pytest.mark.parametrize(
    "headers",
    [
        {"Content-Type": "application/gzip"},
        {"Content-Type": "Application/GZIP; foo=bar"},
        {"Content-Type": "application/octet-stream"},
        {},  # no type: bytes (RFC 9110)
    ],
)
async def test_gzip_and_bytes_bodies_reach_the_archive_reader(
    tmp_path: Path, headers: dict[str, str]
) -> None:
    async with _api(tmp_path) as c:
        resp = await c.post("/v1/ingest", content=b"not a tarball", headers=headers)
        assert _code(resp) == (422, "invalid_bundle")


async def test_an_upload_while_another_writer_holds_the_lock_is_409_before_its_body(
    tmp_path: Path,
) -> None:
    reads: list[int] = []

    async def body() -> AsyncIterator[bytes]:
        reads.append(1)
        yield b"not a tarball"

    async with _api(tmp_path) as c:
        index = tmp_path / "index"
        with WriterLock(index, "tutorgraph ingest some/bundle"):
            resp = await c.post(
                "/v1/ingest", content=body(), headers={"Content-Type": "application/gzip"}
            )
            assert _code(resp) == (409, "index_busy")
            message = resp.json()["error"]["message"]
            assert "tutorgraph ingest some/bundle" in message and str(index) not in message
        # httpx starts the body only if the app reads it; the refusal came first.
        assert reads == []
        # A refused upload lets go of the lock: the next writer gets it.
        resp = await c.post(
            "/v1/ingest", content=b"nope", headers={"Content-Type": "application/gzip"}
        )
        assert _code(resp) == (422, "invalid_bundle")
        with WriterLock(index, "the next writer"):
            pass


async def test_the_lock_is_held_from_the_upload_until_the_job_ends(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Validation runs under the upload's lock (a CLI writer is refused meanwhile); the job
    lets go of it, whatever its end (here a pruning job failed by a bad record)."""
    started, release = threading.Event(), threading.Event()

    def slow_validate(bundle_dir: Path, index_ids: object = None) -> ValidationReport:
        started.set()
        release.wait(30)
        return ValidationReport(errors=[BundleRecordError("concepts.jsonl", 1, "bad")])

    monkeypatch.setattr(references, "validate_bundle", slow_validate)
    bundle = _tar(tmp_path / "b.tar.gz", [_file("concepts.jsonl")]).read_bytes()
    async with _api(tmp_path) as c:
        index = tmp_path / "index"
        resp = await c.post(
            "/v1/ingest",
            params={"prune": "true"},
            content=bundle,
            headers={"Content-Type": "application/gzip"},
        )
        assert resp.status_code == 202, resp.text
        assert await asyncio.to_thread(started.wait, 30)
        with pytest.raises(IndexBusyError):
            WriterLock(index, "tutorgraph ingest").acquire()
        release.set()
        for _ in range(300):
            job = (await c.get(resp.headers["location"])).json()
            if job["status"] == "failed":
                break
            await asyncio.sleep(0.01)
        assert job["error"]["code"] == "invalid_bundle"
        with WriterLock(index, "the next writer"):
            pass


async def test_a_stalled_upload_is_408_and_lets_go_of_the_lock(tmp_path: Path) -> None:
    async def stalls() -> AsyncIterator[bytes]:
        yield b"\x1f\x8b"
        await asyncio.sleep(30)
        yield b"never"

    async with _api(tmp_path, body_timeout_s=0.2) as c:
        resp = await asyncio.wait_for(
            c.post("/v1/ingest", content=stalls(), headers={"Content-Type": "application/gzip"}),
            10,
        )
        assert resp.status_code == 408 and "stalled" in resp.json()["error"]["message"]
        assert resp.json()["error"]["code"] == "request_timeout"
        with WriterLock(tmp_path / "index", "the next writer"):
            pass


@pytest.mark.parametrize("prune", [False, True])
async def test_an_upload_is_validated_against_the_index_s_concepts_unless_it_prunes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, prune: bool
) -> None:
    """An add-on bundle may reference the concepts the index holds (its live catalogue's);
    a job that prunes leaves the index with the bundle alone, so only the bundle's count. A
    bad record fails a pruning job; any other job leaves it out and lists it (the CLI's
    rule)."""
    from tutorgraph.ingest.bundle import write_bundle
    from tutorgraph.models.records import SourceRecords
    from tutorgraph_client.models.curriculum import Concept

    seen: list[object] = []

    def recording_validate(bundle_dir: Path, index_ids: object = None) -> ValidationReport:
        seen.append(index_ids)
        return ValidationReport(errors=[BundleRecordError("concepts.jsonl", 1, "bad")])

    monkeypatch.setattr(references, "validate_bundle", recording_validate)
    index = write_fake_index(tmp_path / "index")
    live = live_generation(index)
    assert live is not None
    standard = Concept(
        id="ccss:7.EE.B.4.a", name="7.EE.B.4.a", kind="standard", source="s", license="l"
    )
    write_bundle(SourceRecords(concepts=[standard]), live / "catalogue")
    bundle = _tar(tmp_path / "b.tar.gz", [_file("concepts.jsonl")]).read_bytes()
    async with _api(tmp_path) as c:
        resp = await c.post(
            "/v1/ingest",
            params={"prune": str(prune).lower()},
            content=bundle,
            headers={"Content-Type": "application/gzip"},
        )
        assert resp.status_code == 202, resp.text
        for _ in range(3000):
            job = (await c.get(resp.headers["location"])).json()
            if job["status"] in ("failed", "succeeded"):
                break
            await asyncio.sleep(0.01)
    assert seen == [None if prune else frozenset({"ccss:7.EE.B.4.a"})]
    if prune:
        assert job["error"]["code"] == "invalid_bundle"
    else:
        assert job["status"] == "succeeded", job
        assert job["report"]["rejected"] == 1
        assert job["report"]["rejected_records"] == ["concepts.jsonl:1: bad"]

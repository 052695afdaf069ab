"""The parts of HTTP ingest that need no model: safe unpacking of an uploaded `.tar.gz`, and
the live-index swap (requests finish on the generation they started on; the server follows
the index's pointer to a newer generation, and keeps the old one when the new cannot open).
Also the metrics exposition format."""

from __future__ import annotations

import asyncio
import io
import tarfile
from pathlib import Path

import pytest
from tests.unit.api_fakes import FakeOpener, manifest, write_fake_index

from tutorgraph.api import live_index
from tutorgraph.api.errors import PayloadTooLargeError
from tutorgraph.api.ingest_jobs import extract_bundle
from tutorgraph.api.live_index import LiveIndex
from tutorgraph.api.metrics import ApiMetrics
from tutorgraph.config import Settings
from tutorgraph.errors import BundleError, IndexDamagedError
from tutorgraph.index.generations import activate, live_generation, new_generation

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

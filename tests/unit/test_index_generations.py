"""Generations you can trust (issue 46), on folders made by hand: `CURRENT` only moves
forward, `PREVIOUS` names the last good generation and cleanup keeps it, a garbled or
missing pointer is one line, the lock holds when its file is deleted, a full disk is told
apart from damage, and every message is one line without paths where a caller sees it."""

from __future__ import annotations

import asyncio
import errno
import os
import sqlite3
from pathlib import Path

import numpy as np
import pytest

from tutorgraph.api.live_index import scrub_paths
from tutorgraph.embedding.stored_vectors import StoredVectors
from tutorgraph.errors import DiskFullError, IndexBusyError, IndexDamagedError, StoreError
from tutorgraph.index import generations as gens
from tutorgraph.index.diskspace import is_disk_full
from tutorgraph.index.generations import (
    CURRENT_FILE,
    PREVIOUS_FILE,
    activate,
    collect,
    live_generation,
    new_generation,
    previous_generation,
)
from tutorgraph.index.integrity import Problem, _sqlite_damage, finite_only, nonfinite_rows
from tutorgraph.index.lock import LOCK_FILE, WriterLock
from tutorgraph.index.pipeline import ingest_bundle
from tutorgraph.stores.manifest import Manifest

pytestmark = pytest.mark.unit


def _generation(index_dir: Path, name: str, *, manifest: bool = True) -> Path:
    path = index_dir / "generations" / name
    path.mkdir(parents=True)
    if manifest:
        Manifest(embedder="m", embedding_dim=4, bundle_hash=name).write(path)
    return path


def _names(index_dir: Path) -> list[str]:
    return [g.name for g in gens.generations(index_dir)]


def test_current_never_moves_backwards(tmp_path: Path) -> None:
    one, two = _generation(tmp_path, "000001"), _generation(tmp_path, "000002")
    activate(tmp_path, two)
    with pytest.raises(IndexBusyError, match="was not switched back"):
        activate(tmp_path, one)
    assert live_generation(tmp_path) == two


def test_cleanup_keeps_the_last_live_and_intact_generation_not_the_highest_below(
    tmp_path: Path,
) -> None:
    """Crash, then re-run: the half-built generation is not what cleanup keeps."""
    one = _generation(tmp_path, "000001")
    activate(tmp_path, one)
    _generation(tmp_path, "000002", manifest=False)  # a writer killed mid-build
    three = _generation(tmp_path, "000003")  # the re-run
    activate(tmp_path, three)
    assert previous_generation(tmp_path) == one
    assert collect(tmp_path) == ["000002"]
    assert _names(tmp_path) == ["000001", "000003"]

    # A damaged live generation replaced by a repair is never recorded as the previous one.
    four = _generation(tmp_path, "000004")
    activate(tmp_path, four, outgoing_intact=False)
    assert (tmp_path / PREVIOUS_FILE).read_text().strip() == "000001"
    assert collect(tmp_path) == ["000003"]
    assert _names(tmp_path) == ["000001", "000004"]


def test_cleanup_deletes_failing_generations_and_keeps_a_held_one(tmp_path: Path) -> None:
    one = _generation(tmp_path, "000001")
    activate(tmp_path, one)
    two = _generation(tmp_path, "000002")
    activate(tmp_path, two)
    # PREVIOUS names 000001, whose manifest is then damaged: it is not kept.
    (one / "manifest.json").write_text("{not json", encoding="utf-8")
    three = _generation(tmp_path, "000003")
    activate(tmp_path, three, outgoing_intact=False)
    hold = gens.ReaderHold(two)
    try:
        assert collect(tmp_path) == ["000001"]  # 000002 is held by a reader
    finally:
        hold.release()
    assert collect(tmp_path) == ["000002"]
    assert _names(tmp_path) == ["000003"]


def test_an_index_without_previous_keeps_the_newest_intact_one_below(tmp_path: Path) -> None:
    for name in ("000001", "000002"):
        _generation(tmp_path, name)
    _generation(tmp_path, "000003", manifest=False)
    four = _generation(tmp_path, "000004")
    (tmp_path / CURRENT_FILE).write_text("000004\n", encoding="utf-8")  # an older writer's
    assert sorted(collect(tmp_path)) == ["000001", "000003"]
    assert _names(tmp_path) == ["000002", "000004"]
    assert live_generation(tmp_path) == four


@pytest.mark.parametrize(
    "garbage", [b"\xff\xfe\x00garbage\n" * 40, b"", b"../../etc\n", b"000009\n"]
)
def test_a_garbled_current_is_one_line_without_a_path(tmp_path: Path, garbage: bytes) -> None:
    _generation(tmp_path, "000001")
    (tmp_path / CURRENT_FILE).write_bytes(garbage)
    with pytest.raises(IndexDamagedError) as info:
        live_generation(tmp_path)
    message = info.value.message
    assert "\n" not in message and str(tmp_path) not in message
    assert "doctor --repair" in message and len(message) < 200


def test_a_missing_current_is_damage_and_a_writer_resumes_from_the_newest_intact(
    tmp_path: Path,
) -> None:
    assert live_generation(tmp_path) is None  # nothing at all: no index
    _generation(tmp_path, "000001", manifest=False)
    assert live_generation(tmp_path) is None  # only a half-built first generation
    two = _generation(tmp_path, "000002")
    _generation(tmp_path, "000003", manifest=False)
    with pytest.raises(IndexDamagedError, match="CURRENT file is missing"):
        live_generation(tmp_path)
    assert live_generation(tmp_path, recover=True) == two


def test_a_failed_copy_leaves_no_half_built_generation(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    live = _generation(tmp_path, "000001")
    (live / "lexical").mkdir()
    (live / "lexical" / "items.jsonl").write_text("x\n", encoding="utf-8")

    def full(source: Path, target: Path, *, manifest: bool) -> None:
        (target / "lexical").mkdir()
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(gens, "_copy_generation", full)
    with pytest.raises(OSError, match="No space left"):
        new_generation(tmp_path, live)
    assert _names(tmp_path) == ["000001"]


def test_a_writers_copy_reads_as_half_built_until_its_own_manifest(tmp_path: Path) -> None:
    live = _generation(tmp_path, "000001")
    assert (live / "manifest.json").is_file()
    # A writer's copy leaves the manifest out: killed before it writes its own, the copy is
    # manifest-less, so cleanup removes it first and no repair takes it for an intact one.
    assert not (new_generation(tmp_path, live, manifest=False) / "manifest.json").exists()
    # A repair's copy forward is the whole generation, manifest included.
    assert (new_generation(tmp_path, live) / "manifest.json").is_file()


def test_a_deleted_lock_file_admits_no_second_writer(tmp_path: Path) -> None:
    first = WriterLock(tmp_path, "the first writer")
    first.acquire()
    try:
        (tmp_path / LOCK_FILE).unlink()  # it looks stale: zero bytes
        with pytest.raises(IndexBusyError, match="the first writer"):
            WriterLock(tmp_path, "the second writer").acquire()
    finally:
        first.release()
    second = WriterLock(tmp_path, "the second writer")
    second.acquire()
    assert second.held
    second.release()
    assert not second.held


def test_a_second_writer_is_refused_before_its_bundle_is_read(tmp_path: Path) -> None:
    # The bundle does not even exist: the lock is refused first.
    with WriterLock(tmp_path, "a test holding the lock"), pytest.raises(IndexBusyError):
        asyncio.run(ingest_bundle(tmp_path / "no-such-bundle", tmp_path, object()))  # type: ignore[arg-type]


def test_full_disks_are_told_apart_from_damage() -> None:
    assert is_disk_full(OSError(errno.ENOSPC, "No space left on device"))
    wrapped = StoreError("chroma: InternalError: (code: 13) database or disk is full")
    assert is_disk_full(wrapped)
    try:
        try:
            raise sqlite3.OperationalError("database or disk is full")
        except sqlite3.OperationalError as exc:
            raise StoreError("chroma: write failed") from exc
    except StoreError as outer:
        assert is_disk_full(outer)
    assert is_disk_full(DiskFullError("disk full"))
    assert not is_disk_full(sqlite3.DatabaseError("database disk image is malformed"))
    assert not is_disk_full(OSError(errno.EIO, "Input/output error"))


def test_sqlite_damage_is_one_line(tmp_path: Path) -> None:
    db = tmp_path / "chroma.sqlite3"
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, x TEXT)")
    conn.execute("CREATE INDEX tx ON t (x)")
    conn.executemany("INSERT INTO t (x) VALUES (?)", [(f"row {i:06d}" * 3,) for i in range(20000)])
    conn.commit()
    conn.close()
    size = db.stat().st_size
    with db.open("r+b") as fh:  # the same size, zeros in the middle of the table's pages
        fh.seek(size // 3 // 4096 * 4096)
        fh.write(b"\x00" * 4096 * 8)
    found = _sqlite_damage(db)
    assert found is not None
    assert "\n" not in found and len(found) < 260, found


def test_problems_are_one_line() -> None:
    problem = Problem("vector", "first line\nsecond line\n" + "x" * 2000, "chroma")
    assert "\n" not in problem.message and len(problem.message) <= 400
    assert str(problem).endswith("run `tutorgraph doctor --repair`")


def test_nan_vectors_are_found_and_left_out() -> None:
    keys = np.arange(3 * 32, dtype=np.uint8).reshape(3, 32)
    vectors = np.ones((3, 4), dtype=np.float16)
    vectors[1, 2] = np.nan
    stored = StoredVectors("fp", "m", keys, vectors)
    assert nonfinite_rows(stored) == 1
    kept = finite_only(stored)
    assert kept is not None and kept.keys.tolist() == keys[[0, 2]].tolist()
    assert nonfinite_rows(kept) == 0
    assert finite_only(kept) is kept


def test_readyz_messages_carry_no_paths(tmp_path: Path) -> None:
    index_dir = tmp_path / "srv" / "index"
    text = (
        f"cannot read {index_dir}/CURRENT: [Errno 2] No such file: '{index_dir}/x'; "
        "also /var/lib/other/file.bin, but not http://host:8000/v1/retrieve"
    )
    clean = scrub_paths(text, index_dir)
    assert str(tmp_path) not in clean and "/var/lib" not in clean
    assert "INDEX_DIR/CURRENT" in clean and "http://host:8000/v1/retrieve" in clean
    assert scrub_paths(os.fspath("no path here"), index_dir) == "no path here"


def test_a_writer_that_built_on_a_recovered_generation_records_it_as_previous(
    tmp_path: Path,
) -> None:
    one = _generation(tmp_path, "000001")
    activate(tmp_path, one)
    two = _generation(tmp_path, "000002")
    activate(tmp_path, two)
    (tmp_path / CURRENT_FILE).unlink()  # by hand
    base = live_generation(tmp_path, recover=True)
    assert base == two
    three = _generation(tmp_path, "000003")
    activate(tmp_path, three, base=base)
    assert previous_generation(tmp_path) == two
    assert collect(tmp_path) == ["000001"]


def test_a_writer_refused_in_the_instant_the_holder_took_the_lock_still_names_it(
    tmp_path: Path,
) -> None:
    import json
    import socket
    import threading

    from tutorgraph.index.lock import HOLDER_FILE

    first = WriterLock(tmp_path, "the first writer")
    first.acquire()
    try:
        (tmp_path / HOLDER_FILE).unlink()  # not written down yet
        info = {"pid": os.getpid(), "host": socket.gethostname(), "command": "the first"}
        later = threading.Timer(
            0.2, lambda: (tmp_path / HOLDER_FILE).write_text(json.dumps(info), encoding="utf-8")
        )
        later.start()
        with pytest.raises(IndexBusyError, match=f"process {os.getpid()}"):
            WriterLock(tmp_path, "the second writer").acquire()
        later.join()
    finally:
        first.release()


def test_leftovers_are_half_built_generations_no_pointer_names_uploads_and_temporary_files(
    tmp_path: Path,
) -> None:
    from tutorgraph.index.leftovers import find_leftovers, remove_leftovers, upload_folder

    one, two = _generation(tmp_path, "000001"), _generation(tmp_path, "000002")
    activate(tmp_path, one)
    activate(tmp_path, two)
    half = _generation(tmp_path, "000003", manifest=False)
    (half / "lexical").mkdir()
    (half / "lexical" / "items.jsonl").write_bytes(b"x" * 1000)
    named = _generation(tmp_path, "000004", manifest=False)  # CURRENT names it: damage, kept
    (tmp_path / CURRENT_FILE).write_text("000004\n")
    held = _generation(tmp_path, "000005", manifest=False)
    hold = gens.ReaderHold(held)
    upload = upload_folder(tmp_path)
    (upload / "upload.tar.gz").write_bytes(b"y" * 10)
    (tmp_path / "CURRENT.tmp").write_text("000009\n")
    try:
        found = [str(x) for x in find_leftovers(tmp_path)]
        assert found == [
            "half-built generation generations/000003 (0.0 MB)",
            f"upload .uploads/{upload.name} (0.0 MB)",
            "temporary file CURRENT.tmp (0.0 MB)",
        ]
        assert [x.relative for x in remove_leftovers(tmp_path)] == [
            "generations/000003",
            f".uploads/{upload.name}",
            "CURRENT.tmp",
        ]
        assert _names(tmp_path) == ["000001", "000002", "000004", "000005"]
        assert find_leftovers(tmp_path) == [] and named.is_dir()
    finally:
        hold.release()
    assert [x.relative for x in find_leftovers(tmp_path)] == ["generations/000005"]


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        (None, None),
        (b"\n", None),
        (b"000001\n", None),
        (b"\x00\xffgarbage", "names no generation ('\\x00\ufffdgarbage')"),
        (b"000007\n", "names generation 000007, which is gone"),
        (b"000002\n", "names generation 000002, which is not older than the live one (000002)"),
        ("dir", "is a directory, not a file"),
    ],
)
def test_previous_problems_are_one_line(
    tmp_path: Path, content: bytes | str | None, problem: str | None
) -> None:
    _generation(tmp_path, "000001")
    two = _generation(tmp_path, "000002")
    previous = tmp_path / PREVIOUS_FILE
    if content == "dir":
        previous.mkdir()
    elif isinstance(content, bytes):
        previous.write_bytes(content)
    assert gens.previous_problem(tmp_path, two) == problem


def test_a_pointer_that_is_a_directory_is_one_line_not_a_crash(tmp_path: Path) -> None:
    one = _generation(tmp_path, "000001")
    (tmp_path / CURRENT_FILE).mkdir()
    with pytest.raises(IndexDamagedError, match=r"CURRENT is a directory, not a file; run"):
        live_generation(tmp_path)
    with pytest.raises(IndexDamagedError, match=r"CURRENT is a directory, not a file; run"):
        activate(tmp_path, one)

"""The index survives careless writers (issues 30 and 46), on real processes, real Chroma and
real MiniLM vectors: two writers at once, writers killed with SIGKILL at random points, a
deleted lock file, a crash followed by a re-run, and a full disk. Each test ends comparing
against the clean reference index of `index_safety_support.py`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import shutil
import signal
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.integration.api_support import tar_gz
from tests.integration.index_safety_support import (
    QUERIES,
    Snapshot,
    bundles_fixture,  # noqa: F401 - the module fixture `bundles`
    clean_fixture,  # noqa: F401 - the module fixture `clean`
    one_line_error,
    serving,
    snapshot,
    truncate,
)

from tutorgraph.errors import IndexDamagedError
from tutorgraph.index.doctor import examine
from tutorgraph.index.generations import generations, live_generation
from tutorgraph.index.lock import WriterLock

pytestmark = pytest.mark.integration

KILL_SEEDS = range(20)


# -- 1. one writer at a time ---------------------------------------------------------------


def test_a_second_writer_is_refused_naming_the_first_and_readers_go_on(
    tmp_path: Path,
    clean: tuple[Path, Path, Snapshot, float],
    bundles: tuple[Path, Path],
    run_cli: Callable[..., subprocess.CompletedProcess[str]],
    embedder: Any,
) -> None:
    only_a, _, want, _ = clean
    index_dir = tmp_path / "index"
    shutil.copytree(only_a, index_dir)
    with WriterLock(index_dir, "a test holding the lock"):
        refused = run_cli("ingest", str(bundles[1]), "--index-dir", str(index_dir))
        assert refused.returncode == 2
        line = one_line_error(refused)
        assert f"process {os.getpid()}" in line and "a test holding the lock" in line
        # Readers never wait for the writer.
        assert (
            snapshot(index_dir, embedder)["counts"]
            == json.loads(
                (live_generation(index_dir) / "manifest.json").read_text()  # type: ignore[operator]
            )["counts"]
        )
    done = run_cli("ingest", str(bundles[1]), "--index-dir", str(index_dir))
    assert done.returncode == 0, done.stderr
    assert snapshot(index_dir, embedder) == want


@pytest.mark.parametrize("delay_s", [0.0, 2.0])
def test_two_ingests_at_once_leave_one_clean_index(
    delay_s: float,
    tmp_path: Path,
    clean: tuple[Path, Path, Snapshot, float],
    bundles: tuple[Path, Path],
    start_cli: Callable[..., subprocess.Popen[str]],
    embedder: Any,
) -> None:
    index_dir = tmp_path / "index"
    first = start_cli("ingest", str(bundles[1]), "--index-dir", str(index_dir))
    time.sleep(delay_s)
    second = start_cli("ingest", str(bundles[1]), "--index-dir", str(index_dir))
    outcomes = []
    for proc in (first, second):
        _, err = proc.communicate(timeout=600)
        assert "Traceback" not in err and proc.returncode in (0, 2), err
        if proc.returncode == 2:
            assert "is being written by process" in err
        outcomes.append(proc.returncode)
    assert 0 in outcomes
    assert snapshot(index_dir, embedder) == clean[2]
    assert asyncio.run(examine(index_dir, embedder.name)).ok


# -- crashes: kill -9 at random points ------------------------------------------------------


def test_killed_ingests_leave_the_live_generation_whole_and_a_rerun_completes(
    tmp_path: Path,
    clean: tuple[Path, Path, Snapshot, float],
    bundles: tuple[Path, Path],
    start_cli: Callable[..., subprocess.Popen[str]],
    run_cli: Callable[..., subprocess.CompletedProcess[str]],
    embedder: Any,
) -> None:
    only_a, _, want, seconds = clean
    counts_a = snapshot(only_a, embedder)["counts"]
    landed: list[str] = []
    for seed in KILL_SEEDS:
        rng = random.Random(seed)
        index_dir = tmp_path / f"seed-{seed}"
        if seed % 2:  # an index that holds A: the ingest of B is incremental
            shutil.copytree(only_a, index_dir)
        proc = start_cli("ingest", str(bundles[1]), "--index-dir", str(index_dir))
        time.sleep(rng.uniform(0.0, 1.1 * seconds))
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
        proc.communicate(timeout=600)
        try:
            live = live_generation(index_dir) if index_dir.is_dir() else None
        except IndexDamagedError:  # killed between its manifest and CURRENT: resumed below
            live = None
        built = [g.name for g in generations(index_dir)] if index_dir.is_dir() else []
        if proc.returncode == -signal.SIGKILL:
            half = [n for n in built if live is None or n > live.name]
            landed.append("mid-write" if half else "before-write")
        else:
            landed.append("finished")
        # Whatever the live generation is, it opens whole: A's (or none) or B's.
        if live is not None:
            got = snapshot(index_dir, embedder)["counts"]
            assert got in (counts_a, want["counts"]), (seed, got)
        done = run_cli("ingest", str(bundles[1]), "--index-dir", str(index_dir))
        assert done.returncode == 0, (seed, done.stderr)
        assert snapshot(index_dir, embedder) == want, seed
        assert len(generations(index_dir)) <= 2  # crashed builds are collected
    print("kill points:", {k: landed.count(k) for k in sorted(set(landed))})
    assert landed.count("mid-write") >= 3, landed


# -- issue 46: locks, crashes and full disks ------------------------------------------------


def test_a_deleted_lock_file_does_not_admit_a_second_writer(
    tmp_path: Path,
    clean: tuple[Path, Path, Snapshot, float],
    bundles: tuple[Path, Path],
    start_cli: Callable[..., subprocess.Popen[str]],
    run_cli: Callable[..., subprocess.CompletedProcess[str]],
    embedder: Any,
) -> None:
    index_dir = tmp_path / "index"
    shutil.copytree(clean[0], index_dir)
    first = start_cli("ingest", str(bundles[1]), "--index-dir", str(index_dir))
    holder = index_dir / ".writer.json"
    deadline = time.monotonic() + 120
    while not (holder.is_file() and json.loads(holder.read_text()).get("pid") == first.pid):
        assert first.poll() is None and time.monotonic() < deadline, first.communicate()[1]
        time.sleep(0.02)
    first.send_signal(signal.SIGSTOP)  # mid-ingest, for as long as the test needs
    try:
        (index_dir / ".writer.lock").unlink()  # zero bytes: it looks stale
        second = run_cli("ingest", str(bundles[0]), "--index-dir", str(index_dir))
        assert second.returncode == 2
        assert f"is being written by process {first.pid}" in one_line_error(second)
    finally:
        first.send_signal(signal.SIGCONT)
    _, err = first.communicate(timeout=600)
    assert first.returncode == 0, err
    assert snapshot(index_dir, embedder) == clean[2]


def test_after_a_crash_and_a_rerun_the_last_good_generation_survives_and_repair_restores_it(
    tmp_path: Path,
    clean: tuple[Path, Path, Snapshot, float],
    bundles: tuple[Path, Path],
    start_cli: Callable[..., subprocess.Popen[str]],
    run_cli: Callable[..., subprocess.CompletedProcess[str]],
    embedder: Any,
) -> None:
    only_a, _, want, _ = clean
    index_dir = tmp_path / "index"
    shutil.copytree(only_a, index_dir)
    good = live_generation(index_dir)
    assert good is not None
    counts_a = snapshot(index_dir, embedder)

    # kill -9 while the next generation is half-built.
    proc = start_cli("ingest", str(bundles[1]), "--index-dir", str(index_dir))
    half = index_dir / "generations" / f"{int(good.name) + 1:06d}"
    deadline = time.monotonic() + 120
    while not half.is_dir():
        assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()[1]
        time.sleep(0.01)
    proc.send_signal(signal.SIGKILL)
    proc.communicate(timeout=60)
    assert not (half / "manifest.json").exists()

    rerun = run_cli("ingest", str(bundles[1]), "--index-dir", str(index_dir))
    assert rerun.returncode == 0, rerun.stderr
    live = live_generation(index_dir)
    # The rerun removed the half-built generation before it began (issue 59), so its number
    # is free again: the new live generation takes it.
    assert live is not None and live.name == half.name
    assert (live / "manifest.json").is_file()
    # The half-built generation went, the last live and intact one stayed.
    assert [g.name for g in generations(index_dir)] == [good.name, live.name]
    assert (index_dir / "PREVIOUS").read_text().strip() == good.name

    truncate(live / "catalogue" / "documents.jsonl")
    query = run_cli("query", QUERIES[0], "--index-dir", str(index_dir))
    assert query.returncode == 2 and "damaged: graph:" in one_line_error(query)
    repaired = run_cli("doctor", "--repair", "--index-dir", str(index_dir))
    assert repaired.returncode == 0, repaired.stdout + repaired.stderr
    assert f"generation {good.name} is live again" in repaired.stdout
    restored = live_generation(index_dir)
    assert restored is not None and restored.name > live.name  # CURRENT moved forward
    assert snapshot(index_dir, embedder) == counts_a
    again = run_cli("ingest", str(bundles[1]), "--index-dir", str(index_dir))
    assert again.returncode == 0, again.stderr
    assert snapshot(index_dir, embedder) == want


def _fill(folder: Path, leave: int) -> Path:
    """A file that leaves `leave` bytes free on `folder`'s disk (0: the disk is full)."""
    filler = folder / f"filler-{time.monotonic_ns()}"
    free = shutil.disk_usage(folder).free
    with filler.open("wb", buffering=0) as fh:
        with contextlib.suppress(OSError):
            os.posix_fallocate(fh.fileno(), 0, max(0, free - leave))
        if leave == 0:  # to the last block
            fh.seek(0, os.SEEK_END)
            with contextlib.suppress(OSError):
                while fh.write(b"\0" * 4096):
                    pass
    return filler


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 24 MiB filesystem of its own (tmpfs; needs root, else the test skips: the
    simulated full disk below covers the messages everywhere)."""
    mount = tmp_path / "disk"
    mount.mkdir()
    if os.geteuid() != 0:
        pytest.skip("mounting a small filesystem needs root")
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=24m", "tmpfs", str(mount)],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        pytest.skip(f"cannot mount a small filesystem here: {done.stderr.strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def test_a_full_disk_is_one_line_loses_nothing_and_is_not_damage(
    small_disk: Path,
    clean: tuple[Path, Path, Snapshot, float],
    bundles: tuple[Path, Path],
    run_cli: Callable[..., subprocess.CompletedProcess[str]],
    embedder: Any,
) -> None:
    only_a, _, want, _ = clean
    index_dir = small_disk / "index"
    shutil.copytree(only_a, index_dir)
    before = snapshot(index_dir, embedder)
    live = live_generation(index_dir)
    assert live is not None

    # Room for a copy of the live generation, not for what B adds.
    filler = _fill(small_disk, leave=int(folder_size(live) * 1.6))
    ingest = run_cli("ingest", str(bundles[1]), "--index-dir", str(index_dir))
    assert ingest.returncode == 2
    line = one_line_error(ingest)
    assert line.startswith("error: disk full: about ") and "MB needed" in line, line
    assert f"generation {live.name} stays live" in line
    assert [g.name for g in generations(index_dir)] == [live.name]  # no half-built one
    assert snapshot(index_dir, embedder) == before

    # Full to the last block: Chroma cannot open (it writes when it opens); not damage.
    full = _fill(small_disk, leave=0)
    query = run_cli("query", QUERIES[0], "--json", "--index-dir", str(index_dir))
    assert query.returncode == 0, query.stderr
    assert "damaged" not in query.stderr and "disk is full" in query.stderr
    assert json.loads(query.stdout)["degraded_sources"] == ["vector"]
    for args in (("doctor",), ("doctor", "--repair")):
        done = run_cli(*args, "--index-dir", str(index_dir))
        assert done.returncode == 2, done.stdout + done.stderr
        assert "disk is full" in one_line_error(done) and "damaged" not in done.stderr
    assert [g.name for g in generations(index_dir)] == [live.name]

    full.unlink()
    filler.unlink()
    assert asyncio.run(examine(index_dir, embedder.name)).ok
    done = run_cli("ingest", str(bundles[1]), "--index-dir", str(index_dir))
    assert done.returncode == 0, done.stderr
    assert snapshot(index_dir, embedder) == want


def folder_size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def _killed_once_copied(
    start_cli: Callable[..., subprocess.Popen[str]], bundle: Path, index_dir: Path
) -> Path:
    """kill -9 an ingest of `bundle` once it has copied the live generation into the next
    one; returns that half-built generation."""
    live = live_generation(index_dir)
    assert live is not None
    size = folder_size(live)
    half = index_dir / "generations" / f"{int(live.name) + 1:06d}"
    proc = start_cli("ingest", str(bundle), "--index-dir", str(index_dir))
    deadline = time.monotonic() + 120
    while not (half.is_dir() and folder_size(half) >= 0.9 * size):
        assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()[1]
        time.sleep(0.005)
    proc.send_signal(signal.SIGKILL)
    proc.communicate(timeout=60)
    assert proc.returncode == -signal.SIGKILL
    assert half.is_dir() and not (half / "manifest.json").exists()
    assert live_generation(index_dir) == live
    return half


def test_a_killed_ingest_does_not_leave_a_nearly_full_disk_full_for_good(
    small_disk: Path,
    clean: tuple[Path, Path, Snapshot, float],
    bundles: tuple[Path, Path],
    start_cli: Callable[..., subprocess.Popen[str]],
    run_cli: Callable[..., subprocess.CompletedProcess[str]],
    embedder: Any,
) -> None:
    """Issue 59: the half-built generation of a killed ingest held the space every later
    ingest needed (each failed "disk full"), while doctor said intact."""
    index_dir = small_disk / "index"
    shutil.copytree(clean[1], index_dir)
    live = live_generation(index_dir)
    assert live is not None
    half = _killed_once_copied(start_cli, bundles[1], index_dir)

    doctor = run_cli("doctor", "--index-dir", str(index_dir))
    assert doctor.returncode == 0, doctor.stdout + doctor.stderr
    assert f"note: half-built generation generations/{half.name} (" in doctor.stdout

    # Less free than a copy of the live generation needs, unless the half-built one goes.
    filler = _fill(small_disk, leave=folder_size(live) - (256 << 10))
    try:
        done = run_cli("ingest", str(bundles[1]), "--index-dir", str(index_dir))
        assert done.returncode == 0, done.stderr
    finally:
        filler.unlink()
    # The half-built generation was removed first: the new live one took its number.
    assert live_generation(index_dir) == half and (half / "manifest.json").is_file()
    assert [g.name for g in generations(index_dir)] == [live.name, half.name]
    assert snapshot(index_dir, embedder) == clean[2]


def test_doctor_repair_removes_what_a_killed_ingest_left(
    tmp_path: Path,
    clean: tuple[Path, Path, Snapshot, float],
    bundles: tuple[Path, Path],
    start_cli: Callable[..., subprocess.Popen[str]],
    run_cli: Callable[..., subprocess.CompletedProcess[str]],
) -> None:
    """Issue 59: `doctor --repair` found nothing to repair beside a half-built generation."""
    index_dir = tmp_path / "index"
    shutil.copytree(clean[1], index_dir)
    before = [g.name for g in generations(index_dir)]
    half = _killed_once_copied(start_cli, bundles[1], index_dir)
    repaired = run_cli("doctor", "--repair", "--index-dir", str(index_dir))
    assert repaired.returncode == 0, repaired.stdout + repaired.stderr
    assert f"repaired: removed half-built generation generations/{half.name} (" in (repaired.stdout)
    assert "note:" not in repaired.stdout
    assert [g.name for g in generations(index_dir)] == before


def test_an_http_ingest_job_killed_with_its_server_leaves_nothing_after_a_restart(
    tmp_path: Path,
    clean: tuple[Path, Path, Snapshot, float],
    bundles: tuple[Path, Path],
    start_cli: Callable[..., subprocess.Popen[str]],
    run_cli: Callable[..., subprocess.CompletedProcess[str]],
) -> None:
    """Issue 59: kill -9 of a server mid-job left its upload in the temporary folder and its
    half-built generation in the index, for good."""
    index_dir = tmp_path / "index"
    shutil.copytree(clean[0], index_dir)
    live = live_generation(index_dir)
    assert live is not None
    temp = tmp_path / "tmp"  # the server's temporary folder
    temp.mkdir()
    with serving(start_cli, index_dir, TMPDIR=str(temp)) as (url, proc):
        posted = httpx.post(
            f"{url}/v1/ingest",
            content=tar_gz(bundles[1]),
            headers={"Content-Type": "application/gzip"},
            timeout=60,
        )
        assert posted.status_code == 202, posted.text
        job = posted.json()["job_id"]
        deadline = time.monotonic() + 120
        while not [g for g in generations(index_dir) if g.name > live.name]:
            status = httpx.get(f"{url}/v1/ingest/{job}", timeout=10).json()["status"]
            assert status not in ("succeeded", "failed") and time.monotonic() < deadline
            time.sleep(0.02)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=60)

    doctor = run_cli("doctor", "--index-dir", str(index_dir))
    assert doctor.returncode == 0, doctor.stdout + doctor.stderr
    assert "note: upload .uploads/job-" in doctor.stdout, doctor.stdout
    assert "note: half-built generation generations/" in doctor.stdout, doctor.stdout

    with serving(start_cli, index_dir, TMPDIR=str(temp)) as (url, _):
        assert httpx.get(f"{url}/readyz", timeout=10).json()["generation"] == live.name
        assert [g.name for g in generations(index_dir)] == [live.name]
        assert list((index_dir / ".uploads").iterdir()) == []
        # Nor in the temporary folder, where the upload was kept before.
        assert [p.name for p in temp.rglob("*") if p.suffix in (".jsonl", ".gz")] == []
    doctor = run_cli("doctor", "--index-dir", str(index_dir))
    assert doctor.returncode == 0 and "note:" not in doctor.stdout, doctor.stdout


def test_a_simulated_full_disk_removes_the_half_built_generation(
    tmp_path: Path,
    clean: tuple[Path, Path, Snapshot, float],
    bundles: tuple[Path, Path],
    embedder: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """ENOSPC where no small filesystem can be made: the same line, nothing left behind."""
    from tutorgraph.errors import DiskFullError
    from tutorgraph.index import pipeline
    from tutorgraph.index.pipeline import ingest_bundle

    index_dir = tmp_path / "index"
    shutil.copytree(clean[0], index_dir)
    before = snapshot(index_dir, embedder)
    live = live_generation(index_dir)
    assert live is not None

    def no_space(*args: Any) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(pipeline, "_write_derived", no_space)
    with pytest.raises(DiskFullError) as info:
        asyncio.run(ingest_bundle(bundles[1], index_dir, embedder))
    assert info.value.message.startswith("disk full: about ")
    assert "\n" not in info.value.message
    assert [g.name for g in generations(index_dir)] == [live.name]
    assert snapshot(index_dir, embedder) == before

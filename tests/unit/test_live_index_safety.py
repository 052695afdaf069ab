"""The server's hold on the index when the pointer breaks or the disk is full (issue 46): it
stays up without a generation at start-up, says why without paths, clears `stale` once the
pointer is fixed, and opens again a vector store a full disk kept shut."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

import pytest
from tests.unit.api_fakes import FakeOpener, write_fake_index

from tutorgraph.api import live_index
from tutorgraph.api.live_index import LiveIndex
from tutorgraph.config import Settings
from tutorgraph.index.local import LocalIndex
from tutorgraph.index.service import OpenRetriever

pytestmark = pytest.mark.unit


async def _until(done: Callable[[], bool], seconds: float = 3.0) -> None:
    for _ in range(int(seconds / 0.01)):
        if done():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("timed out")


async def test_a_garbled_pointer_at_start_up_leaves_the_server_up_until_it_is_fixed(
    tmp_path: Path,
) -> None:
    index = write_fake_index(tmp_path / "index")
    (index / "CURRENT").write_bytes(b"\xff\xfegarbage\n")
    live = LiveIndex(Settings(index_dir=index, index_reload_s=0.02), FakeOpener())
    await live.open()  # does not raise: /healthz answers, /readyz reports it
    assert live.current is None
    assert live.startup_problem is not None and "names no generation" in live.startup_problem
    assert str(tmp_path) not in live.startup_problem and str(tmp_path) not in (live.stale or "")
    (index / "CURRENT").write_text("000001\n", encoding="utf-8")  # `doctor --repair`
    await _until(lambda: live.current is not None)
    assert live.stale is None and live.startup_problem is None
    await live.aclose()


async def test_stale_is_cleared_once_the_pointer_names_the_served_generation_again(
    tmp_path: Path,
) -> None:
    index = write_fake_index(tmp_path / "index")
    live = LiveIndex(Settings(index_dir=index, index_reload_s=0.02), FakeOpener())
    await live.open()
    (index / "CURRENT").write_text("nonsense\n", encoding="utf-8")
    await _until(lambda: live.stale is not None)
    assert "names no generation" in (live.stale or "") and str(tmp_path) not in (live.stale or "")
    assert live.current is not None and live.current.name == "000001"
    (index / "CURRENT").write_text("000001\n", encoding="utf-8")
    await _until(lambda: live.stale is None)
    await live.aclose()


class _FullThenFree(FakeOpener):
    """Opens the vector store as unavailable (a full disk) the first time only."""

    def __call__(self, settings: Settings) -> OpenRetriever:
        served = super().__call__(settings)
        if len(self.indexes) > 1:
            return served
        index = served.index
        shut = LocalIndex(
            index.manifest,
            index.vector,
            index.lexical,
            index.graph,
            generation=index.generation,
            unavailable={"vector": "the index's disk is full"},
        )
        self.indexes[-1] = shut
        return OpenRetriever(served.retriever, shut)


async def test_a_vector_store_a_full_disk_kept_shut_is_opened_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(live_index, "REOPEN_S", 0.0)
    index = write_fake_index(tmp_path / "index")
    opener = _FullThenFree()
    live = LiveIndex(Settings(index_dir=index, index_reload_s=0.02), opener)
    await live.open()
    assert live.current is not None and live.current.index.unavailable
    await _until(lambda: live.current is not None and not live.current.index.unavailable)
    assert live.current is not None and live.current.name == "000001"
    assert live.stale is None
    await live.aclose()

"""The paper reproduction's phase bookkeeping (`tutorgraph.eval.reproduce.run`): time adds
up over resumed and killed runs, and a phase is done only when finished with the same
settings."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType

import pytest

from tutorgraph.eval.reproduce import parse_args
from tutorgraph.eval.reproduce import run as run_module

pytestmark = pytest.mark.unit


@pytest.fixture(scope="module")
def script() -> ModuleType:
    return run_module


def _run(script: ModuleType, tmp_path: Path):  # type: ignore[no-untyped-def]
    args = parse_args(["--results", str(tmp_path / "results"), "--work", str(tmp_path / "work")])
    return script.Run(args)


def _phases(tmp_path: Path) -> dict:  # type: ignore[type-arg]
    return json.loads((tmp_path / "results" / "phases.json").read_text(encoding="utf-8"))


def test_a_killed_phase_keeps_the_time_it_banked(
    script: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run = _run(script, tmp_path)
    settings = {"quick": False, "data": "data"}
    clock = script.PhaseClock(run, "ablations", settings)
    clock.bank()  # too soon: nothing written
    assert not (tmp_path / "results" / "phases.json").exists()

    monkeypatch.setattr(script, "BANK_EVERY_S", 0.0)
    clock.bank()  # then the process is killed: no final bank
    first = _phases(tmp_path)["ablations"]
    assert first["complete"] is False and first["seconds"] >= 0.0

    resumed = script.PhaseClock(run, "ablations", settings)
    resumed.unbanked -= 30.0  # the resumed run worked 30 s
    resumed.bank(complete=True, final=True)
    entry = _phases(tmp_path)["ablations"]
    assert entry["complete"] is True and entry["settings"] == settings
    assert entry["seconds"] == pytest.approx(first["seconds"] + 30.0, abs=0.2)
    rows = tmp_path / "results" / "ablations.jsonl"
    rows.write_text("{}\n", encoding="utf-8")
    assert run.done("ablations", rows, settings)
    assert not run.done("ablations", rows, {"quick": True})


def test_other_settings_restart_the_clock(script: ModuleType, tmp_path: Path) -> None:
    run = _run(script, tmp_path)
    run.record("index", 100.0, {"quick": True}, True)
    run.record("index", 5.0, {"quick": False}, False)
    assert _phases(tmp_path)["index"] == {
        "seconds": 5.0,
        "settings": {"quick": False},
        "complete": False,
    }

"""`scripts/reproduce_paper.py`'s phase bookkeeping: time adds up over resumed and killed
runs, and a phase is done only when finished with the same settings."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

pytestmark = pytest.mark.unit

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "reproduce_paper.py"


@pytest.fixture(scope="module")
def script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("reproduce_paper", SCRIPT)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["reproduce_paper"] = module  # dataclasses and annotations look it up
    spec.loader.exec_module(module)
    return module


def _run(script: ModuleType, tmp_path: Path):  # type: ignore[no-untyped-def]
    args = script._args(["--results", str(tmp_path / "results"), "--work", str(tmp_path / "work")])
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

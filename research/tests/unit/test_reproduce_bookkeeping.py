"""The paper reproduction's phase bookkeeping (`tutorgraph_research.reproduce.run`): a phase
records the run that finished it and the time earlier, killed runs spent on it, and is
done only when finished with the same settings."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType

import pytest

from tutorgraph_research.reproduce import parse_args
from tutorgraph_research.reproduce import run as run_module

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

    again = _run(script, tmp_path)  # a second invocation resumes the phase
    assert again.run_id != run.run_id
    resumed = script.PhaseClock(again, "ablations", settings)
    resumed.unbanked -= 30.0  # the resumed run worked 30 s
    resumed.bank(complete=True, final=True)
    phases = _phases(tmp_path)
    entry = phases["ablations"]
    assert entry["complete"] is True and entry["settings"] == settings
    # The phase belongs to the run that finished it; the killed run's time is kept apart.
    assert entry["run_id"] == again.run_id
    assert entry["seconds"] == pytest.approx(30.0, abs=0.2)
    assert entry["earlier_seconds"] == pytest.approx(first["seconds"], abs=0.1)
    assert set(phases["runs"]) == {run.run_id, again.run_id}
    rows = tmp_path / "results" / "ablations.jsonl"
    rows.write_text("{}\n", encoding="utf-8")
    assert run.done("ablations", rows, settings)
    assert not run.done("ablations", rows, {"quick": True})


def test_other_settings_restart_the_clock(script: ModuleType, tmp_path: Path) -> None:
    run = _run(script, tmp_path)
    run.record("index", 100.0, {"quick": True}, True)
    run.record("index", 5.0, {"quick": False}, False)
    assert _phases(tmp_path)["index"] == {
        "run_id": run.run_id,
        "seconds": 5.0,
        "earlier_seconds": 0.0,
        "settings": {"quick": False},
        "complete": False,
    }


def test_a_finished_phase_done_again_starts_over(script: ModuleType, tmp_path: Path) -> None:
    _run(script, tmp_path).record("index", 100.0, {"quick": False}, True)
    again = _run(script, tmp_path)
    again.record("index", 5.0, {"quick": False}, True)
    entry = _phases(tmp_path)["index"]
    assert (entry["run_id"], entry["seconds"], entry["earlier_seconds"]) == (again.run_id, 5.0, 0.0)


def test_one_sitting_keeps_one_run_id_and_its_wall_time(script: ModuleType, tmp_path: Path) -> None:
    run = _run(script, tmp_path)
    for name in ("index", "ablations", "render"):
        run.record(name, 1.0, {"quick": False}, True)
    phases = _phases(tmp_path)
    assert {phases[n]["run_id"] for n in ("index", "ablations", "render")} == {run.run_id}
    sitting = phases["runs"][run.run_id]
    assert sitting["phases"] == ["index", "ablations", "render"]
    assert sitting["wall_seconds"] >= 0.0 and sitting["started"] <= sitting["last_update"]

"""One reproduction's paths, settings and per-phase bookkeeping (`phases.json`).

Every invocation has a `run_id`. A phase records the `run_id` of the invocation that
worked on it last (so a run in one sitting has one `run_id` throughout), that
invocation's seconds on it, and the seconds earlier, interrupted invocations spent on it
(`earlier_seconds`); a phase is done only when it finished with the same settings.
`phases.json` also holds each invocation's start, end and wall time under `runs`. Paths
are relative to the checkout the run starts in.

>>> Run(parse_args(["--quick"])).results  # doctest: +SKIP
PosixPath('results/paper-quick')
"""

from __future__ import annotations

import argparse
import json
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

__all__ = [
    "BANK_EVERY_S",
    "PAPER_PER_FOLD",
    "PHASES",
    "QUICK_QUERIES",
    "QUICK_SLICE",
    "WARMUP",
    "PhaseClock",
    "Run",
    "grid_missing",
    "grid_names",
    "write_json",
]

PHASES = ("index", "ablations", "latency", "scale", "render", "pdf")
# Quick runs: small samples everywhere (the ablation runner picks its own with quick=True).
QUICK_SLICE = {"misconceptions": 200, "documents": 200, "exercises": 600, "concepts": 200}
QUICK_QUERIES = 30
# The full run scores a stable sample of this many items per fold of these tasks (the
# others: all of them), so that it fits in about 2 h on 2 cores with every fold model
# trained on all of its fold's training data (`AblationSpec.per_fold`).
PAPER_PER_FOLD = {"eedi-misconceptions": 200, "linking-eedi": 100, "prerequisites": 100}
WARMUP = 10
BANK_EVERY_S = 60.0  # how often a running phase writes its time so far to phases.json


def grid_names() -> list[str]:
    from tutorgraph_research.harness.configs import ablation_grid

    return [c.name for c in ablation_grid()]


def grid_missing(ablations: Path) -> set[str]:
    """The configurations of today's grid that the ablation summary has no row for."""
    seen = set()
    with ablations.open(encoding="utf-8") as f:
        for line in f:
            if line.strip():
                seen.add(json.loads(line).get("config"))
    return set(grid_names()) - seen


class PhaseClock:
    """A phase's time, added to `phases.json` every `BANK_EVERY_S` and at its end, so a run
    that is killed (a session's end) still leaves the time it spent on record."""

    def __init__(self, run: Run, name: str, settings: dict[str, Any]) -> None:
        self.run, self.name, self.settings = run, name, settings
        self.started = self.unbanked = time.perf_counter()

    def bank(self, *, complete: bool = False, final: bool = False) -> float:
        """Record the time not yet recorded (now, if `final` or a while has passed); returns
        the seconds since this clock started."""
        now = time.perf_counter()
        if final or now - self.unbanked >= BANK_EVERY_S:
            self.run.record(self.name, now - self.unbanked, self.settings, complete)
            self.unbanked = now
        return now - self.started


class Run:
    """Paths, settings and the per-phase bookkeeping (`phases.json`) of one reproduction."""

    def __init__(self, args: argparse.Namespace) -> None:
        tag = "paper-quick" if args.quick else "paper"
        self.quick: bool = args.quick
        self.data: Path = args.data
        self.source_bundle: Path = args.bundle
        self.results: Path = args.results or Path("results") / tag
        self.out: Path = args.out or (Path("build/paper-quick") if args.quick else Path("paper"))
        self.work: Path = args.work or Path("build") / f"{tag}-work"
        self.index: Path = args.index or self.work / "index"
        self.bundle: Path = self.work / "bundle" if args.quick else args.bundle
        self.phases = [x.strip() for x in args.phases.split(",") if x.strip()]
        self.force = {x.strip() for x in args.force.split(",") if x.strip()}
        unknown = (set(self.phases) | self.force) - set(PHASES)
        if unknown:
            raise SystemExit(f"unknown phase(s): {', '.join(sorted(unknown))}")
        self.results.mkdir(parents=True, exist_ok=True)
        self.work.mkdir(parents=True, exist_ok=True)
        self.started, self.started_at = time.perf_counter(), _now()
        self.run_id = f"{self.started_at[:19].replace(':', '')}-{uuid.uuid4().hex[:8]}"

    def settings(self, **extra: Any) -> dict[str, Any]:
        return {"quick": self.quick, **extra}

    def done(self, name: str, output: Path, settings: dict[str, Any]) -> bool:
        """True when `output` exists and was written with these settings."""
        if name in self.force or not output.is_file():
            return False
        if output.suffix == ".json":
            return bool(json.loads(output.read_text(encoding="utf-8")).get("settings") == settings)
        entry = self._phases().get(name, {})
        return bool(entry.get("complete") and entry.get("settings") == settings)

    def _phases(self) -> dict[str, Any]:
        path = self.results / "phases.json"
        return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}

    def record(self, name: str, seconds: float, settings: dict[str, Any], complete: bool) -> None:
        """Add `seconds` of this invocation to phase `name` (and its wall time so far)."""
        phases = self._phases()
        entry = phases.get(name, {})
        if entry.get("settings") != settings or (
            entry.get("run_id") != self.run_id and entry.get("complete")
        ):
            # Time under other settings is another experiment's, and a finished phase done
            # again (forced, or its index gone) starts over.
            entry = {}
        earlier = float(entry.get("earlier_seconds", 0.0))
        mine = float(entry.get("seconds", 0.0))
        if entry and entry.get("run_id") != self.run_id:
            earlier, mine = earlier + mine, 0.0  # time of a run that was cut short
        phases[name] = {
            "run_id": self.run_id,
            "seconds": round(mine + seconds, 1),
            "earlier_seconds": round(earlier, 1),
            "settings": settings,
            "complete": complete,
        }
        runs = phases.get("runs", {})
        run = runs.get(self.run_id, {"started": self.started_at})
        run.update(
            last_update=_now(),
            wall_seconds=round(time.perf_counter() - self.started, 1),
            phases=sorted({*run.get("phases", []), name}, key=_phase_order),
        )
        runs[self.run_id] = run
        ordered = {k: phases[k] for k in PHASES if k in phases}
        write_json(self.results / "phases.json", {**ordered, "runs": runs})


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _phase_order(name: str) -> int:
    return PHASES.index(name) if name in PHASES else len(PHASES)


def write_json(path: Path, data: Any) -> None:
    """Write atomically: a killed run leaves the old file or the new one, never half."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    tmp.replace(path)

"""The ablation runner: every benchmark task under the one-factor-at-a-time grid.

Starting from `DEFAULT` (the shipped default), `ablation_grid()` changes one factor at a
time. Each task scores its items under every selected configuration; each finished (task,
config, fold) unit is appended to `<out>.items.jsonl` (e.g.
`results/ablations.items.jsonl`) followed by a marker row, so an interrupted run resumes at
the next unit and a unit cut short by a kill is dropped, never half-counted. After each
task, `out` is rewritten (atomically) as tidy summary rows: configuration, task, metric,
value with its 95% bootstrap interval, n, fold, query type, seed, git commit and hardware,
plus one `status: "not measured: ..."` row per (task, config) that a task could not run
here.

The items file remembers the run's settings (quick or full, the data folder): a run with
other settings refuses to resume it rather than mixing the two.

>>> spec = AblationSpec(data=Path("../shared/data"), out=Path("results/ablations.jsonl"),
...                     work=Path(".ablation-work"), quick=True)
>>> spec.items_path
PosixPath('results/ablations.items.jsonl')
>>> rows = await run_ablations(spec, embedder)  # doctest: +SKIP
"""

from __future__ import annotations

import functools
import json
import os
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from tutorgraph.embedding.embedder import Embedder
from tutorgraph.errors import ConfigurationError
from tutorgraph_research.harness.cached_embedder import caching
from tutorgraph_research.harness.configs import RunConfig, ablation_grid, matching
from tutorgraph_research.harness.provenance import git_commit, hardware
from tutorgraph_research.harness.results import (
    ItemScore,
    JsonlFile,
    UnitKey,
    bootstrap_ci,
    summary_rows,
)
from tutorgraph_research.harness.task import TASK_NAMES, BenchmarkTask
from tutorgraph_research.tasks.eedi import EediMisconceptionTask
from tutorgraph_research.tasks.linking import EediLinkingTask, OpenStaxLinkingTask
from tutorgraph_research.tasks.mae import MaeTask
from tutorgraph_research.tasks.prerequisites import PrerequisiteTask

__all__ = [
    "AblationProgress",
    "AblationSpec",
    "AblationStatus",
    "build_task",
    "read_items",
    "run_ablations",
    "select_configs",
]

# (task, done, total) items of that task.
AblationProgress = Callable[[str, int, int], None]
# (task, line): the long phase a task is in.
AblationStatus = Callable[[str, str], None]


@dataclass(frozen=True)
class AblationSpec:
    """What to run. `data` is laid out like `../shared/data` (`eedi/`, `eedi-subjects/`,
    `openstax/`, `learning-commons/`, `mae/`); `work` keeps what survives an interruption
    (trained fold rerankers); `configs` is comma-separated globs over grid names;
    `per_fold` caps the items a task scores per fold (a stable sample, by task name; a task
    not named scores all of them). Training data is never sampled."""

    data: Path
    out: Path
    work: Path
    tasks: tuple[str, ...] = TASK_NAMES
    configs: str = "*"
    quick: bool = False
    seed: int = 0
    resamples: int = 1000
    per_fold: Mapping[str, int] = field(default_factory=dict)

    @property
    def items_path(self) -> Path:
        """Where the item scores go: `out` with the suffix `.items.jsonl`."""
        return self.out.with_suffix(".items.jsonl")

    def run_tag(self) -> dict[str, Any]:
        """The settings items depend on; a resumed run must have the same."""
        tag: dict[str, Any] = {"quick": self.quick, "data": str(self.data.resolve())}
        if self.per_fold:
            tag["per_fold"] = dict(sorted(self.per_fold.items()))
        return tag


def select_configs(pattern: str = "*") -> list[RunConfig]:
    """The grid configurations whose names match any of the comma-separated globs.

    >>> [c.name for c in select_configs("default,fusion=*")]
    ['default', 'fusion=weighted']
    """
    return matching(ablation_grid(), pattern)


# -- the tasks -------------------------------------------------------------------------------


def _need(path: Path, task: str) -> Path:
    if not path.exists():
        raise ConfigurationError(f"task {task} needs {path}, which is missing (check --data)")
    return path


def _eedi_subjects(data: Path) -> Path | None:
    """Eedi's subject tree: `eedi-subjects/` as in ../shared/data, or beside train.csv."""
    for path in (
        data / "eedi-subjects" / "subject_metadata.csv",
        data / "eedi" / "subject_metadata.csv",
    ):
        if path.is_file():
            return path
    return None


def build_task(
    name: str,
    data: Path,
    *,
    quick: bool = False,
    work: Path | None = None,
    per_fold: int | None = None,
) -> BenchmarkTask:
    """The task called `name`, reading its files under `data` (checked here, not later);
    `per_fold` caps the items it scores per fold (MaE, which has no folds: in all).

    >>> build_task("eedi-misconceptions", Path("tests/data")).name  # doctest: +SKIP
    'eedi-misconceptions'
    """
    eedi = data / "eedi"
    if name in ("eedi-misconceptions", "linking-eedi"):
        eedi_task = EediMisconceptionTask if name == "eedi-misconceptions" else EediLinkingTask
        return eedi_task(
            _need(eedi / "train.csv", name),
            _need(eedi / "misconception_mapping.csv", name),
            _eedi_subjects(data),
            quick=quick,
            work=work,
            per_fold=per_fold,
        )
    if name == "linking-openstax":
        return OpenStaxLinkingTask(
            _need(data / "openstax", name), quick=quick, work=work, per_fold=per_fold
        )
    if name == "prerequisites":
        return PrerequisiteTask(
            _need(data / "openstax", name),
            _need(data / "learning-commons", name),
            quick=quick,
            work=work,
            per_fold=per_fold,
        )
    if name == "mae":
        return MaeTask(
            _need(data / "mae" / "data.json", name),
            _need(eedi / "misconception_mapping.csv", name),
            quick=quick,
            work=work,
            limit=per_fold,
        )
    raise ConfigurationError(f"unknown task {name!r}; the tasks are {', '.join(TASK_NAMES)}")


# -- the items file --------------------------------------------------------------------------


@dataclass
class _Recorded:
    """What an items file holds: the items of complete units, and what was not measured."""

    items: dict[UnitKey, list[ItemScore]] = field(default_factory=dict)
    # unit -> its marker row (settings, config detail, commit, hardware)
    markers: dict[UnitKey, dict[str, Any]] = field(default_factory=dict)
    # (task, config) -> its latest not-measured row
    not_measured: dict[tuple[str, str], dict[str, Any]] = field(default_factory=dict)
    # rows of units whose marker never came (a killed write): dropped before appending
    incomplete: int = 0


def _parse(path: Path) -> _Recorded:
    """Group an items file's rows: a unit counts only once its marker row is there."""
    out = _Recorded()
    pending: dict[UnitKey, list[ItemScore]] = defaultdict(list)
    for row in JsonlFile(path).read():
        if "unit" in row:
            task, config, fold = row["unit"]
            unit: UnitKey = (str(task), str(config), int(fold))
            block = pending.pop(unit, [])
            n = int(row["n"])
            if len(block) >= n:  # the last attempt's rows precede its marker
                out.items[unit] = block[len(block) - n :]
                out.markers[unit] = row
        elif "not_measured" in row:
            task, config = row["not_measured"]
            out.not_measured[(str(task), str(config))] = row
        elif "task" in row and "metrics" in row:
            item = ItemScore.from_json(row)
            pending[item.unit].append(item)
    out.incomplete = sum(len(v) for v in pending.values())
    return out


def _load(path: Path, tag: dict[str, Any], grid: dict[str, RunConfig]) -> _Recorded:
    """Read an items file, refusing one made with other settings or other configurations."""
    out = _parse(path)
    for row in [*out.markers.values(), *out.not_measured.values()]:
        if row.get("run") != tag:
            raise ConfigurationError(
                f"{path} was made by a run with {row.get('run')}, not {tag}; "
                "use another --out (or delete it) rather than mix the two"
            )
    for unit, row in out.markers.items():
        cfg = grid.get(unit[1])
        if cfg is not None and row.get("config_detail") != cfg.describe():
            raise ConfigurationError(
                f"{path}: configuration {unit[1]!r} was recorded as {row.get('config_detail')}, "
                f"but is now {cfg.describe()}; use another --out rather than mix the two"
            )
    return out


def read_items(path: Path) -> list[ItemScore]:
    """The item scores of every complete unit in an ablation items file.

    >>> items = read_items(Path("results/ablations.items.jsonl"))  # doctest: +SKIP
    """
    return [i for unit in _parse(path).items.values() for i in unit]


def _rewrite(path: Path, recorded: _Recorded) -> None:
    """Rewrite the file with complete units only: a kill mid-unit leaves rows to drop."""
    rows: list[dict[str, Any]] = []
    for unit, items in recorded.items.items():
        rows += [asdict(i) for i in items]
        rows.append(recorded.markers[unit])
    rows += recorded.not_measured.values()
    _write_atomic(path, rows)


def _write_atomic(path: Path, rows: Sequence[dict[str, Any]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    try:
        with tmp.open("w", encoding="utf-8") as fh:
            for r in rows:
                fh.write(json.dumps(r, sort_keys=True) + "\n")
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


# -- the summary -----------------------------------------------------------------------------


def _summary(
    recorded: _Recorded, spec: AblationSpec, grid: dict[str, RunConfig]
) -> list[dict[str, Any]]:
    """Tidy rows for every (task, config) recorded, then the not-measured rows."""
    by_pair: dict[tuple[str, str], list[UnitKey]] = defaultdict(list)
    for unit in recorded.items:
        by_pair[(unit[0], unit[1])].append(unit)
    task_order = {t: i for i, t in enumerate(TASK_NAMES)}
    config_order = {c: i for i, c in enumerate(grid)}

    def order(pair: tuple[str, str]) -> tuple[int, str, int, str]:
        task, config = pair
        return (task_order.get(task, 99), task, config_order.get(config, 99), config)

    machine = hardware()
    # Every row is compared with the grid's reference (its first configuration), item by item.
    reference = next(iter(grid), "")
    reference_items: dict[str, dict[tuple[int, str], ItemScore]] = defaultdict(dict)
    for unit, unit_items in recorded.items.items():
        if unit[1] == reference:
            for i in unit_items:
                reference_items[unit[0]][(i.fold, i.item)] = i
    rows: list[dict[str, Any]] = []
    for pair in sorted({*by_pair, *recorded.not_measured}, key=order):
        cfg = grid.get(pair[1])
        if pair not in by_pair:
            rows.append(
                {
                    "task": pair[0],
                    "config": pair[1],
                    "factor": cfg.factor if cfg else None,
                    "metric": None,
                    "value": None,
                    "ci95": None,
                    "n": 0,
                    "fold": "all",
                    "query_type": "all",
                    "seed": spec.seed,
                    "status": recorded.not_measured[pair]["reason"],
                    "config_detail": cfg.describe() if cfg else None,
                    "git_commit": git_commit(),
                    "hardware": machine,
                    "quick": spec.quick,
                }
            )
            continue
        # Measured (even if an earlier run could not, e.g. a model that loads now).
        units = sorted(by_pair[pair])
        markers = [recorded.markers[u] for u in units]
        commits = sorted({str(m.get("git_commit")) for m in markers})
        machines = [m.get("hardware") for m in markers]
        extra = {
            "config_detail": cfg.describe() if cfg else markers[0].get("config_detail"),
            "git_commit": commits[0] if len(commits) == 1 else ",".join(commits),
            "hardware": machines[0] if all(h == machines[0] for h in machines) else machines,
            "quick": spec.quick,
        }
        items = [i for u in units for i in recorded.items[u]]
        block = summary_rows(
            items,
            factor=cfg.factor if cfg else None,
            seed=spec.seed,
            resamples=spec.resamples,
            extra=extra,
        )
        if pair[1] != reference:
            _add_paired(block, items, reference_items.get(pair[0], {}), reference, spec)
        rows += block
    return rows


def _add_paired(
    rows: list[dict[str, Any]],
    items: list[ItemScore],
    reference_items: dict[tuple[int, str], ItemScore],
    reference: str,
    spec: AblationSpec,
) -> None:
    """Give each overall row the paired difference from the reference configuration over
    the items both scored (mean of per-item differences, 95% bootstrap interval)."""
    for row in rows:
        if (row["fold"], row["query_type"], row.get("subset")) != ("all", "all", "all"):
            continue
        metric = row["metric"]
        diffs = [
            i.metrics[metric] - ref.metrics[metric]
            for i in items
            if (ref := reference_items.get((i.fold, i.item))) is not None and metric in ref.metrics
        ]
        if diffs:
            lo, hi = bootstrap_ci(diffs, resamples=spec.resamples, seed=spec.seed)
            row["paired"] = {
                "versus": reference,
                "diff": round(sum(diffs) / len(diffs), 6),
                "ci95": [lo, hi],
                "n": len(diffs),
            }


# -- the run ---------------------------------------------------------------------------------


async def run_ablations(
    spec: AblationSpec,
    embedder: Embedder,
    *,
    progress: AblationProgress | None = None,
    status: AblationStatus | None = None,
    tasks: Sequence[BenchmarkTask] | None = None,
) -> list[dict[str, Any]]:
    """Run (or resume) the ablation and return the summary rows written to `spec.out`.

    `tasks` replaces the tasks built from `spec.tasks` (tests pass fakes). Every task is
    built, and its data checked, before anything runs.
    """
    configs = select_configs(spec.configs)
    grid = {c.name: c for c in ablation_grid()}
    todo = (
        list(tasks)
        if tasks is not None
        else [
            build_task(
                n, spec.data, quick=spec.quick, work=spec.work, per_fold=spec.per_fold.get(n)
            )
            for n in spec.tasks
        ]
    )
    run = _Run(spec, grid)
    # One vector per text for the whole run: the tasks index many of the same texts.
    cached = caching(embedder)
    for task in todo:
        name = task.name
        not_measured = await task.run(
            configs,
            cached,
            skip=run.skip,
            record=functools.partial(run.record, name),
            progress=functools.partial(progress, name) if progress else None,
            status=functools.partial(status, name) if status else None,
        )
        run.not_measured(name, not_measured)
        _write_atomic(spec.out, _summary(run.recorded, spec, grid))
    rows = _summary(run.recorded, spec, grid)
    if not todo:
        _write_atomic(spec.out, rows)
    return rows


class _Run:
    """The items file of a run: loaded (and checked) once, appended unit by unit."""

    def __init__(self, spec: AblationSpec, grid: dict[str, RunConfig]) -> None:
        self.tag = spec.run_tag()
        self.grid = grid
        self.recorded = _load(spec.items_path, self.tag, grid)
        if self.recorded.incomplete:
            _rewrite(spec.items_path, self.recorded)
            self.recorded.incomplete = 0
        self.file = JsonlFile(spec.items_path)
        self.machine = hardware()

    def skip(self, unit: UnitKey) -> bool:
        return unit in self.recorded.items

    def record(self, task: str, items: list[ItemScore]) -> None:
        """Append one finished unit, then its marker (the unit counts once that is there)."""
        if not items:
            return  # an empty unit has no key; it costs nothing to redo
        unit = items[0].unit
        if unit[0] != task or any(i.unit != unit for i in items):
            raise ValueError(f"task {task} recorded items of several units: {unit}")
        marker = {
            "unit": list(unit),
            "n": len(items),
            "run": self.tag,
            "config_detail": self.grid[unit[1]].describe(),
            "git_commit": git_commit(),
            "hardware": self.machine,
        }
        self.file.append([*(asdict(i) for i in items), marker])
        self.recorded.items[unit] = list(items)
        self.recorded.markers[unit] = marker

    def not_measured(self, task: str, reasons: dict[str, str]) -> None:
        fresh: list[dict[str, Any]] = [
            {"not_measured": [task, config], "reason": reason, "run": self.tag}
            for config, reason in sorted(reasons.items())
            if self.recorded.not_measured.get((task, config), {}).get("reason") != reason
        ]
        if fresh:
            self.file.append(fresh)
        for row in fresh:
            self.recorded.not_measured[(task, row["not_measured"][1])] = row

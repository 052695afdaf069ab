"""`tutorgraph ablate`: the one-factor-at-a-time ablation over every benchmark task."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.progress import Progress, TaskID
from rich.table import Table

from tutorgraph.cli.plugin import console, fail_on_errors, load_settings, progress_bars
from tutorgraph.errors import ConfigurationError
from tutorgraph_research.harness.task import TASK_NAMES

__all__ = ["ablate_cmd", "register", "summary_table"]


def _tasks(value: str) -> tuple[str, ...]:
    names = tuple(n.strip() for n in value.split(",") if n.strip())
    unknown = [n for n in names if n not in TASK_NAMES]
    if unknown or not names:
        raise typer.BadParameter(
            f"{value!r}: comma-separated task names from {', '.join(TASK_NAMES)}"
        )
    return names


def ablate_cmd(
    data: Annotated[
        Path, typer.Option(help="Data root laid out like ../shared/data (eedi/, openstax/, ...).")
    ] = Path("../shared/data"),
    out: Annotated[Path, typer.Option(help="Summary rows (JSON Lines).")] = Path(
        "results/ablations.jsonl"
    ),
    work: Annotated[
        Path, typer.Option(help="Folder for what survives an interruption (fold rerankers).")
    ] = Path(".ablation-work"),
    tasks: Annotated[
        str, typer.Option(help=f"Comma-separated tasks: {', '.join(TASK_NAMES)}.")
    ] = ",".join(TASK_NAMES),
    configs: Annotated[
        str, typer.Option(help="Comma-separated globs over grid names (default, sources=...).")
    ] = "*",
    quick: Annotated[
        bool, typer.Option("--quick", help="A small deterministic sample of every task.")
    ] = False,
    seed: Annotated[int, typer.Option(help="Seed of the bootstrap intervals.")] = 0,
    resamples: Annotated[int, typer.Option(help="Bootstrap resamples.", min=100)] = 1000,
) -> None:
    """Run (or resume) the ablation: each task under the shipped default and each one-factor
    change of it.

    Item scores go to OUT with the suffix .items.jsonl, one (task, config, fold) unit at a
    time; run the same command again to resume after an interruption.
    """
    from tutorgraph.retrieval.factory import make_embedder
    from tutorgraph_research.ablation import AblationSpec, build_task, run_ablations, select_configs

    settings = load_settings()
    names = _tasks(tasks)
    spec = AblationSpec(
        data=data,
        out=out,
        work=work,
        tasks=names,
        configs=configs,
        quick=quick,
        seed=seed,
        resamples=resamples,
    )
    with fail_on_errors():
        select_configs(configs)
        if not data.is_dir():
            raise ConfigurationError(f"--data {data} is not a folder")
        # Check every task's data before loading a model or running anything.
        built = [build_task(n, data, quick=quick, work=work) for n in names]
        embedder = make_embedder(settings)
        with progress_bars() as bars:
            ids: dict[str, TaskID] = {n: bars.add_task(n, total=None) for n in names}

            def progress(task: str, done: int, total: int) -> None:
                bars.update(ids[task], completed=done, total=total)

            def status(task: str, line: str) -> None:
                bars.update(ids[task], description=f"{task}: {line}")

            rows = asyncio.run(
                run_ablations(spec, embedder, progress=progress, status=status, tasks=built)
            )
            _finish(bars, ids)
    console.print(summary_table(rows, {t.name: t.metrics[0] for t in built}, out))


def _finish(bars: Progress, ids: dict[str, TaskID]) -> None:
    for name, tid in ids.items():
        task = bars.tasks[bars.task_ids.index(tid)]
        # A task with nothing left to do (a finished run resumed) never reported a total.
        bars.update(tid, description=name, total=task.total or 0, completed=task.total or 0)


def summary_table(rows: list[dict[str, Any]], headline: dict[str, str], out: Path) -> Table:
    """Task x config: each task's headline metric over all folds, with its 95% interval."""
    table = Table("task", "config", "metric", "value [95% CI]", "n", title=f"ablation -> {out}")
    for r in rows:
        if r.get("status", "ok") != "ok":
            why = str(r["status"])
            table.add_row(
                r["task"], r["config"], "", why if len(why) < 80 else why[:77] + "...", "0"
            )
            continue
        if r["fold"] != "all" or r["query_type"] != "all":
            continue
        if r["metric"] != headline.get(r["task"], r["metric"]):
            continue
        lo, hi = r["ci95"]
        value = f"{r['value']:.4f} [{lo:.4f}, {hi:.4f}]"
        table.add_row(r["task"], r["config"], r["metric"], value, str(r["n"]))
    return table


def register(app: typer.Typer) -> None:
    app.command("ablate")(ablate_cmd)

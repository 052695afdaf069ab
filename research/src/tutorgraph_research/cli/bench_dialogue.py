"""`tutorgraph bench dialogue`: each student turn of a tutoring dialogue judged in the light
of the turns before it (issue 63).

e.g. `tutorgraph bench dialogue --out results/dialogue_bench.json`, then after a change
`tutorgraph bench dialogue --baseline results/dialogue_bench.json --out results/after.json`
for the paired differences on the same turns.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import asdict
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.progress import Progress

from tutorgraph.cli.plugin import (
    console,
    fail_on_errors,
    load_settings,
    open_retriever,
    progress_bars,
)
from tutorgraph.errors import ConfigurationError

__all__ = ["DIALOGUES", "dialogue_cmd"]

DIALOGUES = Path("data/benchmarks/dialogues.jsonl")
_SHOWN = (
    "standard@1",
    "standard@3",
    "topic@3",
    "problem_read",
    "answer_read",
    "answer_none",
    "problem_answer_read",
    "answer_check",
    "topic_kept",
    "topic_moved",
    "tutor_answer",
    "packet",
    "short_standard@3",
    "full_standard@3",
)
_FLAGS = ("chit_chat_flag", "help_flag", "short_vs_full")


def dialogue_cmd(
    dialogues: Annotated[
        Path, typer.Option(help="The hand-judged tutoring dialogues (JSON Lines).")
    ] = DIALOGUES,
    index_dir: Annotated[
        Path | None, typer.Option(help="Index folder (`tutorgraph ingest data/curriculum`).")
    ] = None,
    grade: Annotated[
        bool,
        typer.Option(
            "--grade",
            help="Send each dialogue's grade in the request (an app that knows its student's).",
        ),
    ] = False,
    baseline: Annotated[
        Path | None,
        typer.Option(help="An earlier report of this command: paired differences against it."),
    ] = None,
    limit: Annotated[
        int | None,
        typer.Option(min=1, help="Only N dialogues, taken a kind at a time in turn."),
    ] = None,
    split: Annotated[
        str | None,
        typer.Option(help="Only the dialogues of this split (dev or heldout)."),
    ] = None,
    out: Annotated[Path, typer.Option(help="Where to write the report.")] = Path(
        "results/dialogue_bench.json"
    ),
) -> None:
    """Tutoring dialogues replayed one student turn at a time, the turns before it sent as
    `conversation`: standard@1/@3, the problem and the student's answer read, the answer
    check, the chit-chat and help flags' precision and recall, the topic kept across turns and
    moved on a change, answers never taken from tutor turns, bench tutoring's packet score,
    and short turns' standard@3 against their full message sent alone; per kind with 95%
    bootstrap intervals, for the development and held-out dialogues apart (tune on dev only).
    With --baseline, each part's paired difference on the same turns."""
    from tutorgraph_research.harness.provenance import git_commit, hardware
    from tutorgraph_research.tasks.dialogue import (
        TurnScore,
        paired,
        run_dialogue_benchmark,
        summarise,
    )
    from tutorgraph_research.tasks.dialogue_set import (
        curriculum_standards,
        load_dialogues,
        spread,
    )

    settings = load_settings(index_dir)
    with fail_on_errors():
        if not dialogues.is_file():
            raise ConfigurationError(f"{dialogues}: no such file (--dialogues)")
        if split is not None and split not in ("dev", "heldout"):
            raise ConfigurationError(f"--split must be dev or heldout, not {split!r}")
        # The bundle beside the set (data/benchmarks -> data/curriculum): every standard in it.
        curriculum = dialogues.resolve().parent.parent / "curriculum"
        concepts = curriculum / "concepts.jsonl"
        known = curriculum_standards(curriculum) if concepts.is_file() else None
        try:
            items = load_dialogues(dialogues, known)
        except ValueError as e:
            raise ConfigurationError(str(e)) from e
        if split is not None:
            items = [d for d in items if d.split == split]
        if limit is not None:
            items = spread(items)[:limit]  # every kind among the first N
        before: list[TurnScore] | None = None
        if baseline is not None:
            if not baseline.is_file():
                raise ConfigurationError(f"{baseline}: no such file (--baseline)")
            rows = json.loads(baseline.read_text(encoding="utf-8"))["turns"]
            before = [TurnScore(**row) for row in rows]
        served = open_retriever(settings)

        async def run(bars: Progress) -> list[TurnScore]:
            try:
                task = bars.add_task("dialogues", total=len(items))
                scores, _ = await run_dialogue_benchmark(
                    served.retriever,
                    items,
                    grade=grade,
                    progress=lambda done, _total: bars.update(task, completed=done),
                )
                return scores
            finally:
                await served.aclose()

        with progress_bars() as bars:
            scores = asyncio.run(run(bars))
    splits = ("dev", "heldout")
    report: dict[str, Any] = {
        name: summarise([s for s in scores if s.split == name])
        for name in splits
        if any(s.split == name for s in scores)
    }
    if before is not None:
        report["paired"] = {
            name: paired(
                [s for s in before if s.split == name], [s for s in scores if s.split == name]
            )
            for name in report
        }
    report["turns"] = [asdict(s) for s in scores]
    report["_meta"] = {
        "dialogues": str(dialogues),
        "n_dialogues": len(items),
        "n_turns": len(scores),
        "split": split,
        "limit": limit,
        "grade": grade,
        "baseline": str(baseline) if baseline else None,
        "index_dir": str(settings.index_dir),
        "bootstrap": {"resamples": 1000, "seed": 0, "level": 0.95},
        "git_commit": git_commit(),
        "hardware": hardware(),
    }
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    console.print(f"dialogue turns: mean [95% interval] -> {out}", highlight=False)
    for name in splits:
        if name not in report:
            continue
        for group, row in report[name].items():
            if group in _FLAGS:
                console.print(f"{name}/{group}  {row}", highlight=False)
                continue
            cells = [
                f"{p} {row[p]['mean']:.3f} [{row[p]['ci95'][0]:.2f}, {row[p]['ci95'][1]:.2f}]"
                for p in _SHOWN
                if p in row
            ]
            n = row["packet"]["n"]
            console.print(f"{name}/{group}".ljust(26), f"n={n:<4}", "  ".join(cells))
        for part, cell in report.get("paired", {}).get(name, {}).items():
            lo, hi = cell["ci95"]
            console.print(
                f"{name} paired {part}: {cell['mean']:+.3f} [{lo:+.3f}, {hi:+.3f}]",
                highlight=False,
            )

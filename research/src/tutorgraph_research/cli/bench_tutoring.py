"""`tutorgraph bench tutoring`: whole packets judged as a tutor reads them (issue 47).

e.g. `tutorgraph bench tutoring --out results/tutoring_bench.json`, then after a change
`tutorgraph bench tutoring --baseline results/tutoring_bench.json --out results/after.json`
for the paired differences on the same messages. The reader's stated answers
(`data/benchmarks/stated_answers.jsonl`, no index needed) are scored beside the packets, or
alone with `--answers-only`.
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

__all__ = ["PACKET_MESSAGES", "STATED_ANSWERS", "tutoring_cmd"]

PACKET_MESSAGES = Path("data/benchmarks/packet_messages.jsonl")
STATED_ANSWERS = Path("data/benchmarks/stated_answers.jsonl")
_SHOWN = (
    "standard@1",
    "standard@3",
    "teach@10",
    "teach_band@10",
    "misconception@10",
    "balanced",
    "packet",
    "reader_none",
    "reader_read",
    "teach_slot_band",
    "practice_on_target",
    "context_answer",
    "context_no_match",
    "misconception_own",
)


def tutoring_cmd(
    messages: Annotated[
        Path, typer.Option(help="The hand-judged packet messages (JSON Lines).")
    ] = PACKET_MESSAGES,
    index_dir: Annotated[
        Path | None, typer.Option(help="Index folder (`tutorgraph ingest data/curriculum`).")
    ] = None,
    fields: Annotated[
        bool,
        typer.Option(
            "--fields",
            help="Send each message's problem and stated answer in the request's own fields "
            "(as an app would), instead of the message as typed.",
        ),
    ] = False,
    grade: Annotated[
        bool,
        typer.Option(
            "--grade",
            help="Send each message's grade in the request (an app that knows its student's).",
        ),
    ] = False,
    baseline: Annotated[
        Path | None,
        typer.Option(help="An earlier report of this command: paired differences against it."),
    ] = None,
    limit: Annotated[int | None, typer.Option(min=1, help="Only the first N messages.")] = None,
    answers: Annotated[
        Path | None,
        typer.Option(
            help="Messages labelled with the answer they state (JSON Lines); by default "
            f"{STATED_ANSWERS}, where it is.",
        ),
    ] = None,
    answers_only: Annotated[
        bool,
        typer.Option(
            "--answers-only",
            help="Score only the reader's stated answers (no index, no packets).",
        ),
    ] = False,
    out: Annotated[Path, typer.Option(help="Where to write the report.")] = Path(
        "results/tutoring_bench.json"
    ),
) -> None:
    """Whole packets: standard@1/@3, teach@10, misconception@10 (stated errors), balanced,
    the off-topic flag's precision and recall, and a packet score, per kind of message with
    95% bootstrap intervals, for the development and the held-out messages apart (tune on
    dev only); beside them the teach slot's share written for the message's band and, for a
    message stating no answer, whether its misconceptions are its standards' own. With
    --baseline, each part's paired difference on the same messages. Beside them, the
    reader's stated answers: recall, precision and no answer read where none is
    stated (`--answers`; `--answers-only` for these alone)."""
    from tutorgraph_research.harness.provenance import git_commit, hardware
    from tutorgraph_research.tasks.packet_messages import load_packet_messages
    from tutorgraph_research.tasks.stated_answers import load_stated_answers, score_stated_answers
    from tutorgraph_research.tasks.tutoring import (
        MessageScore,
        paired,
        run_tutoring_benchmark,
        summarise,
    )

    with fail_on_errors():
        if answers is not None and not answers.is_file():
            raise ConfigurationError(f"{answers}: no such file (--answers)")
        if answers is None and STATED_ANSWERS.is_file():
            answers = STATED_ANSWERS
        if answers is None and answers_only:
            raise ConfigurationError(f"{STATED_ANSWERS}: no such file (--answers)")
        stated = score_stated_answers(load_stated_answers(answers)) if answers else None
    if answers_only:
        meta = {"answers": str(answers), "git_commit": git_commit()}
        _write(out, {"stated_answers": stated, "_meta": meta})
        _print_stated(stated)
        return
    settings = load_settings(index_dir)
    with fail_on_errors():
        if not messages.is_file():
            raise ConfigurationError(f"{messages}: no such file (--messages)")
        items = load_packet_messages(messages)[:limit]
        before: list[MessageScore] | None = None
        if baseline is not None:
            if not baseline.is_file():
                raise ConfigurationError(f"{baseline}: no such file (--baseline)")
            rows = json.loads(baseline.read_text(encoding="utf-8"))["messages"]
            before = [MessageScore(**row) for row in rows]
        served = open_retriever(settings)

        async def run(bars: Progress) -> list[MessageScore]:
            try:
                task = bars.add_task("packets", total=len(items))
                scores, _ = await run_tutoring_benchmark(
                    served.retriever,
                    items,
                    fields=fields,
                    grade=grade,
                    graph=served.index.graph,
                    progress=lambda done, _total: bars.update(task, completed=done),
                )
                return scores
            finally:
                await served.aclose()

        with progress_bars() as bars:
            scores = asyncio.run(run(bars))
    report: dict[str, Any] = {
        split: summarise([s for s in scores if s.split == split]) for split in ("dev", "heldout")
    }
    if before is not None:
        report["paired"] = {
            split: paired(
                [s for s in before if s.split == split], [s for s in scores if s.split == split]
            )
            for split in ("dev", "heldout")
        }
    if stated is not None:
        report["stated_answers"] = stated
    report["messages"] = [asdict(s) for s in scores]
    report["_meta"] = {
        "messages": str(messages),
        "answers": str(answers) if answers else None,
        "n": len(scores),
        "fields": fields,
        "grade": grade,
        "baseline": str(baseline) if baseline else None,
        "index_dir": str(settings.index_dir),
        "bootstrap": {"resamples": 1000, "seed": 0, "level": 0.95},
        "git_commit": git_commit(),
        "hardware": hardware(),
    }
    _write(out, report)
    console.print(f"whole packets: mean [95% interval] -> {out}", highlight=False)
    for split in ("dev", "heldout"):
        for group, row in report[split].items():
            if group in ("off_topic_flag", "empty_by_grade", "reliability"):
                console.print(f"{split}/{group}  {row}", highlight=False)
                continue
            if group == "teach_by_band":
                for name, cells in row.items():
                    shown = "  ".join(
                        f"{p} {c['mean']:.3f} [{c['ci95'][0]:.2f}, {c['ci95'][1]:.2f}] n={c['n']}"
                        for p, c in cells.items()
                    )
                    console.print(f"{split}/band {name}".ljust(28), shown, highlight=False)
                continue
            cells = [
                f"{p} {row[p]['mean']:.3f} [{row[p]['ci95'][0]:.2f}, {row[p]['ci95'][1]:.2f}]"
                for p in _SHOWN
                if p in row
            ]
            n = row["packet"]["n"]
            console.print(f"{split}/{group}".ljust(28), f"n={n:<4}", "  ".join(cells))
        if "paired" in report:
            for part, cell in report["paired"][split].items():
                lo, hi = cell["ci95"]
                console.print(
                    f"{split} paired {part}: {cell['mean']:+.3f} [{lo:+.3f}, {hi:+.3f}]",
                    highlight=False,
                )
    _print_stated(stated)


def _write(out: Path, report: dict[str, Any]) -> None:
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=1, sort_keys=True) + "\n", encoding="utf-8")


def _print_stated(stated: dict[str, Any] | None) -> None:
    """The reader's stated answers per split: recall, precision, none read where none."""
    if stated is None:
        console.print(f"stated answers: {STATED_ANSWERS} not found, not scored", highlight=False)
        return
    for split in ("dev", "heldout"):
        cells = []
        for part in ("recall", "precision", "none"):
            c = stated[split][part]
            if c["mean"] is not None:
                lo, hi = c["ci95"]
                cells.append(f"{part} {c['mean']:.3f} [{lo:.2f}, {hi:.2f}] n={c['n']}")
        console.print(f"{split}/stated_answers".ljust(28), "  ".join(cells), highlight=False)

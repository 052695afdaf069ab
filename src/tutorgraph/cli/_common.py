"""What every command shares: settings, consoles, error reporting, opening the retriever."""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from tutorgraph.config import Settings
from tutorgraph.errors import IndexDamagedError, TutorGraphError
from tutorgraph.index.local import LocalIndex
from tutorgraph.index.service import open_retriever

__all__ = [
    "console",
    "default_subjects",
    "err_console",
    "fail_on_errors",
    "load_settings",
    "loading",
    "open_retriever",  # re-exported for the commands
    "progress_bars",
    "refuse_damaged",
    "snippet",
]

# soft_wrap: a line such as `file:line: reason` must stay one line in pipes and logs.
# emoji=False: ids such as eedi:question:529 hold rich's emoji codes (`:question:`).
console = Console(soft_wrap=True, emoji=False)
# Progress, warnings and errors go to stderr so `--json` output stays clean on stdout.
err_console = Console(stderr=True, soft_wrap=True, emoji=False)


def snippet(text: str, limit: int = 240) -> str:
    """`text` on one line, cut to `limit` characters with an ellipsis.

    >>> snippet("a  long   answer", 7)
    'a long…'
    """
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def load_settings(index_dir: Path | None = None) -> Settings:
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    # bm25s sets its own logger to DEBUG; its chatter would drown the progress bars.
    logging.getLogger("bm25s").setLevel(logging.WARNING)
    # The machines here reach no model hub; never let a library try.
    os.environ.setdefault("HF_HUB_DISABLE_TELEMETRY", "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    with fail_on_errors():  # a malformed TUTORGRAPH_* variable: one line, exit 2
        settings = Settings()
    if index_dir is not None:
        settings = settings.model_copy(update={"index_dir": index_dir})
    return settings


def default_subjects(eedi_file: Path) -> Path | None:
    """Eedi's subject_metadata.csv in `../eedi-subjects/` beside an Eedi file, if it is there."""
    guess = eedi_file.parent.parent / "eedi-subjects" / "subject_metadata.csv"
    return guess if guess.is_file() else None


@contextmanager
def fail_on_errors() -> Iterator[None]:
    """Turn library errors into one readable line and exit code 2, without a traceback."""
    try:
        yield
    except TutorGraphError as exc:
        err_console.print(f"[bold red]error[/]: {exc.message}", highlight=False)
        raise typer.Exit(2) from None


def _quiet(_what: str) -> None:
    return None


@contextmanager
def loading(*, quiet: bool = False) -> Iterator[Callable[[str], None]]:
    """A one-line status on stderr while a one-shot command loads: the block gets a function
    to call with what it is doing now (`say("loading the embedder")`), and the line is gone
    when the block ends. Silent with `quiet` (`--json`) and when stderr is not a terminal (a
    pipe, a log, CI), and never on stdout: a command's output is unchanged by it."""
    if quiet or not err_console.is_terminal:
        yield _quiet
        return
    with err_console.status("starting…") as status:
        yield lambda what: status.update(f"{what}…")


def refuse_damaged(index: LocalIndex) -> None:
    """A command that answers from the index stops on a part that failed its integrity
    check (the server degrades instead; a one-off command says what is wrong)."""
    if index.problems:
        more = len(index.problems) - 1
        raise IndexDamagedError(
            f"the index is damaged: {index.problems[0]}"
            + (f" (and {more} more: `tutorgraph doctor`)" if more else "")
        )


def progress_bars() -> Progress:
    return Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=err_console,
        transient=False,
    )

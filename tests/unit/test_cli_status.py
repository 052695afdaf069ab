"""The status line of one-shot commands (`cli/_common.loading`): on stderr, on a terminal
only, gone when the block ends, and silent with `--json`."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from tutorgraph.cli import _common

pytestmark = pytest.mark.unit


def _stderr(monkeypatch: pytest.MonkeyPatch, *, terminal: bool) -> io.StringIO:
    buf = io.StringIO()
    console = Console(file=buf, force_terminal=terminal, soft_wrap=True, emoji=False)
    monkeypatch.setattr(_common, "err_console", console)
    return buf


def test_a_terminal_shows_what_loads_and_clears_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    err = _stderr(monkeypatch, terminal=True)
    with _common.loading() as say:
        say("loading the embedder (all-MiniLM-L6-v2)")
        say("opening the index")
    shown = err.getvalue()
    assert "loading the embedder (all-MiniLM-L6-v2)…" in shown or "opening the index…" in shown
    assert shown.endswith("\x1b[?25h\r\x1b[1A\x1b[2K")  # the line erased, the cursor back
    assert capsys.readouterr().out == ""  # never on stdout


@pytest.mark.parametrize("terminal", [False, True])
def test_a_pipe_or_json_gets_nothing(monkeypatch: pytest.MonkeyPatch, terminal: bool) -> None:
    err = _stderr(monkeypatch, terminal=terminal)
    with _common.loading(quiet=terminal) as say:  # a pipe; or --json on a terminal
        say("loading the embedder")
    assert err.getvalue() == ""

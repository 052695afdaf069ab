"""The seam for commands that other distributions add to `tutorgraph` (research's `bench` and
`ablate`): what a plugin's commands share with the built-in ones, in one public module.

A plugin is an entry point in the `tutorgraph.cli` group (`PLUGIN_GROUP`) named after its
command, whose object is a `register(app)` function (`Register`). Its commands read the
settings with `load_settings`, print on `console` (progress, warnings and errors on
`err_console`, so that JSON output stays clean), turn library errors into one line and exit
code 2 with `fail_on_errors`, and take the shared options of `tutorgraph.cli.options`
(re-exported here). Beside them: `loading` (a status line while a command loads),
`progress_bars`, `snippet` (text on one line, cut), `open_retriever` and `refuse_damaged`
(the retriever of the settings, refused on a damaged index) and `default_subjects` (Eedi's
subject file beside a train file). In the plugin's `pyproject.toml`:

    [project.entry-points."tutorgraph.cli"]
    hello = "my_plugin.cli:register"

and in `my_plugin/cli.py`:

>>> import typer
>>> from tutorgraph.cli.plugin import IndexDirOption, console, fail_on_errors, load_settings
>>> def hello_cmd(index_dir: IndexDirOption = None) -> None:
...     '''Say which index the settings name.'''
...     settings = load_settings(index_dir)
...     with fail_on_errors():
...         console.print(f"hello from {settings.index_dir}")
>>> def register(app: typer.Typer) -> None:
...     app.command("hello")(hello_cmd)
"""

from __future__ import annotations

from collections.abc import Callable

import typer

from tutorgraph.cli import _common, options
from tutorgraph.cli._common import *  # noqa: F403  (the names of `_common.__all__`)
from tutorgraph.cli.options import *  # noqa: F403  (the names of `options.__all__`)

# What the built-in commands share (`_common`: settings, consoles, errors, the retriever),
# the shared options, and the plugin contract.
__all__ = [*_common.__all__, *options.__all__, "PLUGIN_GROUP", "Register"]

# The entry-point group of the commands other distributions add to `tutorgraph`.
PLUGIN_GROUP = "tutorgraph.cli"
# What each entry point of the group names: it adds its command (or group) to the app.
Register = Callable[[typer.Typer], None]

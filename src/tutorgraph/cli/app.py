"""The `tutorgraph` command line: one module per command group.

The benchmark commands (`bench`, `ablate`) are not in this package: the `tutorgraph-research`
distribution (`research/` in a checkout) registers them through the `tutorgraph.cli`
entry-point group, each entry point a `register(app)` function named after its command
(the seam a plugin builds on: `tutorgraph.cli.plugin`).
Without it, `tutorgraph bench` and `tutorgraph ablate` still exist, and say where they live.
"""

from __future__ import annotations

from collections.abc import Mapping
from importlib.metadata import entry_points
from typing import cast

import typer

from tutorgraph.cli import answer, concept, curriculum, index, query, serve, train
from tutorgraph.cli.plugin import PLUGIN_GROUP, Register

__all__ = ["PLUGIN_GROUP", "RESEARCH_COMMANDS", "app", "build_app", "installed_plugins", "main"]

# The commands `tutorgraph-research` registers; without it each one says how to install it.
RESEARCH_COMMANDS = ("ablate", "bench")
MISSING_RESEARCH = (
    "tutorgraph {name}: the benchmarks live in the tutorgraph-research package, which is not "
    "installed; from a checkout, `pip install -e research/` (scripts/setup.sh does it)."
)


def installed_plugins() -> dict[str, Register]:
    """The `register` function of every entry point in `PLUGIN_GROUP`, by name, in name
    order (so the commands' order in `--help` does not depend on install order)."""
    found = sorted(entry_points(group=PLUGIN_GROUP), key=lambda ep: ep.name)
    return {ep.name: cast(Register, ep.load()) for ep in found}


def _missing(name: str) -> Register:
    """A stand-in for a research command that is not installed: exit 2 with one line."""

    def command() -> None:
        typer.echo(MISSING_RESEARCH.format(name=name), err=True)
        raise typer.Exit(2)

    def register(app: typer.Typer) -> None:
        app.command(
            name,
            help="Needs the tutorgraph-research package (not installed).",
            add_help_option=False,
            context_settings={"allow_extra_args": True, "ignore_unknown_options": True},
        )(command)

    return register


def build_app(plugins: Mapping[str, Register] | None = None) -> typer.Typer:
    """The `tutorgraph` app with the built-in commands and `plugins` (default: the installed
    entry points of `PLUGIN_GROUP`); a research command no plugin provides is a stand-in."""
    plugins = installed_plugins() if plugins is None else plugins
    app = typer.Typer(
        name="tutorgraph",
        help="GraphRAG retrieval backend for math tutoring.",
        no_args_is_help=True,
        pretty_exceptions_enable=False,
        add_completion=False,
    )
    curriculum.register(app)
    index.register(app)
    query.register(app)
    concept.register(app)
    answer.register(app)
    # The plugins go here so that `--help` lists them where the built-in commands were.
    for register in plugins.values():
        register(app)
    for name in RESEARCH_COMMANDS:
        if name not in plugins:
            _missing(name)(app)
    train.register(app)
    serve.register(app)
    return app


app = build_app()


def main() -> None:
    app()

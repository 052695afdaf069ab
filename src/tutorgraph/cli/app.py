"""The `tutorgraph` command line: one module per command group."""

from __future__ import annotations

import typer

from tutorgraph.cli import answer, curriculum, index, query, serve, train
from tutorgraph_research.cli import ablate, bench

__all__ = ["app", "main"]

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
answer.register(app)
bench.register(app)
ablate.register(app)
train.register(app)
serve.register(app)


def main() -> None:
    app()

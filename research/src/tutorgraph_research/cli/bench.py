"""`tutorgraph bench`: the benchmarks of the evaluation protocol (research/docs/EVALUATION.md).

The commands live in modules by what they measure: Eedi retrieval and the diagnosis
(`bench_eedi`), latency (`bench_latency`), the HTTP server under load (`bench_load`),
reading a query (`bench_queries`), the curriculum's content (`bench_content`), whole
packets (`bench_tutoring`) and tutoring dialogues turn by turn (`bench_dialogue`). This
module is the group, and the order in which `tutorgraph bench --help` lists its commands.

>>> register(app)  # doctest: +SKIP
"""

from __future__ import annotations

import typer

from tutorgraph_research.cli.bench_content import linking_cmd, teaching_cmd
from tutorgraph_research.cli.bench_dialogue import dialogue_cmd
from tutorgraph_research.cli.bench_eedi import cross_encoder_cmd, diagnosis_cmd, eedi_cmd
from tutorgraph_research.cli.bench_latency import latency_cmd
from tutorgraph_research.cli.bench_load import load_cmd
from tutorgraph_research.cli.bench_queries import reader_cmd, refine_cmd, routing_cmd
from tutorgraph_research.cli.bench_tutoring import tutoring_cmd

__all__ = ["register"]

bench_app = typer.Typer(help="Benchmarks (research/docs/EVALUATION.md).", no_args_is_help=True)
# Registered here, not where each is defined, so that this order is the one `--help` lists.
bench_app.command("eedi")(eedi_cmd)
bench_app.command("latency")(latency_cmd)
bench_app.command("load")(load_cmd)
bench_app.command("diagnosis")(diagnosis_cmd)
bench_app.command("cross-encoder")(cross_encoder_cmd)
bench_app.command("refine")(refine_cmd)
bench_app.command("reader")(reader_cmd)
bench_app.command("routing")(routing_cmd)
bench_app.command("teaching")(teaching_cmd)
bench_app.command("linking")(linking_cmd)
bench_app.command("tutoring")(tutoring_cmd)
bench_app.command("dialogue")(dialogue_cmd)


def register(app: typer.Typer) -> None:
    """Add the `bench` group to the `tutorgraph` app (`cli.app`)."""
    app.add_typer(bench_app, name="bench")

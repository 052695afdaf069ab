"""`tutorgraph bench`: the benchmarks of design section 8."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from tutorgraph.cli._common import console, fail_on_errors, load_settings, progress_bars
from tutorgraph.eval.eedi import EediBenchmarkSpec, run_eedi_benchmark
from tutorgraph.retrieval.embedder import SentenceTransformerEmbedder

__all__ = ["register"]

bench_app = typer.Typer(help="Benchmarks (design section 8).", no_args_is_help=True)


@bench_app.command("eedi")
def eedi_cmd(
    train: Annotated[Path, typer.Option(help="Eedi train.csv (the development file).")],
    misconceptions: Annotated[Path, typer.Option(help="misconception_mapping.csv.")],
    out: Annotated[Path, typer.Option(help="Where to write results.json.")] = Path("results.json"),
    test: Annotated[
        Path | None, typer.Option(help="Held-out test file; without it, k-fold CV on --train.")
    ] = None,
    subjects: Annotated[
        Path | None,
        typer.Option(help="Eedi subject_metadata.csv (default: ../eedi-subjects/ beside it)."),
    ] = None,
    folds: Annotated[int, typer.Option(help="Folds: fold = int(QuestionId) % folds.")] = 5,
    configs: Annotated[str, typer.Option(help="Glob over config names.")] = "*",
    limit: Annotated[int | None, typer.Option(help="At most this many pairs (quick runs).")] = None,
) -> None:
    """Eedi misconception retrieval: MAP@25 and Recall@25 per configuration."""
    settings = load_settings()
    if subjects is None:
        guess = misconceptions.parent.parent / "eedi-subjects" / "subject_metadata.csv"
        subjects = guess if guess.is_file() else None
    spec = EediBenchmarkSpec(
        train=train,
        misconceptions=misconceptions,
        test=test,
        subjects=subjects,
        folds=folds,
        configs=configs,
        limit=limit,
    )
    embedder = SentenceTransformerEmbedder(
        settings.embedding_model, batch_size=settings.embed_batch_size
    )
    with fail_on_errors(), progress_bars() as bars:
        task = bars.add_task("eedi retrievals", total=None)
        results = asyncio.run(
            run_eedi_benchmark(
                spec,
                embedder,
                progress=lambda done, total: bars.update(task, completed=done, total=total),
            )
        )
    out.write_text(json.dumps(results, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    table = Table("config", "MAP@25", "Recall@25", "n", title=f"eedi -> {out}")
    for name, row in results.items():
        if not name.startswith("_"):
            table.add_row(name, f"{row['map@25']:.4f}", f"{row['recall@25']:.4f}", str(row["n"]))
    console.print(table)


def register(app: typer.Typer) -> None:
    app.add_typer(bench_app, name="bench")

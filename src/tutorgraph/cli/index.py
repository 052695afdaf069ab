"""`tutorgraph ingest`: a bundle into the local index, with progress bars."""

from __future__ import annotations

import asyncio
import resource
from pathlib import Path
from typing import Annotated

import typer
from rich.progress import TaskID

from tutorgraph.cli._common import (
    console,
    err_console,
    fail_on_errors,
    load_settings,
    progress_bars,
)
from tutorgraph.ingest.indexer import ingest_bundle
from tutorgraph.retrieval.embedder import SentenceTransformerEmbedder

__all__ = ["register"]


def ingest_cmd(
    bundle: Annotated[Path, typer.Argument(help="Bundle folder, e.g. data/curriculum.")],
    prune: Annotated[
        bool, typer.Option(help="Remove records that are no longer in the bundle.")
    ] = False,
    index_dir: Annotated[
        Path | None, typer.Option(help="Index folder (default: TUTORGRAPH_INDEX_DIR).")
    ] = None,
    default_profile: Annotated[
        str | None,
        typer.Option(help="The index's retrieval profile when a request names none."),
    ] = None,
    default_semantic_weight: Annotated[
        float | None,
        typer.Option(help="The index's semantic weight when a request names no profile."),
    ] = None,
) -> None:
    """Build or update the index (vectors, BM25, graph); unchanged records are not re-embedded."""
    settings = load_settings(index_dir)
    embedder = SentenceTransformerEmbedder(
        settings.embedding_model, batch_size=settings.embed_batch_size
    )
    with fail_on_errors(), progress_bars() as bars:
        tasks: dict[str, TaskID] = {}

        def on_progress(stage: str, done: int, total: int) -> None:
            if stage not in tasks:
                tasks[stage] = bars.add_task(stage, total=total)
            bars.update(tasks[stage], completed=done, total=total)

        report = asyncio.run(
            ingest_bundle(
                bundle,
                settings.index_dir,
                embedder,
                prune=prune,
                progress=on_progress,
                default_retrieval_profile=default_profile,
                default_semantic_weight=default_semantic_weight,
            )
        )
    for e in report.rejected[:50]:
        err_console.print(f"[red]rejected[/] {e}", highlight=False)
    peak_mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    console.print(
        f"ingested into {settings.index_dir}: {report.added:,} added, {report.updated:,} "
        f"updated, {report.unchanged:,} unchanged, {report.pruned:,} pruned, "
        f"{len(report.rejected):,} rejected; {report.counts.get('items', 0):,} items; "
        f"{report.seconds:.1f}s, peak RSS {peak_mib:,.0f} MiB",
        highlight=False,
    )
    if report.rejected:
        raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    app.command("ingest")(ingest_cmd)

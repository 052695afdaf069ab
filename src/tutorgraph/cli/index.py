"""`tutorgraph ingest` (a bundle into the index and, when configured, Neo4j and a Chroma
server), `tutorgraph doctor` (the index's integrity, and its repair) and
`tutorgraph graph-stats`."""

from __future__ import annotations

import asyncio
import json
import resource
from pathlib import Path
from typing import Annotated

import typer
from rich.progress import TaskID
from rich.table import Table

from tutorgraph.cli._common import (
    console,
    err_console,
    fail_on_errors,
    load_settings,
    progress_bars,
)
from tutorgraph.cli.options import BundleArgument, IndexDirEnvOption, IndexDirOption
from tutorgraph.errors import IndexNotFoundError
from tutorgraph.index.doctor import examine
from tutorgraph.index.doctor import repair as repair_index
from tutorgraph.index.layout import IndexLayout, load_catalogue
from tutorgraph.index.pipeline import REJECTS_LISTED, IngestOptions, IngestReport, ingest_bundle
from tutorgraph.index.service import graph_store, vector_store
from tutorgraph.retrieval.factory import make_embedder
from tutorgraph.stores.embedded_graph import EmbeddedGraphStore
from tutorgraph.stores.manifest import Manifest
from tutorgraph_client.models.request import RETRIEVAL_PROFILES

__all__ = ["register"]


def ingest_cmd(
    bundle: BundleArgument,
    prune: Annotated[
        bool,
        typer.Option(
            help="Remove records that are no longer in the bundle (the index then holds "
            "exactly the bundle). Without it the bundle is added: nothing is removed."
        ),
    ] = False,
    index_dir: IndexDirEnvOption = None,
    default_profile: Annotated[
        str | None,
        typer.Option(
            help="The index's retrieval profile when a request names none: "
            f"{', '.join(RETRIEVAL_PROFILES)}."
        ),
    ] = None,
    default_semantic_weight: Annotated[
        float | None,
        typer.Option(help="The index's semantic weight when a request names no profile."),
    ] = None,
    near_duplicate_threshold: Annotated[
        float | None,
        typer.Option(help="The index's near-duplicate merge cosine in [0.5, 1] (new: 0.85)."),
    ] = None,
) -> None:
    """Build or update the index (vectors, BM25, graph); unchanged records are not re-embedded.

    The bundle's records are added to what the index holds (a record with an id the index
    has replaces it; nothing is removed unless --prune), so an add-on bundle of your own
    lessons may reference the index's concepts (e.g. a prerequisite edge to
    ccss:7.EE.B.4.a); an id in neither is rejected.

    With `TUTORGRAPH_CHROMA_HOST` the vectors go to that Chroma server; with
    `TUTORGRAPH_NEO4J_URI` the whole catalogue is then merged into Neo4j in batches.
    """
    settings = load_settings(index_dir)
    embedder = make_embedder(settings)
    with fail_on_errors(), progress_bars() as bars:
        tasks: dict[str, TaskID] = {}

        def on_progress(stage: str, done: int, total: int) -> None:
            if stage not in tasks:
                tasks[stage] = bars.add_task(stage, total=total)
            bars.update(tasks[stage], completed=done, total=total)

        async def ingest() -> IngestReport:
            vector, graph = vector_store(settings), graph_store(settings)
            try:
                return await ingest_bundle(
                    bundle,
                    settings.index_dir,
                    embedder,
                    IngestOptions(
                        prune=prune,
                        progress=on_progress,
                        default_retrieval_profile=default_profile,
                        default_semantic_weight=default_semantic_weight,
                        near_duplicate_threshold=near_duplicate_threshold,
                        writer=f"tutorgraph ingest {bundle}",
                    ),
                    vector=vector,
                    graph=graph,
                )
            finally:
                for store in (vector, graph):
                    if store is not None:
                        await store.aclose()

        report = asyncio.run(ingest())
    for e in report.rejected[:REJECTS_LISTED]:
        err_console.print(f"[red]rejected[/] {e}", highlight=False)
    if len(report.rejected) > REJECTS_LISTED:
        err_console.print(
            f"and {len(report.rejected) - REJECTS_LISTED:,} more rejected "
            f"(`tutorgraph validate {bundle}` lists every one)",
            highlight=False,
        )
    peak_mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    console.print(
        f"ingested into {settings.index_dir} (generation {report.generation}): "
        f"{report.added:,} added, {report.updated:,} "
        f"updated, {report.unchanged:,} unchanged, {report.pruned:,} pruned, "
        f"{len(report.rejected):,} rejected; {report.counts.get('items', 0):,} items "
        f"({report.embedded:,} embedded, {report.reused:,} from stored vectors); "
        f"{report.seconds:.1f}s, peak RSS {peak_mib:,.0f} MiB",
        highlight=False,
    )
    if report.graph is not None:
        counts = ", ".join(f"{n:,} {kind}" for kind, n in report.graph.items())
        console.print(f"merged into Neo4j: {counts}", highlight=False)
    if report.rejected:
        raise typer.Exit(1)


def doctor_cmd(
    repair: Annotated[
        bool,
        typer.Option(help="Repair what can be repaired (takes the index's writer lock)."),
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the findings as JSON.")] = False,
    index_dir: IndexDirOption = None,
    bundle: Annotated[
        Path | None,
        typer.Option(
            help="With --repair: a bundle whose stored vectors (embeddings/) a rebuild takes "
            "before embedding anything."
        ),
    ] = None,
) -> None:
    """Check the index: every file against its manifest (sizes and sha256), counts, a
    self-query probe of the vectors (the vector store opened in a child process first).
    Exit 0 when it is intact, 1 when it is not, 2 when it cannot tell (a full disk). Notes
    (not damage) name what a stopped writer left, a PREVIOUS that names no older generation,
    and a generation written before its HNSW files had checksums.

    With `--repair`: what a stopped writer left is removed; a CURRENT or PREVIOUS that is a
    directory is moved aside; a missing or garbled CURRENT points at the newest intact
    generation; a damaged vector store, vector copy or lexical index is rebuilt from the
    catalogue (a new generation: the vector store from the index's vector copy, the copy
    from the vector store or --bundle, embedding only what none holds); a damaged catalogue
    falls back to the last good generation, or retires the damaged one so that the bundle
    can be ingested again; a garbled PREVIOUS names the newest intact generation before the
    live one again.
    """
    settings = load_settings(index_dir)
    actions: list[str] = []
    with fail_on_errors():
        if repair:
            outcome = asyncio.run(
                repair_index(settings.index_dir, make_embedder(settings), bundle=bundle)
            )
            found, actions = outcome.after, outcome.actions
        else:
            found = asyncio.run(examine(settings.index_dir, settings.embedding_model))
        if found.generation is None and not found.problems and not actions:
            raise IndexNotFoundError(settings.index_dir)
    if as_json:
        typer.echo(
            json.dumps(
                {
                    "ok": found.ok,
                    "generation": found.generation,
                    "generations": found.generations,
                    "counts": found.counts,
                    "problems": [
                        {"source": p.source, "message": p.message} for p in found.problems
                    ],
                    "notes": found.notes,
                    "repaired": actions,
                }
            )
        )
    else:
        for action in actions:
            console.print(f"repaired: {action}", highlight=False)
        where = f"generation {found.generation}" if found.generation else "no live generation"
        if found.generation is None and not found.problems:
            err_console.print(f"{settings.index_dir}: {where}", highlight=False)
        if found.ok:
            counts = ", ".join(f"{n:,} {k}" for k, n in sorted(found.counts.items()))
            console.print(f"{settings.index_dir}: intact ({where}; {counts})", highlight=False)
        for note in found.notes:
            console.print(f"note: {note}", highlight=False)
        for problem in found.problems:
            err_console.print(f"[bold red]damaged[/] {problem}", highlight=False)
    if not found.ok:
        raise typer.Exit(1)


def graph_stats_cmd(
    as_json: Annotated[bool, typer.Option("--json", help="Print the counts as JSON.")] = False,
    index_dir: IndexDirOption = None,
) -> None:
    """Node and edge counts of the graph: Neo4j when configured, else the embedded graph."""
    settings = load_settings(index_dir)

    async def stats() -> tuple[str, dict[str, dict[str, int]]]:
        graph = graph_store(settings)
        if graph is None:
            layout = IndexLayout.live(settings.index_dir)
            if Manifest.read(layout.root) is None:
                raise IndexNotFoundError(settings.index_dir)
            records = await asyncio.to_thread(load_catalogue, layout)
            return "embedded", await EmbeddedGraphStore(records).stats()
        try:
            info = await graph.verify()
            return f"{info['agent']} ({info['database']})", await graph.stats()
        finally:
            await graph.aclose()

    with fail_on_errors():
        where, counts = asyncio.run(stats())
    if as_json:
        typer.echo(json.dumps({"graph": where, **counts}))
        return
    table = Table("kind", "name", "count", title=f"graph: {where}")
    for kind, by_name in counts.items():
        for name, n in by_name.items():
            table.add_row(kind, name, f"{n:,}")
    console.print(table)


def register(app: typer.Typer) -> None:
    app.command("ingest")(ingest_cmd)
    app.command("doctor")(doctor_cmd)
    app.command("graph-stats")(graph_stats_cmd)

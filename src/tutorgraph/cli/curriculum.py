"""Commands that build and check curriculum bundles: build-curriculum, embed-bundle,
align-bundle, validate, schema."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from tutorgraph.cli._common import (
    console,
    err_console,
    fail_on_errors,
    load_settings,
    progress_bars,
)
from tutorgraph.cli.options import BundleArgument
from tutorgraph.errors import IndexNotFoundError
from tutorgraph.index.pipeline import STORED_VECTORS_DIR, align_bundle, embed_bundle
from tutorgraph.index.references import index_concept_ids
from tutorgraph.ingest.build import build_curriculum, notice_text
from tutorgraph.ingest.bundle import bundle_hash, bundle_json_schema, validate_bundle, write_bundle
from tutorgraph.ingest.teaching import TEACHING_DIR, judged_concepts
from tutorgraph.linking.alignment import METHODS, SHIPPED
from tutorgraph.retrieval.factory import make_embedder

__all__ = ["register"]

# The index's concepts a readable `validate --index-dir` names.
_IDS_SHOWN = 12


def build_curriculum_cmd(
    source: Annotated[Path, typer.Option(help="Folder with the source datasets.")] = Path(
        "../shared/data"
    ),
    out: Annotated[Path, typer.Option(help="Bundle folder to write.")] = Path("data/curriculum"),
    exclude_noncommercial: Annotated[
        bool, typer.Option(help="Leave out the Eedi (CC BY-NC) records.")
    ] = False,
    teaching: Annotated[
        bool,
        typer.Option(
            "--teaching/--no-teaching",
            help="Add the project's own lessons, misconceptions and judged alignment.",
        ),
    ] = True,
    teaching_dir: Annotated[
        Path, typer.Option(help="Folder of the project's teaching content.")
    ] = TEACHING_DIR,
) -> None:
    """Build the curriculum bundle (JSON Lines) from the real source datasets and the
    project's own teaching content."""
    load_settings()
    own = teaching_dir if teaching else None
    with fail_on_errors():
        started = time.perf_counter()
        with err_console.status("loading sources"):
            records = build_curriculum(
                source, exclude_noncommercial=exclude_noncommercial, teaching=own
            )
        counts = write_bundle(records, out)
        (out / "NOTICE").write_text(
            notice_text(exclude_noncommercial=exclude_noncommercial, teaching=own is not None),
            encoding="utf-8",
        )
    table = Table("file", "records", title=f"bundle {out}")
    for name, n in counts.items():
        table.add_row(name, f"{n:,}")
    console.print(table)
    console.print(
        f"sha256 {bundle_hash(out)} in {time.perf_counter() - started:.1f}s", highlight=False
    )


def embed_bundle_cmd(
    bundle: BundleArgument,
) -> None:
    """Store the bundle's vectors in BUNDLE/embeddings/ (float16, keyed by the embedder's
    fingerprint and each text's sha256), so that `ingest` embeds only texts not in it."""
    settings = load_settings()
    embedder = make_embedder(settings)
    with fail_on_errors(), progress_bars() as bars:
        task = bars.add_task("embed", total=None)

        def on_progress(_stage: str, done: int, total: int) -> None:
            bars.update(task, completed=done, total=total)

        started = time.perf_counter()
        count = asyncio.run(embed_bundle(bundle, embedder, on_progress))
    console.print(
        f"{count:,} vectors of {embedder.name} in {bundle / STORED_VECTORS_DIR} "
        f"in {time.perf_counter() - started:.1f}s",
        highlight=False,
    )


def align_bundle_cmd(
    bundle: BundleArgument,
    all_methods: Annotated[
        bool,
        typer.Option(
            help="Also keep edges only one method names (judged 10 of 20 right, against 21 "
            "of 30 for the edges both name)."
        ),
    ] = False,
    teaching_dir: Annotated[
        Path,
        typer.Option(
            help="The judged alignment's folder: a concept its judges read gets no similarity edge."
        ),
    ] = TEACHING_DIR,
) -> None:
    """Rebuild the bundle's similarity aligned_with edges (Common Core standard -> Eedi
    construct or OpenStax section) where item and card similarity agree, for the concepts
    the judged alignment did not read; run after embed-bundle."""
    settings = load_settings()
    embedder = make_embedder(settings)
    with fail_on_errors(), progress_bars() as bars:
        task = bars.add_task("align", total=None)

        def on_progress(_stage: str, done: int, total: int) -> None:
            bars.update(task, completed=done, total=total)

        started = time.perf_counter()
        methods = METHODS if all_methods else SHIPPED
        judged = judged_concepts(teaching_dir) if teaching_dir.is_dir() else set()
        counts = asyncio.run(
            align_bundle(bundle, embedder, on_progress, methods=methods, judged=judged)
        )
    table = Table("method", "edges", title=f"aligned_with edges in {bundle}")
    for method, n in sorted(counts.items()):
        table.add_row(method, f"{n:,}")
    console.print(table)
    console.print(
        f"sha256 {bundle_hash(bundle)} in {time.perf_counter() - started:.1f}s", highlight=False
    )


def validate_cmd(
    bundle: Annotated[Path, typer.Argument(help="Bundle folder.")],
    index_dir: Annotated[
        Path | None,
        typer.Option(
            help="An index the bundle is to go into: its records may then reference the "
            "concepts this index holds (an add-on bundle). Without it, the bundle's own."
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
) -> None:
    """Check every record of a bundle; list each bad one with file, line and reason.

    References (prerequisite edges, parent_ids, concept_ids) resolve against the bundle's
    own concepts, and with --index-dir against that index's concepts too, as `tutorgraph
    ingest` resolves them."""
    load_settings()
    with fail_on_errors():
        if index_dir is None:
            report = validate_bundle(bundle)
        else:
            index_ids = index_concept_ids(index_dir)
            if index_ids is None:
                raise IndexNotFoundError(index_dir)
            report = validate_bundle(bundle, index_ids)
    # Ids no record of the bundle defines may be concepts of the index it is meant for.
    hint = (
        "ids not in the bundle may be concepts of the index it goes into: check against it "
        "with --index-dir DIR"
        if index_dir is None and report.unknown_ids
        else None
    )
    if as_json:
        out: dict[str, object] = {
            "ok": report.ok,
            "valid": report.counts,
            "errors": [{"file": e.file, "line": e.line, "reason": e.reason} for e in report.errors],
        }
        if index_dir is not None:
            out["index_dir"] = str(index_dir)
            out["from_index"] = sorted(report.from_index)
        if hint is not None:
            out["hint"] = hint
        typer.echo(json.dumps(out, indent=2))
    else:
        for e in report.errors:
            console.print(f"[red]{e.file}:{e.line}[/]: {e.reason}", highlight=False)
        valid = ", ".join(f"{n:,} {k}" for k, n in report.counts.items())
        status = "[green]ok[/]" if report.ok else f"[red]{len(report.errors)} bad record(s)[/]"
        console.print(f"{status}; valid: {valid}", highlight=False)
        if index_dir is not None:
            ids = sorted(report.from_index)
            linked = ", ".join(ids[:_IDS_SHOWN]) or "none"
            if len(ids) > _IDS_SHOWN:
                linked += f" and {len(ids) - _IDS_SHOWN:,} more"
            console.print(
                f"concepts of the index {index_dir} referenced: {linked}", highlight=False
            )
        if hint is not None:
            err_console.print(f"[yellow]hint[/]: {hint}", highlight=False)
    if not report.ok:
        raise typer.Exit(1)


def schema_cmd() -> None:
    """Print the JSON Schema of the bundle files (exported from the pydantic models)."""
    typer.echo(json.dumps(bundle_json_schema(), indent=2))


def register(app: typer.Typer) -> None:
    app.command("build-curriculum")(build_curriculum_cmd)
    app.command("embed-bundle")(embed_bundle_cmd)
    app.command("align-bundle")(align_bundle_cmd)
    app.command("validate")(validate_cmd)
    app.command("schema")(schema_cmd)

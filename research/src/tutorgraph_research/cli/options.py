"""The options that several benchmark commands take, each declared once (the ones the
product's commands share too come from `tutorgraph.cli.plugin`)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

__all__ = [
    "BundleIndexDirOption",
    "FoldsOption",
    "JsonReportOption",
    "MisconceptionListOption",
]

JsonReportOption = Annotated[
    Path | None, typer.Option("--out", help="Also write the report as JSON.")
]
# The index of the bundle a benchmark reads its items from.
BundleIndexDirOption = Annotated[
    Path | None,
    typer.Option("--index-dir", help="Index folder (`tutorgraph ingest` of --curriculum)."),
]
MisconceptionListOption = Annotated[
    Path, typer.Option("--misconceptions", help="misconception_mapping.csv.")
]
FoldsOption = Annotated[int, typer.Option("--folds", help="Folds: fold = int(QuestionId) % folds.")]

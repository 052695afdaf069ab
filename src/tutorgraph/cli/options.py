"""The options that several commands take, each declared once: a command (or a plugin's:
`tutorgraph.cli.plugin`) names the type, and gets the flag, its help and its type.

A default stays in the command's signature, as typer reads it there:

>>> import typer
>>> from tutorgraph.cli.options import IndexDirOption
>>> def stats_cmd(index_dir: IndexDirOption = None) -> None:
...     '''Print the index folder.'''
...     typer.echo(index_dir)
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

__all__ = [
    "BaseModelOption",
    "BundleArgument",
    "ConceptOption",
    "ConversationOption",
    "EediSubjectsOption",
    "EediTrainOption",
    "GradeOption",
    "IndexDirEnvOption",
    "IndexDirOption",
    "LearningRateOption",
    "LocalContextOption",
    "MisconceptionsOption",
    "SeedOption",
    "StudentAnswerOption",
]

# -- the index and the bundle --

IndexDirOption = Annotated[Path | None, typer.Option("--index-dir", help="Index folder.")]
# The commands that write or serve the index say where its default comes from.
IndexDirEnvOption = Annotated[
    Path | None,
    typer.Option("--index-dir", help="Index folder (default: TUTORGRAPH_INDEX_DIR)."),
]
BundleArgument = Annotated[Path, typer.Argument(help="Bundle folder, e.g. data/curriculum.")]

# -- a request (`query`, `answer`) --

ConceptOption = Annotated[
    list[str] | None,
    typer.Option("--concept", "--concept-id", help="A concept the student is on (repeat)."),
]
StudentAnswerOption = Annotated[
    str | None, typer.Option("--student-answer", help="The student's answer.")
]
GradeOption = Annotated[
    str | None,
    typer.Option("--grade", help="The student's grade: K, 1-8 or HS (a prior, not a filter)."),
]
ConversationOption = Annotated[
    Path | None,
    typer.Option(
        "--conversation",
        help="A JSON list of the dialogue's turns before this one, oldest first "
        '([{"role": "tutor", "text": "What is 7 x 6?"}, ...]).',
    ),
]
LocalContextOption = Annotated[
    Path | None,
    typer.Option(
        "--local-context", help="A JSON list of your own documents ({id, text, title?, kind?})."
    ),
]

# -- Eedi's files, and training on them (`train-*`, `bench eedi`) --

EediTrainOption = Annotated[
    Path, typer.Option("--train", help="Eedi train.csv: the labelled questions.")
]
MisconceptionsOption = Annotated[
    Path | None,
    typer.Option("--misconceptions", help="misconception_mapping.csv (default: beside --train)."),
]
EediSubjectsOption = Annotated[
    Path | None,
    typer.Option(
        "--subjects", help="Eedi subject_metadata.csv (default: ../eedi-subjects/ beside it)."
    ),
]
BaseModelOption = Annotated[
    str,
    typer.Option("--base-model", help="Weights to start from (a local directory or a model name)."),
]
LearningRateOption = Annotated[float, typer.Option("--learning-rate", help="Peak AdamW rate.")]
SeedOption = Annotated[int, typer.Option("--seed", help="Seed for sampling and initialisation.")]

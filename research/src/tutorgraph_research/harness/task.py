"""The contract between a research benchmark task and the ablation runner.

A task scores items under many `RunConfig`s. It builds its per-fold stores once, runs every
configuration the runner has not already recorded over them, and hands each finished
(task, config, fold) unit to `record`, so that an interrupted run resumes at the next unit.

>>> "eedi-misconceptions" in TASK_NAMES
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from tutorgraph.embedding.embedder import Embedder
from tutorgraph_research.harness.configs import RunConfig
from tutorgraph_research.harness.results import ItemScore, UnitKey

__all__ = ["TASK_NAMES", "BenchmarkTask", "ProgressFn", "RecordFn", "SkipFn", "StatusFn"]

# In report order (research/docs/EVALUATION.md).
TASK_NAMES: tuple[str, ...] = (
    "eedi-misconceptions",
    "linking-eedi",
    "linking-openstax",
    "prerequisites",
    "mae",
)

# True: this (task, config, fold) unit is already recorded (a resumed run).
SkipFn = Callable[[UnitKey], bool]
# Called once per finished unit with its item scores.
RecordFn = Callable[[list[ItemScore]], None]
# (done, total) items across the run.
ProgressFn = Callable[[int, int], None]
# A line naming the long phase running (indexing, training).
StatusFn = Callable[[str], None]


class BenchmarkTask(Protocol):
    """One benchmark of the ablation (e.g. Eedi misconception retrieval).

    Rules: no test item, and no label of a test item, reaches an index or a model of its
    fold; nothing is tuned on test folds; a configuration that needs something this
    machine lacks (an OpenAI key, a model hub) is reported as "not measured: <reason>".
    """

    name: str
    metrics: tuple[str, ...]

    async def run(
        self,
        configs: Sequence[RunConfig],
        embedder: Embedder,
        *,
        skip: SkipFn,
        record: RecordFn,
        progress: ProgressFn | None = None,
        status: StatusFn | None = None,
    ) -> dict[str, str]:
        """Score every unit not skipped; returns config name -> "not measured: <reason>"."""
        ...

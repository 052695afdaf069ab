"""Research's own fixtures. The shared ones (the slice bundle, the session index, the models,
the CLI runners) come from `tests/fixtures.py`, which the root `conftest.py` loads for every
test tree; a fixture only research's tests use lives here, so the product's tests never
import the research package."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from tests.fixtures import EEDI_DIR, encoder_output


@pytest.fixture(scope="session")
def tuned_ranker_bench(  # type: ignore[no-untyped-def]
    tmp_path_factory: pytest.TempPathFactory, embedder
) -> tuple[Path, Path, dict[str, Any]]:
    """(fold encoders folder, rankings file, results) of `default/construct` over 2 folds of
    the Eedi slice, each fold's learned ranker (with tuned examples) served by the encoder
    that left that fold's questions out, its out-of-fold lists kept. Run once: the
    bench's own test (test_bench_eedi.py) and the second stage over its lists
    (test_second_stage.py) only read it."""
    # Imported here: a conftest that imports the benchmark would fail every research test
    # (the unit ones too) at collection when the benchmark does not import.
    from tutorgraph.training.ranker import RankerTrainingConfig
    from tutorgraph_research.tasks.eedi_bench import EediBenchmarkSpec, run_eedi_benchmark

    root = tmp_path_factory.mktemp("tuned-ranker-bench")
    folds = root / "folds"
    for k in range(2):
        encoder_output(folds / f"fold{k}", {"fold": k, "folds": 2})
    rankings = root / "rankings.jsonl"
    spec = EediBenchmarkSpec(
        train=EEDI_DIR / "train.csv",
        misconceptions=EEDI_DIR / "misconception_mapping.csv",
        subjects=EEDI_DIR / "subject_metadata.csv",
        folds=2,
        configs="default/construct",
        tuned_folds=folds,
        rankings=rankings,
        ranker_training=RankerTrainingConfig(tuned_examples=True),
    )
    results = asyncio.run(run_eedi_benchmark(spec, embedder))
    return folds, rankings, results

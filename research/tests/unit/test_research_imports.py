"""The benchmarks run on the embedded pipeline: importing the ablation and the Eedi benchmark
loads no server extra (`neo4j`, `openai`, `fastapi`, `uvicorn`)."""

from __future__ import annotations

import pytest
from tests.unit.test_cheap_imports import extras_loaded_by

pytestmark = pytest.mark.unit

BENCHMARKS = ("tutorgraph_research.ablation", "tutorgraph_research.tasks.eedi_bench")


def test_the_benchmarks_need_no_server_extra() -> None:
    assert extras_loaded_by(BENCHMARKS) == "[]"

"""The research package reaches the CLI through its `tutorgraph.cli` entry points: the
checkout's dev install (`scripts/setup.sh`) registers its `bench` and `ablate`."""

from __future__ import annotations

import pytest

from tutorgraph.cli.app import PLUGIN_GROUP, RESEARCH_COMMANDS, installed_plugins
from tutorgraph_research.cli import ablate, bench

pytestmark = pytest.mark.unit


def test_the_dev_install_registers_bench_and_ablate() -> None:
    plugins = installed_plugins()
    assert set(RESEARCH_COMMANDS) <= set(plugins), f"no {PLUGIN_GROUP} entry points: {plugins}"
    assert plugins["bench"] is bench.register
    assert plugins["ablate"] is ablate.register

"""The research commands (`bench`, `ablate`) come from the `tutorgraph.cli` entry points of
the tutorgraph-research package; without it they still exist and say where they live. That
the dev install registers the real ones is research's test (research/tests)."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from tutorgraph.cli.app import RESEARCH_COMMANDS, build_app

pytestmark = pytest.mark.unit


@pytest.mark.parametrize(
    "args", [["bench"], ["bench", "eedi", "--help"], ["bench", "--help"], ["ablate", "--quick"]]
)
def test_without_the_research_package_the_commands_exit_2_with_one_line(
    args: list[str],
) -> None:
    done = CliRunner().invoke(build_app({}), args)
    assert done.exit_code == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1
    assert f"tutorgraph {args[0]}:" in lines[0]
    assert "tutorgraph-research package" in lines[0]
    assert "pip install -e research/" in lines[0]
    assert "scripts/setup.sh" in lines[0]


def test_without_the_research_package_help_still_lists_the_commands() -> None:
    done = CliRunner().invoke(build_app({}), ["--help"])
    assert done.exit_code == 0
    for name in (*RESEARCH_COMMANDS, "query", "serve"):
        assert name in done.stdout


def test_a_plugin_registers_its_command() -> None:
    import typer

    def register(app: typer.Typer) -> None:
        @app.command("bench")
        def bench() -> None:
            typer.echo("plugin bench")

    done = CliRunner().invoke(build_app({"bench": register}), ["bench"])
    assert (done.exit_code, done.stdout.strip()) == (0, "plugin bench")
    # `ablate` has no plugin here: still the stand-in.
    assert CliRunner().invoke(build_app({"bench": register}), ["ablate"]).exit_code == 2

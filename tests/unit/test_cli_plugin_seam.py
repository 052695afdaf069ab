"""The CLI's public seam for plugins (`tutorgraph.cli.plugin`, `tutorgraph.cli.options`):
research's commands and scripts build on it alone, never on a private module of the CLI
(read as source here: the product's tests import nothing of research), its example works,
and a plugin's command gets the shared options as the built-in commands do."""

from __future__ import annotations

import ast
import doctest
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from tutorgraph.cli import options, plugin
from tutorgraph.cli.app import PLUGIN_GROUP, build_app

pytestmark = pytest.mark.unit

ROOT = Path(__file__).resolve().parents[2]
# Where code outside the CLI package lives that may build on the CLI.
OUTSIDE = ("research", "scripts", "clients")


def imported_modules(source: str) -> set[str]:
    """Every module a file imports, `from a import b` as both `a` and `a.b`."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.add(node.module)
            out.update(f"{node.module}.{alias.name}" for alias in node.names)
    return out


def private_cli_imports(path: Path) -> list[str]:
    return sorted(
        m
        for m in imported_modules(path.read_text(encoding="utf-8"))
        if m.startswith("tutorgraph.cli.") and m.split(".")[2].startswith("_")
    )


def test_nothing_outside_the_cli_imports_a_private_cli_module() -> None:
    found = {
        str(path.relative_to(ROOT)): bad
        for folder in OUTSIDE
        for path in sorted((ROOT / folder).rglob("*.py"))
        if not {"build", ".venv", "__pycache__"} & set(path.relative_to(ROOT).parts)
        and (bad := private_cli_imports(path))
    }
    assert found == {}


def test_the_scan_sees_a_private_import() -> None:
    assert imported_modules("from tutorgraph.cli._common import console") >= {
        "tutorgraph.cli._common"
    }
    assert "tutorgraph.cli._common" in imported_modules("from tutorgraph.cli import _common")
    assert "tutorgraph.cli._common" in imported_modules("import tutorgraph.cli._common as c")


def test_the_seam_exports_every_name_it_lists_and_every_shared_option() -> None:
    for name in plugin.__all__:
        assert getattr(plugin, name) is not None, name
    assert set(options.__all__) <= set(plugin.__all__)
    assert plugin.PLUGIN_GROUP == PLUGIN_GROUP == "tutorgraph.cli"


@pytest.mark.parametrize("module", [plugin, options])
def test_the_examples_run(module: object) -> None:
    assert doctest.testmod(module).failed == 0  # type: ignore[arg-type]


def test_a_plugin_command_takes_the_shared_options(tmp_path: Path) -> None:
    def hello_cmd(
        index_dir: plugin.IndexDirOption = None, grade: plugin.GradeOption = None
    ) -> None:
        settings = plugin.load_settings(index_dir)
        typer.echo(f"{settings.index_dir} {grade}")

    def register(app: typer.Typer) -> None:
        app.command("hello")(hello_cmd)

    app = build_app({"hello": register})
    done = CliRunner().invoke(app, ["hello", "--index-dir", str(tmp_path), "--grade", "5"])
    assert (done.exit_code, done.stdout.strip()) == (0, f"{tmp_path} 5")
    shown = CliRunner().invoke(app, ["hello", "--help"], env={"COLUMNS": "200"}).stdout
    assert "Index folder." in shown and "a prior, not a filter" in shown

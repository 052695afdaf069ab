"""docs/own-content.md, run: an add-on bundle that links to a shipped standard ingests into
an index of the shipped curriculum and shows up in that standard's chain.

The commands are the tutorial's own, read from its ```bash blocks and run in order through
the real CLI, two at a time where neither needs the other's result (the index folder
`.tutorgraph` is the test's, the bundle path absolute); its ```python block runs as a script
over the same index, and three of its printed outputs (both `validate`s, the chains) are
compared with what the commands print. One command is not run: the tutorial's
`tutorgraph ingest data/curriculum` (about 50 s here). The index it builds is stood in for by
one built from a real subset of the shipped bundle, in process and from the bundle's stored
vectors (about 4 s): the Common Core standards, clusters and groupings (`ccss:`, `lc:`) with
the progressions between them, and every OpenStax explanation and worked example whose title
mentions equations (1,149 of the 4,727 lessons, the ones the add-on's lessons compete with),
with their sections and the edges among all of these. It holds no exercises, so no exercise
votes for a shipped lesson's subsection: the tutorial's queries put the add-on's lessons
first over the full bundled index too (its printed outputs are from that index).
"""

from __future__ import annotations

import asyncio
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from tests.conftest import cli_command, cli_env

from tutorgraph.index.layout import IndexLayout, load_catalogue
from tutorgraph.index.pipeline import ingest_bundle
from tutorgraph.ingest.bundle import load_trusted, validate_bundle, write_bundle
from tutorgraph.models.records import SourceRecords
from tutorgraph.stores.manifest import Manifest

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]
TUTORIAL = ROOT / "docs" / "own-content.md"
ADDON_PATH = "docs/examples/own-content"
ADDON = ROOT / ADDON_PATH
CURRICULUM = ROOT / "data" / "curriculum"
BASE_INGEST = ["ingest", "data/curriculum"]
STANDARD = "ccss:7.EE.B.4.a"
OWN_CONCEPT = "myclass:two-step-equations"
_ANSI_RE = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def _blocks(markdown: str, language: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```$", markdown, flags=re.MULTILINE | re.DOTALL)


def tutorial_commands(markdown: str) -> list[list[str]]:
    """The `tutorgraph` commands of the tutorial's bash blocks, in order, as argument lists
    (without the program name)."""
    commands = []
    for block in _blocks(markdown, "bash"):
        for line in block.replace("\\\n", " ").splitlines():
            words = shlex.split(line, comments=True)
            if words:
                assert words[0] == "tutorgraph", f"not a tutorgraph command: {line}"
                commands.append(words[1:])
    return commands


def _subset_of_shipped_bundle() -> SourceRecords:
    """The real subset of data/curriculum the module docstring describes."""
    full = load_trusted(CURRICULUM)
    lessons = [
        d
        for d in full.documents
        if d.kind in ("explanation", "worked_example") and "equation" in d.title.lower()
    ]
    by_id = {c.id: c for c in full.concepts}
    keep = {c.id for c in full.concepts if c.id.startswith(("ccss:", "lc:"))}
    keep |= {cid for d in lessons for cid in d.concept_ids}
    todo = list(keep)
    while todo:  # and every parent, so that the subset is a valid bundle
        for parent in by_id[todo.pop()].parent_ids:
            if parent not in keep:
                keep.add(parent)
                todo.append(parent)
    return SourceRecords(
        concepts=[by_id[i] for i in sorted(keep)],
        prerequisites=[
            p for p in full.prerequisites if p.prerequisite_id in keep and p.concept_id in keep
        ],
        documents=lessons,
    )


@pytest.fixture(scope="module")
def base_index(tmp_path_factory: pytest.TempPathFactory, embedder: Any) -> Path:
    """The stand-in for `tutorgraph ingest data/curriculum` (see the module docstring)."""
    bundle = tmp_path_factory.mktemp("shipped-subset")
    write_bundle(_subset_of_shipped_bundle(), bundle)
    assert validate_bundle(bundle).ok
    (bundle / "embeddings").symlink_to(CURRICULUM / "embeddings")  # nothing is embedded
    index = tmp_path_factory.mktemp("tutorial-index")
    report = asyncio.run(ingest_bundle(bundle, index, embedder))
    assert not report.rejected and report.embedded == 0
    return index


def _start(args: list[str], index: Path, cwd: Path) -> subprocess.Popen[str]:
    """A tutorial command as its reader runs it (`tutorgraph ...`, or `python` and a script),
    on the test's index and the bundle's absolute path; started, not waited for."""
    swap = {".tutorgraph": str(index), ADDON_PATH: str(ADDON)}
    program = [sys.executable] if args[0].endswith(".py") else cli_command()
    return subprocess.Popen(
        [*program, *(swap.get(a, a) for a in args)],
        cwd=cwd,
        env=cli_env(TUTORGRAPH_INDEX_DIR=str(index)),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _run_together(
    commands: list[list[str]], index: Path, cwd: Path
) -> list[subprocess.CompletedProcess[str]]:
    """Commands that do not depend on each other, run at once (the test's time is mostly
    each process loading its models)."""
    started = [(args, _start(args, index, cwd)) for args in commands]
    done = []
    for args, proc in started:
        out, err = proc.communicate(timeout=300)
        done.append(subprocess.CompletedProcess(args, proc.returncode, out, err))
    return done


def _plain(text: str) -> str:
    return _ANSI_RE.sub("", text)


def _lessons_panel(out: str) -> str:
    """The packet's lessons as `tutorgraph query` prints them (its teach slot panel)."""
    match = re.search(r"lessons \(the teach slot\)(.*?)╰", _plain(out), flags=re.DOTALL)
    assert match is not None, out
    return match.group(1)


def test_the_tutorial_adds_its_bundle_to_the_index_and_the_standard_s_chain(
    base_index: Path, tmp_path: Path
) -> None:
    text = TUTORIAL.read_text(encoding="utf-8")
    commands = tutorial_commands(text)
    assert commands[0] == BASE_INGEST, "the tutorial starts from the bundled index"
    assert [c[0] for c in commands[1:]] == ["validate", "validate", "ingest", "query", "query"]
    assert commands[1] == ["validate", ADDON_PATH]
    assert commands[2] == ["validate", ADDON_PATH, "--index-dir", ".tutorgraph"]
    assert commands[3] == ["ingest", ADDON_PATH]
    before = load_catalogue(IndexLayout.live(base_index))
    before_manifest = Manifest.read(IndexLayout.live(base_index).root)
    assert before_manifest is not None

    (script,) = _blocks(text, "python")
    (tmp_path / "chain.py").write_text(script, encoding="utf-8")
    alone, against = _run_together(commands[1:3], base_index, tmp_path)
    (ingest,) = _run_together(commands[3:4], base_index, tmp_path)
    query_lesson, query_example = _run_together(commands[4:6], base_index, tmp_path)
    (chain,) = _run_together([["chain.py"]], base_index, tmp_path)

    # validate: alone, the shipped ids are unknown (exit 1, with the hint); against the index
    # they resolve, and the output is the tutorial's (the index path aside).
    assert alone.returncode == 1, alone.stderr
    assert _plain(alone.stdout + alone.stderr) == _blocks(text, "text")[0]  # hint: stderr
    assert against.returncode == 0, against.stdout + against.stderr
    shown = _blocks(text, "text")[1].replace(".tutorgraph", str(base_index))
    assert _plain(against.stdout) == shown

    # ingest: added, nothing removed or rejected.
    assert ingest.returncode == 0, ingest.stdout + ingest.stderr
    assert "4 added, 0 updated" in ingest.stdout and "0 pruned, 0 rejected" in ingest.stdout
    after = load_catalogue(IndexLayout.live(base_index))
    for kind in ("concepts", "prerequisites", "misconceptions", "documents"):
        shipped = set(map(repr, getattr(before, kind)))
        assert shipped <= set(map(repr, getattr(after, kind))), f"a shipped {kind} record went"
    addon = validate_bundle(ADDON, {c.id for c in before.concepts}).counts
    manifest = Manifest.read(IndexLayout.live(base_index).root)
    assert manifest is not None
    assert manifest.counts == {
        "concepts": before_manifest.counts["concepts"] + addon["concepts"],
        "prerequisites": before_manifest.counts["prerequisites"] + addon["prerequisites"],
        "misconceptions": before_manifest.counts["misconceptions"] + addon["misconceptions"],
        "documents": before_manifest.counts["documents"] + addon["documents"],
        "items": before_manifest.counts["items"] + 4,
    }

    # query: each lesson comes back first for its question; the standard's chain holds the
    # new concept.
    assert query_lesson.returncode == 0, query_lesson.stderr
    first = _lessons_panel(query_lesson.stdout).splitlines()[1]
    assert "1. explanation Two-step equations — Undo the steps in reverse order" in first
    assert f"builds on (1 back): {OWN_CONCEPT}" in _plain(query_lesson.stdout)
    assert query_example.returncode == 0, query_example.stderr
    first = _lessons_panel(query_example.stdout).splitlines()[1]
    assert "1. worked_example Two-step equations — A word problem: the gym" in first

    # The Python block: the chains through the new concept, as the tutorial prints them.
    assert chain.returncode == 0, chain.stderr
    assert chain.stdout == _blocks(text, "text")[-1]
    assert f"ccss:6.EE.B.7 -> {OWN_CONCEPT} -> {STANDARD}" in chain.stdout

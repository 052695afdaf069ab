"""Stages declare the `RequestState` fields they read and write; the retriever refuses an
order in which a stage reads a field no earlier stage writes, the declarations say what the
code does, and DESIGN section 2's table is rendered from them."""

from __future__ import annotations

import ast
import inspect
import sys
from dataclasses import fields
from pathlib import Path
from typing import Any, cast

import pytest

from tutorgraph.errors import ConfigurationError
from tutorgraph.retrieval import stages as stages_package
from tutorgraph.retrieval.pipeline import Stage, check_stage_order
from tutorgraph.retrieval.retriever import HybridRetriever
from tutorgraph.retrieval.stage_table import (
    REGENERATE,
    STAGE_TABLE_END,
    STAGE_TABLE_START,
    stage_table,
    with_stage_table,
)
from tutorgraph.retrieval.stages import STAGES, DedupeStage, RankStage
from tutorgraph.retrieval.state import INITIAL, RequestState
from tutorgraph_client.models.packet import TIMING_KEYS

pytestmark = pytest.mark.unit

DESIGN = Path(__file__).resolve().parents[2] / "docs" / "DESIGN.md"
# `RequestState` methods and pipeline helpers a stage reaches fields through: (reads, writes).
VIA: dict[str, tuple[set[str], set[str]]] = {
    "query_embedding": ({"query_vector"}, set()),
    "await_linking": ({"linking"}, set()),
}


def _retriever() -> HybridRetriever:
    # Building the stages touches no store or model.
    nothing = cast(Any, None)
    return HybridRetriever(nothing, nothing, nothing, nothing)


def test_the_pipeline_order_passes_and_is_the_one_the_retriever_runs() -> None:
    check_stage_order(STAGES)
    assert [type(s) for s in _retriever().stages] == list(STAGES)
    assert [s.name for s in STAGES] == [
        "check", "refine", "facts", "route", "link", "search", "merge", "fuse", "dedupe",
        "rerank", "rank", "diagnose", "lessons", "scope", "finish",
    ]  # fmt: skip
    # The package's docstring lists the same order.
    assert ", ".join(s.name for s in STAGES) in " ".join((stages_package.__doc__ or "").split())


def test_a_stage_reading_a_field_no_earlier_stage_writes_fails_the_build(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The learned ranker before the hits exist: the retriever is never built.
    order = list(STAGES)
    order.remove(RankStage)
    order.insert(order.index(DedupeStage), RankStage)
    monkeypatch.setattr(stages_package, "STAGES", tuple(order))
    with pytest.raises(ConfigurationError, match=r"the rank stage reads hits, which no earlier"):
        _retriever()


class _ReadsTooEarly(Stage):
    name = "early"
    reads = frozenset({"fused", "request"})
    writes = frozenset({"hits"})

    async def run(self, state: RequestState) -> bool:
        return True


class _Misspelt(_ReadsTooEarly):
    name = "misspelt"
    reads = frozenset({"hit"})


class _Undeclared(Stage):
    name = "undeclared"

    async def run(self, state: RequestState) -> bool:
        return True


def test_the_check_names_the_stage_the_field_and_the_order() -> None:
    with pytest.raises(ConfigurationError) as caught:
        check_stage_order([*STAGES[:3], _ReadsTooEarly, *STAGES[3:]])
    assert caught.value.message == (
        "the early stage reads fused, which no earlier stage writes "
        "(stages in order: check, refine, facts, early)"
    )
    with pytest.raises(ConfigurationError, match="declares hit, which RequestState does not"):
        check_stage_order([_Misspelt])
    with pytest.raises(ConfigurationError, match="the undeclared stage declares no `reads`"):
        check_stage_order([_Undeclared])
    with pytest.raises(ConfigurationError, match="two stages are named 'check'"):
        check_stage_order([STAGES[0], STAGES[0]])


def test_every_field_is_initial_or_written_and_five_stages_write_the_hits() -> None:
    written = set().union(*(s.writes for s in STAGES))
    assert {f.name for f in fields(RequestState)} == INITIAL | written
    assert [s.name for s in STAGES if "hits" in s.writes] == [
        "dedupe",
        "rerank",
        "rank",
        "diagnose",
        "finish",
    ]


def _accesses(stage: type[Stage]) -> tuple[set[str], set[str]]:
    """The fields the stage's module reads and writes through `state` (its one stage's), and
    through the retrieval functions it hands `state` to (`scope_signals`)."""
    module = sys.modules[stage.__module__]
    reads, writes = _walk(ast.parse(inspect.getsource(module)), module.__dict__)
    return reads - INITIAL, writes - INITIAL


def _walk(tree: ast.AST, names: dict[str, Any]) -> tuple[set[str], set[str]]:
    reads: set[str] = set()
    writes: set[str] = set()
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and any(isinstance(a, ast.Name) and a.id == "state" for a in node.args)
        ):
            if node.func.id in VIA:
                reads |= VIA[node.func.id][0]
                writes |= VIA[node.func.id][1]
            elif inspect.isfunction(called := names.get(node.func.id)) and (
                called.__module__.startswith("tutorgraph.retrieval.")
            ):
                # A retrieval function the stage hands its state to reads it for the stage.
                more = _walk(ast.parse(inspect.getsource(called)), vars(inspect.getmodule(called)))
                reads, writes = reads | more[0], writes | more[1]
        if not (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id == "state"
        ):
            continue
        if node.attr in VIA:
            reads |= VIA[node.attr][0]
            writes |= VIA[node.attr][1]
        elif isinstance(node.ctx, ast.Store):
            writes.add(node.attr)
        else:
            reads.add(node.attr)
    return reads, writes


@pytest.mark.parametrize("stage", STAGES, ids=lambda s: s.name)
def test_a_stage_declares_what_its_code_reads_and_writes(stage: type[Stage]) -> None:
    reads, writes = _accesses(stage)
    assert writes == stage.writes
    # What it reads is what an earlier stage left, or its own writing.
    assert reads <= stage.reads | stage.writes
    assert stage.reads <= reads


def test_design_section_2_holds_the_stage_table() -> None:
    text = DESIGN.read_text(encoding="utf-8")
    lines = text.splitlines()
    assert STAGE_TABLE_START in lines and STAGE_TABLE_END in lines, (
        f"docs/DESIGN.md has no {STAGE_TABLE_START} ... {STAGE_TABLE_END} lines in section 2; "
        f"add them, then run `{REGENERATE}`"
    )
    block = "".join(
        f"{line}\n"
        for line in lines[lines.index(STAGE_TABLE_START) + 1 : lines.index(STAGE_TABLE_END)]
    )
    assert block == stage_table(), (
        f"docs/DESIGN.md's stage table is not the stages' declarations; run `{REGENERATE}`"
    )
    assert with_stage_table(text) == text


def test_the_table_goes_between_the_markers_and_only_there() -> None:
    doc = f"intro\n{STAGE_TABLE_START}\nold\n{STAGE_TABLE_END}\nrest\n"
    new = with_stage_table(doc)
    assert new == f"intro\n{STAGE_TABLE_START}\n{stage_table()}{STAGE_TABLE_END}\nrest\n"
    assert with_stage_table(new) == new
    assert "| rank | no | `rank` | `facts`, `hits`, `ranker_vector`, `route`, `scoring` |" in new
    with pytest.raises(ValueError, match="no <!-- stage-table:start -->"):
        with_stage_table("no markers\n")


class _TimedWrongly(RankStage):
    name = "timed"
    timing = "ranking"


def test_a_stage_that_reports_under_no_timing_key_is_refused() -> None:
    with pytest.raises(ConfigurationError, match="reports its time under 'ranking'"):
        check_stage_order([*STAGES[:11], _TimedWrongly])
    assert {s.timing for s in STAGES} - {None} <= set(TIMING_KEYS)

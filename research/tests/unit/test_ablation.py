"""The ablation runner with a fake task: resume, not-measured rows, atomic output, settings."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, cast

import pytest

from tutorgraph.embedding.embedder import Embedder
from tutorgraph.errors import ConfigurationError
from tutorgraph_research import ablation
from tutorgraph_research.ablation import (
    AblationSpec,
    build_task,
    read_items,
    run_ablations,
    select_configs,
)
from tutorgraph_research.harness.configs import RunConfig
from tutorgraph_research.harness.results import ItemScore, UnitKey
from tutorgraph_research.harness.task import TASK_NAMES, BenchmarkTask

pytestmark = pytest.mark.unit

DATA = Path(__file__).resolve().parents[3] / "tests" / "data"


class Interrupted(Exception):
    """Stands for a kill between two units."""


class FakeTask:
    """Two folds of three items; "reranker=msmarco" cannot run; scores depend on the config."""

    name = "fake"
    metrics = ("hit@1",)

    def __init__(self, *, fail_after: int | None = None) -> None:
        self.ran: list[UnitKey] = []
        self.fail_after = fail_after

    async def run(
        self,
        configs: Sequence[RunConfig],
        embedder: Any,
        *,
        skip: Callable[[UnitKey], bool],
        record: Callable[[list[ItemScore]], None],
        progress: Callable[[int, int], None] | None = None,
        status: Callable[[str], None] | None = None,
    ) -> dict[str, str]:
        not_measured = {}
        for cfg in configs:
            if cfg.reranker == "msmarco":
                not_measured[cfg.name] = "not measured: no model hub here"
        for fold in (0, 1):
            for cfg in configs:
                unit = (self.name, cfg.name, fold)
                if cfg.name in not_measured or skip(unit):
                    continue
                if self.fail_after is not None and len(self.ran) == self.fail_after:
                    raise Interrupted
                self.ran.append(unit)
                value = 1.0 if cfg.name == "default" else 0.0
                record(
                    [
                        ItemScore(self.name, cfg.name, fold, f"{fold}-{i}", qt, {"hit@1": value})
                        for i, qt in enumerate(
                            ("concept_lookup", "misconception", "concept_lookup")
                        )
                    ]
                )
                if progress:
                    progress(len(self.ran), 2 * len(configs))
        return not_measured


def spec(tmp_path: Path, **kw: Any) -> AblationSpec:
    base: dict[str, Any] = {
        "data": DATA,
        "out": tmp_path / "ablations.jsonl",
        "work": tmp_path / "work",
        "configs": "default,fusion=weighted,reranker=msmarco",
        "resamples": 200,
    }
    return AblationSpec(**{**base, **kw})


async def run(s: AblationSpec, task: FakeTask, **kw: Any) -> list[dict[str, Any]]:
    """The runner with the fake task; the embedder is never used by it."""
    return await run_ablations(s, cast(Embedder, None), tasks=[task], **kw)


def rows_of(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


async def test_rows_carry_the_protocol_fields_and_not_measured_rows(tmp_path: Path) -> None:
    s = spec(tmp_path)
    task = FakeTask()
    progress: list[tuple[str, int, int]] = []
    rows = await run(s, task, progress=lambda *a: progress.append(a))
    assert rows == rows_of(s.out)
    assert progress[-1] == ("fake", 4, 6)
    ok = [r for r in rows if r["status"] == "ok"]
    for r in ok:
        for key in ("task", "config", "factor", "metric", "value", "fold", "seed", "n"):
            assert key in r
        assert r["git_commit"] is None or len(r["git_commit"]) == 40
        assert r["hardware"]["cores"] >= 1 and "torch" in r["hardware"]
        assert r["config_detail"]["sources"] == ["vector", "lexical", "graph"]
        assert r["ci95"][0] <= r["value"] <= r["ci95"][1]
        assert r["quick"] is False
    best = {(r["fold"], r["query_type"]): r for r in ok if r["config"] == "default"}
    assert best[("all", "all")]["n"] == 6 and best[("all", "all")]["value"] == 1.0
    assert best[(0, "all")]["n"] == 3
    assert best[("all", "misconception")]["n"] == 2
    assert {r["factor"] for r in ok if r["config"] == "fusion=weighted"} == {"fusion"}
    # Each overall row of a change carries its paired difference from the reference.
    (rrf,) = [
        r
        for r in ok
        if r["config"] == "fusion=weighted" and (r["fold"], r["query_type"]) == ("all", "all")
    ]
    assert rrf["paired"]["versus"] == "default" and rrf["paired"]["diff"] == -1.0
    assert rrf["paired"]["n"] == 6 and rrf["paired"]["ci95"] == [-1.0, -1.0]
    assert "paired" not in best[("all", "all")]
    (missing,) = [r for r in rows if r["status"] != "ok"]
    assert missing["config"] == "reranker=msmarco" and missing["factor"] == "reranker"
    assert missing["status"] == "not measured: no model hub here"
    assert missing["value"] is None and missing["n"] == 0
    # Grid order: default, then the fusion change, then the reranker change.
    assert rows[0]["config"] == "default"
    assert rows[-1]["config"] == "reranker=msmarco"


async def test_resume_skips_recorded_units(tmp_path: Path) -> None:
    s = spec(tmp_path)
    first = FakeTask(fail_after=3)
    with pytest.raises(Interrupted):
        await run(s, first)
    assert len(read_items(s.items_path)) == 9  # three units of three items
    again = FakeTask()
    rows = await run(s, again)
    assert first.ran[:3] == [
        ("fake", "default", 0),
        ("fake", "fusion=weighted", 0),
        ("fake", "default", 1),
    ]
    assert again.ran == [("fake", "fusion=weighted", 1)]
    assert len(read_items(s.items_path)) == 12
    # A finished run resumed does nothing and writes the same rows.
    before = s.items_path.read_bytes()
    third = FakeTask()
    assert await run(s, third) == rows
    assert third.ran == [] and s.items_path.read_bytes() == before


async def test_a_unit_cut_short_by_a_kill_is_redone_not_half_counted(tmp_path: Path) -> None:
    s = spec(tmp_path, configs="default")
    await run(s, FakeTask())
    lines = s.items_path.read_text().splitlines(keepends=True)
    # Fold 1's unit: three item rows then its marker. Keep one item row and half of another.
    assert '"unit"' in lines[-1]
    s.items_path.write_text("".join(lines[:-3]) + lines[-3][:20])
    assert len(read_items(s.items_path)) == 3
    task = FakeTask()
    await run(s, task)
    assert task.ran == [("fake", "default", 1)]
    items = read_items(s.items_path)
    assert sorted(i.item for i in items) == ["0-0", "0-1", "0-2", "1-0", "1-1", "1-2"]
    assert all(json.loads(line) for line in s.items_path.read_text().splitlines())


async def test_quick_and_full_runs_do_not_mix(tmp_path: Path) -> None:
    await run(spec(tmp_path, quick=True), FakeTask())
    with pytest.raises(ConfigurationError, match="rather than mix"):
        await run(spec(tmp_path), FakeTask())
    with pytest.raises(ConfigurationError, match="rather than mix"):
        other = spec(tmp_path, quick=True, data=tmp_path)
        await run(other, FakeTask())
    # The seed only changes the intervals: a resume with another seed is fine.
    rows = await run(spec(tmp_path, quick=True, seed=7), FakeTask())
    assert {r["seed"] for r in rows} == {7} and all(r["quick"] for r in rows)


async def test_a_changed_configuration_is_refused(tmp_path: Path) -> None:
    s = spec(tmp_path, configs="default")
    await run(s, FakeTask())
    text = s.items_path.read_text().replace('"profile": null', '"profile": "balanced"')
    s.items_path.write_text(text)
    with pytest.raises(ConfigurationError, match="'default' was recorded as"):
        await run(s, FakeTask())


async def test_output_is_replaced_atomically(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    s = spec(tmp_path, configs="default")
    await run(s, FakeTask())
    good = s.out.read_bytes()

    def broken(*_a: Any, **_k: Any) -> list[dict[str, Any]]:
        return [{"task": "fake", "bad": object()}]  # json.dumps fails half-way through

    monkeypatch.setattr(ablation, "_summary", broken)
    with pytest.raises(TypeError):
        await run(spec(tmp_path, configs="default,fusion=weighted"), FakeTask())
    assert s.out.read_bytes() == good  # the old summary, whole
    assert sorted(os.listdir(tmp_path)) == [
        "ablations.items.jsonl",
        "ablations.jsonl",
    ]


def test_select_configs_globs_and_errors() -> None:
    assert [c.name for c in select_configs("sources=no-*")] == [
        "sources=no-vector",
        "sources=no-lexical",
        "sources=no-graph",
    ]
    assert len(select_configs()) == 25
    assert [c.name for c in select_configs("hops=*")] == ["hops=0", "hops=1", "hops=2"]
    with pytest.raises(ConfigurationError, match="matches none of default"):
        select_configs("nothing")


def test_build_task_names_what_is_missing(tmp_path: Path) -> None:
    with pytest.raises(ConfigurationError, match=r"eedi-misconceptions needs .*train.csv"):
        build_task("eedi-misconceptions", tmp_path)
    with pytest.raises(ConfigurationError, match="unknown task"):
        build_task("nope", tmp_path)
    task: BenchmarkTask = build_task("eedi-misconceptions", DATA, quick=True)
    assert task.name == "eedi-misconceptions" and task.name in TASK_NAMES
    assert task.metrics == ("map@25", "recall@25")


def test_eedi_folds_keep_test_questions_out_and_quick_is_a_stable_sample() -> None:
    from tutorgraph_research.tasks.eedi import QUICK_FOLDS, EediMisconceptionTask, pair_query_type

    eedi = DATA / "eedi"
    task = EediMisconceptionTask(eedi / "train.csv", eedi / "misconception_mapping.csv")
    folds = task.fold_plan()
    assert [f.key for f in folds] == [0, 1, 2, 3, 4]
    for f in folds:
        assert all(q.question_id % 5 != f.key for q in f.train)
        assert all(p.question.question_id % 5 == f.key for p in f.pairs)
        assert not {q.question_id for q in f.train} & {p.question.question_id for p in f.pairs}
    ids = sorted(p.item_id for f in folds for p in f.pairs)
    assert len(ids) == len(set(ids)) == 92 and ids[0].count(":") == 1
    quick = EediMisconceptionTask(
        eedi / "train.csv", eedi / "misconception_mapping.csv", quick=True
    ).fold_plan()
    assert [f.key for f in quick] == list(range(QUICK_FOLDS))
    assert [p.item_id for p in quick[0].pairs] == [
        p.item_id
        for p in EediMisconceptionTask(eedi / "train.csv", eedi / "x", quick=True)
        .fold_plan()[0]
        .pairs
    ]
    assert {p.item_id for p in quick[0].pairs} <= {p.item_id for p in folds[0].pairs}
    # The retriever routes the request by its text (no student_answer field is sent).
    assert {pair_query_type(p) for f in folds for p in f.pairs} <= {
        "concept_lookup",
        "misconception",
        "prerequisite",
        "similar_problems",
    }

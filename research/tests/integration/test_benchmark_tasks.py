"""The non-Eedi benchmark tasks end to end on the committed slices: real ChromaDB, real
MiniLM, two configurations each; sane scores and the runner's skip/record contract."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from tests.integration.local_openai import local_openai_server

from tutorgraph.index.local import LocalIndex
from tutorgraph_research.harness.configs import ablation_grid
from tutorgraph_research.harness.folds import stable_fold
from tutorgraph_research.harness.results import ItemScore, UnitKey
from tutorgraph_research.tasks.linking import EediLinkingTask, OpenStaxLinkingTask
from tutorgraph_research.tasks.mae import MaeTask
from tutorgraph_research.tasks.prerequisites import PrerequisiteTask

pytestmark = pytest.mark.integration

REPO = Path(__file__).resolve().parents[3]
DATA = REPO / "tests" / "data"
EEDI = DATA / "eedi"
SHARED = REPO.parent / "shared" / "data"
QUERY_TYPES = {"concept_lookup", "prerequisite", "misconception", "similar_problems"}
GRID = {c.name: c for c in ablation_grid()}
TWO = [GRID["default"], GRID["sources=vector-only"]]


class Recorder:
    """The runner's side of the contract: what was recorded, unit by unit."""

    def __init__(self, done: set[UnitKey] = frozenset()) -> None:  # type: ignore[assignment]
        self.done = set(done)
        self.units: list[list[ItemScore]] = []
        self.lines: list[str] = []
        self.ticks: list[tuple[int, int]] = []

    def skip(self, key: UnitKey) -> bool:
        return key in self.done

    def record(self, items: list[ItemScore]) -> None:
        self.units.append(items)

    def kwargs(self) -> dict[str, Any]:
        return {
            "skip": self.skip,
            "record": self.record,
            "progress": lambda d, t: self.ticks.append((d, t)),
            "status": self.lines.append,
        }


def check_units(rec: Recorder, task: Any, n_items: dict[int, int]) -> None:
    """One unit per (config, fold) not skipped, every item scored once, values in [0, 1]."""
    seen = set()
    for unit in rec.units:
        keys = {it.unit for it in unit}
        assert len(keys) == 1, keys
        (key,) = keys
        assert key not in seen and key not in rec.done
        seen.add(key)
        assert key[0] == task.name
        assert len(unit) == n_items[key[2]]
        assert len({it.item for it in unit}) == len(unit)
        for it in unit:
            assert set(it.metrics) == set(task.metrics)
            assert all(0.0 <= v <= 1.0 for v in it.metrics.values())
            assert it.query_type in QUERY_TYPES
    total = sum(len(u) for u in rec.units)
    assert rec.ticks and rec.ticks[-1] == (total, total)


async def test_mae_on_the_slice_honours_skip_and_record(embedder) -> None:  # type: ignore[no-untyped-def]
    task = MaeTask(DATA / "mae" / "data.json", EEDI / "misconception_mapping.csv")
    rec = Recorder()
    assert await task.run(TWO, embedder, **rec.kwargs()) == {}
    check_units(rec, task, {0: 12})
    assert sorted(u[0].config for u in rec.units) == ["default", "sources=vector-only"]
    best = {it.item: it.metrics for it in rec.units[0]}
    # Among 63 misconceptions, the three MaE ones are found for most of their examples.
    assert sum(m["recall@25"] for m in best.values()) >= 6
    assert all(m["map@25"] <= m["recall@25"] for m in best.values())

    # A resumed run: the done unit is not recomputed, and a finished task builds nothing.
    again = Recorder({("mae", "default", 0)})
    await task.run(TWO, embedder, **again.kwargs())
    assert [u[0].config for u in again.units] == ["sources=vector-only"]
    assert {i.item: i.metrics for i in again.units[0]} == {i.item: i.metrics for i in rec.units[1]}
    finished = Recorder({("mae", "default", 0), ("mae", "sources=vector-only", 0)})
    await task.run(TWO, embedder, **finished.kwargs())
    assert finished.units == [] and not any("indexing" in line for line in finished.lines)


async def test_eedi_linking_on_the_slice(embedder) -> None:  # type: ignore[no-untyped-def]
    task = EediLinkingTask(
        EEDI / "train.csv",
        EEDI / "misconception_mapping.csv",
        EEDI / "subject_metadata.csv",
        folds=2,
    )
    # Fold 1 of best is done already: only the other three units run.
    rec = Recorder({("linking-eedi", "default", 1)})
    configs = [*TWO, GRID["reranker=domain-int8"]]
    not_measured = await task.run(configs, embedder, **rec.kwargs())
    assert not_measured == {
        "reranker=domain-int8": "not measured: the bundled reranker was trained on these questions"
    }
    check_units(rec, task, task.stats["items"])
    assert sorted(it.unit for u in rec.units for it in u[:1]) == [
        ("linking-eedi", "default", 0),
        ("linking-eedi", "sources=vector-only", 0),
        ("linking-eedi", "sources=vector-only", 1),
    ]
    # A question whose construct has other training questions is usually linked at once.
    seen = [
        it for u in rec.units if u[0].config == "default" for it in u if it.metrics["recall@10"] > 0
    ]
    assert seen and sum(it.metrics["recall@1"] for it in seen) / len(seen) > 0.5


async def test_openstax_linking_on_the_slice(embedder, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    # Word counts size the chunks: the MiniLM tokenizer would only add its load time here.
    task = OpenStaxLinkingTask(
        DATA / "openstax",
        folds=2,
        per_fold=4,
        work=tmp_path,
        count_tokens=lambda t: len(t.split()),
    )
    rec = Recorder()
    assert await task.run(TWO, embedder, **rec.kwargs()) == {}
    check_units(rec, task, task.stats["items"])
    assert len(rec.units) == 4
    # Three sections only: the right one is nearly always in the top 10 and mostly first.
    scores = [it.metrics for u in rec.units for it in u]
    assert sum(m["recall@10"] for m in scores) == len(scores)
    assert sum(m["mrr"] for m in scores) / len(scores) > 0.6

    # The work folder keeps the last fold's index: none of that fold's exercises is in any
    # store, every other record is.
    records = task.load()
    held = {d.id for d in records.documents if d.kind == "exercise" and stable_fold(d.id, 2) == 1}
    index = LocalIndex.load(tmp_path / task.name, embedder=embedder.name)
    try:
        stored = set(await index.vector.content_hashes())
        lexical = {h.item.id for h in await index.lexical.search("exercise add subtract", 10_000)}
    finally:
        await index.aclose()
    assert held and not held & stored and not held & lexical
    assert stored == {d.id for d in records.documents} - held | {c.id for c in records.concepts}


async def test_prerequisites_on_the_slice(embedder) -> None:  # type: ignore[no-untyped-def]
    task = PrerequisiteTask(DATA / "openstax", DATA / "learning-commons", folds=2)
    rec = Recorder()
    configs = [*TWO, GRID["reranker=domain"]]
    not_measured = await task.run(configs, embedder, **rec.kwargs())
    assert list(not_measured) == ["reranker=domain"]
    check_units(rec, task, task.stats["items"])
    items = {it.item for u in rec.units for it in u}
    assert {i.split("/", 1)[0] for i in items} == {"openstax", "learning-commons"}
    best = [it.metrics for u in rec.units if u[0].config == "default" for it in u]
    assert sum(m["recall@10"] for m in best) / len(best) > 0.5


@pytest.mark.slow
@pytest.mark.skipif(not SHARED.is_dir(), reason="needs ../shared/data")
async def test_every_task_runs_quick_on_the_real_data(embedder, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    tasks = [
        MaeTask(
            SHARED / "mae" / "data.json", SHARED / "eedi" / "misconception_mapping.csv", quick=True
        ),
        EediLinkingTask(
            SHARED / "eedi" / "train.csv",
            SHARED / "eedi" / "misconception_mapping.csv",
            SHARED / "eedi-subjects" / "subject_metadata.csv",
            quick=True,
        ),
        PrerequisiteTask(SHARED / "openstax", SHARED / "learning-commons", quick=True),
        OpenStaxLinkingTask(SHARED / "openstax", quick=True, work=tmp_path),
    ]
    for task in tasks:
        rec = Recorder()
        await task.run(TWO, embedder, **rec.kwargs())
        n_items = (
            task.stats["items"]
            if isinstance(task.stats["items"], dict)
            else {0: task.stats["items"]}
        )
        check_units(rec, task, n_items)
        assert len(rec.units) == 2 * len([n for n in n_items.values() if n])


async def test_the_openai_refiner_config_runs_against_a_local_server(  # type: ignore[no-untyped-def]
    embedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With a base URL configured, `refiner=openai` is measured, not skipped: every item's
    query goes through a real OpenAI-compatible HTTP server before retrieval."""
    task = MaeTask(DATA / "mae" / "data.json", EEDI / "misconception_mapping.csv", limit=4)
    configs = [GRID["default"], GRID["refiner=openai"]]
    with local_openai_server() as server:
        monkeypatch.setenv("TUTORGRAPH_OPENAI_BASE_URL", server.base_url)
        monkeypatch.delenv("TUTORGRAPH_OPENAI_API_KEY", raising=False)
        rec = Recorder()
        assert await task.run(configs, embedder, **rec.kwargs()) == {}
    check_units(rec, task, {0: 4})
    assert [u[0].config for u in rec.units] == ["default", "refiner=openai"]
    prompts = [body["messages"][-1]["content"] for body in server.requests]
    assert len(prompts) == 4
    queries = [item.query for item in task.build_folds()[0].items]
    assert all(any(q.split("\n")[0] in p for p in prompts) for q in queries)

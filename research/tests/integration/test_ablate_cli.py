"""`tutorgraph ablate` on the committed Eedi slice: real ChromaDB, real MiniLM, resume, and
the fold rerankers kept in the work folder."""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tutorgraph.ingest.eedi import read_eedi_questions
from tutorgraph.training.cross_encoder import TrainingConfig
from tutorgraph_research.ablation import read_items
from tutorgraph_research.harness.cached_embedder import CachingEmbedder
from tutorgraph_research.harness.configs import ablation_grid
from tutorgraph_research.harness.results import ItemScore
from tutorgraph_research.tasks.eedi import EediMisconceptionTask

pytestmark = pytest.mark.integration

REPO = Path(__file__).resolve().parents[3]
DATA = REPO / "tests" / "data"
EEDI = DATA / "eedi"
QUERY_TYPES = {"concept_lookup", "prerequisite", "misconception", "similar_problems"}


@pytest.fixture(scope="module")
def cached(embedder) -> CachingEmbedder:  # type: ignore[no-untyped-def]
    """The session's MiniLM with one vector cache for this module (the tests embed the same
    slice texts)."""
    return CachingEmbedder(embedder)


@pytest.fixture
def cli(
    monkeypatch: pytest.MonkeyPatch,
    cached: CachingEmbedder,
    no_hub: None,  # the MS MARCO model cannot be fetched here
) -> CliRunner:
    """A CliRunner whose `ablate` gets the loaded MiniLM (saves a reload)."""
    from tutorgraph.embedding import embedder as embedder_module

    monkeypatch.setattr(embedder_module, "SentenceTransformerEmbedder", lambda *a, **k: cached)
    for key in [k for k in os.environ if k.startswith("TUTORGRAPH_") or k == "OPENAI_API_KEY"]:
        monkeypatch.delenv(key)
    return CliRunner()


def _rows(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_ablate_writes_tidy_rows_and_resumes_without_recomputing(
    cli: CliRunner, tmp_path: Path
) -> None:
    out = tmp_path / "ablations.jsonl"
    args = [
        "ablate",
        "--data",
        str(DATA),
        "--out",
        str(out),
        "--work",
        str(tmp_path / "work"),
        "--tasks",
        "eedi-misconceptions",
        "--configs",
        "default,sources=vector-only,reranker=msmarco",
        "--resamples",
        "200",
    ]
    from tutorgraph.cli.app import app

    result = cli.invoke(app, args)
    assert result.exit_code == 0, result.output
    rows = _rows(out)
    ok = [r for r in rows if r["status"] == "ok"]
    assert {r["config"] for r in ok} == {"default", "sources=vector-only"}
    for r in ok:
        for key in ("task", "config", "metric", "value", "fold", "seed", "git_commit", "hardware"):
            assert key in r, key
        assert r["ci95"][0] <= r["value"] <= r["ci95"][1]
        assert r["config_detail"] == next(
            c.describe() for c in ablation_grid() if c.name == r["config"]
        )
        assert r["query_type"] == "all" or r["query_type"] in QUERY_TYPES
    # Every labelled pair of the slice, once per configuration, over the five folds.
    questions = read_eedi_questions(EEDI / "train.csv")
    n_pairs = sum(
        1
        for q in questions
        for x, m in q.misconception_ids.items()
        if m is not None and x != q.correct_answer
    )
    best = {
        (r["metric"], r["fold"]): r
        for r in ok
        if r["config"] == "default" and r["query_type"] == "all" and r["subset"] == "all"
    }
    assert best[("map@25", "all")]["n"] == n_pairs
    assert {f for _, f in best} == {"all", 0, 1, 2, 3, 4}
    assert 0.0 <= best[("map@25", "all")]["value"] <= best[("recall@25", "all")]["value"] <= 1.0
    (missing,) = [r for r in rows if r["status"] != "ok"]
    assert missing["config"] == "reranker=msmarco" and missing["value"] is None
    assert missing["status"].startswith("not measured: ")
    assert "default" in result.stdout and "sources=vector-only" in result.stdout

    items = read_items(out.with_suffix(".items.jsonl"))
    assert len(items) == 2 * n_pairs
    assert len({(i.config, i.item) for i in items}) == len(items)
    by_item = {i.item: i for i in items if i.config == "default"}
    assert all(int(i.item.split(":")[0]) % 5 == i.fold for i in items)
    assert all(i.query_type in QUERY_TYPES for i in items)
    assert set(by_item) == {
        f"{q.question_id}:{x}"
        for q in questions
        for x, m in q.misconception_ids.items()
        if m is not None and x != q.correct_answer
    }

    before = out.with_suffix(".items.jsonl").read_bytes()
    again = cli.invoke(app, args)
    assert again.exit_code == 0, again.output
    # Nothing recomputed: not one row appended, and the same summary.
    assert out.with_suffix(".items.jsonl").read_bytes() == before
    assert _rows(out) == rows


def test_ablate_names_a_missing_dataset(cli: CliRunner, tmp_path: Path) -> None:
    from tutorgraph.cli.app import app

    result = cli.invoke(
        app,
        ["ablate", "--data", str(tmp_path), "--out", str(tmp_path / "a.jsonl"), "--quick"],
    )
    assert result.exit_code == 2
    assert "eedi-misconceptions needs" in result.output and "train.csv" in result.output
    assert not (tmp_path / "a.jsonl").exists()


def test_fold_rerankers_are_kept_and_reused(
    cached: CachingEmbedder, tiny_cross_encoder: Path, tmp_path: Path
) -> None:
    """A finished fold model is reused on resume; a partial one is never mistaken for it."""
    configs = [c for c in ablation_grid() if c.name == "reranker=domain-int8"]

    def run() -> tuple[list[ItemScore], list[str]]:
        task = EediMisconceptionTask(
            EEDI / "train.csv",
            EEDI / "misconception_mapping.csv",
            EEDI / "subject_metadata.csv",
            quick=True,
            work=tmp_path,
            reranker_base=str(tiny_cross_encoder),
            training=TrainingConfig(
                epochs=1.0, batch_size=16, layers=None, max_length=96, query_max_tokens=48
            ),
        )
        items: list[ItemScore] = []
        lines: list[str] = []
        missing = asyncio.run(
            task.run(
                configs, cached, skip=lambda _u: False, record=items.extend, status=lines.append
            )
        )
        assert missing == {}
        return items, lines

    items, lines = run()
    model = tmp_path / "eedi-fold-0" / "reranker"
    assert any("training step" in line for line in lines)
    assert (model / "fold.json").is_file() and (model / "onnx" / "model_qint8.onnx").is_file()
    assert [p.name for p in model.parent.iterdir()] == ["reranker"]
    assert {i.fold for i in items} == {0} and items

    stamp = (model / "onnx" / "model_qint8.onnx").stat().st_mtime_ns
    again, lines = run()
    assert not any("training step" in line for line in lines)
    assert any("reusing the reranker" in line for line in lines)
    assert (model / "onnx" / "model_qint8.onnx").stat().st_mtime_ns == stamp
    assert again == items

    # A model dir without its record (a kill before the rename cannot leave one, but an
    # older, different model can) is retrained, and a leftover partial folder is cleared.
    (model / "fold.json").unlink()
    (model.parent / "reranker.partial-99999").mkdir()
    _, lines = run()
    assert any("training step" in line for line in lines)
    assert sorted(p.name for p in model.parent.iterdir()) == ["reranker"]

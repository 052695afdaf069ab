"""`tutorgraph bench eedi` end to end: fold isolation, result layout, metrics in range."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from tests.conftest import encoder_output

from tutorgraph.errors import ConfigurationError
from tutorgraph.ingest.eedi import read_eedi_questions
from tutorgraph.ranking.metrics import average_precision_at_k
from tutorgraph.training.cross_encoder import TrainingConfig
from tutorgraph_research.tasks.eedi import eedi_folds, eedi_pairs
from tutorgraph_research.tasks.eedi_bench import (
    PROFILE_NAMES,
    EediBenchmarkSpec,
    config_names,
    run_eedi_benchmark,
)
from tutorgraph_research.tasks.messages import student_messages, write_student_messages

pytestmark = pytest.mark.integration

REPO = Path(__file__).resolve().parents[3]
EEDI = REPO / "tests" / "data" / "eedi"
SHARED = REPO.parent / "shared" / "data"
# The test pairs every configuration of `test_bench_on_the_slice_reports_every_config` scores.
EVERY_CONFIG_PAIRS = 30


def slice_spec(**kw: Any) -> EediBenchmarkSpec:
    """The benchmark over 2 folds of the committed Eedi slice."""
    return EediBenchmarkSpec(
        train=EEDI / "train.csv",
        misconceptions=EEDI / "misconception_mapping.csv",
        subjects=EEDI / "subject_metadata.csv",
        folds=2,
        **kw,
    )


async def test_bench_on_the_slice_reports_every_config(  # type: ignore[no-untyped-def]
    embedder,
    tiny_cross_encoder: Path,
    no_hub: None,  # the MS MARCO model cannot be fetched here
) -> None:
    spec = slice_spec(
        # Each fold fine-tunes its reranker from the tiny model: the real path, in seconds.
        reranker_base=str(tiny_cross_encoder),
        training=TrainingConfig(
            epochs=1.0, batch_size=16, layers=None, max_length=96, query_max_tokens=48
        ),
        # Every configuration scores the first EVERY_CONFIG_PAIRS // 2 test pairs of each
        # fold (the fold models still train on all of its training questions): 128
        # configurations over all 92 pairs took five minutes, nearly all of it scoring.
        limit=EVERY_CONFIG_PAIRS,
    )
    results = await run_eedi_benchmark(spec, embedder)
    cv_folds = eedi_folds(read_eedi_questions(EEDI / "train.csv"), 2)
    assert all(len(f.pairs) > EVERY_CONFIG_PAIRS // 2 for f in cv_folds)  # a real cut of each
    n_pairs = EVERY_CONFIG_PAIRS
    assert set(results) == {*config_names(), "_meta"}
    for name in config_names():
        row = results[name]
        if name.endswith("/rerank-msmarco"):
            assert row["map@25"] is None and row["status"].startswith("not measured")
            continue
        assert row["n"] == n_pairs
        assert 0.0 <= row["map@25"] <= row["recall@25"] <= 1.0
    # The reranked configs really are reranked (even a barely trained model moves ranks).
    for context in ("text", "construct"):
        assert results[f"hybrid/{context}/rerank-domain"] != results[f"hybrid/{context}"]
    folds = results["_meta"]["reranker"]["folds"]
    assert [f["fold"] for f in folds] == [1, 2] and all(f["steps"] > 0 for f in folds)
    assert all(f["onnx_bytes"]["onnx-int8"] > 0 for f in folds)
    meta = results["_meta"]
    assert meta["folds"] == 2 and meta["fold_rule"] == "int(QuestionId) % 2"
    assert meta["n_pairs"] == n_pairs and meta["limit"] == EVERY_CONFIG_PAIRS
    # Without construct ids the text and construct contexts of the text-only sources agree.
    assert results["vector/text"] == results["vector/construct"]
    # The graph is what the construct context feeds: it must not be worse than no context.
    assert results["graph/construct"]["map@25"] >= results["graph/text"]["map@25"]


def test_bench_cli_writes_results_json(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "results.json"
    proc = run_cli(
        "bench",
        "eedi",
        "--train",
        str(EEDI / "train.csv"),
        "--misconceptions",
        str(EEDI / "misconception_mapping.csv"),
        "--folds",
        "2",
        "--configs",
        "hybrid/text,hybrid/text/*-rrf,hybrid/text/*-weighted,hybrid/text/refine-local",
        "--limit",
        "10",
        "--exclude",
        str(EEDI / "diagnosis_questions.csv"),
        "--out",
        str(out),
    )
    assert proc.returncode == 0, proc.stderr
    results = json.loads(out.read_text())
    # The globs pick the plain config and every profile x fusion variant of it.
    assert sorted(k for k in results if not k.startswith("_")) == sorted(
        [
            "hybrid/text",
            *(f"hybrid/text/{p}-{f}" for p in PROFILE_NAMES for f in ("rrf", "weighted")),
            "hybrid/text/refine-local",
        ]
    )
    refined = results["hybrid/text/refine-local"]
    assert refined["n"] == 10
    # Every row carries its interval and splits; a variant is paired with its first stage.
    lo, hi = refined["map@25_ci95"]
    assert lo <= refined["map@25"] <= hi
    assert refined["compared_with"] == "hybrid/text"
    diff = refined["paired_diff"]
    assert diff["n"] == 10
    assert diff["mean"] == pytest.approx(refined["map@25"] - results["hybrid/text"]["map@25"])
    # The same difference over the pairs of questions not read while writing the rules.
    read = {q.question_id for q in read_eedi_questions(EEDI / "diagnosis_questions.csv")}
    limited = eedi_pairs(read_eedi_questions(EEDI / "train.csv"))[:10]
    held_out = sum(p.question.question_id not in read for p in limited)
    assert refined["paired_diff_held_out"]["n"] == held_out
    assert results["hybrid/text"]["compared_with"] is None
    assert refined["oracle_map@25"] >= refined["map@25"] >= 0.0
    assert refined["oracle_map@25"] >= refined["random_map@25"]
    splits = refined["splits"]
    assert sum(splits[k]["n"] for k in splits if k.endswith("_construct")) == 10
    assert results["_meta"]["n_pairs"] == 10
    assert "hybrid/text/semantic-weighted" in proc.stdout


def test_bench_cli_rejects_a_glob_that_matches_nothing(run_cli) -> None:  # type: ignore[no-untyped-def]
    proc = run_cli(
        "bench",
        "eedi",
        "--train",
        str(EEDI / "train.csv"),
        "--misconceptions",
        str(EEDI / "misconception_mapping.csv"),
        "--configs",
        "nothing/*",
    )
    assert proc.returncode == 2
    assert "matches none of" in proc.stderr
    assert "Traceback" not in proc.stderr


@pytest.mark.slow
@pytest.mark.skipif(not (SHARED / "eedi").is_dir(), reason="needs ../shared/data")
async def test_bench_on_the_development_file_beats_single_sources(embedder) -> None:  # type: ignore[no-untyped-def]
    spec = EediBenchmarkSpec(
        train=SHARED / "eedi" / "train.csv",
        misconceptions=SHARED / "eedi" / "misconception_mapping.csv",
        subjects=SHARED / "eedi-subjects" / "subject_metadata.csv",
        configs="*/construct",
        limit=500,
    )
    results = await run_eedi_benchmark(spec, embedder)
    hybrid = results["hybrid/construct"]["map@25"]
    assert hybrid > results["vector/construct"]["map@25"]
    assert hybrid > results["lexical/construct"]["map@25"]


async def test_bench_scores_free_text_messages_in_the_fold_that_holds_them_out(  # type: ignore[no-untyped-def]
    embedder, tmp_path: Path
) -> None:
    questions = read_eedi_questions(EEDI / "train.csv")
    messages = student_messages(questions, n=40)
    write_student_messages(messages, tmp_path / "messages.jsonl")
    spec = slice_spec(
        configs="hybrid/text,hybrid/text/refine-local",
        messages=tmp_path / "messages.jsonl",
    )
    results = await run_eedi_benchmark(spec, embedder)
    row = results["hybrid/text/refine-local"]
    assert row["n"] == len(messages) == results["_meta"]["n_pairs"]
    assert 0.0 <= row["hit@10"] <= 1.0
    groups = {m.split for m in messages}
    assert set(row["splits"]) >= groups
    assert sum(row["splits"][g]["n"] for g in groups) == len(messages)


async def test_bench_reads_the_reader_sets_messages(  # type: ignore[no-untyped-def]
    embedder, tmp_path: Path
) -> None:
    """The reader's set (rows with `text` and `phrasing`, no answer letter) runs through the
    same folds: each Eedi row with a known misconception is scored once, its letter found
    from its question; rows without a question are left out."""
    questions = read_eedi_questions(EEDI / "train.csv")
    rows = [
        {
            "id": m.id,
            "text": m.message,
            "problem": m.problem,
            "student_answer": m.student_answer,
            "claimed_right": None,
            "request": "why_wrong",
            "misconception_ids": m.accepted,
            "question_id": m.question_id,
            "phrasing": m.template,
            "split": "dev" if n % 2 else "heldout",
            "source": "eedi",
        }
        for n, m in enumerate(student_messages(questions, n=20))
    ]
    rows.append({**rows[0], "id": "own:1", "question_id": None, "source": "own"})
    path = tmp_path / "reader_messages.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    spec = slice_spec(
        configs="hybrid/text/refine-local",
        messages=path,
    )
    results = await run_eedi_benchmark(spec, embedder)
    row = results["hybrid/text/refine-local"]
    assert row["n"] == len(rows) - 1
    assert {"dev", "heldout"} <= set(row["splits"])


def _tuned_spec(folder: Path, *, wrong: bool = False, **kw: Any) -> EediBenchmarkSpec:
    """`default/construct` over 2 folds with fold encoders laid out as `train-embedder
    --leave-out K/2` writes them (`wrong`: each names the other fold)."""
    for k in range(2):
        encoder_output(folder / f"fold{k}", {"fold": 1 - k if wrong else k, "folds": 2})
    return slice_spec(configs="default/construct", tuned_folds=folder, **kw)


def test_bench_rankers_read_cross_fitted_fold_encoders(
    tuned_ranker_bench: tuple[Path, Path, dict[str, Any]],
) -> None:
    # One session run (tests/fixtures.py), shared with the second stage's test.
    folder, rankings, results = tuned_ranker_bench
    row = results["default/construct"]
    assert row["n"] == results["_meta"]["n_pairs"] and 0.0 <= row["map@25"] <= 1.0
    # The kept lists are the ones scored: one per pair, in packet order (their MAP@25 is
    # the row's), each hit with the learned ranker's score.
    kept = [json.loads(line) for line in rankings.read_text().splitlines()]
    assert len({r["item"] for r in kept}) == len(kept) == row["n"]
    assert all(r["config"] == "default/construct" and len(r["hits"]) <= 30 for r in kept)
    assert all(s is not None for r in kept for _, s in r["hits"])
    aps = [average_precision_at_k([h for h, _ in r["hits"]], {r["target"]}, 25) for r in kept]
    assert sum(aps) / len(aps) == pytest.approx(row["map@25"], abs=1e-6)
    folds = results["_meta"]["ranker"]["folds"]
    assert results["_meta"]["ranker"]["training"]["tuned_examples"] is True
    # Each fold's ranker is served by the encoder that left that fold's questions out.
    assert [f["tuned_model"] for f in folds] == [
        str(folder / f"fold{k}" / "model") for k in range(2)
    ]


async def test_bench_refuses_fold_encoders_that_saw_their_fold(  # type: ignore[no-untyped-def]
    embedder, tmp_path: Path
) -> None:
    with pytest.raises(ConfigurationError, match="--leave-out 0/2"):
        await run_eedi_benchmark(_tuned_spec(tmp_path / "folds", wrong=True), embedder)


async def test_bench_scores_only_the_folds_asked_for_as_the_full_run_does(  # type: ignore[no-untyped-def]
    embedder,
) -> None:
    full = await run_eedi_benchmark(slice_spec(configs="hybrid/text", per_item=True), embedder)
    part = await run_eedi_benchmark(
        slice_spec(configs="hybrid/text", per_item=True, only_folds=frozenset({1})), embedder
    )
    items = part["hybrid/text"]["per_item"]
    assert part["_meta"]["only_folds"] == [1] and part["_meta"]["folds"] == 1
    assert items and all(int(item.split(":")[0]) % 2 == 1 for item in items)
    assert items == {k: v for k, v in full["hybrid/text"]["per_item"].items() if k in items}
    assert len(items) < len(full["hybrid/text"]["per_item"])
    with pytest.raises(ConfigurationError, match="only-folds"):
        await run_eedi_benchmark(
            slice_spec(configs="hybrid/text", only_folds=frozenset({2})), embedder
        )


def test_bench_cli_refuses_only_folds_that_are_not_numbers(run_cli) -> None:  # type: ignore[no-untyped-def]
    proc = run_cli(
        "bench", "eedi", "--train", str(EEDI / "train.csv"),
        "--misconceptions", str(EEDI / "misconception_mapping.csv"), "--only-folds", "first",
    )  # fmt: skip
    assert proc.returncode == 2 and "--only-folds takes fold numbers" in proc.stderr


def test_shipped_cli_measures_the_bundled_models_and_pairs_two_runs(  # type: ignore[no-untyped-def]
    run_cli, session_index, tmp_path: Path
) -> None:
    """`bench eedi --shipped` over the session index: both paths, metrics in range, each
    item's scores kept, and a second run paired with the first changes no item."""
    first, second = tmp_path / "first.json", tmp_path / "second.json"
    common = ["bench", "eedi", "--shipped", "--train", str(EEDI / "train.csv")]
    common += ["--limit", "8", "--index-dir", str(session_index[0])]
    proc = run_cli(*common, "--out", str(first))
    assert proc.returncode == 0, proc.stderr
    report = json.loads(first.read_text())
    assert set(report["items"]) and len(report["items"]) == 8
    for path in ("construct", "text"):
        row = report[path]
        assert row["n"] == 8 and 0.0 <= row["map@25"] <= row["hit@10"] <= 1.0
        lo, hi = row["map@25_ci95"]
        assert lo <= row["map@25"] <= hi
    # Each item's own average precision, from the rank it records.
    for scores in report["items"].values():
        rank = scores["text"]["rank"]
        assert scores["text"]["map@25"] == (1.0 / rank if 0 < rank <= 25 else 0.0)
    proc = run_cli(*common, "--out", str(second), "--baseline", str(first))
    assert proc.returncode == 0, proc.stderr
    paired = json.loads(second.read_text())["paired_with_baseline"]
    for path in ("construct", "text"):
        assert paired[path]["n"] == 8
        assert paired[path]["map@25"] == {"diff": 0.0, "diff_ci95": [0.0, 0.0], "changed": 0}


@pytest.mark.slow
@pytest.mark.skipif(not (SHARED / "eedi").is_dir(), reason="needs ../shared/data")
def test_the_shipped_product_loses_nothing_on_eedi(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """The bundled models over the README's index, every pair of the development file, paired
    with the committed run (`results/eedi_shipped.json`): no path or metric may drop. A change
    that means to move them commits a new run with its note."""
    index_dir = tmp_path / "index"
    proc = run_cli(
        "ingest", str(REPO / "data" / "curriculum"), "--index-dir", str(index_dir), timeout=900
    )
    assert proc.returncode == 0, proc.stderr
    out = tmp_path / "shipped.json"
    proc = run_cli(
        "bench", "eedi", "--shipped", "--train", str(SHARED / "eedi" / "train.csv"),
        "--index-dir", str(index_dir), "--out", str(out),
        "--baseline", str(REPO / "results" / "eedi_shipped.json"), timeout=5400,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    paired = json.loads(out.read_text())["paired_with_baseline"]
    for path in ("construct", "text"):
        for metric in ("map@25", "hit@10"):
            assert paired[path][metric]["diff"] >= -0.001, (path, metric, paired[path][metric])

"""`bench cross-encoder`: fold cross-encoders over `bench eedi --rankings`' out-of-fold lists."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tutorgraph.errors import ConfigurationError
from tutorgraph.ingest.eedi import eedi_misconception_id, read_misconceptions
from tutorgraph.training.cross_encoder import TrainingConfig
from tutorgraph_research.tasks.second_stage import cross_encoder_row, read_rankings

pytestmark = pytest.mark.integration

EEDI = Path(__file__).resolve().parents[3] / "tests" / "data" / "eedi"
CONFIG = "default/construct"


async def test_the_row_trains_a_cross_encoder_per_fold_and_pairs_it_with_the_ranker(
    tuned_ranker_bench: tuple[Path, Path, dict[str, Any]],
    tiny_cross_encoder: Path,
    tmp_path: Path,
) -> None:
    # `bench eedi --rankings` of CONFIG over 2 folds with fold encoders (tests/fixtures.py).
    _, rankings, bench = tuned_ranker_bench
    pairs = read_rankings(rankings, CONFIG)
    names = {
        eedi_misconception_id(k): v
        for k, v in read_misconceptions(EEDI / "misconception_mapping.csv").items()
    }
    training = TrainingConfig(
        epochs=1.0, batch_size=16, layers=None, max_length=96, query_max_tokens=48
    )

    async def row() -> dict:  # type: ignore[type-arg]
        return await cross_encoder_row(
            pairs,
            names,
            work=tmp_path / "ce",
            folds=2,
            depth=10,
            training=training,
            base_model=str(tiny_cross_encoder),
        )

    report = await row()
    rows = report["rows"]
    assert {r["n"] for r in rows.values()} == {len(pairs)} == {bench[CONFIG]["n"]}
    # The ranker's own order is the bench's row; the second stages reorder the same lists.
    assert rows["ranker"]["map@25"] == pytest.approx(bench[CONFIG]["map@25"], abs=1e-6)
    paired = report["paired"]["stage2+cross - stage2"]
    diff = rows["stage2+cross"]["map@25"] - rows["stage2"]["map@25"]
    assert paired["mean"] == pytest.approx(diff, abs=1e-5)
    assert paired["ci95"][0] <= paired["mean"] <= paired["ci95"][1]
    trained = report["_meta"]["cross_encoders"]
    assert [t["fold"] for t in trained] == [0, 1]
    # Fold K's cross-encoder trained on the other fold's pairs only.
    assert [t["groups"] for t in trained] == [sum(p.fold(2) != k for p in pairs) for k in range(2)]
    assert all((tmp_path / "ce" / f"fold{k}/onnx/model_qint8.onnx").is_file() for k in range(2))
    assert report["cross_encoder_ms_per_list"]["p50"] > 0
    # A second run reuses the finished models and measures the same rows.
    again = await row()
    assert all("reused" in t for t in again["_meta"]["cross_encoders"])
    assert again["rows"] == rows


def test_a_rankings_file_without_the_configuration_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    path.write_text(
        '{"config": "default/text", "item": "1:A", "question": 1, "query": "q", '
        '"target": "m", "hits": [["m", 0.5]]}\n'
    )
    with pytest.raises(ConfigurationError, match="no list of 'default/construct'"):
        read_rankings(path, CONFIG)

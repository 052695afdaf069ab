"""The LambdaRank combiner: learns which feature carries the label, explains its scores."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from tutorgraph.errors import ConfigurationError
from tutorgraph.ranking.combiner import Combiner, CombinerConfig, TrainingGroup

pytestmark = pytest.mark.unit

NAMES = ("noise", "signal")


def groups(n: int, seed: int) -> list[TrainingGroup]:
    """The relevant candidate has the highest `signal` most of the time; `noise` is noise."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        rows = [[rng.random(), rng.random() * 0.8] for _ in range(10)]
        target = rng.randrange(10)
        rows[target][1] = 0.7 + rng.random() * 0.3
        out.append(TrainingGroup(rows, [int(i == target) for i in range(10)]))
    return out


def top1(model: Combiner, data: list[TrainingGroup]) -> float:
    hits = 0
    for g in data:
        scores = model.score(g.rows)
        hits += g.labels[max(range(len(scores)), key=scores.__getitem__)]
    return hits / len(data)


def test_it_learns_the_signal_and_its_contributions_sum_to_the_score(tmp_path: Path) -> None:
    model = Combiner.fit(groups(200, 1), NAMES, CombinerConfig(n_estimators=50))
    assert top1(model, groups(100, 2)) > 0.6
    rows = groups(1, 3)[0].rows
    for score, parts in zip(model.score(rows), model.contributions(rows), strict=True):
        assert sum(parts.values()) == pytest.approx(score, abs=1e-4)
        assert set(parts) == {"noise", "signal", "bias"}
    model.save(tmp_path)
    again = Combiner.load(tmp_path)
    assert again.feature_names == NAMES
    assert again.score(rows) == model.score(rows)


def test_bad_inputs() -> None:
    with pytest.raises(ConfigurationError):
        Combiner.fit([TrainingGroup([[0.0, 1.0]], [0])], NAMES)  # nothing relevant
    model = Combiner.fit(groups(50, 1), NAMES, CombinerConfig(n_estimators=5))
    with pytest.raises(ConfigurationError):
        model.score([[1.0, 2.0, 3.0]])
    assert model.score([]) == []


def test_an_unreadable_model_is_a_configuration_error(tmp_path: Path) -> None:
    (tmp_path / Combiner.META_FILE).write_text('{"feature_names": [], "config": {}}')
    with pytest.raises(ConfigurationError, match="no "):
        Combiner.load(tmp_path)  # the booster file is missing: refused at once
    (tmp_path / Combiner.MODEL_FILE).write_text("not a model")
    lazy = Combiner.load(tmp_path)  # the booster itself is read on first use
    with pytest.raises(ConfigurationError, match="cannot load the combiner"):
        lazy.warm()
    with pytest.raises(ConfigurationError):
        lazy.score([[]])


def test_scoring_imports_neither_scikit_learn_nor_pandas_and_scores_the_same() -> None:
    """The bundled booster scores in a fresh process without LightGBM's scikit-learn and
    pandas integrations (seconds of a one-shot query), exactly as with them; both can still
    be imported after."""
    code = (
        "import json, sys\n"
        "{first}"
        "from tutorgraph.ranking.combiner import Combiner\n"
        "from tutorgraph.retrieval.factory import bundled_ranker_path\n"
        "c = Combiner.load(bundled_ranker_path())\n"
        "rows = [[(i * 7 + j * 3) % 11 / 10 for j in range(len(c.feature_names))] "
        "for i in range(12)]\n"
        "out = [c.score(rows), c.contributions(rows)]\n"
        "loaded = [m for m in ('sklearn', 'pandas') if m in sys.modules]\n"
        "{after}"
        "print(json.dumps([out, loaded]))\n"
    )
    runs = [
        code.format(first="", after="import sklearn, pandas\n"),
        code.format(first="import lightgbm\n", after=""),  # with its integrations
    ]
    (lean, lean_loaded), (full, _) = (
        json.loads(
            subprocess.run(
                [sys.executable, "-c", c], capture_output=True, text=True, check=True, timeout=120
            ).stdout
        )
        for c in runs
    )
    assert lean_loaded == []
    assert lean == full

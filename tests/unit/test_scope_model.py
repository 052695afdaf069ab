"""The scope model's parts: the logistic fit, the saved file, the refusal of another
embedder's model, and the rule that keeps teaching in `results`."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tutorgraph.confidence.logistic import Logistic
from tutorgraph.confidence.scope import ScopeModel, ScopeSignals
from tutorgraph.config import DEFAULT_EMBEDDING_MODEL, Settings
from tutorgraph.errors import ConfigurationError
from tutorgraph.retrieval.factory import bundled_scope_path, load_scope
from tutorgraph.retrieval.hits import TEACH_BY, with_teaching
from tutorgraph_client.models.packet import Hit

pytestmark = pytest.mark.unit


def _hit(id: str, kind: str) -> Hit:
    return Hit(
        id=id, ids=[id], kind=kind, text=id, score=1.0, rank=0, found_by=["vector"],
        fused_score=1.0,
    )  # fmt: skip


def test_the_logistic_fit_is_calibrated_on_separable_noise() -> None:
    rng = np.random.default_rng(0)
    x = rng.normal(size=(2000, 3))
    truth = 1 / (1 + np.exp(-(2 * x[:, 0] - x[:, 1])))
    y = (rng.random(2000) < truth).astype(float)
    model = Logistic.fit(x, y, l2=0.1)
    p = model.probabilities(x)
    # Calibrated: in each band of predictions the outcome rate matches the prediction.
    for lo, hi in ((0.1, 0.3), (0.4, 0.6), (0.7, 0.9)):
        band = (p >= lo) & (p < hi)
        assert abs(y[band].mean() - p[band].mean()) < 0.06
    again = Logistic.from_dict(model.to_dict())
    assert np.allclose(again.probabilities(x), p, atol=1e-6)


def test_the_logistic_fit_refuses_one_label() -> None:
    with pytest.raises(ValueError, match="both labels"):
        Logistic.fit(np.ones((3, 2)), np.ones(3))


def test_the_bundled_model_loads_and_flags_by_its_threshold() -> None:
    loaded = load_scope(Settings(scope_model="tutorgraph/scope"))
    model = loaded.value
    assert model is not None and loaded.reason is None
    assert model.embedder == DEFAULT_EMBEDDING_MODEL and 0 < model.threshold < 1
    dim = len(model.scope.weights) - 4  # the embedding, then four character counts
    signals = ScopeSignals(text="hola", vector=np.zeros(dim, dtype=np.float32))
    assert 0.0 <= model.in_scope(signals) <= 1.0
    assert model.misconception_confidence(signals, 0.5) is None  # no stated answer


def test_another_embedders_model_and_a_broken_file_are_refused(tmp_path: Path) -> None:
    model, why_not = load_scope(Settings(scope_model="tutorgraph/scope", embedding_model="x/y"))
    assert model is None and "fitted over" in why_not
    assert (load_scope(Settings(scope_model="")).reason or "").startswith("scope model turned off")
    broken = tmp_path / "scope.json"
    broken.write_text('{"format": 1, "embedder": "e"}')
    with pytest.raises(ConfigurationError, match=r"scope\.json"):
        ScopeModel.load(broken)
    model, why_not = load_scope(Settings(scope_model=str(broken)))
    assert model is None and "could not be loaded" in why_not
    saved = tmp_path / "copy.json"
    ScopeModel.load(bundled_scope_path()).save(saved)
    assert ScopeModel.load(saved).threshold == ScopeModel.load(bundled_scope_path()).threshold


def test_text_features_see_digits_operators_and_other_scripts() -> None:
    vec = np.zeros(4, dtype=np.float32)
    assert ScopeSignals(text="3 + 4 = ?", vector=vec).text_features()[:3] == [1.0, 1.0, 0.0]
    assert ScopeSignals(text="你好", vector=vec).text_features()[2] == 1.0
    assert ScopeSignals(text="", vector=vec).text_features() == [0.0, 0.0, 0.0, 0.0]


def test_the_best_lesson_is_second_only_when_no_teaching_leads() -> None:
    misconceptions = [_hit(f"m{i}", "misconception") for i in range(12)]
    lessons = [_hit("l1", "explanation"), _hit("l2", "worked_example")]
    mixed = with_teaching(misconceptions, lessons)
    assert [h.id for h in mixed[:3]] == ["m0", "l1", "m1"] and len(mixed) == 13
    teaching = [*misconceptions[: TEACH_BY - 1], _hit("e", "explanation")]
    assert with_teaching(teaching, lessons) == teaching
    assert with_teaching(misconceptions, []) == misconceptions
    # A lesson that is already a result moves, never comes twice.
    twice = with_teaching([*misconceptions, lessons[0]], lessons)
    assert [h.id for h in twice].count("l1") == 1

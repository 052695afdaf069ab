"""The grade a request may carry, the standards model's features, fit, save and load, and
the linker's fusion of the model and the grade prior (logic over small arrays; the real
model on the real bundle is tested in `tests/integration/test_grade_linking.py`)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from pydantic import ValidationError

from tutorgraph.errors import ConfigurationError
from tutorgraph.linking.cards import ConceptCard
from tutorgraph.linking.linker import MODEL_FLOOR, ConceptLinker
from tutorgraph.linking.standards_model import TAGS, StandardModel, text_tags
from tutorgraph.training.linker import LinkerExample, fit_standard_model
from tutorgraph_client.models.grade import band, grade_level, normalize_grade, standard_grade
from tutorgraph_client.models.request import RetrievalRequest

pytestmark = pytest.mark.unit


@pytest.mark.parametrize(
    ("given", "grade"),
    [("K", "K"), ("kindergarten", "K"), (0, "K"), (3, "3"), ("Grade 7", "7"), ("year 8", "8"),
     ("HS", "HS"), (10, "HS"), ("high school", "HS")],
)  # fmt: skip
def test_grades_are_read_in_the_ways_apps_send_them(given: object, grade: str) -> None:
    assert normalize_grade(given) == grade
    assert RetrievalRequest(query="q", grade=given).grade == grade  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", ["13", "grade nine and a half", "-1", "first"])
def test_a_grade_out_of_range_is_a_clear_error(bad: str) -> None:
    with pytest.raises(ValidationError, match="give K, 1-8 or HS"):
        RetrievalRequest(query="q", grade=bad)  # type: ignore[arg-type]


def test_standard_grades_and_bands() -> None:
    assert standard_grade("ccss:K.CC.A.1") == "K"
    assert standard_grade("ccss:8.EE.C.7.b") == "8"
    assert standard_grade("ccss:HSF-IF.A.1") == "HS"
    assert standard_grade("eedi:construct:12") is None
    assert [band(g) for g in ("K", "2", "3", "5", "6", "8", "HS")] == [
        "K-2", "K-2", "3-5", "3-5", "6-8", "6-8", "HS"
    ]  # fmt: skip
    assert grade_level("K") == 0 and grade_level("HS") == 9


def test_text_tags_read_the_mathematics_not_the_story() -> None:
    story = text_tags("Sam had 24 stickers and gave away 9. How many are left?")
    assert {"op:subtract", "q:left", "n:count=2", "n:max<=100"} <= story
    assert {"n:equals", "n:variable"} <= text_tags("Solve 3x + 5 = 20")
    assert {"n:fraction", "u:length"} <= text_tags("What is 3/4 of 12 meters?")
    assert text_tags("") == frozenset({"n:count=0"})
    assert all(t in TAGS for t in story)


def _toy() -> tuple[list[LinkerExample], dict[str, np.ndarray]]:
    """Two standards told apart by their vectors alone."""
    rng = np.random.default_rng(0)
    vectors: dict[str, np.ndarray] = {}
    examples = []
    for k, std in enumerate(("ccss:1.OA.A.1", "ccss:6.EE.B.7")):
        for i in range(20):
            text = f"{std} example {i}"
            v = rng.normal(size=8).astype(np.float32) * 0.1
            v[k] += 1.0
            vectors[text] = v / np.linalg.norm(v)
            examples.append(LinkerExample(text, std, f"gen:{std}"))
    return examples, vectors


def test_fit_separates_standards_and_round_trips(tmp_path: Path) -> None:
    examples, vectors = _toy()
    classes = ("ccss:1.OA.A.1", "ccss:6.EE.B.7")
    model = fit_standard_model(
        examples, lambda ts: np.stack([vectors[t] for t in ts]), classes, embedder="toy", epochs=60
    )
    probe = np.zeros(8, dtype=np.float32)
    probe[1] = 1.0
    assert np.argmax(model.log_proba(probe, "x", None)) == 1
    assert np.isclose(np.exp(model.log_proba(probe, "x", "6")).sum(), 1.0, atol=1e-5)
    grades = model.grade_distribution(model.log_proba(probe, "x"))
    assert grades["6"] > grades["1"]
    model.save(tmp_path / "m.npz")
    again = StandardModel.load(tmp_path / "m.npz")
    assert again.classes == classes and again.embedder == "toy"
    # float16 weights on disk: the same ranking, close log-probabilities.
    assert np.allclose(again.log_proba(probe, "x"), model.log_proba(probe, "x"), atol=1e-2)


def test_a_damaged_or_foreign_model_file_is_a_configuration_error(tmp_path: Path) -> None:
    (tmp_path / "bad.npz").write_bytes(b"not a model")
    with pytest.raises(ConfigurationError, match="standards model"):
        StandardModel.load(tmp_path / "bad.npz")
    with pytest.raises(ConfigurationError):
        StandardModel.load(tmp_path / "missing.npz")


def _linker() -> ConceptLinker:
    cards = [
        ConceptCard("ccss:1.OA.A.1", "common-core", "1.OA.A.1", "add and subtract within 20"),
        ConceptCard("ccss:4.OA.A.3", "common-core", "4.OA.A.3", "multistep word problems"),
        ConceptCard("ccss:7.EE.B.4", "common-core", "7.EE.B.4", "equations from word problems"),
    ]
    vectors = np.eye(3, 8, dtype=np.float32)
    return ConceptLinker(cards, vectors, lexical_weight=0.0)


def test_the_grade_is_a_prior_not_a_filter() -> None:
    linker = _linker()
    model = StandardModel(
        ("ccss:1.OA.A.1", "ccss:4.OA.A.3", "ccss:7.EE.B.4"),
        np.zeros((8 + len(TAGS) + 11, 3), np.float32),
        np.zeros(3, np.float32),
        8,
        "toy",
    )
    # A message nearest the grade-7 card, a little less near the grade-4 one.
    v = np.array([0.0, 0.95, 1.0, 0, 0, 0, 0, 0], dtype=np.float32)
    plain = linker.link("q", 3, v)["common-core"]
    assert plain[0].concept_id == "ccss:7.EE.B.4"
    fused = linker.with_model(model, weight=0.0, grade_weight=0.1)
    # A grade-4 student gets grade 4 first; the grade-7 standard is still listed.
    graded = [c.concept_id for c in fused.link("q", 3, v, grade="4")["common-core"]]
    assert graded[:2] == ["ccss:4.OA.A.3", "ccss:7.EE.B.4"]
    # A grade-8 student reviewing: standards below are penalised half as much.
    assert fused.link("q", 3, v, grade="8")["common-core"][0].concept_id == "ccss:7.EE.B.4"
    # No grade: the card search's order; the model's log-probability is in the evidence.
    top = fused.link("q", 3, v)["common-core"]
    assert [c.concept_id for c in top] == [c.concept_id for c in plain]
    assert top[0].evidence["model"] == pytest.approx(np.log(1 / 3), abs=1e-3)
    assert fused.infer_band("q", v) is not None and linker.infer_band("q", v) is None


def test_a_model_for_other_standards_is_refused_and_a_partial_one_floored() -> None:
    def model(*classes: str) -> StandardModel:
        n = len(classes)
        weights = np.zeros((8 + len(TAGS) + 11, n), np.float32)
        return StandardModel(classes, weights, np.zeros(n, np.float32), 8, "toy")

    with pytest.raises(ValueError, match="none is shared"):
        _linker().with_model(model("ccss:2.OA.A.1"))
    # A model that knows one of the three standards: the other two get the floor.
    partial = _linker().with_model(model("ccss:1.OA.A.1", "ccss:2.OA.A.1"), weight=1.0)
    top = partial.link("q", 3, np.eye(1, 8, 2, dtype=np.float32)[0])["common-core"]
    assert top[0].concept_id == "ccss:1.OA.A.1"
    assert top[1].evidence["model"] == MODEL_FLOOR


def test_the_bundled_standards_model_loads_and_is_refused_for_another_embedder(
    tmp_path: Path,
) -> None:
    from tutorgraph.config import Settings
    from tutorgraph.retrieval.factory import load_standards_model

    loaded = load_standards_model(Settings())
    model = loaded.value
    assert model is not None and loaded.reason is None and len(model.classes) > 500
    other, why_not = load_standards_model(Settings(embedding_model="x/y"))
    assert other is None and "was fitted over" in why_not
    assert (load_standards_model(Settings(linker_model="")).reason or "").startswith(
        "standards model turned off (TUTORGRAPH_LINKER_MODEL"
    )
    (tmp_path / "broken.npz").write_bytes(b"\0")
    broken, why_not = load_standards_model(Settings(linker_model=str(tmp_path / "broken.npz")))
    assert broken is None and "could not be loaded" in why_not

"""The learned ranker reading a fine-tuned encoder: its features, proposals, training with
cross-fitted scores and memories, and save/load with the encoder's targets and memory."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

from tutorgraph.errors import ConfigurationError
from tutorgraph.ranking.combiner import CombinerConfig
from tutorgraph.ranking.model import (
    FEATURES,
    TUNED_DIR,
    TUNED_EXAMPLES_FILE,
    CandidateSignals,
    LearnedRanker,
)
from tutorgraph.ranking.tuned import (
    TUNED_EXAMPLE_FEATURES,
    TUNED_FEATURES,
    TunedText,
    tuned_features,
)
from tutorgraph.training.crossfit_encoders import FoldEncoders, TunedEncoders
from tutorgraph.training.ranker import (
    LabelledQuery,
    RankerTrainingConfig,
    RankerTrainingData,
    fit_ranker,
)

pytestmark = pytest.mark.unit

TARGETS = [f"m{i}" for i in range(6)]
TEXTS = [f"misconception {i}" for i in range(6)]


class ToyEncoder:
    """A deterministic encoder: a text's vector is a seeded function of the text and of
    the encoder's own seed; it counts what it embedded."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.embedded: list[str] = []

    @property
    def name(self) -> str:
        return f"toy-{self.seed}"

    def embed(self, texts: list[str]) -> npt.NDArray[np.float32]:
        self.embedded += texts
        out = np.stack(
            [
                np.random.default_rng([self.seed, sum(map(ord, t)), len(t)]).normal(size=8)
                for t in texts
            ]
        ).astype(np.float32)
        return out / np.linalg.norm(out, axis=1, keepdims=True)

    def count_tokens(self, text: str) -> int:
        return len(text.split())


def test_tuned_features_give_cosine_rank_and_gap() -> None:
    scores = np.array([0.2, 0.9, 0.5], dtype=np.float32)
    rows = tuned_features(scores, [0, 1, None])
    assert rows[0] == pytest.approx((0.2, 3.0, 0.7))
    assert rows[1] == pytest.approx((0.9, 1.0, 0.0))
    assert all(math.isnan(v) for v in rows[2])


def _queries() -> list[LabelledQuery]:
    return [
        LabelledQuery(str(q), f"question {q} wrong answer {a}", TARGETS[(q + a) % 6], ("c1",))
        for q in range(30)
        for a in range(2)
    ]


Trained = tuple[LearnedRanker, FoldEncoders, ToyEncoder]
# One fit per value of `examples` for the module (the fit is the slow part of this file, and
# it is deterministic): (ranker, fold encoders, serving encoder, what each encoder had
# embedded once the fit was done).
_FITTED: dict[bool, tuple[LearnedRanker, FoldEncoders, ToyEncoder, list[list[str]]]] = {}


def _trained(*, examples: bool = True) -> Trained:
    """A ranker fitted on `_queries()` with three fold encoders and a serving encoder.

    Fitted once per value of `examples`; each call gets the encoders' `embedded` records as
    the fit left them, so no test sees what another embedded. The ranker is never changed in
    place (its `with_*`/`_replace` methods return new rankers), so it is shared as it is.
    """
    if examples not in _FITTED:
        ranker, folds, serving = _fit(examples=examples)
        encoders = [serving, *folds.encoders]
        _FITTED[examples] = (ranker, folds, serving, [list(e.embedded) for e in encoders])  # type: ignore[attr-defined]
    ranker, folds, serving, embedded = _FITTED[examples]
    for encoder, seen in zip([serving, *folds.encoders], embedded, strict=True):
        encoder.embedded[:] = seen  # type: ignore[attr-defined]
    return ranker, folds, serving


def _fit(*, examples: bool) -> Trained:
    base = ToyEncoder(0)
    folds = FoldEncoders([ToyEncoder(1), ToyEncoder(2), ToyEncoder(3)])
    serving = ToyEncoder(9)
    tuned = TunedEncoders(serving, "tuned-model", folds)
    data = RankerTrainingData(
        _queries(),
        TARGETS,
        base.embed(TEXTS),
        base.embed,
        config=RankerTrainingConfig(
            inner_folds=2,
            combiners=(CombinerConfig(n_estimators=5),),
            tuned_examples=examples,
        ),
        tuned=tuned.training(TEXTS),
    )
    ranker = fit_ranker(data, info={"embedder": "toy-0"})
    return ranker, folds, serving


def test_fold_encoders_score_each_question_with_the_encoder_that_left_it_out() -> None:
    folds = FoldEncoders([ToyEncoder(1), ToyEncoder(2)])
    queries = [LabelledQuery("4", "even question", "m0"), LabelledQuery("7", "odd question", "m1")]
    scores = folds.scores(queries, TEXTS)
    for q, row in zip(queries, scores, strict=True):
        encoder = folds.encoders[int(q.group) % 2]
        assert isinstance(encoder, ToyEncoder)
        want = encoder.embed(TEXTS) @ encoder.embed([q.text])[0]
        assert np.allclose(row, want, atol=1e-6)
    again = folds.scores(queries, TEXTS)  # cached: no encoder embeds anything new
    assert np.array_equal(scores, again)
    assert [e.embedded.count("even question") for e in folds.encoders] == [2, 0]  # type: ignore[attr-defined]


def test_fold_encoders_give_each_query_its_encoders_memory_of_every_query() -> None:
    folds = FoldEncoders([ToyEncoder(1), ToyEncoder(2)])
    queries = [
        LabelledQuery("4", "even question", "m0"),
        LabelledQuery("7", "odd question", "m1"),
        LabelledQuery("9", "another odd one", "m2"),
    ]
    texts = [q.text for q in queries]
    out = folds.queries(queries, TEXTS, examples=True)
    for q, tuned in zip(queries, out, strict=True):
        encoder = folds.encoders[int(q.group) % 2]
        assert isinstance(encoder, ToyEncoder)
        assert tuned.vector is not None and tuned.examples is not None
        assert np.allclose(tuned.vector, encoder.embed([q.text])[0], atol=1e-6)
        assert np.allclose(tuned.examples.vectors, encoder.embed(texts), atol=1e-6)
        assert tuned.examples.targets == ["m0", "m1", "m2"]
    # Leaving its own question out, the odd question's nearest example is another one's.
    best, _ = out[1].examples.scores(out[1].vector, exclude="7")  # type: ignore[union-attr]
    assert best[1] == -1.0 and best[0] > -1.0 and best[2] > -1.0
    assert folds.queries(queries, TEXTS)[0].examples is None


def test_fold_encoders_refuse_ids_that_are_not_numbers() -> None:
    folds = FoldEncoders([ToyEncoder(1), ToyEncoder(2)])
    with pytest.raises(ConfigurationError, match="numeric"):
        folds.scores([LabelledQuery("q-a", "text", "m0")], TEXTS)


def test_a_ranker_trained_with_a_tuned_encoder_reads_its_scores() -> None:
    ranker, _, serving = _trained(examples=False)
    assert ranker.feature_names == FEATURES + TUNED_FEATURES
    assert ranker.tuned is not None and ranker.tuned.embedder is serving
    query = ToyEncoder(0).embed(["a question"])[0]
    tuned = ranker.tuned.query(serving.embed(["a question"])[0])
    rows = ranker.features(query, ["c1"], [CandidateSignals(t) for t in TARGETS], tuned=tuned)
    assert all(len(row) == len(ranker.feature_names) for row in rows)
    best = int(np.argmax(tuned.scores))
    assert rows[best][-2:] == [1.0, 0.0]  # rank 1, no gap
    with pytest.raises(ConfigurationError, match="tuned scores"):
        ranker.features(query, ["c1"], [CandidateSignals("m0")])
    proposed = ranker.propose(query, [], 1, tuned=tuned)
    assert TARGETS[best] in proposed


def test_a_ranker_with_a_tuned_memory_votes_with_the_serving_encoders_examples() -> None:
    ranker, _, serving = _trained()
    assert ranker.feature_names == FEATURES + TUNED_FEATURES + TUNED_EXAMPLE_FEATURES
    assert ranker.tuned is not None and ranker.tuned.examples is not None
    queries = _queries()
    # The shipped memory: every labelled query under the serving encoder.
    assert np.allclose(
        ranker.tuned.examples.vectors, serving.embed([q.text for q in queries]), atol=1e-6
    )
    text = queries[0].text
    tuned = ranker.tuned.query(serving.embed([text])[0])
    signals = [CandidateSignals(t) for t in TARGETS]
    query = ToyEncoder(0).embed([text])[0]
    rows = ranker.features(query, ["c1"], signals, tuned=tuned)
    assert tuned.vector is not None
    want = ranker.tuned.examples.features(tuned.vector, TARGETS)
    assert [r[-2] for r in rows] == want["example_max_sim"]
    assert [r[-1] for r in rows] == want["example_vote"]
    assert rows[TARGETS.index(queries[0].target)][-2] == pytest.approx(1.0, abs=1e-5)
    with pytest.raises(ConfigurationError, match="examples under the tuned encoder"):
        ranker.features(query, ["c1"], signals, tuned=tuned._replace(examples=None))


def test_training_rows_come_from_the_fold_encoders_not_the_serving_one() -> None:
    _, folds, serving = _trained(examples=False)
    texts = {q.text for q in _queries()}
    assert not texts & set(serving.embedded)  # the serving encoder embedded the targets only
    for k, encoder in enumerate(folds.encoders):
        assert isinstance(encoder, ToyEncoder)
        seen = set(encoder.embedded) & texts
        assert seen and all(int(t.split()[1]) % 3 == k for t in seen)


def test_save_and_load_keep_the_tuned_targets_once(tmp_path: Path) -> None:
    ranker, _, serving = _trained()
    ranker = ranker.with_text_only(ranker._replace(info={"embedder": "toy-0"}))
    ranker.save(tmp_path)
    assert (tmp_path / TUNED_DIR / "targets.npy").is_file()
    assert not (tmp_path / "text" / TUNED_DIR).exists()
    assert (tmp_path / TUNED_EXAMPLES_FILE).is_file()
    assert (tmp_path / "text" / TUNED_EXAMPLES_FILE).is_file()
    again = LearnedRanker.load(tmp_path)
    assert again.tuned is not None and again.tuned.embedder is None
    assert again.feature_names == ranker.feature_names
    assert again.tuned.examples is not None and len(again.tuned.examples) == len(_queries())
    assert again.tuned.model == "tuned-model"
    assert again.text_only is not None and again.text_only.tuned is not None
    served = again.with_tuned_embedder(serving)
    assert served.tuned is not None and served.tuned.embedder is serving
    assert served.text_only is not None and served.text_only.tuned is not None
    assert served.text_only.tuned.embedder is serving
    q = ToyEncoder(0).embed(["x"])[0]
    assert ranker.tuned is not None
    signals = [CandidateSignals(t) for t in TARGETS]
    assert ranker.combiner is not None and served.combiner is not None
    before = ranker.tuned.query(serving.embed(["x"])[0])
    after = served.tuned.query(serving.embed(["x"])[0])
    a = ranker.combiner.score(ranker.features(q, ["c1"], signals, tuned=before))
    b = served.combiner.score(served.features(q, ["c1"], signals, tuned=after))
    assert np.allclose(a, b, atol=1e-2)  # vectors stored as fp16


def test_a_ranker_without_its_tuned_targets_is_refused(tmp_path: Path) -> None:
    ranker, _, _ = _trained()
    ranker.save(tmp_path)
    (tmp_path / TUNED_DIR / "targets.npy").unlink()
    (tmp_path / TUNED_DIR).rmdir()
    with pytest.raises(ConfigurationError, match="tuned"):
        LearnedRanker.load(tmp_path)


def test_tuned_text_scores_are_cosines() -> None:
    v = ToyEncoder(5).embed(TEXTS)
    part = TunedText(v, "m")
    assert np.allclose(part.scores(v[2]), v @ v[2])

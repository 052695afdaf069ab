"""Cross-fitting the ranker: no training row sees its own label (the fold-isolation rule)."""

from __future__ import annotations

import hashlib
from dataclasses import asdict, replace

import numpy as np
import pytest

from tutorgraph.ranking.adapter import AdapterConfig
from tutorgraph.ranking.combiner import CombinerConfig
from tutorgraph.ranking.examples import EXAMPLE_FEATURES, ExampleMemory
from tutorgraph.ranking.model import FEATURES
from tutorgraph.ranking.prior import PRIOR_FEATURES, LabelledExample, LinkPrior
from tutorgraph.training.ranker import (
    LabelledQuery,
    RankerTrainingConfig,
    RankerTrainingData,
    cross_fit,
    fit_ranker,
    inner_fold,
    pick_combiner,
)

pytestmark = pytest.mark.unit

TARGETS = [f"m{i}" for i in range(12)]
CONFIG = RankerTrainingConfig(proposals=5, adapter=AdapterConfig(steps=20))


def embed(texts: list[str]) -> np.ndarray:
    """A fixed random unit vector per text (the hash of the text seeds it)."""
    out = []
    for t in texts:
        seed = int(hashlib.sha256(t.encode()).hexdigest()[:8], 16)
        v = np.random.default_rng(seed).normal(size=16)
        out.append(v / np.linalg.norm(v))
    return np.array(out, dtype=np.float32)


def queries() -> list[LabelledQuery]:
    out = []
    for q in range(40):
        for answer in range(2):
            target = TARGETS[(q * 2 + answer) % 11]  # m11 is never a label ...
            out.append(
                LabelledQuery(f"q{q}", f"question {q} answer {answer}", target, (f"c{q % 4}",))
            )
    # ... and m11 once, in one group only
    out.append(LabelledQuery("lonely", "the lonely question", "m11", ("c0",)))
    return out


def test_no_training_row_sees_its_own_groups_labels() -> None:
    data = queries()
    fit = cross_fit(RankerTrainingData(data, TARGETS, embed(TARGETS), embed, config=CONFIG))
    columns = [FEATURES.index(n) for n in (*PRIOR_FEATURES, *EXAMPLE_FEATURES)]
    for q, pool, group in zip(fit.queries, fit.pools, fit.groups, strict=True):
        others = [x for x in data if x.group != q.group]
        prior = LinkPrior.build(LabelledExample(x.group, x.target, x.concept_ids) for x in others)
        memory = ExampleMemory(
            embed([x.text for x in others]), [x.target for x in others], [x.group for x in others]
        )
        want_prior = prior.features(q.concept_ids, pool)
        want_examples = memory.features(embed([q.text])[0], pool)
        for n, row in enumerate(group.rows):
            got = [row[c] for c in columns]
            want = [want_prior[f][n] for f in PRIOR_FEATURES]
            want += [want_examples[f][n] for f in EXAMPLE_FEATURES]
            assert got == pytest.approx(want, abs=1e-5), (q.group, pool[n])


def test_a_lonely_label_has_no_evidence_in_its_own_row() -> None:
    # every target in every pool (the adapter's top 12 of 12), so m11 is in its own row
    config = RankerTrainingConfig(proposals=len(TARGETS), adapter=AdapterConfig(steps=20))
    fit = cross_fit(RankerTrainingData(queries(), TARGETS, embed(TARGETS), embed, config=config))
    i = next(i for i, q in enumerate(fit.queries) if q.group == "lonely")
    row = fit.groups[i].rows[fit.pools[i].index("m11")]
    assert row[FEATURES.index("concept_count")] == 0.0
    assert row[FEATURES.index("global_log_count")] == 0.0
    assert row[FEATURES.index("example_max_sim")] == -1.0


def test_inner_folds_are_stable_and_fit_ranker_records_its_training() -> None:
    assert inner_fold("q7", 3) == inner_fold("q7", 3)
    assert {inner_fold(f"q{i}", 3) for i in range(30)} == {0, 1, 2}
    ranker = fit_ranker(
        RankerTrainingData(queries(), TARGETS, embed(TARGETS), embed, config=CONFIG),
        info={"embedder": "toy"},
    )
    assert ranker.combiner is not None and ranker.embedder == "toy"
    assert ranker.info["queries"] == len(queries())
    assert 0.0 <= ranker.info["pool_recall"] <= 1.0
    # Both default combiner settings were compared by the inner CV; the record says which won.
    compared = ranker.info["combiners_inner_map@25"]
    assert len(compared) == len(CONFIG.combiners) == 2
    assert ranker.info["combiner"] == asdict(CONFIG.combiners[compared.index(max(compared))])


def test_the_combiner_setting_that_ranks_better_in_the_inner_cv_is_picked() -> None:
    fit = cross_fit(RankerTrainingData(queries(), TARGETS, embed(TARGETS), embed, config=CONFIG))
    names = FEATURES
    # A one-split stump against the default: the default must rank better and win, whichever
    # order the settings come in.
    stump = CombinerConfig(n_estimators=1, num_leaves=2)
    for settings in ((stump, CombinerConfig()), (CombinerConfig(), stump)):
        config = replace(CONFIG, combiners=settings)
        chosen, scores = pick_combiner(fit, names, config, lambda _line: None)
        assert chosen == CombinerConfig() and max(scores) == scores[settings.index(chosen)]
    # One setting: nothing to compare.
    assert pick_combiner(fit, names, replace(CONFIG, combiners=(stump,)), print) == (stump, [])

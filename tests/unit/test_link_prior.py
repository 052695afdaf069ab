"""The graph prior: shares per concept and parent, and leaving a whole group out."""

from __future__ import annotations

import random

import pytest

from tutorgraph.ranking.prior import PRIOR_FEATURES, LabelledExample, LinkPrior

pytestmark = pytest.mark.unit

PARENTS = {"c1": ["s1"], "c2": ["s1"], "c3": ["s2"]}


def examples() -> list[LabelledExample]:
    rng = random.Random(3)
    out = []
    for q in range(60):
        concept = rng.choice(["c1", "c2", "c3"])
        for _ in range(rng.randint(1, 3)):  # a question has up to three labelled answers
            out.append(LabelledExample(f"q{q}", f"m{rng.randint(0, 9)}", (concept,)))
    return out


def test_shares_by_hand() -> None:
    prior = LinkPrior.build(
        [
            LabelledExample("q1", "m1", ("c1",)),
            LabelledExample("q1", "m2", ("c1",)),
            LabelledExample("q2", "m1", ("c2",)),
        ],
        PARENTS,
    )
    f = prior.features(["c1"], ["m1", "m2", "m3"])
    assert f["concept_count"] == [1.0, 1.0, 0.0]
    assert f["concept_share"] == [0.5, 0.5, 0.0]
    # s1 holds c1 and c2: m1 twice, m2 once
    assert f["parent_share"] == [pytest.approx(2 / 3, abs=1e-6), pytest.approx(1 / 3, abs=1e-6), 0]
    assert f["global_log_count"][2] == 0.0


def test_leaving_a_group_out_equals_building_without_it() -> None:
    data = examples()
    full = LinkPrior.build(data, PARENTS)
    candidates = [f"m{i}" for i in range(10)]
    for group in sorted({ex.group for ex in data}):
        without = LinkPrior.build([ex for ex in data if ex.group != group], PARENTS)
        concepts = list(next(ex.concept_ids for ex in data if ex.group == group))
        assert full.features(concepts, candidates, exclude=group) == without.features(
            concepts, candidates
        )


def test_a_label_never_reaches_its_own_rows_features() -> None:
    # A target seen only in one group has no prior at all once that group is left out.
    data = [*examples(), LabelledExample("lonely", "m-rare", ("c1",))]
    prior = LinkPrior.build(data, PARENTS)
    f = prior.features(["c1"], ["m-rare"], exclude="lonely")
    assert all(f[name] == [0.0] for name in PRIOR_FEATURES)
    assert prior.features(["c1"], ["m-rare"])["concept_count"] == [1.0]


def test_json_round_trip_keeps_the_features() -> None:
    prior = LinkPrior.build(examples(), PARENTS)
    again = LinkPrior.from_json(prior.to_json())
    candidates = [f"m{i}" for i in range(10)]
    for concepts in (["c1"], ["c2", "c3"], ["unknown"]):
        assert again.features(concepts, candidates) == prior.features(concepts, candidates)

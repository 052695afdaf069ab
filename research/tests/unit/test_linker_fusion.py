"""The standards linker the product serves fuses its scores as `tasks.linker_fit.fuse`, the
fusion `research/scripts/linker_cv.py` cross-validated."""

from __future__ import annotations

import numpy as np
import pytest
from tests.unit.test_grade_and_standards_model import _linker

from tutorgraph.linking.linker import grade_penalty
from tutorgraph.linking.standards_model import TAGS, StandardModel
from tutorgraph_research.tasks.linker_fit import cluster_log_p, fuse

pytestmark = pytest.mark.unit


def test_the_served_fusion_is_the_one_cross_validated() -> None:
    """`research/scripts/linker_cv.py` scores batches with `linker_fit.fuse`; the served
    linker must compute the same scores, or its figures describe another linker."""
    linker = _linker()
    rng = np.random.default_rng(1)
    classes = ("ccss:1.OA.A.1", "ccss:4.OA.A.3", "ccss:7.EE.B.4")
    model = StandardModel(
        classes,
        rng.normal(size=(8 + len(TAGS) + 11, 3)).astype(np.float32),
        rng.normal(size=3).astype(np.float32),
        8,
        "toy",
    )
    fused = linker.with_model(model, weight=0.05, cluster_weight=0.02, grade_weight=0.08)
    v = rng.normal(size=8).astype(np.float32)
    tags = frozenset({"story", "story:add"})
    served = fused.standard_scores("two more", v, grade="3", tags=tags)
    base = linker.standard_scores("two more", v, prior=False)
    log_p = model.log_proba(v, "two more", "3", tags)[None, :]
    levels = np.array([1, 4, 7], dtype=np.float32)
    clusters = cluster_log_p(log_p, np.array([0, 1, 2]))
    expected = fuse(
        base[None, :], log_p, grade_penalty(levels, "3")[None, :], 0.05, 0.08,
        cluster_log=clusters, cluster_weight=0.02,
    )[0]  # fmt: skip
    assert np.allclose(served, expected, atol=1e-5)

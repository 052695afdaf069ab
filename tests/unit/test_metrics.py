"""Ranking metrics (AP@k, recall@k, MRR) and the Eedi benchmark's misconception ranking."""

from __future__ import annotations

import numpy as np
import pytest

from tutorgraph.ranking.metrics import (
    average_precision_at_k,
    cosine_map_at_k,
    recall_at_k,
    reciprocal_rank,
)
from tutorgraph_client.models.packet import STAGES, Hit, ReasoningPacket
from tutorgraph_research.tasks.eedi import misconception_ranking
from tutorgraph_research.tasks.eedi_bench import PROFILE_NAMES, config_names

pytestmark = pytest.mark.unit


@pytest.mark.parametrize(
    ("ranked", "relevant", "k", "ap"),
    [
        (["m1"], {"m1"}, 25, 1.0),
        (["m3", "m1"], {"m1"}, 25, 0.5),
        (["m3", "m4", "m1"], {"m1"}, 25, 1 / 3),
        (["m3", "m4", "m1"], {"m1"}, 2, 0.0),  # beyond k counts nothing
        ([], {"m1"}, 25, 0.0),
        (["m1"], set(), 25, 0.0),
        # Two relevant: precision at each relevant hit, over min(|relevant|, k).
        (["a", "x", "b"], {"a", "b"}, 25, (1 / 1 + 2 / 3) / 2),
        (["x", "a", "b"], {"a", "b"}, 1, 0.0),
        (["a", "b"], {"a", "b", "c"}, 2, (1 + 1) / 2),
    ],
)
def test_average_precision_at_k(ranked: list[str], relevant: set[str], k: int, ap: float) -> None:
    assert average_precision_at_k(ranked, relevant, k) == pytest.approx(ap)


def test_map_at_25_of_single_target_is_reciprocal_rank_within_25() -> None:
    ranked = [f"m{i}" for i in range(40)]
    for pos in (0, 4, 24, 25, 39):
        target = {f"m{pos}"}
        expected = 1 / (pos + 1) if pos < 25 else 0.0
        assert average_precision_at_k(ranked, target, 25) == pytest.approx(expected)
        assert reciprocal_rank(ranked, target) == pytest.approx(1 / (pos + 1))


@pytest.mark.parametrize(
    ("ranked", "relevant", "k", "recall"),
    [
        (["m3", "m1"], {"m1"}, 1, 0.0),
        (["m3", "m1"], {"m1"}, 2, 1.0),
        (["a", "x", "b"], {"a", "b", "c", "d"}, 3, 0.5),
        (["a", "a"], {"a"}, 25, 1.0),
        (["a"], set(), 25, 0.0),
    ],
)
def test_recall_at_k(ranked: list[str], relevant: set[str], k: int, recall: float) -> None:
    assert recall_at_k(ranked, relevant, k) == pytest.approx(recall)


def test_reciprocal_rank_absent_is_zero() -> None:
    assert reciprocal_rank(["a", "b"], {"z"}) == 0.0
    assert reciprocal_rank([], {"z"}) == 0.0


def _hit(id_: str, kind: str, ids: list[str] | None = None) -> Hit:
    return Hit(
        id=id_,
        ids=ids or [id_],
        kind=kind,  # type: ignore[arg-type]
        text="t",
        score=0.1,
        rank=1,
        found_by=["vector"],
        fused_score=0.1,
    )


def test_misconception_ranking_counts_merged_ids_and_skips_other_kinds() -> None:
    packet = ReasoningPacket(
        query="q",
        timings_ms=dict.fromkeys(STAGES, 0.0),
        results=[
            _hit("eedi:construct:1428", "concept"),
            _hit("eedi:misconception:1535", "misconception"),
            _hit("eedi:question:474", "question"),
            # identical texts merged: the hit's id is 2068 but it also holds the target
            _hit(
                "eedi:misconception:2068",
                "misconception",
                ["eedi:misconception:2068", "eedi:misconception:2142"],
            ),
        ],
    )
    ranking = misconception_ranking(packet, "eedi:misconception:2142")
    assert ranking == ["eedi:misconception:1535", "eedi:misconception:2142"]
    assert average_precision_at_k(ranking, {"eedi:misconception:2142"}, 25) == 0.5


def test_benchmark_config_names() -> None:
    names = config_names()
    assert names[:8] == [
        "vector/text",
        "vector/construct",
        "lexical/text",
        "lexical/construct",
        "graph/text",
        "graph/construct",
        "hybrid/text",
        "hybrid/construct",
    ]
    # Design section 8: <sources>/<context>[/<profile>-<fusion>][/rerank-<model>]
    # [/refine-<refiner>][/ranker][/diagnosis]; every hybrid config (2 plain + 16 profile x
    # fusion) also comes with each of 3 rerankers, with the local refiner and with the
    # learned ranker; the 2 plain ones with refiner and ranker, and with the local refiner
    # (with and without the ranker) and the diagnosis; and default/<context>; then the
    # diagnosis and default rows again with the near-duplicate merge.
    assert len(names) == 8 + 2 * 4 * 2 + (2 + 2 * 4 * 2) * (3 + 1 + 1) + 2 + 2 * 2 + 2 + 6
    assert "hybrid/text/refine-local/ranker/diagnosis" in names
    assert "hybrid/construct/refine-local/ranker" in names
    assert names[-8:-6] == ["default/text", "default/construct"]
    assert names[-2:] == ["default/text/merge", "default/construct/merge"]
    assert "hybrid/text/refine-local" in names
    assert "hybrid/construct/semantic-weighted" in names
    assert config_names("hybrid/*-rrf") == [
        f"hybrid/{c}/{p}-rrf" for c in ("text", "construct") for p in PROFILE_NAMES
    ]


def test_cosine_map_ranks_every_target_by_its_dot_product() -> None:
    targets = np.eye(3, dtype=np.float32)
    queries = np.array([[0.9, 0.1, 0.0], [0.6, 0.0, 0.4]], dtype=np.float32)
    # The first query's gold is its best target; the second's ("c") comes second.
    assert cosine_map_at_k(queries, targets, ["a", "b", "c"], ["a", "c"]) == pytest.approx(0.75)
    assert cosine_map_at_k(queries, targets, ["a", "b", "c"], ["b", "b"], k=1) == 0.0

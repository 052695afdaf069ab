"""Reranker options, query truncation and the benchmark's rerank config names (no models)."""

from __future__ import annotations

import pytest

from tutorgraph.errors import ConfigurationError
from tutorgraph.retrieval.reranker import RerankerOptions, _head_tail
from tutorgraph.training.cross_encoder import TrainingConfig
from tutorgraph_research.tasks.eedi_bench import RERANK_MODELS, bench_config, config_names

pytestmark = pytest.mark.unit


def test_head_tail_keeps_both_ends() -> None:
    assert _head_tail(list(range(10)), 4) == [0, 1, 8, 9]
    assert _head_tail(list(range(10)), 5) == [0, 1, 2, 8, 9]
    assert _head_tail([1, 2], 4) == [1, 2]


@pytest.mark.parametrize(
    "kw",
    [
        {"max_length": 8},
        {"max_length": 1024},
        {"max_length": 64, "query_max_tokens": 64},
        {"batch_size": 0},
        {"cache_size": -1},
    ],
)
def test_bad_reranker_options_are_refused(kw: dict[str, int]) -> None:
    with pytest.raises(ConfigurationError):
        RerankerOptions(**kw)


@pytest.mark.parametrize(
    "kw",
    [{"epochs": 0}, {"negatives": 0, "random_negatives": 0}, {"layers": 0}, {"batch_size": 1}],
)
def test_bad_training_configs_are_refused(kw: dict[str, float]) -> None:
    with pytest.raises(ConfigurationError):
        TrainingConfig(**kw)  # type: ignore[arg-type]


def test_rerank_configs_extend_every_hybrid_config() -> None:
    names = config_names()
    assert "hybrid/construct/rerank-domain" in names
    assert "hybrid/text/semantic-weighted/rerank-domain-int8" in names
    assert not any(n.startswith(("vector/", "lexical/", "graph/")) and "rerank" in n for n in names)
    hybrid = [n for n in names if n.startswith("hybrid/") and "/re" not in n and "/ranker" not in n]
    assert len([n for n in names if "rerank" in n]) == len(hybrid) * len(RERANK_MODELS)


def test_comma_separated_globs() -> None:
    chosen = config_names("hybrid/construct,hybrid/construct/semantic-weighted/rerank-domain*")
    assert chosen == [
        "hybrid/construct",
        "hybrid/construct/semantic-weighted/rerank-domain",
        "hybrid/construct/semantic-weighted/rerank-domain-int8",
    ]


def test_config_names_map_onto_run_configs() -> None:
    cfg = bench_config("hybrid/construct/semantic-weighted/rerank-domain-int8")
    assert (cfg.sources, cfg.context, cfg.reranker) == (
        ("vector", "lexical", "graph"),
        True,
        "domain-int8",
    )
    assert (cfg.profile, cfg.fusion) == ("semantic", "weighted")
    plain = bench_config("hybrid/text/rerank-msmarco")
    # What a name leaves out is the request's default.
    assert (plain.profile, plain.fusion, plain.graph_scope, plain.context) == (
        None,
        "rrf",
        None,
        False,
    )
    assert plain.reranker == "msmarco" and plain.request_fields()["rerank"] is True
    assert bench_config("vector/text").sources == ("vector",)
    assert bench_config("vector/text").reranker == "none"


def test_refine_configs_extend_every_hybrid_config() -> None:
    cfg = bench_config("hybrid/text/semantic-weighted/refine-local")
    assert (cfg.reranker, cfg.refiner, cfg.profile) == ("none", "local", "semantic")
    plain = bench_config("hybrid/text/refine-local")
    assert (plain.profile, plain.reranker, plain.refiner) == (None, "none", "local")
    assert bench_config("hybrid/text").refiner == "none"
    assert bench_config("hybrid/text").request_fields()["use_refinement"] is False


def test_default_is_what_ships() -> None:
    cfg = bench_config("default/construct")
    assert cfg.name == "default/construct"
    assert (cfg.refiner, cfg.ranker, cfg.diagnosis, cfg.reranker) == ("local", True, True, "none")

"""The `bench eedi` configurations are one registry of `RunConfig`s (name -> config, built by
composition); the names, their order and every field are the ones the path-style names
stood for before the registry (128 of them)."""

from __future__ import annotations

import dataclasses

import pytest

from tutorgraph.config import NEAR_DUPLICATE_THRESHOLD
from tutorgraph.errors import ConfigurationError
from tutorgraph.ranking.metrics import average_precision_at_k
from tutorgraph_client.models.packet import TIMING_KEYS, Hit, ReasoningPacket
from tutorgraph_client.models.request import SourceName
from tutorgraph_research.harness.configs import RunConfig
from tutorgraph_research.tasks.eedi import misconception_ranking
from tutorgraph_research.tasks.eedi_bench import (
    PROFILE_NAMES,
    RERANK_MODELS,
    bench_config,
    bench_configs,
    config_names,
)

pytestmark = pytest.mark.unit

HYBRID: tuple[SourceName, ...] = ("vector", "lexical", "graph")


def test_the_registry_holds_every_name_once_in_table_order() -> None:
    registry = bench_configs()
    assert len(registry) == 128
    assert list(registry) == config_names()
    assert all(name == config.name for name, config in registry.items())
    assert list(registry)[:3] == ["vector/text", "vector/construct", "lexical/text"]
    assert list(registry)[-6:] == [
        "hybrid/text/refine-local/diagnosis/merge",
        "hybrid/text/refine-local/ranker/diagnosis/merge",
        "hybrid/construct/refine-local/diagnosis/merge",
        "hybrid/construct/refine-local/ranker/diagnosis/merge",
        "default/text/merge",
        "default/construct/merge",
    ]
    # A copy: changing it changes nothing.
    registry.clear()
    assert len(bench_configs()) == 128


@pytest.mark.parametrize(
    ("name", "fields"),
    [
        (
            "graph/construct",
            {"sources": ("graph",), "profile": None, "fusion": "rrf"},
        ),
        (
            "hybrid/text/balanced-weighted/rerank-domain-int8",
            {"sources": HYBRID, "profile": "balanced", "fusion": "weighted"},
        ),
        ("hybrid/construct/exact-rrf/ranker", {"profile": "exact", "ranker": True}),
        ("hybrid/text/refine-local/ranker", {"refiner": "local", "ranker": True}),
        (
            "hybrid/construct/refine-local/diagnosis",
            {"refiner": "local", "ranker": False, "diagnosis": True},
        ),
    ],
)
def test_each_name_is_its_segments(name: str, fields: dict[str, object]) -> None:
    config = bench_config(name)
    expected = RunConfig(
        name,
        factor="bench",
        sources=HYBRID,
        profile=None,
        fusion="rrf",
        graph_scope=None,
        refiner="none",
        reranker="none",
        context=name.split("/")[1] == "construct",
    )
    reranker = name.rpartition("/rerank-")[2] if "/rerank-" in name else "none"
    expected = dataclasses.replace(expected, reranker=reranker, **fields)  # type: ignore[arg-type]
    assert config == expected
    assert (config.hops, config.near_duplicate_threshold) == (None, None)


def test_default_and_merge_rows() -> None:
    default = bench_config("default/construct")
    assert default == dataclasses.replace(
        bench_config("hybrid/construct/refine-local/ranker/diagnosis"), name="default/construct"
    )
    merged = bench_config("default/text/merge")
    assert merged == dataclasses.replace(
        bench_config("default/text"),
        name="default/text/merge",
        near_duplicate_threshold=NEAR_DUPLICATE_THRESHOLD,
    )


@pytest.mark.parametrize(
    "name", ["hybrid/text/rerank-nothing", "vector/text/rerank-domain", "default", ""]
)
def test_an_unknown_name_is_a_configuration_error(name: str) -> None:
    with pytest.raises(ConfigurationError, match="is none of vector/text, vector/construct"):
        bench_config(name)
    with pytest.raises(ConfigurationError, match="matches none of"):
        config_names("nothing/*")


# -- the names' shapes (from test_metrics.py and test_rerank_config.py) ---------------------


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


# -- the Eedi benchmark's misconception ranking (from test_metrics.py) ---------------------


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
        timings_ms=dict.fromkeys(TIMING_KEYS, 0.0),
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

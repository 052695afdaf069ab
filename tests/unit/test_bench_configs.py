"""The `bench eedi` configurations are one registry of `RunConfig`s (name -> config, built by
composition); the names, their order and every field are the ones the path-style names
stood for before the registry (128 of them)."""

from __future__ import annotations

import dataclasses

import pytest

from tutorgraph.config import NEAR_DUPLICATE_THRESHOLD
from tutorgraph.errors import ConfigurationError
from tutorgraph_client.models.request import SourceName
from tutorgraph_research.harness.configs import RunConfig
from tutorgraph_research.tasks.eedi_bench import bench_config, bench_configs, config_names

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

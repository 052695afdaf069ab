"""One configuration carrier: the settings reach the retriever through
`RetrieverConfig.from_settings`, with each default written once (`tutorgraph.config`), and
the library, the settings and the CLI agree on every default they share."""

from __future__ import annotations

import pytest
from pydantic import SecretStr

from tutorgraph.config import (
    BREAKER_COOLDOWN_S,
    BREAKER_FAILURES,
    CHAT_MODEL,
    DIAGNOSIS,
    LESSON_SLOTS,
    RANKER_PROPOSALS,
    REFINER_CACHE_SIZE,
    REFINER_TIMEOUT_S,
    RERANK_DEPTH,
    SOURCE_TIMEOUT_S,
    Settings,
)
from tutorgraph.errors import ConfigurationError
from tutorgraph.refinement.openai_refiner import DEFAULT_REFINER_MODEL, OpenAIRefiner
from tutorgraph.retrieval.factory import build_refiner, openai_unavailable
from tutorgraph.retrieval.retriever import RetrieverConfig
from tutorgraph.retrieval.retriever_config import OpenAIRefinerConfig
from tutorgraph.training.ranker import RankerTrainingConfig

pytestmark = pytest.mark.unit

_OPENAI_ENV = ("TUTORGRAPH_OPENAI_API_KEY", "OPENAI_API_KEY", "TUTORGRAPH_OPENAI_BASE_URL")


@pytest.fixture
def no_openai(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in _OPENAI_ENV:
        monkeypatch.delenv(name, raising=False)


@pytest.mark.usefixtures("no_openai")
def test_the_settings_and_the_config_share_their_defaults() -> None:
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    config = RetrieverConfig()
    assert config == RetrieverConfig.from_settings(settings)
    assert config.rerank_depth == settings.rerank_depth == RERANK_DEPTH
    assert config.source_timeout_s == settings.source_timeout_s == SOURCE_TIMEOUT_S
    assert config.lesson_slots == settings.lesson_slots == LESSON_SLOTS
    assert config.breaker_failures == settings.breaker_failures == BREAKER_FAILURES == 3
    assert config.breaker_cooldown_s == settings.breaker_cooldown_s == BREAKER_COOLDOWN_S
    # No server behind any source: no source breaker (the OpenAI refiner's is always there).
    assert config.breaker_sources == frozenset()
    assert config.refiner == "local"
    openai = config.openai
    assert openai.model == settings.refiner_model == DEFAULT_REFINER_MODEL == CHAT_MODEL
    assert openai.timeout_s == settings.refiner_timeout_s == REFINER_TIMEOUT_S
    assert openai.cache_size == settings.refiner_cache_size == REFINER_CACHE_SIZE
    # The ranker proposes as many misconceptions as it was trained to.
    assert config.ranker_proposals == RankerTrainingConfig().proposals == RANKER_PROPOSALS


@pytest.mark.usefixtures("no_openai")
def test_the_library_the_settings_and_the_cli_agree_that_diagnosis_is_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from tutorgraph.cli._common import load_settings

    monkeypatch.delenv("TUTORGRAPH_DIAGNOSIS", raising=False)
    # The CLI's retriever is `open_retriever(load_settings())`'s: from its settings.
    cli = RetrieverConfig.from_settings(load_settings())
    assert RetrieverConfig().diagnosis is Settings().diagnosis is cli.diagnosis is DIAGNOSIS
    assert DIAGNOSIS is True
    assert cli == RetrieverConfig()


def test_the_settings_reach_the_config() -> None:
    settings = Settings(
        rerank_depth=12,
        source_timeout_s=0.5,
        breaker_failures=5,
        breaker_cooldown_s=30.0,
        diagnosis=False,
        lesson_slots=0,
        openai_api_key=None,
        openai_base_url=None,
    )
    config = RetrieverConfig.from_settings(settings)
    assert config == RetrieverConfig(
        rerank_depth=12,
        source_timeout_s=0.5,
        breaker_failures=5,
        breaker_cooldown_s=30.0,
        lesson_slots=0,
        diagnosis=False,
    )
    assert config.refiner == "local" and config.diagnosis is False


def test_the_sources_behind_a_server_get_a_circuit_breaker() -> None:
    settings = Settings(neo4j_uri="bolt://localhost:7687", chroma_host="localhost")
    assert RetrieverConfig.from_settings(settings).breaker_sources == {"graph", "vector"}
    only = Settings(neo4j_uri="bolt://localhost:7687", chroma_host=None)
    assert RetrieverConfig.from_settings(only).breaker_sources == {"graph"}


def test_a_key_or_url_chooses_the_openai_refiner_with_its_settings() -> None:
    settings = Settings(
        openai_api_key="sk-test", refiner_model="m", refiner_timeout_s=3.0, refiner_cache_size=7
    )
    config = RetrieverConfig.from_settings(settings)
    assert config.refiner == "openai"
    assert config.openai == OpenAIRefinerConfig(
        api_key=SecretStr("sk-test"), model="m", timeout_s=3.0, cache_size=7
    )
    assert "sk-test" not in repr(config)  # a secret stays one
    url = Settings(openai_api_key=None, openai_base_url="http://localhost:8000/v1")
    assert openai_unavailable(url) is None
    assert RetrieverConfig.from_settings(url).refiner == "openai"


def test_the_openai_refiner_is_built_from_the_config() -> None:
    pytest.importorskip("openai")

    class _Index:
        graph = None
        linker = None

        def vocabulary(self) -> dict[str, int]:
            return {}

    openai = OpenAIRefinerConfig(base_url="http://localhost:9/v1", timeout_s=0.7, cache_size=3)
    refiner = build_refiner(RetrieverConfig(refiner="openai", openai=openai), _Index())  # type: ignore[arg-type]
    assert isinstance(refiner, OpenAIRefiner)
    assert refiner._timeout_s == 0.7 and refiner._model == CHAT_MODEL


def test_the_openai_refiner_needs_a_key_or_url_and_never_reads_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A key in the environment is not read behind the caller's back.
    monkeypatch.setenv("TUTORGRAPH_OPENAI_API_KEY", "sk-test")
    with pytest.raises(ConfigurationError, match="cannot run: no OpenAI key or base URL"):
        build_refiner(RetrieverConfig(refiner="openai"), index=None)  # type: ignore[arg-type]

"""One configuration carrier: the settings' retrieval knobs reach the retriever through
`RetrieverConfig.from_settings`, with each default written once (`tutorgraph.config`)."""

from __future__ import annotations

import pytest

from tutorgraph.config import LESSON_SLOTS, RERANK_DEPTH, SOURCE_TIMEOUT_S, Settings
from tutorgraph.errors import ConfigurationError
from tutorgraph.retrieval.factory import RetrieverSetup, build_refiner
from tutorgraph.retrieval.retriever import RetrieverConfig

pytestmark = pytest.mark.unit


def test_the_settings_and_the_config_share_their_defaults() -> None:
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    assert RetrieverConfig() == RetrieverConfig.from_settings(settings)
    assert RetrieverConfig().rerank_depth == settings.rerank_depth == RERANK_DEPTH
    assert RetrieverConfig().source_timeout_s == settings.source_timeout_s == SOURCE_TIMEOUT_S
    assert RetrieverConfig().lesson_slots == settings.lesson_slots == LESSON_SLOTS


def test_the_settings_reach_the_config_and_the_setup() -> None:
    settings = Settings(rerank_depth=12, source_timeout_s=0.5, diagnosis=False, lesson_slots=0)
    setup = RetrieverSetup.from_settings(settings)
    assert setup.config == RetrieverConfig(rerank_depth=12, source_timeout_s=0.5, lesson_slots=0)
    assert setup.refiner == "local" and setup.diagnosis is False


def test_the_openai_refiner_needs_settings_and_never_reads_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A key in the environment is not read behind the caller's back.
    monkeypatch.setenv("TUTORGRAPH_OPENAI_API_KEY", "sk-test")
    with pytest.raises(ConfigurationError, match="needs the settings"):
        build_refiner(RetrieverSetup(refiner="openai"), index=None)  # type: ignore[arg-type]

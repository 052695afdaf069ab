"""`open_retriever` loads the models in a thread while the index opens: both finish before it
returns, and a failure of either leaves nothing open or loading behind."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest

from tutorgraph.config import Settings
from tutorgraph.errors import ConfigurationError, IndexDamagedError
from tutorgraph.index import service
from tutorgraph.retrieval.factory import Models

pytestmark = pytest.mark.unit


class Index:
    def __init__(self) -> None:
        self.closed = False

    async def aclose(self) -> None:
        self.closed = True


def _wire(
    monkeypatch: pytest.MonkeyPatch, *, models_fail: bool = False, index_fail: bool = False
) -> dict[str, Any]:
    seen: dict[str, Any] = {"threads": set(), "models_done": False, "index": Index()}

    def load_models(settings: Settings, *, status: Any = None, **kw: Any) -> Models:
        seen["threads"].add(threading.current_thread().name)
        if status is not None:
            status("loading the embedder (x)")
        time.sleep(0.2)  # slower than the index: open_retriever must wait for it
        seen["models_done"] = True
        if models_fail:
            raise ConfigurationError("no such embedder")
        return Models(embedder=object())  # type: ignore[arg-type]

    def open_index(settings: Settings, **kw: Any) -> Index:
        seen["threads"].add(threading.current_thread().name)
        if index_fail:
            raise IndexDamagedError("the index is damaged: lexical")
        return seen["index"]  # type: ignore[no-any-return]

    monkeypatch.setattr(service, "require_live_manifest", lambda *a: None)
    monkeypatch.setattr(service, "load_models", load_models)
    monkeypatch.setattr(service, "open_index", open_index)
    monkeypatch.setattr(service, "build_retriever", lambda index, models, setup: ("r", models))
    return seen


def test_the_models_load_beside_the_index_and_are_waited_for(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    seen = _wire(monkeypatch)
    said: list[str] = []
    served = service.open_retriever(Settings(index_dir=tmp_path), isolate=False, status=said.append)
    assert seen["models_done"] and served.index is seen["index"]
    assert seen["threads"] == {"load-models", threading.current_thread().name}
    assert set(said) == {
        "loading the embedder (x)",
        "opening the index (BM25, the graph, the vectors)",
    }


def test_a_model_that_fails_closes_the_opened_index(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    seen = _wire(monkeypatch, models_fail=True)
    with pytest.raises(ConfigurationError, match="no such embedder"):
        service.open_retriever(Settings(index_dir=tmp_path), isolate=False)
    assert seen["index"].closed


def test_an_index_that_fails_waits_for_the_models_first(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    seen = _wire(monkeypatch, index_fail=True)
    with pytest.raises(IndexDamagedError):
        service.open_retriever(Settings(index_dir=tmp_path), isolate=False)
    assert seen["models_done"]  # nothing loads on after it raised


@pytest.mark.parametrize(
    ("fields", "scored"),
    [
        ({"query": "what is a common denominator?"}, False),
        ({"query": "why do I get 4/6 when I add 1/2 and 3/4?"}, True),  # it states an answer
        ({"query": "what is a common denominator?", "student_answer": "12"}, True),
        ({"query": "what is a common denominator?", "concept_ids": ["ccss:5.NF.A.1"]}, True),
    ],
)
def test_a_one_shot_command_loads_the_ranker_only_for_a_request_it_may_score(
    fields: dict[str, Any], scored: bool
) -> None:
    """`tutorgraph query`/`answer` defer the learned ranker for a request that names no
    concept and gives or states no student's answer (it loads beside the index otherwise)."""
    from tutorgraph.retrieval.ranker_runtime import may_be_scored
    from tutorgraph_client.models.request import RetrievalRequest

    assert may_be_scored(RetrievalRequest.model_validate(fields)) is scored


def test_the_server_s_shared_models_warm_the_ranker_s_combiner_at_start_up(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from tutorgraph.ranking.model import LearnedRanker
    from tutorgraph.retrieval.loaded import Loaded

    warmed: list[bool] = []

    class Combiner:
        def warm(self) -> None:
            warmed.append(True)

    ranker = LearnedRanker.__new__(LearnedRanker)  # its combiner only is read here
    ranker.combiner = Combiner()  # type: ignore[assignment]
    loaded = Models(embedder=object(), ranker=Loaded.of(ranker))  # type: ignore[arg-type]
    monkeypatch.setattr(service, "load_models", lambda settings, **kw: loaded)
    shared = service.SharedModels()
    assert shared.models(Settings()) is loaded and warmed == [True]
    assert shared.models(Settings()) is loaded and warmed == [True]  # loaded once

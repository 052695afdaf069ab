"""The cross-encoder reranker on a tiny real model: load and predict paths, the retriever
stage, the request switch, the missing-model path, training and ONNX export."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest
from tests.conftest import index_retriever

from tutorgraph.config import BUNDLED_RERANKER, Settings
from tutorgraph.embedding.reranker import CrossEncoderReranker, RerankerOptions
from tutorgraph.ingest.eedi import EediQuestion, eedi_query_text
from tutorgraph.retrieval.factory import bundled_reranker_path, load_reranker
from tutorgraph.retrieval.loaded import Loaded
from tutorgraph.retrieval.retriever import HybridRetriever
from tutorgraph.training.cross_encoder import TRAINING_RECORD, TrainingConfig, fit_cross_encoder
from tutorgraph.training.gates import LOSS_MARGIN, TrainingRefused
from tutorgraph.training.mining import TrainingGroup
from tutorgraph.training.onnx_export import export_onnx
from tutorgraph_client.models.request import RetrievalRequest

pytestmark = pytest.mark.integration

QUERY = "What is 1/2 + 1/4?\nCorrect answer: 3/4\nStudent answer: 2/6"


_NO_CACHE = RerankerOptions(cache_size=0)


@pytest.fixture(scope="module")
def texts(eedi_misconceptions: dict[int, str]) -> list[str]:
    return list(eedi_misconceptions.values())[:20]


def test_backends_agree_and_auto_takes_int8(tiny_cross_encoder: Path, texts: list[str]) -> None:
    scores = {}
    for backend in ("torch", "onnx", "onnx-int8"):
        reranker = CrossEncoderReranker(tiny_cross_encoder, backend=backend)
        reranker.load()
        scores[backend] = reranker.score(QUERY, texts)
    assert all(0.0 <= s <= 1.0 for s in scores["torch"])
    assert max(abs(a - b) for a, b in zip(scores["torch"], scores["onnx"], strict=True)) < 1e-4
    assert max(abs(a - b) for a, b in zip(scores["onnx"], scores["onnx-int8"], strict=True)) < 0.05
    auto = CrossEncoderReranker(tiny_cross_encoder)
    auto.load()
    assert auto.backend == "onnx-int8"


def test_length_sorted_small_batches_give_the_same_scores(
    tiny_cross_encoder: Path, texts: list[str]
) -> None:
    # Padding must not leak into a score: batches of 3 pad differently from one batch of 20.
    one = CrossEncoderReranker(tiny_cross_encoder, backend="torch")
    small = CrossEncoderReranker(
        tiny_cross_encoder, backend="torch", options=RerankerOptions(batch_size=3, cache_size=0)
    )
    a, b = one.score(QUERY, texts), small.score(QUERY, texts)
    assert max(abs(x - y) for x, y in zip(a, b, strict=True)) < 1e-5


def test_score_many_mixes_requests_without_mixing_their_scores(
    tiny_cross_encoder: Path, texts: list[str]
) -> None:
    # What the server's micro-batching relies on: pairs of several queries share batches
    # (length-sorted together) and each request still gets exactly its own scores.
    alone = CrossEncoderReranker(tiny_cross_encoder, backend="onnx", options=_NO_CACHE)
    shared = CrossEncoderReranker(tiny_cross_encoder, backend="onnx", options=_NO_CACHE)
    other = "Which fraction is bigger, 2/3 or 3/4?"
    requests = [(QUERY, texts[:7]), (other, texts[3:12]), (QUERY, []), (other, texts[:2])]
    together = shared.score_many(requests)
    for (query, chunk), scores in zip(requests, together, strict=True):
        expected = alone.score(query, chunk)
        assert len(scores) == len(chunk)
        assert max((abs(x - y) for x, y in zip(scores, expected, strict=True)), default=0) < 1e-5


def test_the_cache_answers_repeated_pairs(tiny_cross_encoder: Path, texts: list[str]) -> None:
    reranker = CrossEncoderReranker(tiny_cross_encoder, backend="onnx")
    first = reranker.score(QUERY, texts)
    assert reranker.cache_stats == {"hits": 0, "misses": len(texts)}
    again = reranker.score(QUERY, [texts[3], "a text never seen", texts[0]])
    assert again[0] == first[3] and again[2] == first[0]
    assert reranker.cache_stats == {"hits": 2, "misses": len(texts) + 1}


def test_long_queries_keep_head_and_tail(tiny_cross_encoder: Path) -> None:
    from transformers import AutoTokenizer

    from tutorgraph.embedding.reranker import encode_pairs

    tok = AutoTokenizer.from_pretrained(str(tiny_cross_encoder))
    query = "fraction " * 300 + "student answer 26"
    opts = RerankerOptions(max_length=64, query_max_tokens=32)
    ((ids, types),) = encode_pairs(tok, query, ["adds the numerators " * 40], opts)
    assert len(ids) == len(types) == 64
    tail = tok.encode("student answer 26", add_special_tokens=False)
    first_sep = ids.index(tok.sep_token_id)
    assert first_sep == 33 and ids[first_sep - len(tail) : first_sep] == tail
    assert types[: first_sep + 1] == [0] * (first_sep + 1) and set(types[first_sep + 1 :]) == {1}


@pytest.fixture(scope="module")
def reranking_retriever(opened_index, embedder, tiny_cross_encoder: Path):  # type: ignore[no-untyped-def]
    reranker = CrossEncoderReranker(tiny_cross_encoder, backend="torch")
    reranker.load()
    return index_retriever(opened_index, embedder, rerank_depth=15, reranker=Loaded.of(reranker))


async def test_reranking_reorders_the_top_and_keeps_both_scores(
    reranking_retriever: HybridRetriever, retriever: HybridRetriever
) -> None:
    # No stated answer: with one, the misconceptions would lead whatever the reranker says.
    query = "how do I add fractions like 1/2 + 1/4 with different denominators"
    request = RetrievalRequest(query=query, n_results=25, rerank=True, max_context_tokens=0)
    packet = await reranking_retriever.retrieve(request)
    plain = await retriever.retrieve(request)
    assert packet.reranker.applied and packet.reranker.model
    assert not plain.reranker.applied
    assert packet.timings_ms["rerank"] > 0

    # The best lesson, placed second when no teaching led (`with_teaching`), is the lessons
    # search's hit, not a reranked one: read the rest.
    def ranked(p):  # type: ignore[no-untyped-def]
        lesson = p.lessons[0].id if p.lessons else None
        return [h for h in p.results if not (h.rank == 2 and h.id == lesson)]

    results, plain_results = ranked(packet), ranked(plain)
    head, tail = results[:15], results[15:]
    scores = [h.rerank_score for h in head]
    assert None not in scores and scores == sorted(scores, reverse=True)  # type: ignore[type-var]
    assert all(h.score == h.rerank_score for h in head)
    # Fused scores are the first stage's, unchanged; the head holds the same 15 hits.
    fused = {h.id: h.fused_score for h in plain_results}
    assert {h.id for h in head} == {h.id for h in plain_results[:15]}
    assert all(fused[h.id] == h.fused_score for h in head)
    assert [h.id for h in head] != [h.id for h in plain_results[:15]]
    # Below the depth the fused order stands, with no rerank score.
    # (one list may hold one hit more: the lesson is placed in only one of them)
    shared = min(len(tail), len(plain_results) - 15)
    assert shared >= 8
    assert [h.id for h in tail[:shared]] == [h.id for h in plain_results[15 : 15 + shared]]
    assert all(h.rerank_score is None for h in tail)
    assert [h.rank for h in packet.results] == list(range(1, 26))


@pytest.mark.parametrize(
    ("fields", "applied"),
    [
        ({"rerank": False}, False),
        ({"rerank": True}, True),
        ({"retrieval_profile": "exact"}, False),  # the exact profile does not rerank
        ({"retrieval_profile": "balanced"}, True),
        ({"retrieval_profile": "exact", "rerank": True}, True),  # the request wins
    ],
)
async def test_the_request_switches_reranking(
    reranking_retriever: HybridRetriever, fields: dict[str, object], applied: bool
) -> None:
    packet = await reranking_retriever.retrieve(RetrievalRequest(query=QUERY, **fields))  # type: ignore[arg-type]
    assert packet.reranker.applied is applied
    assert all((h.rerank_score is not None) is applied for h in packet.results)
    if not applied:
        assert packet.reranker.reason == "reranking not requested"
        assert packet.timings_ms["rerank"] < 1.0


async def test_a_model_that_cannot_load_warns_once_and_packets_say_why(
    opened_index,  # type: ignore[no-untyped-def]
    embedder,
    no_hub: None,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.WARNING)
    loaded = load_reranker(Settings(reranker_model="cross-encoder/ms-marco-MiniLM-L-6-v2"))
    reranker, why = loaded
    assert reranker is None and why is not None and "ms-marco-MiniLM-L-6-v2" in why
    retriever = index_retriever(opened_index, embedder, reranker=loaded)
    for _ in range(3):
        packet = await retriever.retrieve(RetrievalRequest(query=QUERY, rerank=True))
        assert not packet.reranker.applied and packet.reranker.reason == why
        assert packet.results and all(h.rerank_score is None for h in packet.results)
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING and "rerank" in r.message]
    assert len(warnings) == 1


def test_an_empty_model_setting_turns_reranking_off() -> None:
    reranker, why = load_reranker(Settings(reranker_model=""))
    assert reranker is None and "turned off" in why


def test_a_missing_directory_is_a_clear_error(tmp_path: Path) -> None:
    from tutorgraph.errors import ConfigurationError

    with pytest.raises(ConfigurationError, match="cannot load reranker"):
        CrossEncoderReranker(tmp_path / "nowhere", backend="torch").load()
    (tmp_path / "empty").mkdir()
    with pytest.raises(ConfigurationError, match=r"no onnx/model_qint8\.onnx"):
        CrossEncoderReranker(tmp_path / "empty", backend="onnx-int8").load()


def _groups(questions: list[EediQuestion], misconceptions: dict[int, str]) -> list[TrainingGroup]:
    texts = list(misconceptions.values())
    groups = []
    for q in questions:
        for letter, mid in sorted(q.misconception_ids.items()):
            if mid is None or letter == q.correct_answer or mid not in misconceptions:
                continue
            positive = misconceptions[mid]
            negatives = tuple(t for t in texts[:8] if t != positive)
            groups.append(TrainingGroup(eedi_query_text(q, letter), positive, negatives))
    return groups


def test_training_writes_a_loadable_model_with_its_record(
    tiny_cross_encoder: Path,
    tmp_path: Path,
    eedi_questions: list[EediQuestion],
    eedi_misconceptions: dict[int, str],
) -> None:
    groups = _groups(eedi_questions, eedi_misconceptions)
    assert len(groups) > 50
    cfg = TrainingConfig(
        epochs=1.0, batch_size=16, negatives=2, layers=None, max_length=96, query_max_tokens=48
    )
    steps: list[int] = []
    out = tmp_path / "model"
    result = fit_cross_encoder(
        groups,
        tiny_cross_encoder,
        out,
        cfg,
        record={"data_sha256": "abc"},
        progress=lambda s, t, loss: steps.append(s),
        enforce_gates=False,  # this test is about what is written, not about quality
    )
    assert result.steps == steps[-1] == len(steps) > 1
    record = json.loads((out / TRAINING_RECORD).read_text())
    held = record["held_out_groups"]
    assert record["data_sha256"] == "abc" and record["groups"] + held == len(groups)
    assert 0 < held < len(groups) / 5
    assert set(record["gates"]) >= {"final_loss", "base_rate_loss", "spread", "passed"}
    assert record["base_model"] == tiny_cross_encoder.name  # no path of this machine
    assert record["config"]["negatives"] == 2 and record["steps"] == result.steps
    export_onnx(out)
    reranker = CrossEncoderReranker(out)
    reranker.load()
    assert reranker.backend == "onnx-int8"
    assert len(reranker.score(QUERY, ["a", "b"])) == 2


def test_training_can_shrink_the_model(tiny_cross_encoder: Path, tmp_path: Path) -> None:
    groups = [TrainingGroup(QUERY, "adds numerators and denominators", ("x", "y"))] * 8
    cfg = TrainingConfig(epochs=1.0, batch_size=8, layers=1, max_length=64, query_max_tokens=32)
    fit_cross_encoder(groups, tiny_cross_encoder, tmp_path / "m", cfg, enforce_gates=False)
    config = json.loads((tmp_path / "m" / "config.json").read_text())
    assert config["num_hidden_layers"] == 1


def test_a_collapsed_model_is_refused_and_nothing_is_written(
    tiny_cross_encoder: Path,
    tmp_path: Path,
    eedi_questions: list[EediQuestion],
    eedi_misconceptions: dict[int, str],
) -> None:
    groups = _groups(eedi_questions, eedi_misconceptions)
    # A learning rate this small leaves the untrained tiny model's near-constant scores.
    cfg = TrainingConfig(
        epochs=1.0,
        learning_rate=1e-12,
        batch_size=16,
        layers=None,
        max_length=96,
        query_max_tokens=48,
    )
    with pytest.raises(TrainingRefused) as refused:
        fit_cross_encoder(groups, tiny_cross_encoder, tmp_path / "model", cfg)
    report = refused.value.report
    assert not report.passed and report.groups > 0
    assert report.final_loss >= LOSS_MARGIN * report.base_rate_loss
    assert "not clearly below" in str(refused.value)
    assert not (tmp_path / "model").exists()


def test_train_reranker_cli_refuses_a_model_that_learnt_nothing(  # type: ignore[no-untyped-def]
    run_cli, tiny_cross_encoder: Path, tmp_path: Path
) -> None:
    eedi = Path(__file__).resolve().parents[1] / "data" / "eedi"
    out = tmp_path / "model"
    proc = run_cli(
        "train-reranker",
        "--train",
        str(eedi / "train.csv"),
        "--out",
        str(out),
        "--base-model",
        str(tiny_cross_encoder),
        "--layers",
        "1",
        "--learning-rate",
        "1e-12",
        "--slim",
        timeout=600,
    )
    # Mined from the real pipeline, trained for real, then refused by its gates.
    assert proc.returncode == 2, proc.stderr
    assert "training refused to write the model" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert not out.exists()


def test_train_reranker_cli_reports_a_missing_file(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    proc = run_cli("train-reranker", "--train", str(tmp_path / "none.csv"))
    assert proc.returncode != 0
    assert "Traceback" not in proc.stderr and "none.csv" in proc.stderr


def test_the_default_settings_rerank_nothing() -> None:
    reranker, why = load_reranker(Settings())
    assert reranker is None and "TUTORGRAPH_RERANKER_MODEL is empty" in why


def test_the_bundled_int8_model_loads_when_asked_for() -> None:
    reranker, why = load_reranker(Settings(reranker_model=BUNDLED_RERANKER))
    assert reranker is not None, why
    assert reranker.name == "tutorgraph/eedi-minilm-reranker"
    assert reranker.backend == "onnx-int8"
    record = json.loads((bundled_reranker_path() / "training.json").read_text())
    assert len(record["data_sha256"]) == 64 and record["groups"] == 3486
    scores = reranker.score(QUERY, ["Adds the numerators and the denominators", "Mixes up area"])
    assert all(0.0 <= s <= 1.0 for s in scores)

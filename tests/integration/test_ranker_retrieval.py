"""The learned ranker on the real slice index: trained in seconds, it moves targets up.

Real MiniLM vectors, real Chroma, the real embedded graph. The ranker is trained on the
questions the index holds (every slice question but the held-out one), so its in-sample
pairs must come out higher than without it: the direction of the change, not its size
(the size is the benchmark's job).
"""

from __future__ import annotations

import asyncio
import json
import shutil
import statistics
from pathlib import Path

import pytest
from tests.conftest import (
    HELD_OUT_QUESTION,
    encoder_output,
    index_retriever,
    labelled_answers,
    misconception_ranking,
)

from tutorgraph.config import BUNDLED_RANKER, Settings
from tutorgraph.ingest.eedi import EediQuestion, eedi_construct_id
from tutorgraph.ranking.adapter import AdapterConfig
from tutorgraph.ranking.combiner import CombinerConfig
from tutorgraph.ranking.model import TUNED_EXAMPLES_FILE, LearnedRanker
from tutorgraph.ranking.tuned import TUNED_EXAMPLE_FEATURES, TUNED_GRAPH
from tutorgraph.retrieval.factory import load_ranker
from tutorgraph.retrieval.loaded import Loaded
from tutorgraph.training.eedi import train_eedi_ranker
from tutorgraph.training.ranker import RankerTrainingConfig
from tutorgraph_client.models.request import RetrievalRequest

pytestmark = pytest.mark.integration

EEDI = Path(__file__).resolve().parents[1] / "data" / "eedi"

QUICK = RankerTrainingConfig(
    adapter=AdapterConfig(steps=60), combiners=(CombinerConfig(n_estimators=60),)
)


@pytest.fixture(scope="module")
def ranker(opened_index, embedder, eedi_questions, eedi_misconceptions) -> LearnedRanker:  # type: ignore[no-untyped-def]
    train = [q for q in eedi_questions if q.question_id != HELD_OUT_QUESTION]
    return asyncio.run(
        train_eedi_ranker(train, eedi_misconceptions, opened_index.graph, embedder, config=QUICK)
    )


def request(q: EediQuestion, query: str, **kw: object) -> RetrievalRequest:
    return RetrievalRequest(
        query=query,
        n_results=50,
        max_context_tokens=0,
        concept_ids=[eedi_construct_id(q.construct_id)],
        use_refinement=False,
        rerank=False,
        **kw,  # type: ignore[arg-type]
    )


def position(ranking: list[str], target: str) -> int:
    return ranking.index(target) + 1 if target in ranking else 51


async def test_in_sample_targets_move_up(opened_index, embedder, ranker, eedi_questions) -> None:  # type: ignore[no-untyped-def]
    plain = index_retriever(opened_index, embedder)
    ranked = index_retriever(opened_index, embedder, ranker=Loaded.of(ranker))
    pairs = [
        p for p in labelled_answers(eedi_questions) if p.question.question_id != HELD_OUT_QUESTION
    ]
    before, after = [], []
    for pair in pairs[:25]:
        req = request(pair.question, pair.query)
        a = await plain.retrieve(req)
        b = await ranked.retrieve(req)
        assert not a.ranker.applied and b.ranker.applied and b.timings_ms["rank"] > 0
        before.append(position(misconception_ranking(a, pair.target), pair.target))
        after.append(position(misconception_ranking(b, pair.target), pair.target))
    assert statistics.mean(after) < statistics.mean(before)
    assert sum(x == 1 for x in after) > sum(x == 1 for x in before)


async def test_a_held_out_question_gets_scores_proposals_and_explanations(  # type: ignore[no-untyped-def]
    opened_index, embedder, ranker, eedi_questions
) -> None:
    pair = next(
        p for p in labelled_answers(eedi_questions) if p.question.question_id == HELD_OUT_QUESTION
    )
    retriever = index_retriever(opened_index, embedder, ranker=Loaded.of(ranker))
    packet = await retriever.retrieve(request(pair.question, pair.query, debug=True))
    misconceptions = [h for h in packet.results if h.kind == "misconception"]
    assert misconceptions and all(h.learned_score is not None for h in misconceptions)
    scores = [h.learned_score for h in misconceptions]
    if packet.debug and packet.debug["query_type"] != "misconception":
        # in the places the earlier stages gave misconceptions, in learned order
        assert scores == sorted(scores, reverse=True)
    # A hit the ranker proposed says so (a bug rule may agree), with its learned score.
    proposed = [h for h in misconceptions if h.found_by[:1] == ["ranker"]]
    assert packet.ranker.proposed == len(proposed)
    assert all(h.source_scores["ranker"] == h.learned_score for h in proposed)
    assert all(h.found_by for h in packet.results)
    parts = packet.debug["learned_score"] if packet.debug else {}
    for hit in misconceptions:
        assert sum(parts[hit.id].values()) == pytest.approx(hit.learned_score, abs=1e-3)


def _without_evidence(given: bool, opened_index, ranker, eedi_questions) -> RetrievalRequest:  # type: ignore[no-untyped-def]
    """No concept in the request, or one the graph holds but no labelled example is on."""
    concepts = []
    if given:
        standards = [c for c in opened_index.graph._concepts if c.startswith("ccss:")]
        concepts = [next(c for c in standards if not ranker.prior.knows([c]))]
    pair = labelled_answers(eedi_questions)[0]
    return request(pair.question, pair.query).model_copy(update={"concept_ids": concepts})


@pytest.mark.parametrize("given", [False, True])
async def test_without_evidence_and_without_a_text_only_ranker_the_order_is_kept(  # type: ignore[no-untyped-def]
    given: bool, opened_index, embedder, ranker, eedi_questions
) -> None:
    req = _without_evidence(given, opened_index, ranker, eedi_questions)
    concepts_only = ranker.with_text_only(None)
    plain = await index_retriever(opened_index, embedder).retrieve(req)
    packet = await index_retriever(
        opened_index, embedder, ranker=Loaded.of(concepts_only)
    ).retrieve(req)
    assert not packet.ranker.applied and packet.ranker.model is not None
    assert "concept" in (packet.ranker.reason or "")
    assert packet.timings_ms["rank"] == 0.0
    assert [h.id for h in packet.results] == [h.id for h in plain.results]
    assert all(h.learned_score is None for h in packet.results)


@pytest.mark.parametrize("given", [False, True])
async def test_without_evidence_the_text_only_ranker_scores(  # type: ignore[no-untyped-def]
    given: bool, opened_index, embedder, ranker, eedi_questions
) -> None:
    req = _without_evidence(given, opened_index, ranker, eedi_questions)
    assert ranker.text_only is not None and not ranker.text_only.prior.links
    packet = await index_retriever(opened_index, embedder, ranker=Loaded.of(ranker)).retrieve(req)
    assert packet.ranker.applied and packet.ranker.model == "learned-ranker/text"
    assert packet.timings_ms["rank"] > 0
    misconceptions = [h for h in packet.results if h.kind == "misconception"]
    assert misconceptions and all(h.learned_score is not None for h in misconceptions)


async def test_text_only_ranking_moves_in_sample_targets_up(  # type: ignore[no-untyped-def]
    opened_index, embedder, ranker, eedi_questions
) -> None:
    plain = index_retriever(opened_index, embedder)
    ranked = index_retriever(opened_index, embedder, ranker=Loaded.of(ranker))
    pairs = [
        p for p in labelled_answers(eedi_questions) if p.question.question_id != HELD_OUT_QUESTION
    ]
    before, after = [], []
    for pair in pairs[:25]:
        req = request(pair.question, pair.query).model_copy(update={"concept_ids": []})
        a, b = await plain.retrieve(req), await ranked.retrieve(req)
        assert b.ranker.applied
        before.append(position(misconception_ranking(a, pair.target), pair.target))
        after.append(position(misconception_ranking(b, pair.target), pair.target))
    assert statistics.mean(after) < statistics.mean(before)


async def test_a_saved_ranker_scores_the_same(  # type: ignore[no-untyped-def]
    tmp_path: Path, opened_index, embedder, ranker, eedi_questions
) -> None:
    ranker.save(tmp_path)
    again = LearnedRanker.load(tmp_path)
    assert again.embedder == embedder.name
    # The text-only ranker is saved beside it and shares its targets (stored once).
    assert (tmp_path / "text" / "ranker.json").is_file()
    assert not (tmp_path / "text" / "targets.npz").exists()
    assert again.text_only is not None and again.text_only.target_ids == again.target_ids
    pair = labelled_answers(eedi_questions)[0]
    req = request(pair.question, pair.query)
    a = await index_retriever(opened_index, embedder, ranker=Loaded.of(ranker)).retrieve(req)
    b = await index_retriever(opened_index, embedder, ranker=Loaded.of(again)).retrieve(req)
    # fp16 storage of the vectors: the same order at the top
    assert [h.id for h in a.results[:5]] == [h.id for h in b.results[:5]]


def test_the_default_settings_load_the_bundled_ranker() -> None:
    ranker, why = load_ranker(Settings())
    assert ranker is not None, why
    assert ranker.info["name"] == BUNDLED_RANKER
    assert ranker.info["queries"] == 3486 and len(ranker.info["data_sha256"]) == 64
    assert ranker.embedder == Settings().embedding_model
    assert len(ranker.target_ids) == 2587 and ranker.combiner is not None
    text = ranker.text_only
    assert text is not None and text.info["name"] == f"{BUNDLED_RANKER}/text"
    assert (
        text.info["queries"] == 2 * 3486 and text.info["data_sha256"] == ranker.info["data_sha256"]
    )
    # No path of the training machine in the record.
    assert "/" not in "".join(ranker.info["data"])
    # Both read the fine-tuned encoder, served from the int8 graph shipped beside them.
    assert ranker.tuned is not None and ranker.tuned.model == "tuned/model"
    assert ranker.tuned.embedder is not None
    assert text.tuned is not None and text.tuned.embedder is ranker.tuned.embedder
    assert ranker.tuned.embedder.embed(["What is 1/2 + 1/4?"]).shape == (1, 384)


def test_a_ranker_for_another_embedder_or_none_is_refused_with_the_reason(
    tmp_path: Path,
) -> None:
    ranker, why = load_ranker(Settings(embedding_model="BAAI/bge-small-en-v1.5"))
    assert ranker is None and "not the configured embedder" in why
    ranker, why = load_ranker(Settings(ranker_model=""))
    assert ranker is None and "TUTORGRAPH_RANKER_MODEL is empty" in why
    ranker, why = load_ranker(Settings(ranker_model=str(tmp_path)))
    assert ranker is None and "could not be loaded" in why


async def test_a_ranker_trained_with_a_tuned_encoder_serves_it(  # type: ignore[no-untyped-def]
    tmp_path: Path, run_cli, opened_index, embedder, eedi_questions
) -> None:
    for k in range(2):
        encoder_output(tmp_path / "folds" / f"fold{k}", {"fold": k, "folds": 2})
    out = tmp_path / "ranker"
    proc = run_cli(
        "train-ranker", "--train", str(EEDI / "train.csv"), "--out", str(out),
        "--tuned-model", str(encoder_output(tmp_path / "all")),
        "--tuned-folds", str(tmp_path / "folds"), "--tuned-examples", timeout=600,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    # A copy of what serving takes (the ranker moves whole): the int8 graph, not the weights.
    served = out / "tuned" / "model"
    assert (served / TUNED_GRAPH).is_file() and (served / "tokenizer.json").is_file()
    assert not list(served.rglob("*.safetensors")) and not (served / "onnx/model.onnx").exists()
    assert json.loads((served.parent / "training.json").read_text())["left_out_fold"] is None
    ranker, why = load_ranker(Settings(ranker_model=str(out)))
    assert ranker is not None, why
    assert ranker.tuned is not None and ranker.tuned.embedder is not None
    assert ranker.text_only is not None and ranker.text_only.tuned is not None
    # Each ranker keeps its own labelled answers under the fine-tuned encoder, and reads them.
    for part, folder in ((ranker, out), (ranker.text_only, out / "text")):
        assert part.tuned is not None and part.tuned.examples is not None
        assert (folder / TUNED_EXAMPLES_FILE).is_file()
        assert part.feature_names[-2:] == TUNED_EXAMPLE_FEATURES
    assert len(ranker.text_only.tuned.examples) > len(ranker.tuned.examples)  # type: ignore[union-attr, arg-type]
    pair = labelled_answers(eedi_questions)[0]
    for req in (
        request(pair.question, pair.query),
        request(pair.question, pair.query).model_copy(update={"concept_ids": []}),
    ):
        packet = await index_retriever(opened_index, embedder, ranker=Loaded.of(ranker)).retrieve(
            req
        )
        assert packet.ranker.applied, packet.ranker.reason
        misconceptions = [h for h in packet.results if h.kind == "misconception"]
        assert misconceptions and all(h.learned_score is not None for h in misconceptions)
    shutil.rmtree(served)
    ranker, why = load_ranker(Settings(ranker_model=str(out)))
    assert ranker is None and "tuned encoder could not be loaded" in why

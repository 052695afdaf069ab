"""The non-Eedi benchmark tasks without models: fold splits, rankings, the MaE reader, and
which configurations each task refuses to fake."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from tutorgraph.ingest.eedi import read_eedi_questions
from tutorgraph.ingest.learning_commons import load_learning_commons
from tutorgraph.ingest.openstax import load_openstax
from tutorgraph.models.records import SourceRecords
from tutorgraph_client.models.packet import TIMING_KEYS, GraphContext, Hit, HitKind, ReasoningPacket
from tutorgraph_research.harness.configs import BEST, RunConfig, ablation_grid
from tutorgraph_research.harness.folds import concept_ranking, eval_item, stable_fold, stable_sample
from tutorgraph_research.harness.runner import load_resources
from tutorgraph_research.tasks.linking import (
    EediLinkingTask,
    OpenStaxLinkingTask,
    eedi_linking_query,
    exercise_query,
    linking_scores,
    openstax_folds,
)
from tutorgraph_research.tasks.mae import (
    MaeTask,
    mae_misconception_id,
    mae_query_text,
    mae_records,
    read_mae,
)
from tutorgraph_research.tasks.prerequisites import (
    BENCHMARK_RELATIONS,
    PrerequisiteTask,
    prerequisite_folds,
    prerequisite_query,
    prerequisite_ranking,
)

pytestmark = pytest.mark.unit

DATA = Path(__file__).resolve().parents[3] / "tests" / "data"
EEDI = DATA / "eedi"
MAE = DATA / "mae" / "data.json"


def words(text: str) -> int:
    return len(text.split())


@pytest.fixture(scope="module")
def openstax() -> SourceRecords:
    # Chunk sizes do not matter to the splits: count words instead of loading a tokenizer.
    return load_openstax(DATA / "openstax", count_tokens=words)


def hit(hid: str, kind: HitKind, concept_ids: list[str], ids: list[str] | None = None) -> Hit:
    return Hit(
        id=hid,
        ids=ids or [hid],
        kind=kind,
        text="t",
        concept_ids=concept_ids,
        score=1.0,
        rank=1,
        found_by=["vector"],
        fused_score=1.0,
    )


def packet(hits: list[Hit], chains: list[list[str]] | None = None) -> ReasoningPacket:
    return ReasoningPacket(
        query="q",
        timings_ms=dict.fromkeys(TIMING_KEYS, 0.0),
        results=hits,
        graph_context=GraphContext(prerequisites=chains or []),
    )


# -- folds and samples ---------------------------------------------------------------------


def test_stable_fold_and_sample_are_deterministic_and_spread() -> None:
    ids = [f"openstax:m1:exercise:e{i}" for i in range(500)]
    folds = Counter(stable_fold(i, 5) for i in ids)
    assert set(folds) == set(range(5)) and min(folds.values()) > 60
    assert [stable_fold(i, 5) for i in ids] == [stable_fold(i, 5) for i in ids]
    sample = stable_sample(ids, 20, key=str)
    assert len(sample) == 20 and sample == stable_sample(ids, 20, key=str)
    assert sample == [i for i in ids if i in set(sample)]  # input order kept
    assert stable_sample(ids, None, key=str) == ids


def test_eedi_linking_folds_never_index_a_test_question() -> None:
    task = EediLinkingTask(
        EEDI / "train.csv", EEDI / "misconception_mapping.csv", EEDI / "subject_metadata.csv"
    )
    questions = {q.question_id: q for q in read_eedi_questions(EEDI / "train.csv")}
    folds = task.build_folds()
    assert [f.number for f in folds] == [0, 1, 2, 3, 4]
    scored = [it.item for f in folds for it in f.items]
    assert sorted(scored) == sorted(f"eedi:question:{q}" for q in questions)  # each once
    for fold in folds:
        records = fold.records()
        indexed = {d.id for d in records.documents}
        constructs = {c.id for c in records.concepts if c.kind == "construct"}
        for item in fold.items:
            q = questions[int(item.item.rsplit(":", 1)[1])]
            assert q.question_id % 5 == fold.number
            assert item.item not in indexed
            assert item.relevant == {f"eedi:construct:{q.construct_id}"}
            assert q.construct_name not in item.query  # no label in the query
        # Only constructs of training questions exist; misconception links come from them.
        train_constructs = {
            f"eedi:construct:{q.construct_id}"
            for q in questions.values()
            if q.question_id % 5 != fold.number
        }
        assert constructs == train_constructs
        for m in records.misconceptions:
            assert set(m.concept_ids) <= train_constructs
        unseen = sum(1 for it in fold.items if not it.relevant <= constructs)
        assert task.stats["unseen_targets"][fold.number] == unseen


def test_eedi_linking_query_is_question_and_correct_answer() -> None:
    q = read_eedi_questions(EEDI / "train.csv")[0]
    query = eedi_linking_query(q)
    assert query.endswith("Correct answer: " + query.rsplit("Correct answer: ", 1)[1])
    assert "Student answer" not in query and q.subject_name not in query


def test_eedi_linking_quick_samples_a_few_per_fold() -> None:
    task = EediLinkingTask(EEDI / "train.csv", EEDI / "misconception_mapping.csv", quick=True)
    assert all(len(f.items) <= 4 for f in task.build_folds())


def test_openstax_folds_hold_out_each_exercise_once(openstax: SourceRecords) -> None:
    exercises = {d.id: d for d in openstax.documents if d.kind == "exercise"}
    folds = openstax_folds(openstax, folds=5)
    held_total = 0
    for f, index, test in folds:
        indexed = {d.id for d in index.documents}
        held = {i for i in exercises if stable_fold(i, 5) == f}
        held_total += len(held)
        assert not held & indexed  # the whole fold is out of the index, not only its sample
        assert indexed == {d.id for d in openstax.documents} - held
        assert all(len(d.concept_ids) == 1 and d.id in held for d in test)
        assert index.concepts == openstax.concepts
        assert index.prerequisites == openstax.prerequisites
    assert held_total == len(exercises)
    sampled = openstax_folds(openstax, folds=5, per_fold=3)
    assert all(len(test) <= 3 for _, _, test in sampled)


def test_openstax_quick_keeps_the_first_sections(openstax: SourceRecords) -> None:
    (_, index, test), *_ = openstax_folds(openstax, folds=2, sections=1)
    (first,) = [c.id for c in index.concepts]
    assert first == openstax.concepts[0].id
    assert all(d.concept_ids == [first] for d in index.documents + test)
    assert index.prerequisites == []  # the edges joined it to sections left out


def test_exercise_query_drops_title_and_solution(openstax: SourceRecords) -> None:
    solved = [d for d in openstax.documents if d.kind == "exercise" and "\nSolution:" in d.text]
    assert solved
    for d in solved:
        query = exercise_query(d)
        assert "Solution:" not in query and query and d.text.startswith(query)
        assert d.title not in query or d.title in d.text.split("\nSolution:")[0]


def test_openstax_task_items_match_the_folds(openstax: SourceRecords) -> None:
    task = OpenStaxLinkingTask(DATA / "openstax", per_fold=2)
    folds = task.build_folds(openstax)
    for fold in folds:
        indexed = {d.id for d in fold.records().documents}
        for item in fold.items:
            assert item.item not in indexed
            (section,) = item.relevant
            assert section.startswith("openstax:section:")


# -- prerequisites -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def prerequisite_records(openstax: SourceRecords) -> SourceRecords:
    records = load_learning_commons(DATA / "learning-commons")
    records.concepts.extend(openstax.concepts)
    records.prerequisites.extend(openstax.prerequisites)
    return records


def test_prerequisite_folds_remove_test_edges_and_keep_concepts(
    prerequisite_records: SourceRecords,
) -> None:
    edges = [p for p in prerequisite_records.prerequisites if p.relation in BENCHMARK_RELATIONS]
    assert {p.relation for p in edges} == {"prepares_for", "builds_towards"}
    held_out = Counter()
    for held in prerequisite_folds(prerequisite_records, folds=5):
        kept = {(p.prerequisite_id, p.concept_id) for p in held.index.prerequisites}
        assert held.index.concepts == prerequisite_records.concepts
        assert not held.index.documents
        for concept, (relevant, known) in held.targets.items():
            assert relevant and not relevant & known
            for pre in relevant:
                assert (pre, concept) not in kept and (concept, pre) not in kept
                held_out[(pre, concept)] += 1
            assert all((pre, concept) in kept for pre in known)
        # relates_to progressions are context, never test edges.
        relates = [p for p in prerequisite_records.prerequisites if p.relation == "relates_to"]
        assert all(p in held.index.prerequisites for p in relates)
    assert sorted(held_out) == sorted((p.prerequisite_id, p.concept_id) for p in edges)
    assert set(held_out.values()) == {1}


def test_prerequisite_items_name_their_source(prerequisite_records: SourceRecords) -> None:
    task = PrerequisiteTask(DATA / "openstax", DATA / "learning-commons", folds=2)
    folds = task.build_folds(prerequisite_records)
    items = [it for f in folds for it in f.items]
    assert {it.item.split("/", 1)[0] for it in items} == {"openstax", "learning-commons"}
    for it in items:
        (concept,) = it.concept_ids
        assert it.item.endswith("/" + concept)
        assert concept not in it.relevant


def test_prerequisite_query_is_name_and_short_description() -> None:
    from tutorgraph_client.models.curriculum import Concept

    long = Concept(
        id="openstax:section:m1",
        name="Add Whole Numbers",
        description="Use addition notation. " * 30,
        kind="section",
        source="openstax",
        license="CC-BY-4.0",
    )
    query = prerequisite_query(long)
    assert query.startswith("Add Whole Numbers: Use addition notation.")
    assert len(query) < 260 and query.endswith("...")
    bare = long.model_copy(update={"description": ""})
    assert prerequisite_query(bare) == "Add Whole Numbers"


def test_prerequisite_ranking_puts_chains_first_and_drops_known() -> None:
    item = eval_item("s/c", "q", ["a"], concept_ids=["c"], extra=["k"])
    p = packet(
        [hit("c", "concept", ["c"]), hit("x", "concept", ["x"]), hit("a", "concept", ["a"])],
        chains=[["a", "b", "c"], ["k", "c"], ["b", "c"], ["y", "other"]],
    )
    # Depth 1 before depth 2, the known prerequisite and the query concept dropped, chains
    # to other seeds ignored, then concept hits in packet order, deduplicated.
    assert prerequisite_ranking(p, item) == ["b", "a", "x"]


# -- rankings and scores -------------------------------------------------------------------


def test_concept_ranking_reads_hits_in_order_and_filters_kind() -> None:
    p = packet(
        [
            hit("eedi:question:1", "question", ["eedi:construct:2"]),
            hit("eedi:subject:9", "concept", ["eedi:subject:9"]),
            hit(
                "eedi:construct:1",
                "concept",
                ["eedi:construct:1"],
                ids=["eedi:construct:1", "eedi:construct:3"],
            ),
            hit("eedi:misconception:5", "misconception", ["eedi:construct:2", "eedi:construct:4"]),
        ]
    )
    assert concept_ranking(p) == [
        "eedi:construct:2",
        "eedi:subject:9",
        "eedi:construct:1",
        "eedi:construct:3",
        "eedi:construct:4",
    ]
    assert concept_ranking(p, "eedi:construct:")[:2] == ["eedi:construct:2", "eedi:construct:1"]
    item = eval_item("q", "text", ["eedi:construct:1"])
    assert linking_scores(concept_ranking(p, "eedi:construct:"), item) == {
        "recall@1": 0.0,
        "recall@10": 1.0,
        "mrr": 0.5,
    }


# -- MaE -----------------------------------------------------------------------------------


def test_read_mae_slice() -> None:
    examples = read_mae(MAE)
    assert [e.item_id for e in examples[:5]] == [
        "MaE01#1",
        "MaE01#2",
        "MaE01#3",
        "MaE01#4",
        "MaE02#1",
    ]
    assert len(examples) == 12 and len({e.misconception_id for e in examples}) == 3
    raw = json.loads(MAE.read_text(encoding="utf-8"))
    for e, row in zip(examples, raw, strict=True):
        query = mae_query_text(e)
        assert query.startswith(row["Question"].strip())
        assert query.endswith("Student answer: " + " ".join(row["Incorrect Answer"].split()))
        assert "\n" not in query.split("Correct answer: ", 1)[1].split("\nStudent answer")[0]
        if row["Explanation"]:
            assert row["Explanation"] not in query  # it names the misconception
        assert e.misconception not in query


def test_mae_records_hold_misconceptions_only() -> None:
    examples = read_mae(MAE)
    records = mae_records(examples, {1: "Adds the denominators", 2: "Multiplies instead"})
    ids = [m.id for m in records.misconceptions]
    assert ids[:3] == [mae_misconception_id(f"MaE0{i}") for i in (1, 2, 3)]
    assert ids[3:] == ["eedi:misconception:1", "eedi:misconception:2"]
    assert not records.concepts and not records.documents and not records.prerequisites
    assert {m.license for m in records.misconceptions[:3]} == {"MIT"}


def test_mae_task_is_one_fold_and_quick_samples(tmp_path: Path) -> None:
    full = MaeTask(MAE, EEDI / "misconception_mapping.csv").build_folds()
    assert [f.number for f in full] == [0] and len(full[0].items) == 12
    quick = MaeTask(MAE, EEDI / "misconception_mapping.csv", limit=5).build_folds()
    assert len(quick[0].items) == 5
    assert {it.item for it in quick[0].items} <= {it.item for it in full[0].items}


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        ({"not": "a list"}, "expected a JSON list"),
        (["text"], "expected an object"),
        ([{"Misconception ID": "MaE01"}], "'Misconception' missing"),
        ("twice", "appears twice"),
        ("two texts", "two different texts"),
    ],
)
def test_read_mae_rejects_malformed_files(tmp_path: Path, rows: object, message: str) -> None:
    raw = json.loads(MAE.read_text(encoding="utf-8"))
    if rows == "twice":
        rows = [raw[0], raw[0]]
    elif rows == "two texts":
        rows = [raw[0], {**raw[1], "Misconception": "something else"}]
    path = tmp_path / "data.json"
    path.write_text(json.dumps(rows), encoding="utf-8")
    with pytest.raises(ValueError, match=message):
        read_mae(path)


# -- configurations that cannot run --------------------------------------------------------


async def test_resources_refuse_what_is_missing_here(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for key in ("TUTORGRAPH_OPENAI_API_KEY", "OPENAI_API_KEY", "TUTORGRAPH_OPENAI_BASE_URL"):
        monkeypatch.delenv(key, raising=False)
    grid = {c.name: c for c in ablation_grid()}
    configs = [
        grid["default"],
        grid["refiner=openai"],
        grid["reranker=domain"],
        grid["reranker=domain-int8"],
    ]
    # An empty model folder: neither ONNX graph is there.
    res = await load_resources(configs, domain_model=tmp_path)
    assert set(res.not_measured) == {"refiner=openai", "reranker=domain", "reranker=domain-int8"}
    assert "TUTORGRAPH_OPENAI_API_KEY" in res.not_measured["refiner=openai"]
    assert all(r.startswith("not measured: ") for r in res.not_measured.values())
    assert not res.rerankers

    res = await load_resources(configs, domain_reason="trained on these questions")
    assert res.not_measured["reranker=domain-int8"] == "not measured: trained on these questions"
    res = await load_resources(configs, rerank_reason="not a reranking task")
    assert res.not_measured["reranker=domain"] == "not measured: not a reranking task"

    monkeypatch.setenv("TUTORGRAPH_OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    res = await load_resources([BEST, grid["refiner=openai"]])
    assert res.not_measured == {}


def test_eval_items_carry_the_router_query_type() -> None:
    item = eval_item("i", "What should I know before solving equations?", ["c"])
    assert item.query_type == "prerequisite"
    assert eval_item("i", "x" * 5000, ["c"]).query == "x" * 2000


def test_a_run_config_fixes_the_hops_only_when_asked() -> None:
    plain, fixed = RunConfig("best"), RunConfig("two hops", hops=2)
    assert plain.request_fields()["prerequisite_hops"] is None and "hops" not in plain.describe()
    assert fixed.request_fields()["prerequisite_hops"] == 2 and fixed.describe()["hops"] == 2

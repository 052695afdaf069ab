"""`bench linking`: its metrics, code -> cluster, the MathFish loader, the message set and the
word problems.

Uses the committed MathFish slice (tests/data/mathfish, Apache-2.0, see its SOURCE.md), the
tutoring messages and word problems of data/benchmarks and the bundled curriculum's
concepts.jsonl.
"""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

from tutorgraph.errors import ConfigurationError
from tutorgraph_client.models.packet import TIMING_KEYS, GraphContext, Hit, ReasoningPacket
from tutorgraph_client.models.refined_query import RefinedQuery
from tutorgraph_client.models.request import RetrievalRequest
from tutorgraph_research.tasks.standards_data import (
    WORD_PROBLEMS,
    LinkingItem,
    LinkingSet,
    cluster_of,
    mask_codes,
    message_split,
    read_mathfish,
    read_messages,
    read_standards,
    standard_id,
)
from tutorgraph_research.tasks.standards_linking import (
    BASELINE,
    LINKING_KS,
    METRICS,
    DenseStandardSearch,
    hit_scores,
    packet_ranking,
    run_linking_benchmark,
    summarize,
)

pytestmark = pytest.mark.unit

ROOT = Path(__file__).resolve().parents[3]
CONCEPTS = ROOT / "data" / "curriculum" / "concepts.jsonl"
MESSAGES = ROOT / "data" / "benchmarks" / "tutoring_messages.jsonl"
WORD_PROBLEMS_FILE = ROOT / "data" / "benchmarks" / "word_problems.jsonl"
K8 = ("K", "1", "2", "3", "4", "5", "6", "7", "8")
SLICE = ROOT / "tests" / "data" / "mathfish" / "generated_problems_teacher_annotations_slice.csv"


@pytest.fixture(scope="module")
def known() -> set[str]:
    return {s.id for s in read_standards(CONCEPTS)}


# -- clusters and metrics ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("code", "cluster"),
    [
        ("ccss:6.RP.A.3.c", "ccss:6.RP.A"),
        ("ccss:6.RP.A.3", "ccss:6.RP.A"),
        ("ccss:K.CC.A.2", "ccss:K.CC.A"),
        ("ccss:HSN-RN.A.1", "ccss:HSN-RN.A"),
        ("ccss:HSG-SRT.D.10", "ccss:HSG-SRT.D"),
        ("ccss:HSA-REI.B.4.b", "ccss:HSA-REI.B"),
        ("ccss:6.RP.A", "ccss:6.RP.A"),  # a cluster grouping is its own cluster
        ("ccss:HS.MP1", "ccss:HS.MP1"),  # a practice standard has no cluster part
        ("2.OA.A.1", "2.OA.A"),
    ],
)
def test_cluster_of(code: str, cluster: str) -> None:
    assert cluster_of(code) == cluster


def test_every_bundle_standard_has_a_cluster_the_bundle_knows(known: set[str]) -> None:
    groupings = {
        r["id"] for r in map(json.loads, CONCEPTS.read_text(encoding="utf-8").splitlines())
    }
    content = [s for s in known if ".MP" not in s and not s.startswith("ccss:MP")]
    assert content
    assert [s for s in content if cluster_of(s) not in groupings] == []


def test_the_metrics_are_exact_and_cluster_hits_at_1_3_5_10() -> None:
    assert LINKING_KS == (1, 3, 5, 10)
    assert METRICS == (
        "hit@1", "hit@3", "hit@5", "hit@10",
        "cluster_hit@1", "cluster_hit@3", "cluster_hit@5", "cluster_hit@10",
    )  # fmt: skip


def test_hit_scores_exact_and_cluster() -> None:
    ranking = ["ccss:6.RP.A.1", "ccss:7.RP.A.3", "ccss:6.EE.A.1", "x", "y", "ccss:6.RP.A.3.c"]
    s = hit_scores(ranking, ["ccss:6.RP.A.3.c"])
    assert list(s) == list(METRICS)
    assert (s["hit@1"], s["hit@3"], s["hit@5"], s["hit@10"]) == (0.0, 0.0, 0.0, 1.0)
    assert (s["cluster_hit@1"], s["cluster_hit@3"], s["cluster_hit@5"]) == (1.0, 1.0, 1.0)
    # the third id counts at 3, not at 1
    third = hit_scores(["x", "ccss:7.RP.A.3", "ccss:6.RP.A.3.c"], ["ccss:6.RP.A.3.c"])
    assert (third["hit@1"], third["hit@3"], third["cluster_hit@1"]) == (0.0, 1.0, 0.0)
    # any accepted standard counts; an empty ranking scores nothing
    assert hit_scores(["ccss:6.SP.B.5.c"], ["ccss:6.SP.A.3", "ccss:6.SP.B.5.c"])["hit@1"] == 1.0
    assert set(hit_scores([], ["ccss:6.SP.A.3"]).values()) == {0.0}
    # the 11th id is past every depth
    assert hit_scores(["z"] * 10 + ["ccss:K.CC.A.1"], ["ccss:K.CC.A.1"])["hit@10"] == 0.0


def test_summarize_means_intervals_and_paired_differences() -> None:
    items = [LinkingItem(f"i{n}", "t", ("ccss:K.CC.A.1",)) for n in range(4)]
    ones, zeros = dict.fromkeys(METRICS, 1.0), dict.fromkeys(METRICS, 0.0)
    scores = {
        "packet": {"i0": ones, "i1": zeros, "i2": zeros, "i3": zeros},
        BASELINE: {"i0": ones, "i1": ones, "i2": ones, "i3": zeros},
    }
    rows = summarize(scores, items)
    assert rows["packet"]["n"] == 4 and rows["packet"]["hit@1"]["mean"] == 0.25
    lo, hi = rows["packet"]["hit@1"]["ci95"]
    assert 0.0 <= lo <= 0.25 <= hi <= 1.0
    paired = rows["packet"]["paired"]
    assert paired["versus"] == BASELINE and paired["hit@10"]["mean"] == -0.5
    assert "paired" not in rows[BASELINE]
    assert summarize(scores, [])["packet"] == {"n": 0}


def _packet(
    key: list[str], graph: list[str], hits: list[tuple[str, str, list[str]]]
) -> ReasoningPacket:
    return ReasoningPacket(
        query="q",
        timings_ms=dict.fromkeys(TIMING_KEYS, 0.0),
        refined_query=RefinedQuery(
            original_query="q", optimized_query="q", key_concepts=key, refiner="local"
        ),
        graph_context=GraphContext(concepts=[{"id": g} for g in graph]),
        results=[
            Hit(
                id=i,
                ids=[i],
                kind=kind,
                text="t",
                concept_ids=cids,
                score=1.0,
                rank=n,
                found_by=["vector"],
                fused_score=1.0,
            )
            for n, (i, kind, cids) in enumerate(hits, start=1)
        ],
    )


def test_packet_ranking_reads_refined_then_graph_then_hits() -> None:
    packet = _packet(
        ["ccss:1.NBT.A.1", "eedi:construct:5"],
        ["ccss:3.OA.C.7", "ccss:1.NBT.A.1"],
        [
            ("openstax:m1:example:e1", "worked_example", ["openstax:section:m1"]),
            ("eedi:question:1", "question", ["ccss:7.SP.C.8.c", "eedi:construct:5"]),
            ("ccss:6.RP.A.3.c", "concept", ["ccss:6.RP.A.3.c"]),
        ],
    )
    assert packet_ranking(packet) == [
        "ccss:1.NBT.A.1",
        "ccss:3.OA.C.7",
        "ccss:7.SP.C.8.c",
        "ccss:6.RP.A.3.c",
    ]


# -- the dense baseline and the run, with a stand-in embedder and retriever ---------------


class _BagOfWords:
    """A deterministic stand-in embedder: normalised counts of a few words."""

    name = "bag-of-words"
    words = ("percent", "median", "add", "time", "clock", "fraction")

    def embed(self, texts: list[str]) -> npt.NDArray[np.float32]:
        rows = np.array(
            [[t.lower().count(w) for w in self.words] + [0.01] for t in texts], dtype=np.float32
        )
        return rows / np.linalg.norm(rows, axis=1, keepdims=True)

    def count_tokens(self, text: str) -> int:
        return len(text.split())


class _Retriever:
    def __init__(self) -> None:
        self.grades: list[str | None] = []

    async def retrieve(self, request: RetrievalRequest) -> ReasoningPacket:
        self.grades.append(request.grade)
        key = ["ccss:6.RP.A.3.c"] if "percent" in request.query else []
        return _packet(key, [], [])


def test_dense_search_and_a_run_report_every_system_and_split() -> None:
    standards = read_standards(CONCEPTS)
    dense = DenseStandardSearch(_BagOfWords(), standards)
    data = LinkingSet(
        "tutoring_messages",
        [
            LinkingItem("a", "a percent question", ("ccss:6.RP.A.3.c",), "dev", "question"),
            LinkingItem("b", "the median, percent", ("ccss:6.SP.A.3",), "heldout", "question"),
            LinkingItem("c", "add these", ("ccss:1.OA.A.1",), "heldout", "word_problem"),
        ],
        read=3,
    )
    retriever = _Retriever()
    report = asyncio.run(run_linking_benchmark([data], retriever, dense))
    rows = report["systems"]
    assert set(rows) == {"packet", "packet+grade", BASELINE}
    # Each item is asked twice: without a grade, then with its first standard's grade.
    assert retriever.grades == [None, None, None, "6", "6", "1"]
    assert set(rows["packet"]["tutoring_messages"]) == {
        "dev", "heldout", "all", "kind=question", "kind=word_problem"
    }  # fmt: skip
    assert rows["packet"]["tutoring_messages"]["dev"]["hit@1"]["mean"] == 1.0
    assert rows["packet"]["tutoring_messages"]["heldout"]["n"] == 2
    assert "paired" in rows["packet"]["tutoring_messages"]["all"]
    items = report["items"]["tutoring_messages"]
    assert [len(i[BASELINE]) for i in items] == [10, 10, 10]
    assert items[0]["packet"] == ["ccss:6.RP.A.3.c"]
    assert report["datasets"]["tutoring_messages"]["scored"] == 3
    limited = asyncio.run(run_linking_benchmark([data], _Retriever(), dense, limit=1))
    assert limited["datasets"]["tutoring_messages"]["scored"] == 1


# -- MathFish ------------------------------------------------------------------------------


def test_mathfish_slice_keeps_the_aligned_rows_only(known: set[str]) -> None:
    data = read_mathfish(SLICE, known)
    assert data.read == 20 and len(data.items) == 20 and not data.skipped
    assert data.items[0].id == "mathfish:1" and data.items[0].standards == ("ccss:1.OA.A.2",)
    assert all(len(i.standards) == 1 and i.standards[0] in known for i in data.items)
    assert data.masked > 0
    for item in data.items:
        assert item.standards[0].removeprefix("ccss:") not in item.text


def test_mathfish_rows_the_bundle_lacks_are_skipped_with_a_count(
    known: set[str], tmp_path: Path
) -> None:
    lines = SLICE.read_text(encoding="utf-8")
    path = tmp_path / "renamed.csv"
    path.write_text(lines.replace(",1.OA.A.2,", ",1.OA.Z.9,"), encoding="utf-8")
    data = read_mathfish(path, known)
    assert data.read == 20 and len(data.items) == 19
    assert data.skipped == {"mathfish:1": "standard '1.OA.Z.9' not in the bundle"}


def test_standard_codes_map_onto_bundle_ids(known: set[str]) -> None:
    assert standard_id("HSA-APR.B.3", known) == "ccss:HSA-APR.B.3"
    assert standard_id("HSA.APR.B.3", known) == "ccss:HSA-APR.B.3"
    assert standard_id(" 6.SP.B.5 ", known) == "ccss:6.SP.B.5"
    assert standard_id("6.SP.B.9", known) is None


def test_codes_in_problem_text_are_masked() -> None:
    text, n = mask_codes("Problem for Standard 1.OA.C.6: Tom has 7 marbles (see 6.RP.A.3c).")
    assert (
        n == 2
        and text == "Problem for Standard the standard: Tom has 7 marbles (see the standard)."
    )
    for plain in ("It is 3.5 feet long.", "Grade 4. A 5-ft board.", "HSA students"):
        assert mask_codes(plain) == (plain, 0)


# -- the tutoring messages ------------------------------------------------------------------


def _message_records() -> list[dict[str, object]]:
    return [json.loads(line) for line in MESSAGES.read_text(encoding="utf-8").splitlines()]


def test_every_message_standard_is_in_the_bundle(known: set[str]) -> None:
    records = _message_records()
    assert len(records) >= 90
    missing = {s for r in records for s in r["standards"] if s not in known}  # type: ignore[attr-defined]
    assert missing == set()
    data = read_messages(MESSAGES, known)
    assert len(data.items) == len(records) and all(i.standards for i in data.items)


def test_the_messages_cover_the_issue_rows_and_enough_word_problems() -> None:
    records = _message_records()
    by_text = {r["text"]: r["standards"] for r in records}
    assert by_text["what is 40% of 120?"] == ["ccss:6.RP.A.3.c"]
    assert by_text["Sam has 24 stickers and gives 9 to his sister. How many are left?"] == [
        "ccss:2.OA.A.1"
    ]
    assert by_text["how do I find the median of 3, 9, 4, 7, 5?"] == [
        "ccss:6.SP.A.3",
        "ccss:6.SP.B.5.c",
    ]
    assert by_text["how do I compare 5/8 and 3/5?"] == ["ccss:4.NF.A.2"]
    kinds = Counter(r["kind"] for r in records)
    assert kinds["word_problem"] * 3 >= len(records)
    grades = {r["grade"] for r in records}
    assert {"K", "1", "2", "3", "4", "5", "6", "7", "8", "HS"} <= grades
    assert len({r["id"] for r in records}) == len(records)


def test_the_split_is_deterministic_and_about_a_third() -> None:
    records = _message_records()
    assert all(r["split"] == message_split(str(r["id"])) for r in records)
    assert [message_split(str(r["id"])) for r in records] == [
        message_split(str(r["id"])) for r in records
    ]
    share = sum(r["split"] == "heldout" for r in records) / len(records)
    assert 0.25 <= share <= 0.42


def test_a_message_with_a_wrong_split_or_unknown_standard_is_refused(
    known: set[str], tmp_path: Path
) -> None:
    rec = _message_records()[0]
    wrong = dict(rec, split="heldout" if rec["split"] == "dev" else "dev")
    path = tmp_path / "m.jsonl"
    path.write_text(json.dumps(wrong) + "\n", encoding="utf-8")
    with pytest.raises(ConfigurationError, match="split"):
        read_messages(path, known)
    path.write_text(json.dumps(dict(rec, standards=["ccss:6.RP.A.9"])) + "\n", encoding="utf-8")
    with pytest.raises(ConfigurationError, match="unknown standards"):
        read_messages(path, known)
    path.write_text("{not json\n", encoding="utf-8")
    with pytest.raises(ConfigurationError, match=r"m\.jsonl:1"):
        read_messages(path, known)


# -- the word problems ---------------------------------------------------------------------


def _word_problem_records() -> list[dict[str, object]]:
    lines = WORD_PROBLEMS_FILE.read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def test_the_word_problems_are_k8_labelled_with_bundle_standards(known: set[str]) -> None:
    records = _word_problem_records()
    assert len(records) >= 120
    assert len({r["id"] for r in records}) == len(records)
    grade_of = {
        r["id"]: str(r.get("grade"))
        for r in map(json.loads, CONCEPTS.read_text(encoding="utf-8").splitlines())
        if r.get("kind") == "standard"
    }
    for r in records:
        standards = r["standards"]
        assert isinstance(standards, list) and standards, r["id"]
        assert [s for s in standards if s not in known] == [], r["id"]
        assert r["grade"] == grade_of[standards[0]], r["id"]
        assert r["split"] == message_split(str(r["id"])), r["id"]
        assert r["kind"] == "word_problem", r["id"]
    grades = Counter(str(r["grade"]) for r in records)
    assert set(grades) == set(K8) and min(grades.values()) >= 10
    share = sum(r["split"] == "heldout" for r in records) / len(records)
    assert 0.25 <= share <= 0.42


def test_the_word_problems_read_as_their_own_data_set(known: set[str]) -> None:
    data = read_messages(WORD_PROBLEMS_FILE, known, WORD_PROBLEMS)
    assert data.name == "word-problems" and data.read == len(data.items) >= 120
    assert {i.split for i in data.items} == {"dev", "heldout"}
    assert {i.kind for i in data.items} == {"word_problem"}
    assert read_messages(MESSAGES, known).name == "tutoring_messages"

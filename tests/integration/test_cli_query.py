"""`tutorgraph query` for real: one JSON document on stdout, byte-identical across processes
with different PYTHONHASHSEED values, readable blocks for people, clear errors for bad input."""

from __future__ import annotations

import asyncio
import json
import re
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tutorgraph.cli.app import app
from tutorgraph.ingest.eedi import EediQuestion, eedi_query_text
from tutorgraph_client.models.packet import TIMING_KEYS
from tutorgraph_client.models.request import RetrievalRequest

pytestmark = pytest.mark.integration

CONSTRUCT = "eedi:construct:1428"
# The packet's timings and, with debug on, each stage's own time.
_TIMINGS_RE = re.compile(r'"(timings_ms|stages_ms)":\{[^{}]*\}')
_ANSI_RE = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")

PACKET_FIELDS = {
    "query",
    "refined_query",
    "results",
    "graph_context",
    "context",
    "total_results",
    "vector_count",
    "lexical_count",
    "graph_count",
    "timings_ms",
    "degraded_sources",
    "degraded_reasons",
    "degraded_stages",
    "reranker",
    "ranker",
    "diagnosis",
    "answer_check",
    "conflicts",
    "concepts",
    "lessons",
    "slots",
    "confidence",
    "no_match",
    "no_match_reason",
    "scope",
    "grade",
    "language",
    "dialogue",  # issue 63: null without a conversation
    "debug",
}
HIT_FIELDS = {
    "id",
    "ids",
    "kind",
    "title",
    "text",
    "concept_ids",
    "score",
    "rank",
    "found_by",
    "source_ranks",
    "source_scores",
    "fused_score",
    "source_contributions",
    "rerank_score",
    "learned_score",
    "graph_path",
    "corroborated_by",
    "conflicts_with",
    "generated",
    "answer",
    "steps",
}


def _plain(text: str) -> str:
    return _ANSI_RE.sub("", text)


def _without_timings(raw: str) -> str:
    stripped, n = _TIMINGS_RE.subn(r'"\1":{}', raw)
    assert n == 1 + ('"debug":{' in raw), "expected one timings_ms (and stages_ms) object"
    return stripped


@pytest.fixture(scope="module")
def query_text(eedi_questions: list[EediQuestion]) -> str:
    q163 = next(q for q in eedi_questions if q.question_id == 163)
    return eedi_query_text(q163, "A")


@pytest.fixture(scope="module")
def json_runs(
    session_index: tuple[Path, object],
    start_cli: Callable[..., subprocess.Popen[str]],
    query_text: str,
) -> list[tuple[int, str, str]]:
    """The same `query --json` in two processes, PYTHONHASHSEED=1 and =2 (run side by side)."""
    args = (
        "query",
        query_text,
        "--concept-id",
        CONSTRUCT,
        "--debug",
        "--json",
        "-n",
        "20",
        "--index-dir",
        str(session_index[0]),
    )
    procs = [start_cli(*args, PYTHONHASHSEED=seed) for seed in ("1", "2")]
    out = []
    for proc in procs:
        stdout, stderr = proc.communicate(timeout=300)
        out.append((proc.returncode, stdout, stderr))
    return out


def test_query_json_is_exactly_one_packet_document(json_runs: list[tuple[int, str, str]]) -> None:
    rc, stdout, stderr = json_runs[0]
    assert rc == 0, stderr
    packet = json.loads(stdout)  # the whole of stdout: nothing else is printed there
    assert stdout.count("\n") == 1 and stdout.endswith("}\n")
    assert set(packet) == PACKET_FIELDS
    assert list(packet["timings_ms"]) == list(TIMING_KEYS)
    assert set(packet["graph_context"]) == {"concepts", "prerequisites", "misconceptions"}
    assert set(packet["reranker"]) == {"applied", "model", "reason"}
    assert set(packet["grade"]) == {"grade", "band", "source", "probability"}
    assert packet["degraded_sources"] == []
    assert 0 < len(packet["results"]) <= 20
    for hit in [*packet["results"], *packet["lessons"]]:
        assert set(hit) == HIT_FIELDS
        assert set(hit["found_by"]) <= {"vector", "lexical", "graph", "diagnosis", "ranker"}
        assert hit["found_by"]  # a ranker's proposal says so
        assert not hit["generated"]  # generated practice is in the practice slot only
    assert packet["total_results"] >= len(packet["results"])
    assert packet["debug"]["fusion"]["k"] == 60
    # The local refiner runs by default.
    assert packet["refined_query"]["refiner"] == "local"
    assert packet["refined_query"]["original_query"] == packet["query"]
    assert packet["timings_ms"]["refine"] > 0
    assert "Traceback" not in stderr


def test_query_packets_are_byte_identical_across_hash_seeds(
    json_runs: list[tuple[int, str, str]],
) -> None:
    (rc1, out1, err1), (rc2, out2, err2) = json_runs
    assert rc1 == 0, err1
    assert rc2 == 0, err2
    assert _without_timings(out1).encode() == _without_timings(out2).encode()


def test_cli_packet_equals_the_library_packet(
    json_runs: list[tuple[int, str, str]], opened_index, embedder, query_text: str
) -> None:  # type: ignore[no-untyped-def]
    """A third process (this one, its own hash seed) calling the library gets the same bytes."""
    from tests.conftest import index_retriever

    from tutorgraph.config import Settings
    from tutorgraph.diagnosis.diagnose import Diagnoser
    from tutorgraph.retrieval.factory import (
        build_refiner,
        load_ranker,
        load_reranker,
        load_scope,
        load_standards_model,
    )
    from tutorgraph.retrieval.retriever_config import RetrieverConfig

    # By default the CLI applies the bundled learned ranker, scope and standards models,
    # reranks nothing and refines locally; so does this library retriever.
    reranker, ranker = load_reranker(Settings()), load_ranker(Settings())
    scope = load_scope(Settings())
    assert reranker.value is None and ranker.value is not None, ranker.reason
    assert scope.value is not None, scope.reason
    standards, no_standards = load_standards_model(Settings())
    assert standards is not None, no_standards
    retriever = index_retriever(
        opened_index,
        embedder,
        linker=opened_index.linker.with_model(standards),
        reranker=reranker,
        ranker=ranker,
        scope=scope,
        refiner=build_refiner(RetrieverConfig.from_settings(Settings()), opened_index, embedder),
        diagnoser=Diagnoser.bundled(),
    )
    request = RetrievalRequest(query=query_text, concept_ids=[CONSTRUCT], n_results=20, debug=True)
    packet = asyncio.run(retriever.retrieve(request))
    assert packet.ranker.applied and not packet.reranker.applied and packet.scope.applied
    assert _without_timings(packet.model_dump_json()) == _without_timings(
        json_runs[0][1].rstrip("\n")
    )


def test_query_without_json_prints_readable_hits(
    cli_with_loaded_model: CliRunner, session_index: tuple[Path, object]
) -> None:
    result = cli_with_loaded_model.invoke(
        app,
        [
            "query",
            "factorise x^2+5x+6",
            "--concept-id",
            CONSTRUCT,
            "-n",
            "5",
            "--index-dir",
            str(session_index[0]),
        ],
    )
    assert result.exit_code == 0, result.output
    out = _plain(result.stdout)
    with pytest.raises(json.JSONDecodeError):
        json.loads(out)
    assert "factorise x^2+5x+6" in out
    assert " 1. " in out and "matched" in out and "score" in out
    assert "misconception" in out
    assert "graph: eedi:construct:" in out  # graph hits show their path
    assert "graph context" in out and "timings ms:" in out


def test_query_prints_the_diagnosis(
    cli_with_loaded_model: CliRunner, session_index: tuple[Path, object]
) -> None:
    """The readable output names the reproduced misconception (Eedi 2481, in the slice),
    its rule and the sentence, before the hits it leads."""
    result = cli_with_loaded_model.invoke(
        app,
        [
            "query",
            "i got 1.2 for 0.6 × 0.2, why is it wrong?",
            "-n",
            "3",
            "--index-dir",
            str(session_index[0]),
        ],
    )
    assert result.exit_code == 0, result.output
    out = _plain(result.stdout)
    assert "diagnosis: 0.6 × 0.2: the student's 1.2 is wrong (the answer is 0.12)" in out
    assert "eedi:misconception:2481 (decimal_multiply_wrong_power_of_ten): 1.2 is what" in out
    assert out.index("eedi:misconception:2481 (") < out.index(" 1. misconception")


def test_query_reads_a_conversation_file(
    cli_with_loaded_model: CliRunner, session_index: tuple[Path, object], tmp_path: Path
) -> None:
    """`--conversation FILE`: the turns before this one; the answer is checked against the
    tutor's question, and a file that is not a JSON list, or a turn over the limits, is a
    readable error (exit 2)."""
    turns = tmp_path / "turns.json"
    turns.write_text(
        json.dumps(
            [
                {"role": "tutor", "text": "What is 0.6 x 0.2?"},
                {"role": "student", "text": "hmm"},
            ]
        )
    )
    args = ["query", "i got 1.2", "-n", "3", "--index-dir", str(session_index[0])]
    result = cli_with_loaded_model.invoke(app, [*args, "--conversation", str(turns), "--json"])
    assert result.exit_code == 0, result.output
    packet = json.loads(result.stdout)
    assert packet["answer_check"]["problem"] == "0.6 × 0.2"
    assert packet["answer_check"]["correct"] is False
    dialogue = packet["dialogue"]
    assert (dialogue["problem_turn"], dialogue["student_answer_turn"]) == (0, 2)
    readable = cli_with_loaded_model.invoke(app, [*args, "--conversation", str(turns)])
    assert "dialogue: 2 earlier turns, topic carried" in _plain(readable.stdout)
    turns.write_text('{"role": "tutor"}')
    bad = cli_with_loaded_model.invoke(app, [*args, "--conversation", str(turns)])
    assert bad.exit_code == 2 and "not a JSON list" in _plain(bad.output)
    turns.write_text(json.dumps([{"role": "tutor", "text": "x" * 2001}]))
    bad = cli_with_loaded_model.invoke(app, [*args, "--conversation", str(turns)])
    assert bad.exit_code == 2
    assert "conversation turn 0 has 2001 characters, at most 2000" in _plain(bad.output)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "query: String should have at least 1 character"),
        ("   ", "query: String should have at least 1 character"),
        ("x" * 2001, "query: String should have at most 2000 characters"),
    ],
)
def test_query_bad_text_exits_2_with_a_readable_message(
    run_cli: Callable[..., subprocess.CompletedProcess[str]],
    session_index: tuple[Path, object],
    text: str,
    words: str,
) -> None:
    proc = run_cli("query", text, "--json", "--index-dir", str(session_index[0]))
    assert proc.returncode == 2
    assert proc.stdout == ""
    err = _plain(proc.stderr)
    assert "invalid request" in err and words in " ".join(err.split())
    assert "Traceback" not in err


def test_query_bad_options_and_unknown_concepts(
    cli_with_loaded_model: CliRunner, session_index: tuple[Path, object], tmp_path: Path
) -> None:
    index = ["--index-dir", str(session_index[0])]
    runner = cli_with_loaded_model

    res = runner.invoke(app, ["query", "fractions", "-n", "51", *index])
    assert res.exit_code == 2
    assert "n_results: Input should be less than or equal to 50" in _plain(res.stderr)

    res = runner.invoke(app, ["query", "fractions", "--source", "web", *index])
    assert res.exit_code == 2
    assert "sources.0" in _plain(res.stderr)

    res = runner.invoke(app, ["query", "fractions", "--concept-id", "ccss:9.ZZ.Z.9", *index])
    assert res.exit_code == 2
    assert res.stdout == ""
    assert "unknown concept id(s): ccss:9.ZZ.Z.9" in " ".join(_plain(res.stderr).split())

    res = runner.invoke(app, ["query", "fractions", "--index-dir", str(tmp_path / "none")])
    assert res.exit_code == 2
    assert "no tutorgraph index at" in " ".join(_plain(res.stderr).split())

    res = runner.invoke(
        app, ["query", "fractions", *index], env={"TUTORGRAPH_EMBEDDING_MODEL": "other/model"}
    )
    assert res.exit_code == 2
    assert "was built with embedder" in " ".join(_plain(res.stderr).split())
    for r in (res,):
        assert r.exception is None or isinstance(r.exception, SystemExit)

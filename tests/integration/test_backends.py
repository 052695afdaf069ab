"""The server backends through the real CLI: a Chroma server (`chroma run` on loopback) holds
the vectors and gives the same packets as embedded Chroma; an unreachable Neo4j or Chroma
degrades retrieval (real drivers, closed ports) and fails `graph-stats` with a clear error."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.contract.chroma_server import ChromaServer, chroma_server, free_port

from tutorgraph.index.layout import IndexLayout

pytestmark = pytest.mark.integration

QUERY = "why is 1/2 + 1/4 not 2/6"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ChromaServer]:
    with chroma_server(tmp_path_factory.mktemp("chroma-server")) as s:
        yield s


def _packet(proc) -> dict:  # type: ignore[no-untyped-def]
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_graph_stats_of_the_embedded_graph(run_cli, session_index) -> None:  # type: ignore[no-untyped-def]
    proc = run_cli("graph-stats", "--json", "--index-dir", str(session_index[0]))
    stats = json.loads(proc.stdout)
    assert stats["graph"] == "embedded"
    assert stats["nodes"]["Concept"] > 0 and stats["nodes"]["Misconception"] > 0
    assert set(stats["relationships"]) == {
        "PART_OF",
        "PREREQUISITE_OF",
        "ABOUT",
        "MISCONCEPTION_OF",
    }


def test_graph_stats_with_neo4j_down_is_a_clear_error(run_cli, session_index) -> None:  # type: ignore[no-untyped-def]
    proc = run_cli(
        "graph-stats",
        "--index-dir",
        str(session_index[0]),
        TUTORGRAPH_NEO4J_URI=f"bolt://127.0.0.1:{free_port()}",
        TUTORGRAPH_NEO4J_PASSWORD="x",
    )
    assert proc.returncode == 2
    assert "not reachable" in proc.stderr and "Traceback" not in proc.stderr


@pytest.mark.parametrize(
    ("env", "degraded"),
    [
        (
            {"TUTORGRAPH_NEO4J_URI": "bolt://127.0.0.1:{port}", "TUTORGRAPH_NEO4J_PASSWORD": "x"},
            "graph",
        ),
        ({"TUTORGRAPH_CHROMA_HOST": "127.0.0.1", "TUTORGRAPH_CHROMA_PORT": "{port}"}, "vector"),
    ],
)
def test_a_backend_that_is_down_degrades_the_packet(
    run_cli, session_index, env: dict[str, str], degraded: str
) -> None:  # type: ignore[no-untyped-def]
    port = str(free_port())
    proc = run_cli(
        "query",
        QUERY,
        "--json",
        "--no-rerank",
        "--index-dir",
        str(session_index[0]),
        TUTORGRAPH_SOURCE_TIMEOUT_S="3",
        **{k: v.format(port=port) for k, v in env.items()},
    )
    packet = _packet(proc)
    assert packet["degraded_sources"] == [degraded]
    assert packet["results"], "the other sources still answer"
    assert "Traceback" not in proc.stderr


def _rounded(value: object) -> object:
    if isinstance(value, float):
        return round(value, 5)
    if isinstance(value, dict):
        return {k: _rounded(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_rounded(v) for v in value]
    return value


def test_a_chroma_server_index_answers_like_the_embedded_one(
    run_cli, server: ChromaServer, index_bundle: Path, session_index, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    env = {"TUTORGRAPH_CHROMA_HOST": server.host, "TUTORGRAPH_CHROMA_PORT": str(server.port)}
    index_dir = str(tmp_path / "server-index")
    ingest = run_cli("ingest", str(index_bundle), "--index-dir", index_dir, timeout=600, **env)
    assert ingest.returncode == 0, ingest.stderr
    # The vectors are on the server, not in the index folder.
    assert not IndexLayout.live(tmp_path / "server-index").chroma.exists()
    args = ("query", QUERY, "--json", "--no-rerank", "--n-results", "20")
    served = _packet(run_cli(*args, "--index-dir", index_dir, **env))
    embedded = _packet(run_cli(*args, "--index-dir", str(session_index[0])))
    assert served["degraded_sources"] == []
    assert [h["id"] for h in served["results"]] == [h["id"] for h in embedded["results"]]
    # The same hits, fields and scores; the vectors embedded in another process may differ
    # in the 6th decimal (float32 kernels on some CPUs), so scores compare to 1e-5.
    assert _rounded(served["results"]) == _rounded(embedded["results"])


def test_ingest_graph_stats_and_query_on_a_bolt_server(  # type: ignore[no-untyped-def]
    run_cli, session_index, index_bundle: Path, tmp_path: Path
) -> None:
    """The product against a real Bolt server (ArcadeDB): `ingest` merges the catalogue
    into it (the index is a copy of the session's, so nothing is embedded again),
    `graph-stats` counts what the embedded graph counts, and `query` answers from it."""
    import shutil

    from tests.contract.arcadedb_server import arcadedb_server

    index = tmp_path / "index"
    shutil.copytree(session_index[0], index)
    (tmp_path / "arcadedb").mkdir()
    try:
        context = arcadedb_server(tmp_path / "arcadedb")
        bolt = context.__enter__()
    except (ImportError, OSError, RuntimeError) as exc:
        pytest.skip(f"no Bolt server: ArcadeDB could not start here ({exc})")
    env = {
        "TUTORGRAPH_NEO4J_URI": bolt.uri,
        "TUTORGRAPH_NEO4J_USER": bolt.user,
        "TUTORGRAPH_NEO4J_PASSWORD": bolt.password,
        "TUTORGRAPH_ARCADEDB_HTTP_URL": bolt.http_url,
        "TUTORGRAPH_SOURCE_TIMEOUT_S": "30",
    }
    try:
        ingest = run_cli("ingest", str(index_bundle), "--index-dir", str(index), **env)
        assert ingest.returncode == 0, ingest.stderr
        assert "0 added" in ingest.stdout and "merged into Neo4j" in ingest.stdout
        on_bolt = json.loads(
            run_cli("graph-stats", "--json", "--index-dir", str(index), **env).stdout
        )
        embedded = json.loads(run_cli("graph-stats", "--json", "--index-dir", str(index)).stdout)
        assert "ArcadeDB" in on_bolt.pop("graph") and embedded.pop("graph") == "embedded"
        assert on_bolt == embedded
        packet = _packet(run_cli("query", QUERY, "--json", "--index-dir", str(index), **env))
        assert packet["degraded_sources"] == [] and packet["graph_count"] > 0
    finally:
        context.__exit__(None, None, None)

"""The pure parts of `tutorgraph bench load` (the load test itself runs in the integration
tier): `--clients`, the p95 ratios, the memory rows, reading each process's RSS from /proc,
and the query set (which must stay the one the committed results/load_test*.json used)."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tutorgraph_research.cli.bench import bench_app
from tutorgraph_research.tasks.load_server import (
    process_roles,
    process_rss_mib,
    process_tree,
    rss_mib,
    tree_rss_mib,
)
from tutorgraph_research.tasks.load_test import (
    Scenario,
    load_queries,
    memory_rows,
    p95_ratios,
    parse_clients,
    parse_scenarios,
    take,
    warmup_count,
)

pytestmark = pytest.mark.unit

QUESTIONS = Path(__file__).resolve().parents[3] / "tests" / "data" / "eedi" / "train.csv"


# -- options --------------------------------------------------------------------------------------


def test_clients_parse_in_order() -> None:
    assert parse_clients("1,8,32") == (1, 8, 32)
    assert parse_clients(" 32, 1 ") == (32, 1)
    assert parse_clients("4") == (4,)


@pytest.mark.parametrize("text", ["", " ", "1,,8", "1,x", "8r", "0,8", "-1", "1.5", "8,8"])
def test_bad_clients_are_refused(text: str) -> None:
    with pytest.raises(ValueError):
        parse_clients(text)


def test_the_command_refuses_bad_clients_before_starting_anything() -> None:
    result = CliRunner().invoke(
        bench_app, ["load", "--questions", str(QUESTIONS), "--clients", "1,eight"]
    )
    assert result.exit_code == 2
    assert "--clients" in result.output


def test_load_is_listed_right_after_latency() -> None:
    names = [c.name for c in bench_app.registered_commands]
    assert names[names.index("latency") + 1] == "load"


def test_the_scripts_scenarios_still_parse() -> None:
    assert parse_scenarios("1,8,32,8r") == (
        Scenario(1, False),
        Scenario(8, False),
        Scenario(32, False),
        Scenario(8, True),
    )
    assert Scenario(1, False).name == "1 client, no rerank"
    assert Scenario(8, True).name == "8 clients, rerank"


# -- the report's arithmetic ----------------------------------------------------------------------


def row(clients: int, p95: float | None, *, rerank: bool = False) -> dict[str, object]:
    return {
        "clients": clients,
        "rerank": rerank,
        "latency_ms": None if p95 is None else {"p50": p95 / 2, "p95": p95, "p99": p95 * 1.2},
    }


def test_each_p95_is_a_multiple_of_the_one_client_p95() -> None:
    rows = [row(1, 40.0), row(8, 110.0), row(32, 161.0)]
    assert p95_ratios(rows) == [1.0, 2.75, 4.03]


def test_the_ratio_compares_like_with_like() -> None:
    # A rerank scenario against the 1-client rerank one only; none there, no ratio.
    rows = [row(8, 300.0), row(1, 50.0), row(8, 900.0, rerank=True), row(1, 300.0, rerank=True)]
    assert p95_ratios(rows) == [6.0, 1.0, 3.0, 1.0]
    assert p95_ratios([row(8, 300.0), row(8, 900.0, rerank=True)]) == [None, None]


def test_no_ratio_where_nothing_was_answered() -> None:
    assert p95_ratios([row(1, None), row(8, 100.0)]) == [None, None]
    assert p95_ratios([row(1, 20.0), row(8, None)]) == [1.0, None]
    assert p95_ratios([row(1, 0.0), row(8, 10.0)]) == [None, None]


def test_memory_rows_take_each_process_peak_over_the_scenarios() -> None:
    roles = {10: "parent", 11: "worker", 12: "worker", 13: "helper"}
    at_rest = {10: 80.0, 11: 650.0, 12: 640.5, 13: 12.0}
    peaks = [{10: 81.0, 11: 700.0, 12: 690.0}, {10: 80.5, 11: 720.0, 12: 650.0}]
    assert memory_rows(roles, at_rest, peaks) == [
        {"pid": 10, "role": "parent", "rss_at_rest_mib": 80.0, "peak_rss_mib": 81.0},
        {"pid": 11, "role": "worker", "rss_at_rest_mib": 650.0, "peak_rss_mib": 720.0},
        {"pid": 12, "role": "worker", "rss_at_rest_mib": 640.5, "peak_rss_mib": 690.0},
        {"pid": 13, "role": "helper", "rss_at_rest_mib": 12.0, "peak_rss_mib": None},
    ]


# -- the query set --------------------------------------------------------------------------------


def test_the_query_set_is_the_one_of_the_committed_results() -> None:
    # Every (question, wrong answer) pair in file order: the digest pins it, so that a
    # change to the set (which would make new runs incomparable) is a failing test.
    queries = load_queries(QUESTIONS)
    assert len(queries) == 120
    assert hashlib.sha256("\n".join(queries).encode()).hexdigest()[:16] == "76a48cfb555f9dbb"


def test_scenarios_take_wrapping_slices_and_warm_every_client() -> None:
    assert take(["a", "b", "c"], 2, 4) == ["c", "a", "b", "c"]
    assert warmup_count(20, 8) == 20 and warmup_count(20, 32) == 32 and warmup_count(0, 8) == 0


# -- memory from /proc ----------------------------------------------------------------------------


def fake_proc(root: Path, procs: dict[int, tuple[int, str, int, str]]) -> Path:
    """A /proc with `pid: (parent, comm, VmRSS kB, cmdline)`."""
    for pid, (parent, comm, kib, cmdline) in procs.items():
        d = root / str(pid)
        d.mkdir(parents=True)
        (d / "stat").write_text(f"{pid} ({comm}) S {parent} {pid} {pid} 0 -1\n")
        (d / "status").write_text(f"Name:\t{comm}\nVmRSS:\t{kib} kB\nThreads:\t4\n")
        (d / "cmdline").write_bytes(cmdline.replace(" ", "\0").encode())
    return root


def test_each_process_of_a_fake_server_tree_is_read_and_named(tmp_path: Path) -> None:
    proc = fake_proc(
        tmp_path,
        {
            1: (0, "init", 1024, "init"),
            100: (1, "tutorgraph", 81920, "python tutorgraph serve --workers 2"),
            # A name with spaces and a parenthesis: the fields follow its last ")".
            101: (100, "python (x) y", 716800, "python -c spawn_main --multiprocessing-fork"),
            102: (100, "python", 706560, "python -c spawn_main --multiprocessing-fork"),
            103: (100, "python", 10240, "python -c from multiprocessing.resource_tracker"),
            104: (101, "python", 2048, "python -c child of a worker"),
            200: (1, "other", 4096, "other"),
        },
    )
    assert process_tree(100, proc) == [100, 101, 102, 103, 104]
    assert process_rss_mib(100, proc) == {100: 80.0, 101: 700.0, 102: 690.0, 103: 10.0, 104: 2.0}
    assert tree_rss_mib(100, proc) == 1482.0
    assert process_roles(100, 2, proc) == {
        100: "parent",
        101: "worker",
        102: "worker",
        103: "helper",
        104: "helper",
    }
    # One worker: the server itself.
    assert process_roles(100, 1, proc) == {p: "helper" for p in (101, 102, 103, 104)} | {
        100: "worker"
    }
    assert rss_mib(999, proc) is None


@pytest.fixture
def sleeping_child() -> Iterator[subprocess.Popen[bytes]]:
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        yield child
    finally:
        child.kill()
        child.wait()


def test_the_real_proc_gives_this_process_and_its_child(
    sleeping_child: subprocess.Popen[bytes],
) -> None:
    tree = process_tree(os.getpid())
    assert tree[0] == os.getpid() and sleeping_child.pid in tree
    rss = process_rss_mib(os.getpid())
    assert rss[os.getpid()] > 0 and rss[sleeping_child.pid] > 0
    assert process_roles(os.getpid(), 2)[sleeping_child.pid] == "worker"

"""Load test of `tutorgraph serve`: throughput and latency of `POST /v1/retrieve` under load.

A benchmark, not a test. It starts `tutorgraph serve` on a free loopback port over the
configured index, waits for `/readyz`, then, for each scenario, runs locust (its library API,
headless, in a child process of this script, so that gevent's monkey-patching stays there):
N `FastHttpUser`s send Eedi queries (question, correct answer and a wrong answer: the
`tutorgraph bench latency` query set) back to back until `--requests` have been sent or
`--seconds` have passed (requests in flight then are waited for). Each scenario warms up
first (`--warmup` requests, at least one per user, not timed, on other queries), and each uses
its own slice of the query set, so that no scenario profits from another's caches (the
reranker's and the refiner's).

Scenarios (`--scenarios`): 1, 8 and 32 users without rerank (`"rerank": false`), 8 with
rerank (`"rerank": true`, the configured reranker). Reported per scenario, from locust's
stats: requests, req/s, p50, p95, p99 and mean latency (nearest rank, over every answered
request; locust's histogram is made 0.01 ms fine here, not its default two significant
digits), errors (any status but 200, or a transport error) by kind; and, sampled here from
/proc, the server's RSS (its process tree) at rest and its peak under load. The server runs
with the rate limit off and one API key made for the run; every other setting comes from the
`TUTORGRAPH_*` environment, as for `tutorgraph serve`.

    .venv/bin/python research/scripts/load_test.py --index-dir .tutorgraph \\
        --questions ../shared/data/eedi/train.csv --requests 100 --seconds 30 \\
        --out results/load_test.json
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

import httpx

from tutorgraph_research.harness.provenance import hardware

RETRIEVE = "/v1/retrieve"
MAX_QUERY_CHARS = 2000  # `RetrievalRequest.query`'s limit: longer queries would be 422s


@dataclass(frozen=True)
class Scenario:
    clients: int
    rerank: bool

    @property
    def name(self) -> str:
        return f"{self.clients} client{'s' if self.clients > 1 else ''}, " + (
            "rerank" if self.rerank else "no rerank"
        )


def parse_scenarios(text: str) -> tuple[Scenario, ...]:
    """`"1,8,32,8r"`: users per scenario, `r` for `"rerank": true`."""
    return tuple(
        Scenario(int(s.strip().rstrip("r")), s.strip().endswith("r")) for s in text.split(",")
    )


# -- the query set --------------------------------------------------------------------------------


def load_queries(path: Path) -> list[str]:
    """Every (question, wrong answer) query of an Eedi train file, in file order."""
    from tutorgraph.ingest.eedi import eedi_query_text, read_eedi_questions

    queries = [
        eedi_query_text(q, letter)
        for q in read_eedi_questions(path)
        for letter in sorted(q.answers)
        if letter != q.correct_answer
    ]
    return [q for q in queries if q.strip() and len(q) <= MAX_QUERY_CHARS]


def take(queries: list[str], start: int, n: int) -> list[str]:
    """`n` queries from `start`, wrapping around the set."""
    return [queries[(start + i) % len(queries)] for i in range(n)]


def warmup_count(warmup: int, clients: int) -> int:
    """Untimed requests before a scenario: `--warmup`, and at least one per user (each
    opens its connection then), unless `--warmup 0`."""
    return max(warmup, clients) if warmup else 0


# -- the load: locust, in a child process ---------------------------------------------------------


@dataclass
class Load:
    """One locust run. `users` send the `warm` bodies (not timed), then, all together, the
    `timed` ones until they run out or `seconds` pass; `extra_users` send `extra_bodies` in
    turn from the end of the warm-up (`head_start_s` before the timing) to its end."""

    url: str
    key: str
    users: int
    warm: list[dict[str, Any]]
    timed: list[dict[str, Any]]
    seconds: float
    timeout: float
    extra_users: int = 0
    extra_bodies: list[dict[str, Any]] = field(default_factory=list)
    head_start_s: float = 0.0


def run_load(load: Load) -> dict[str, Any]:
    """`load` run by locust in a child process (this script with `--locust SPEC`): the stats
    of the timed requests (`normal`) and of the extra users' (`extra`), and `elapsed_s`."""
    with tempfile.TemporaryDirectory(prefix="tutorgraph-locust-") as tmp:
        spec = Path(tmp) / "load.json"
        spec.write_text(json.dumps(asdict(load)), encoding="utf-8")
        command = [sys.executable, str(Path(__file__).resolve()), "--locust", str(spec)]
        # Generous: the warm-up is not bounded in time, and a request may take `timeout`.
        limit = load.seconds + 2 * load.timeout + 600
        proc = subprocess.run(command, capture_output=True, text=True, timeout=limit, check=False)
    if proc.returncode != 0 or not proc.stdout.strip():
        raise SystemExit(f"the locust run failed ({proc.returncode}):\n{proc.stderr}")
    result: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    return result


def locust_main(spec: Path) -> dict[str, Any]:
    """The child process: runs the `Load` in `spec` with locust and returns its stats."""
    import gevent  # type: ignore[import-untyped]  # locust monkey-patches: only in this child
    import locust.stats
    from gevent.event import Event  # type: ignore[import-untyped]
    from locust import FastHttpUser, User, constant, task
    from locust.env import Environment
    from locust.exception import CatchResponseError

    load = Load(**json.loads(spec.read_text(encoding="utf-8")))
    # Locust keeps response times in a histogram rounded to 2 significant digits (1,370 ms
    # would read 1,400): 0.01 ms buckets instead (the hook its docstring offers for that).
    locust.stats.bucket_response_time = lambda ms: round(ms, 2)  # type: ignore[assignment,return-value]
    warm, extra_bodies = list(reversed(load.warm)), itertools.cycle(load.extra_bodies)
    n = {"warm": len(warm), "sent": 0, "answered": 0}
    clock = {"deadline": float("inf"), "t0": 0.0, "last": 0.0}
    warmed, go, done = Event(), Event(), Event()

    def over() -> bool:
        """Whether the timed requests are all sent or time is up; `done` once all are answered
        too. (The cap is kept here: a request event hook that quits would drop those in flight.)"""
        ended = n["sent"] == len(load.timed) or time.perf_counter() >= clock["deadline"]
        if ended and n["answered"] == n["sent"]:
            done.set()
        return ended

    class Client(FastHttpUser):
        abstract = True
        wait_time = constant(0)
        network_timeout = connection_timeout = load.timeout
        default_headers = {"X-API-Key": load.key}  # noqa: RUF012 (locust's own attribute)

        def post(self, body: dict[str, Any], name: str) -> None:
            with self.client.post(RETRIEVE, json=body, name=name, catch_response=True) as resp:
                if resp.status_code != 200:  # kept apart: the latencies are of the 200s
                    resp.request_meta["name"] = f"{name} failed"
                    if resp.status_code:  # else a transport error, which locust records
                        resp.failure(f"HTTP {resp.status_code}")

    class Normal(Client):
        fixed_count = load.users

        @task
        def retrieve(self) -> None:
            if warm:
                try:
                    self.post(warm.pop(), "warm-up")
                finally:
                    n["warm"] -= 1
                    if not n["warm"]:
                        warmed.set()
            elif go.wait() and over():
                done.wait()
            else:
                n["sent"] += 1
                try:
                    self.post(load.timed[n["sent"] - 1], RETRIEVE)
                finally:
                    n["answered"] += 1
                    clock["last"] = time.perf_counter()
                    over()

    class Extra(Client):
        fixed_count = load.extra_users

        @task
        def extra(self) -> None:
            if warmed.wait() and done.is_set():
                gevent.sleep(0.05)  # the runner is stopping the users
            else:
                self.post(next(extra_bodies), "extra")

    classes: list[type[User]] = [Normal, Extra] if load.extra_users else [Normal]
    # stop_timeout: stopping waits for the requests in flight (the extra users').
    env = Environment(user_classes=classes, host=load.url, stop_timeout=load.timeout)
    runner = env.create_local_runner()
    runner.start(load.users + load.extra_users, spawn_rate=load.users + load.extra_users)
    if load.warm:
        warmed.wait()
    warmed.set()
    gevent.sleep(load.head_start_s)
    clock["t0"] = time.perf_counter()
    clock["deadline"] = clock["t0"] + load.seconds
    go.set()
    done.wait()
    runner.quit()

    def stats(name: str) -> dict[str, Any]:
        ok, failed = env.stats.get(name, "POST"), env.stats.get(f"{name} failed", "POST")
        kinds: Counter[str] = Counter()
        for err in env.stats.errors.values():
            if err.name == failed.name:
                e = err.error
                kinds[str(e) if isinstance(e, CatchResponseError) else type(e).__name__] += (
                    err.occurrences
                )
        pct = ok.get_response_time_percentile
        latency: dict[str, float] = {"p50": pct(0.50), "p95": pct(0.95), "p99": pct(0.99)}
        latency["mean"] = ok.avg_response_time
        return {
            "requests": ok.num_requests + failed.num_requests,
            "ok": ok.num_requests,
            "errors": failed.num_requests,
            "error_kinds": dict(kinds),
            "latency_ms": {k: round(v, 2) for k, v in latency.items()} if ok.num_requests else None,
        }

    return {
        "normal": stats(RETRIEVE),
        "extra": stats("extra") if load.extra_users else None,
        "elapsed_s": round(clock["last"] - clock["t0"], 3),
        "locust_cpu_warning": runner.cpu_warning_emitted,
    }


# -- the server ---------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def tutorgraph_command() -> list[str]:
    script = Path(sys.executable).with_name("tutorgraph")
    if script.is_file():
        return [str(script)]
    return [sys.executable, "-c", "from tutorgraph.cli.app import main; main()"]


@dataclass
class Server:
    url: str
    process: subprocess.Popen[bytes]
    log: Path

    def log_tail(self, n: int = 40) -> str:
        try:
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-n:])
        except OSError:
            return ""


def start_server(args: argparse.Namespace, key: str, log: Path) -> Server:
    from tutorgraph.api.auth import key_entry

    port = free_port()
    env = dict(os.environ)
    env.update(
        TUTORGRAPH_API_KEYS=key_entry(key, "read"),
        TUTORGRAPH_RATE_LIMIT_PER_MINUTE="0",
        TOKENIZERS_PARALLELISM="false",
    )
    env.setdefault("HF_HUB_OFFLINE", "1")
    command = [
        *tutorgraph_command(),
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--index-dir",
        str(args.index_dir),
        "--workers",
        str(args.workers),
        "--log-level",
        "warning",
    ]
    with log.open("wb") as out:
        process = subprocess.Popen(command, env=env, stdout=out, stderr=subprocess.STDOUT)
    return Server(f"http://127.0.0.1:{port}", process, log)


def tree_rss_mib(pid: int) -> float:
    """Resident memory of `pid` and its descendants (uvicorn's workers), from /proc."""
    parents: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            parents[int(stat.parent.name)] = int(fields[1])
        except (OSError, IndexError, ValueError):
            continue
    tree, frontier = {pid}, [pid]
    while frontier:
        parent = frontier.pop()
        children = [p for p, pp in parents.items() if pp == parent and p not in tree]
        tree.update(children)
        frontier.extend(children)
    kib = 0
    for p in tree:
        try:
            status = Path(f"/proc/{p}/status").read_text()
            kib += int(status.split("VmRSS:")[1].split()[0])
        except (OSError, IndexError, ValueError):
            continue
    return round(kib / 1024, 1)


class PeakRss:
    """The largest `tree_rss_mib` seen every 0.25 s while the block runs."""

    def __init__(self, pid: int) -> None:
        self._pid, self.peak, self._stop = pid, 0.0, threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def _sample(self) -> None:
        while not self._stop.wait(0.25):
            self.peak = max(self.peak, tree_rss_mib(self._pid))

    def __enter__(self) -> PeakRss:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


def wait_ready(server: Server, timeout_s: float) -> dict[str, Any]:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            raise SystemExit(
                f"tutorgraph serve exited with {server.process.returncode}:\n{server.log_tail()}"
            )
        try:
            resp = httpx.get(server.url + "/readyz", timeout=30)
            if resp.status_code == 200:
                body: dict[str, Any] = resp.json()
                return body
        except httpx.HTTPError:
            pass
        time.sleep(0.5)
    raise SystemExit(f"tutorgraph serve was not ready within {timeout_s:g}s:\n{server.log_tail()}")


def stop_server(server: Server) -> None:
    if server.process.poll() is not None:
        return
    server.process.send_signal(signal.SIGTERM)
    try:
        server.process.wait(timeout=60)
    except subprocess.TimeoutExpired:
        server.process.kill()
        server.process.wait()


def rerank_applied(server: Server, key: str, query: str) -> bool:
    """Whether the server reranks a `"rerank": true` request (a reranker is loaded)."""
    resp = httpx.post(
        server.url + RETRIEVE,
        json={"query": query, "rerank": True},
        headers={"X-API-Key": key},
        timeout=120,
    )
    resp.raise_for_status()
    return bool(resp.json()["reranker"]["applied"])


# -- one scenario, the report ---------------------------------------------------------------------


def run_scenario(
    args: argparse.Namespace,
    server: Server,
    key: str,
    queries: list[str],
    scenario: Scenario,
    offset: int,
) -> dict[str, Any]:
    def bodies(start: int, n: int) -> list[dict[str, Any]]:
        return [{"query": q, "rerank": scenario.rerank} for q in take(queries, start, n)]

    out = run_load(
        Load(
            url=server.url,
            key=key,
            users=scenario.clients,
            warm=bodies(offset + args.requests, warmup_count(args.warmup, scenario.clients)),
            timed=bodies(offset, args.requests),
            seconds=args.seconds,
            timeout=args.timeout,
        )
    )
    stats, elapsed = out["normal"], out["elapsed_s"]
    return {
        "scenario": scenario.name,
        "clients": scenario.clients,
        "rerank": scenario.rerank,
        **{k: stats[k] for k in ("requests", "ok", "errors", "error_kinds")},
        "elapsed_s": elapsed,
        "req_per_s": round(stats["requests"] / elapsed, 2) if elapsed > 0 else 0.0,
        "latency_ms": stats["latency_ms"],
        "locust_cpu_warning": out["locust_cpu_warning"],
    }


def print_table(rows: list[dict[str, Any]], workers: int, threads: int) -> None:
    header = (
        f"{'scenario':<22} {'requests':>8} {'req/s':>8} {'p50 ms':>9} {'p95 ms':>9} "
        f"{'p99 ms':>9} {'errors':>6} {'workers':>7} {'peak MiB':>9}"
    )
    print(header)
    print("-" * len(header))
    for row in rows:
        lat = row["latency_ms"] or {"p50": float("nan"), "p95": float("nan"), "p99": float("nan")}
        print(
            f"{row['scenario']:<22} {row['requests']:>8} {row['req_per_s']:>8.2f} "
            f"{lat['p50']:>9.1f} {lat['p95']:>9.1f} {lat['p99']:>9.1f} {row['errors']:>6} "
            f"{workers:>7} {row['server_peak_rss_mib']:>9.0f}"
        )
    print(f"(server: {workers} worker process(es), {threads} inference threads each)")


def server_main(args: argparse.Namespace) -> int:
    from tutorgraph.config import Settings
    from tutorgraph.index.generations import live_generation

    if live_generation(args.index_dir) is None:
        raise SystemExit(f"no tutorgraph index at {args.index_dir}")
    queries = load_queries(args.questions)
    if not queries:
        raise SystemExit(f"no queries in {args.questions}")
    threads = Settings().inference_threads
    key = secrets.token_urlsafe(24)
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="tutorgraph-load-") as tmp:
        server = start_server(args, key, Path(tmp) / "serve.log")
        try:
            started = time.monotonic()
            ready = wait_ready(server, args.start_timeout)
            print(
                f"server up in {time.monotonic() - started:.1f}s at {server.url}: "
                f"{ready['status']}, generation {ready['generation']}",
                flush=True,
            )
            reranker = ready["dependencies"].get("reranker", {})
            time.sleep(2.0)  # let start-up settle
            rss_at_rest = tree_rss_mib(server.process.pid)
            print(f"server RSS at rest: {rss_at_rest} MiB", flush=True)
            offset = 0
            for scenario in args.scenarios:
                applied = None
                if scenario.rerank:
                    applied = rerank_applied(server, key, queries[-1])
                    if not applied:
                        print(f"warning: the server does not rerank ({reranker.get('detail')})")
                print(f"running {scenario.name} ...", flush=True)
                with PeakRss(server.process.pid) as rss:
                    row = run_scenario(args, server, key, queries, scenario, offset)
                row["server_peak_rss_mib"] = rss.peak
                if applied is not None:
                    row["reranker_applied"] = applied
                rows.append(row)
                offset += args.requests + warmup_count(args.warmup, scenario.clients)
        finally:
            stop_server(server)
    print()
    print_table(rows, args.workers, threads)
    report = {
        "command": " ".join([Path(sys.argv[0]).as_posix(), *sys.argv[1:]]),
        "finished_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "hardware": hardware(),
        "load_generator": f"locust {metadata.version('locust')} (FastHttpUser)",
        "server": {
            "workers": args.workers,
            "inference_threads": threads,
            "generation": ready["generation"],
            "readyz": ready["status"],
            "reranker": reranker.get("detail"),
            "rss_at_rest_mib": rss_at_rest,
        },
        "bounds": {
            "requests": args.requests,
            "seconds": args.seconds,
            "warmup": args.warmup,
            "timeout_s": args.timeout,
        },
        "queries": {"file": str(args.questions), "available": len(queries)},
        "scenarios": rows,
    }
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
        print(f"wrote {args.out}")
    return 0


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--index-dir", type=Path, default=Path(".tutorgraph"), help="index to serve")
    p.add_argument(
        "--questions",
        type=Path,
        default=Path("../shared/data/eedi/train.csv"),
        help="Eedi train.csv: the query set",
    )
    p.add_argument("--requests", type=int, default=500, help="requests per scenario (at most)")
    p.add_argument("--seconds", type=float, default=60.0, help="seconds per scenario (at most)")
    p.add_argument("--warmup", type=int, default=20, help="untimed requests before each scenario")
    p.add_argument("--workers", type=int, default=1, help="`tutorgraph serve --workers`")
    p.add_argument(
        "--scenarios",
        type=parse_scenarios,
        default=parse_scenarios("1,8,32,8r"),
        help='users per scenario, "r" for rerank (default "1,8,32,8r")',
    )
    p.add_argument("--timeout", type=float, default=120.0, help="per-request timeout (s)")
    p.add_argument("--start-timeout", type=float, default=300.0, help="wait for /readyz (s)")
    p.add_argument("--out", type=Path, default=None, help="also write the report as JSON")
    p.add_argument("--locust", type=Path, help=argparse.SUPPRESS)  # the child process
    args = p.parse_args(argv)
    if args.requests < 1 or args.seconds <= 0 or args.warmup < 0 or args.workers < 1:
        p.error("--requests and --workers must be >= 1, --seconds > 0, --warmup >= 0")
    if not args.scenarios or min(s.clients for s in args.scenarios) < 1:
        p.error("--scenarios: one or more user counts >= 1, e.g. 1,8,32,8r")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.locust:
        print(json.dumps(locust_main(args.locust)))
        return 0
    return server_main(args)


if __name__ == "__main__":
    sys.exit(main())

"""The HTTP load of `tutorgraph bench load` (`load_test`) and of
research/scripts/hostile_load.py: locust (its library API, headless), run in a child process
so that gevent's monkey-patching never reaches the parent.

`run_load(Load(...))` writes the load to a temporary JSON file and runs this module on it
(`python -m tutorgraph_research.tasks.load_locust SPEC`); the child prints the stats as one
JSON line. Nothing here imports locust or gevent but `locust_main`, which only the child
calls.

>>> run_load(Load(url, key, users=8, warm=bodies[:8], timed=bodies[8:], seconds=30,
...               timeout=60))["normal"]["latency_ms"]  # doctest: +SKIP
{'p50': 212.4, 'p95': 301.9, 'p99': 340.2, 'mean': 220.1}
"""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["RETRIEVE", "Load", "LoadTestError", "locust_main", "run_load"]

RETRIEVE = "/v1/retrieve"
# What the child runs (`python -m`); spelled out, as `__name__` is "__main__" in the child.
CHILD_MODULE = "tutorgraph_research.tasks.load_locust"


class LoadTestError(RuntimeError):
    """A load test could not run: no index, no queries, the server or locust failed."""


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
    """`load` run by locust in a child process (this module run with `-m` on SPEC): the
    stats of the timed requests (`normal`) and of the extra users' (`extra`), and
    `elapsed_s`. Raises `LoadTestError` when the child fails."""
    with tempfile.TemporaryDirectory(prefix="tutorgraph-locust-") as tmp:
        spec = Path(tmp) / "load.json"
        spec.write_text(json.dumps(asdict(load)), encoding="utf-8")
        # `-m`, not the file's path: run as a path, this folder would come first on the
        # child's sys.path and its modules could shadow others of the same name.
        command = [sys.executable, "-m", CHILD_MODULE, str(spec)]
        # Generous: the warm-up is not bounded in time, and a request may take `timeout`.
        limit = load.seconds + 2 * load.timeout + 600
        proc = subprocess.run(command, capture_output=True, text=True, timeout=limit, check=False)
    if proc.returncode != 0 or not proc.stdout.strip():
        raise LoadTestError(f"the locust run failed ({proc.returncode}):\n{proc.stderr}")
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


if __name__ == "__main__":
    print(json.dumps(locust_main(Path(sys.argv[1]))))

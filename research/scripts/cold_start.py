"""The cold start of a one-shot `tutorgraph query`: how long a fresh process takes, and where
the seconds go.

    tutorgraph ingest data/curriculum --index-dir /tmp/cs49/idx   # once, about a minute
    python research/scripts/cold_start.py --index-dir /tmp/cs49/idx --runs 7
    # two versions, interleaved (`git archive REV src clients/python/src | tar -x -C DIR`):
    python research/scripts/cold_start.py --index-dir /tmp/cs49/idx --runs 9 --importtime \\
        --tree before=DIR/src:DIR/clients/python/src --tree after=src:clients/python/src \\
        --out results/cold_start.json

Each run is a separate process (`python -c <bootstrap>`), so nothing is warm but the disk
cache: a warm-up run per tree comes first and is not counted (the models and the index are
then in the page cache, and the bytecode in a cache of its own, `PYTHONPYCACHEPREFIX`, as an
installed package's would be). With several `--tree LABEL=SRC[:SRC...]` (folders holding
`tutorgraph` and `tutorgraph_client`, put first on `PYTHONPATH`), the trees take turns run
by run, so that a busy machine slows each alike.

A run is one of two kinds, alternating:

* `plain`: the CLI alone; its wall time (spawn to exit) is the headline figure (p50);
* `timed`: the same command with timing hooks wrapped around the functions that load things
  (the index and its parts, each model, the first query), installed after the CLI's imports
  and before the command runs; it gives the breakdown. A hook records wall-clock start and end,
  so phases that overlap (a thread, a child process) are reported as they ran, not summed.

The breakdown's phases (medians over the timed runs, in seconds):

* `interpreter`: spawn to the first line of the bootstrap (Python and `site`);
* `imports`: `import tutorgraph.cli.app` (the CLI and what it imports at module level);
* `index_open`: `LocalIndex.load`, with its parts: the wait for the vector store's child check,
  BM25, the catalogue, the embedded graph, the concept linker;
* `models`: `load_models` as a whole, and `model.*` each model's load wherever it happens
  (at open, or lazily in the first query);
* `build_retriever`: the retriever over the opened index (the refiner's spelling vocabulary);
* `first_query`: `HybridRetriever.retrieve`, with the model loads inside it (a deferred
  ranker's, also listed under `models` and as `first_query.model_loads`);
* `close`: closing the retriever and the index;
* `rest`: the total less the union of the phases above (settings, argument parsing,
  printing, interpreter exit).

`--importtime` adds one `python -X importtime` run per tree: the import seconds by top-level
package (self time, summed).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
QUERY = "why do I get 4/6 when I add 1/2 and 3/4?"

# Functions wrapped in a timed run: (phase, "module:Qualname"). A missing one (another
# version of the code) is skipped. Model loads nested in another model's load count there.
HOOKS: tuple[tuple[str, str], ...] = (
    ("index_open", "tutorgraph.index.local:LocalIndex.load"),
    ("index.vector_check_wait", "tutorgraph.index.vector_check:VectorCheck.result"),
    ("index.bm25", "tutorgraph.stores.bm25:BM25Index.load"),
    ("index.catalogue", "tutorgraph.index.layout:load_catalogue"),
    ("index.graph", "tutorgraph.stores.embedded_graph:EmbeddedGraphStore.__init__"),
    ("index.linker", "tutorgraph.index.local:load_linker"),
    ("index.check_files", "tutorgraph.index.integrity:check_files"),
    ("models", "tutorgraph.retrieval.factory:load_models"),
    ("model.embedder", "tutorgraph.embedding.onnx_embedder:OnnxEmbedder.load"),
    ("model.embedder", "tutorgraph.embedding.embedder:SentenceTransformerEmbedder.load"),
    ("model.reranker", "tutorgraph.retrieval.factory:load_reranker"),
    ("model.reranker", "tutorgraph.embedding.reranker:CrossEncoderReranker.load"),
    ("model.ranker", "tutorgraph.retrieval.factory:load_ranker"),
    ("model.scope", "tutorgraph.retrieval.factory:load_scope"),
    ("model.standards", "tutorgraph.retrieval.factory:load_standards_model"),
    # A learned ranker left to the first request that may be scored by it.
    ("model.ranker", "tutorgraph.retrieval.ranker_runtime:DeferredRanker._get"),
    ("build_retriever", "tutorgraph.retrieval.factory:build_retriever"),
    ("first_query", "tutorgraph.retrieval.retriever:HybridRetriever.retrieve"),
    ("close", "tutorgraph.index.service:OpenRetriever.aclose"),
)

# What a timed run executes: hooks, then the CLI. Its events go to $COLD_START_EVENTS.
BOOTSTRAP = r"""
import time
_t0 = time.time()
import asyncio, functools, importlib, inspect, json, os, sys
events = [("bootstrap", _t0, _t0)]
hooks = json.loads(os.environ["COLD_START_HOOKS"])
t = time.time()
import tutorgraph.cli.app as app
events.append(("imports", t, time.time()))

def wrap(name, func):
    if inspect.iscoroutinefunction(func):
        @functools.wraps(func)
        async def timed(*a, **k):
            start = time.time()
            try:
                return await func(*a, **k)
            finally:
                events.append((name, start, time.time()))
    else:
        @functools.wraps(func)
        def timed(*a, **k):
            start = time.time()
            try:
                return func(*a, **k)
            finally:
                events.append((name, start, time.time()))
    return timed

for name, path in hooks:
    module_name, qual = path.split(":")
    try:
        module = importlib.import_module(module_name)
        *owners, attr = qual.split(".")
        owner = module
        for part in owners:
            owner = getattr(owner, part)
        raw = owner.__dict__[attr] if isinstance(owner, type) else getattr(owner, attr)
    except (ImportError, AttributeError, KeyError):
        continue
    if isinstance(raw, classmethod):
        setattr(owner, attr, classmethod(wrap(name, raw.__func__)))
        continue
    if isinstance(raw, staticmethod):
        setattr(owner, attr, staticmethod(wrap(name, raw.__func__)))
        continue
    timed = wrap(name, raw)
    setattr(owner, attr, timed)
    if not isinstance(owner, type):  # a function imported by name elsewhere, too
        for mod in list(sys.modules.values()):
            mine = getattr(mod, "__name__", "").startswith("tutorgraph")
            if mine and mod.__dict__.get(attr) is raw:
                setattr(mod, attr, timed)

def dump():
    with open(os.environ["COLD_START_EVENTS"], "w") as fh:
        json.dump(events, fh)

sys.argv = ["tutorgraph", *json.loads(os.environ["COLD_START_ARGS"])]
try:
    app.main()
except SystemExit:
    dump()
    raise
dump()
"""

PLAIN = "import sys, json, os; sys.argv = ['tutorgraph', *json.loads(os.environ['COLD_START_ARGS'])]; from tutorgraph.cli.app import main; main()"  # noqa: E501


def child_env(src: str | None, pycache: Path | None) -> dict[str, str]:
    """The environment of a run: no TUTORGRAPH_* settings, no hub, `src` (folders joined by
    the path separator) first on PYTHONPATH, the bytecode cached under `pycache`."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("TUTORGRAPH_")}
    env.update(HF_HUB_OFFLINE="1", TOKENIZERS_PARALLELISM="false")
    if pycache is not None:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(pycache)
    if src:
        folders = [str(Path(f).resolve()) for f in src.split(os.pathsep) if f]
        env["PYTHONPATH"] = os.pathsep.join([*folders, *filter(None, [env.get("PYTHONPATH")])])
    return env


def run_once(
    python: str, kind: str, args: list[str], env: dict[str, str], timeout: float
) -> dict[str, Any]:
    """One process; its wall time, and the events of a timed run."""
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as fh:
        events_file = Path(fh.name)
    env = {
        **env,
        "COLD_START_ARGS": json.dumps(args),
        "COLD_START_HOOKS": json.dumps(HOOKS),
        "COLD_START_EVENTS": str(events_file),
    }
    code = BOOTSTRAP if kind == "timed" else PLAIN
    spawn = time.time()
    out = subprocess.run(
        [python, "-c", code],
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
        cwd=tempfile.gettempdir(),
    )
    end = time.time()
    if out.returncode != 0:
        raise SystemExit(f"a {kind} run failed ({out.returncode}):\n{out.stderr[-3000:]}")
    packet = json.loads(out.stdout)  # stdout is exactly the packet
    assert packet["results"], "the cold-start query found nothing"
    run: dict[str, Any] = {"kind": kind, "wall_s": round(end - spawn, 3)}
    if kind == "timed":
        events = json.loads(events_file.read_text())
        run["phases"] = phases(events, spawn, end)
    events_file.unlink(missing_ok=True)
    return run


def _inside(inner: list[Any], outer: list[Any]) -> bool:
    return outer is not inner and outer[1] <= inner[1] and inner[2] <= outer[2]


def phases(events: list[list[Any]], spawn: float, end: float) -> dict[str, float]:
    """Seconds per phase of one timed run (see the module docstring)."""
    out: dict[str, float] = {}
    by_name: dict[str, list[list[Any]]] = {}
    for e in events:
        by_name.setdefault(e[0], []).append(e)
    out["interpreter"] = by_name["bootstrap"][0][1] - spawn
    out["imports"] = sum(e[2] - e[1] for e in by_name.get("imports", []))
    models = [e for e in events if e[0].startswith("model.")]
    # A model load inside another's (the ranker's tuned encoder) belongs to the outer one.
    top_models = [m for m in models if not any(_inside(m, o) for o in models)]
    for m in top_models:
        out[m[0]] = out.get(m[0], 0.0) + m[2] - m[1]
    for name in ("index_open", "models", "build_retriever", "close"):
        if name in by_name:
            out[name] = sum(e[2] - e[1] for e in by_name[name])
    for name, evs in by_name.items():
        if name.startswith("index."):
            out[name] = sum(e[2] - e[1] for e in evs)
    queries = by_name.get("first_query", [])
    if queries:
        q = queries[0]
        # A model loaded inside it (a deferred ranker) overlaps the query's own work.
        out["first_query"] = q[2] - q[1]
        out["first_query.model_loads"] = sum(m[2] - m[1] for m in top_models if _inside(m, q))
    # The union of the top-level phases' intervals: overlaps are counted once.
    intervals = [(spawn, by_name["bootstrap"][0][1])]
    intervals += [(e[1], e[2]) for e in by_name.get("imports", [])]
    intervals += [(e[1], e[2]) for e in by_name.get("index_open", [])]
    intervals += [(m[1], m[2]) for m in top_models]
    intervals += [(q[1], q[2]) for q in queries[:1]]
    for name in ("build_retriever", "close"):
        intervals += [(e[1], e[2]) for e in by_name.get(name, [])]
    covered, last = 0.0, spawn
    for a, b in sorted(intervals):
        a = max(a, last)
        if b > a:
            covered += b - a
            last = b
    out["total"] = end - spawn
    out["rest"] = out["total"] - covered
    return {k: round(v, 3) for k, v in out.items()}


def importtime(python: str, env: dict[str, str]) -> dict[str, float]:
    """Seconds of `import tutorgraph.cli.app` by top-level package (self times summed)."""
    out = subprocess.run(
        [python, "-X", "importtime", "-c", "import tutorgraph.cli.app"],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        cwd=tempfile.gettempdir(),
    )
    totals: dict[str, float] = {}
    for line in out.stderr.splitlines():
        if not line.startswith("import time:") or "self [us]" in line:
            continue
        self_us, _, name = (p.strip() for p in line.removeprefix("import time:").split("|"))
        top = name.split(".")[0]
        totals[top] = totals.get(top, 0.0) + int(self_us) / 1e6
    ranked = sorted(totals.items(), key=lambda kv: -kv[1])
    return {k: round(v, 3) for k, v in ranked[:15]}


def summary(runs: list[dict[str, Any]]) -> dict[str, Any]:
    plain = [r["wall_s"] for r in runs if r["kind"] == "plain"]
    timed = [r for r in runs if r["kind"] == "timed"]
    names = sorted({k for r in timed for k in r["phases"]})
    return {
        "plain_runs": len(plain),
        "p50_s": round(statistics.median(plain), 3) if plain else None,
        "min_s": round(min(plain), 3) if plain else None,
        "max_s": round(max(plain), 3) if plain else None,
        "timed_runs": len(timed),
        "timed_p50_s": round(statistics.median(r["wall_s"] for r in timed), 3) if timed else None,
        "breakdown_p50_s": {
            n: round(statistics.median(r["phases"].get(n, 0.0) for r in timed), 3) for n in names
        },
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--index-dir", type=Path, required=True)
    parser.add_argument("--runs", type=int, default=5, help="Runs of each kind per tree.")
    parser.add_argument("--query", default=QUERY)
    parser.add_argument(
        "--tree",
        action="append",
        default=[],
        help="LABEL=SRC[:SRC...]: measure the code in these folders, first on PYTHONPATH "
        "(repeat to interleave); default: the installed code.",
    )
    parser.add_argument("--python", default=sys.executable)
    parser.add_argument("--out", type=Path, help="A JSON file to merge the results into.")
    parser.add_argument("--importtime", action="store_true")
    parser.add_argument(
        "--no-bytecode-cache",
        action="store_true",
        help="Leave PYTHONDONTWRITEBYTECODE as it is (every run compiles the sources again).",
    )
    parser.add_argument("--timeout", type=float, default=300)
    a = parser.parse_args()
    trees: list[tuple[str, str]] = []
    for spec in a.tree or ["current="]:
        label, _, src = spec.partition("=")
        trees.append((label, src))
    args = ["query", a.query, "--index-dir", str(a.index_dir.resolve()), "--json"]
    cache = None if a.no_bytecode_cache else Path(tempfile.mkdtemp(prefix="cold-start-pyc-"))
    envs = {label: child_env(src, cache) for label, src in trees}
    runs: dict[str, list[dict[str, Any]]] = {label: [] for label, _ in trees}
    for label, _ in trees:  # warm-up: page cache, bytecode
        w = run_once(a.python, "plain", args, envs[label], a.timeout)
        print(f"warm-up {label}: {w['wall_s']:.2f}s", file=sys.stderr)
    for i in range(a.runs):
        for kind in ("plain", "timed"):
            order = trees if i % 2 == 0 else trees[::-1]
            for label, _ in order:
                r = run_once(a.python, kind, args, envs[label], a.timeout)
                runs[label].append(r)
                print(f"run {i + 1} {label} {kind}: {r['wall_s']:.2f}s", file=sys.stderr)
    report: dict[str, Any] = {}
    for label, src in trees:
        report[label] = {
            "src": src or "installed",
            "query": a.query,
            "cpus": os.cpu_count(),
            "loadavg_at_end": [round(x, 2) for x in os.getloadavg()],
            **summary(runs[label]),
            "runs": runs[label],
        }
        if a.importtime:
            report[label]["import_seconds_by_package"] = importtime(a.python, envs[label])
    text = json.dumps(report, indent=2)
    print(text)
    if a.out is not None:
        old = json.loads(a.out.read_text()) if a.out.is_file() else {}
        old.update(report)
        a.out.parent.mkdir(parents=True, exist_ok=True)
        a.out.write_text(json.dumps(old, indent=2) + "\n")


if __name__ == "__main__":
    main()

"""The whole product on a real Bolt server: ArcadeDB, started here, as the Neo4j graph store.

1. `tutorgraph ingest BUNDLE` with `TUTORGRAPH_NEO4J_URI` set: the index (unchanged, so
   nothing is re-embedded) and the whole catalogue merged into the Bolt server;
2. `tutorgraph graph-stats --json` against it and against the embedded graph: the counts;
3. `tutorgraph query` against it;
4. for N Eedi development questions (one labelled wrong answer each), with the question's
   construct as context and from the text alone (the graph's full-text concept search then
   picks the seeds), the packet of the embedded graph and of the Bolt graph over the same
   index: how many have the same top 10, and for the others what differs.

    .venv/bin/python research/scripts/bolt_parity.py --out results/bolt_parity.json
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from pydantic import SecretStr

from tutorgraph.config import Settings
from tutorgraph.index.service import open_retriever
from tutorgraph.ingest.eedi import eedi_construct_id, read_eedi_questions
from tutorgraph.ranking.metrics import average_precision_at_k
from tutorgraph.retrieval.factory import load_models
from tutorgraph_client.models.packet import ReasoningPacket
from tutorgraph_client.models.request import RetrievalRequest
from tutorgraph_research.harness.bolt_server import BoltServer, arcadedb_server
from tutorgraph_research.harness.provenance import git_commit, hardware
from tutorgraph_research.tasks.eedi import eedi_pairs, misconception_ranking

TOP = 10


def _env(server: BoltServer, index: Path) -> dict[str, str]:
    return {
        **os.environ,
        "TUTORGRAPH_INDEX_DIR": str(index),
        "TUTORGRAPH_NEO4J_URI": server.uri,
        "TUTORGRAPH_NEO4J_USER": server.user,
        "TUTORGRAPH_NEO4J_PASSWORD": server.password,
        "TUTORGRAPH_NEO4J_DATABASE": server.database,
        "TUTORGRAPH_ARCADEDB_HTTP_URL": server.http_url,
        # A loaded 2-core machine must not turn a slow graph call into a degraded packet.
        "TUTORGRAPH_SOURCE_TIMEOUT_S": "60",
    }


def _cli(args: list[str], env: dict[str, str]) -> tuple[float, str]:
    cli = Path(sys.executable).with_name("tutorgraph")
    started = time.perf_counter()
    done = subprocess.run(
        [str(cli), *args], env=env, capture_output=True, text=True, check=False, timeout=3600
    )
    if done.returncode != 0:
        raise SystemExit(f"tutorgraph {' '.join(args)} failed:\n{done.stderr[-3000:]}")
    return time.perf_counter() - started, done.stdout


def _top(packet: ReasoningPacket) -> list[str]:
    return [h.id for h in packet.results[:TOP]]


def _why(a: ReasoningPacket, b: ReasoningPacket) -> str:
    """What differs between the embedded packet `a` and the Bolt packet `b`."""
    if b.degraded_sources:
        return f"degraded: {b.degraded_sources}"
    seeds_a = [c["id"] for c in a.graph_context.concepts]
    seeds_b = [c["id"] for c in b.graph_context.concepts]
    if seeds_a != seeds_b:
        return "the graph's concept search matched other concepts"
    graph_a = [h.id for h in a.results if "graph" in h.source_ranks]
    graph_b = [h.id for h in b.results if "graph" in h.source_ranks]
    if set(graph_a) != set(graph_b):
        return "the graph found other candidates"
    if graph_a != graph_b or any(
        x.source_ranks.get("graph") != y.source_ranks.get("graph")
        for x, y in zip(a.results, b.results, strict=False)
    ):
        return "the graph ranked its candidates in another order (full-text scores)"
    return "another cause"


async def _packets(
    settings: Settings, bolt: Settings, requests: list[RetrievalRequest], targets: list[str]
) -> dict[str, Any]:
    models = await asyncio.to_thread(load_models, settings)
    embedded = await asyncio.to_thread(open_retriever, settings, models)
    remote = await asyncio.to_thread(open_retriever, bolt, models)
    same = same_set = 0
    reasons: dict[str, int] = {}
    examples: list[dict[str, Any]] = []
    graph_ms: dict[str, list[float]] = {"embedded": [], "bolt": []}
    ap: dict[str, list[float]] = {"embedded": [], "bolt": []}
    try:
        for request, target in zip(requests, targets, strict=True):
            a = await embedded.retriever.retrieve(request)
            b = await remote.retriever.retrieve(request)
            for name, packet in (("embedded", a), ("bolt", b)):
                ranking = misconception_ranking(packet, target)
                ap[name].append(average_precision_at_k(ranking, {target}, 25))
            graph_ms["embedded"].append(a.timings_ms["graph"])
            graph_ms["bolt"].append(b.timings_ms["graph"])
            if _top(a) == _top(b):
                same += 1
                continue
            same_set += set(_top(a)) == set(_top(b))
            why = _why(a, b)
            reasons[why] = reasons.get(why, 0) + 1
            if len(examples) < 5:
                examples.append(
                    {"query": request.query[:200], "embedded": _top(a), "bolt": _top(b), "why": why}
                )
    finally:
        await embedded.aclose()
        await remote.aclose()

    def pct(xs: list[float], q: float) -> float:
        return round(sorted(xs)[min(len(xs) - 1, int(q * len(xs)))], 1) if xs else 0.0

    return {
        "n": len(requests),
        f"same_top{TOP}": same,
        f"same_top{TOP}_set_other_order": same_set,
        "differ": len(requests) - same,
        "why": dict(sorted(reasons.items(), key=lambda kv: -kv[1])),
        "examples": examples,
        # The labelled misconception's MAP@25 under each graph (the packets' own order).
        "map@25": {k: round(statistics.fmean(v), 4) for k, v in ap.items()},
        # The graph stage of the packet (one round trip per graph search on the server).
        "graph_ms": {k: {"p50": pct(v, 0.5), "p95": pct(v, 0.95)} for k, v in graph_ms.items()},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bundle", type=Path, default=Path("data/curriculum"))
    parser.add_argument("--index", type=Path, default=Path(".tutorgraph"))
    parser.add_argument("--questions", type=Path, default=Path("../shared/data/eedi/train.csv"))
    parser.add_argument("--n", type=int, default=200)
    parser.add_argument("--out", type=Path, default=Path("results/bolt_parity.json"))
    args = parser.parse_args()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    pairs: dict[int, Any] = {}
    for pair in eedi_pairs(read_eedi_questions(args.questions)):
        pairs.setdefault(pair.question.question_id, pair)
    chosen = list(pairs.values())[: args.n]
    with_context = [
        RetrievalRequest(
            query=p.query, concept_ids=[eedi_construct_id(p.question.construct_id)], debug=True
        )
        for p in chosen
    ]
    text_only = [RetrievalRequest(query=p.query, debug=True) for p in chosen]
    report: dict[str, Any] = {"index": str(args.index), "bundle": str(args.bundle)}
    with (
        tempfile.TemporaryDirectory(prefix="tutorgraph-arcadedb-") as tmp,
        arcadedb_server(Path(tmp), heap="3g") as server,
    ):
        env = _env(server, args.index)
        seconds, out = _cli(["ingest", str(args.bundle)], env)
        report["ingest"] = {"seconds": round(seconds, 1), "output": out.strip().splitlines()}
        plain = {k: v for k, v in env.items() if not k.startswith("TUTORGRAPH_NEO4J")}
        stats = {
            "bolt": json.loads(_cli(["graph-stats", "--json"], env)[1]),
            "embedded": json.loads(_cli(["graph-stats", "--json"], plain)[1]),
        }
        report["graph_stats"] = {
            **stats,
            "counts_match": {k: v for k, v in stats["bolt"].items() if k != "graph"}
            == {k: v for k, v in stats["embedded"].items() if k != "graph"},
        }
        seconds, out = _cli(["query", "why is 3/4 bigger than 2/3?", "--json"], env)
        packet = json.loads(out)
        report["query"] = {
            "seconds": round(seconds, 1),
            "degraded_sources": packet["degraded_sources"],
            "graph_count": packet["graph_count"],
            "top3": [h["id"] for h in packet["results"][:3]],
        }
        base = Settings(index_dir=args.index, source_timeout_s=60)
        bolt = base.model_copy(
            update={
                "neo4j_uri": server.uri,
                "neo4j_user": server.user,
                "neo4j_password": SecretStr(server.password),
                "neo4j_database": server.database,
                "arcadedb_http_url": server.http_url,
            }
        )
        targets = [p.target for p in chosen]
        report["packets"] = {
            "construct_context": asyncio.run(_packets(base, bolt, with_context, targets)),
            "text_only": asyncio.run(_packets(base, bolt, text_only, targets)),
        }
    report["hardware"] = hardware()
    report["git_commit"] = git_commit()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(json.dumps({k: report[k] for k in ("graph_stats", "query", "packets")}, indent=1)[:4000])


if __name__ == "__main__":
    main()

"""MiniLM queries from an int8 graph, the documents still fp32: speed and quality (issue 51).

A request embeds its text with MiniLM's fp32 ONNX graph; an int8 graph runs a pass about
twice as fast on an AVX-512 VNNI core. The index keeps the fp32 vectors of its documents
(every ingest embeds with fp32), so only the query side would change. This probe measures:

1. speed: one pass over each `tutorgraph bench latency` Eedi query text (one per wrong
   answer, evenly spaced; the same selection), p50/p95 ms of `embed([text])` at 1 and 2
   intra-op threads, fp32 against int8 per-tensor (`quantize_int8`'s default, QInt8) and
   per-channel (signed weights), interleaved text by text; and the cosine of each int8
   query vector to its fp32 one (min, median);
2. quality: Eedi 5-fold CV, first-stage configurations only (as `embedder_cv.py`), each
   fold's index embedded with the fp32 graph and only the queries (everything embedded
   after the index is built) with the int8 graph; the paired difference (int8 - fp32) of
   MAP@25 per configuration with a 95% bootstrap interval.

Run of 2026-11-28 (2-core Xeon, AVX-512 VNNI; 100 texts, median 46 tokens; 650 s in all):
p50 / p95 ms at 1 thread fp32 13.4 / 28.4, int8 per-tensor 6.6 / 16.8, per-channel
6.7 / 14.7 (2 threads: 13.5, 6.9, 6.8 p50; two reruns gave fp32 10.1-11.0 at 2 threads,
int8 unchanged). Cosine to fp32: per-tensor min 0.922 median 0.956, per-channel 0.988 /
0.994. Paired MAP@25 over 3,486 pairs, per-channel: hybrid/construct -0.0041 [-0.0067,
-0.0014], hybrid/text -0.0037 [-0.0065, -0.0008], vector/* -0.0018 [-0.0040, +0.0004];
per-tensor: -0.0081, -0.0087, -0.0096 (every interval below 0).

The int8 graphs are built from a fresh fp32 export in a temporary folder (the product's
cached export is the same `export_transformer`); nothing under `src/` changes. The product
default stays fp32: this is a measured probe.

    .venv/bin/python research/scripts/probes/int8_query_encoder.py \\
        --train ../shared/data/eedi/train.csv \\
        --misconceptions ../shared/data/eedi/misconception_mapping.csv \\
        --out results/int8_query_encoder.json
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shlex
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import numpy as np
import numpy.typing as npt

from tutorgraph.cli.plugin import default_subjects
from tutorgraph.config import DEFAULT_EMBEDDING_MODEL, Settings
from tutorgraph.embedding.embedder import Embedder, resolve_model_path
from tutorgraph.embedding.onnx_embedder import OnnxEmbedder, export_transformer
from tutorgraph.index.local import LocalIndex
from tutorgraph.ingest.eedi import eedi_query_text, read_eedi_questions
from tutorgraph.models.records import SourceRecords
from tutorgraph.retrieval.factory import make_embedder
from tutorgraph.training.onnx_export import quantize_int8
from tutorgraph_research.harness.cached_embedder import CachingEmbedder
from tutorgraph_research.harness.folds import EvalItem, Fold
from tutorgraph_research.harness.provenance import git_commit, hardware
from tutorgraph_research.harness.results import paired_by_config
from tutorgraph_research.tasks.eedi import EediMisconceptionTask, K
from tutorgraph_research.tasks.eedi_bench import item_maps

CONFIGS = ("hybrid/construct", "hybrid/text", "vector/construct", "vector/text")
INT8 = ("int8_per_channel", "int8_per_tensor")
WARMUP = 10  # as `tutorgraph bench latency`: other wrong answers, not timed


def build_graphs(model: Path, folder: Path) -> dict[str, Path]:
    """MiniLM's fp32 export and its two int8 quantisations, in `folder`."""
    fp32 = folder / "model.onnx"
    export_transformer(model, fp32)
    return {
        "fp32": fp32,
        "int8_per_tensor": quantize_int8(fp32, folder / "int8_per_tensor.onnx"),
        "int8_per_channel": quantize_int8(fp32, folder / "int8_per_channel.onnx", per_channel=True),
    }


def latency_texts(train: Path, n: int) -> tuple[list[str], list[str]]:
    """`tutorgraph bench latency`'s query texts (one per wrong answer, evenly spaced) and
    its warm-up texts (the first other wrong answers)."""
    qs = read_eedi_questions(train)
    wrong = [(q, x) for q in qs for x in sorted(q.answers) if x != q.correct_answer]
    picked = wrong[:: max(1, len(wrong) // n)][:n]
    timed = {(q.question_id, x) for q, x in picked}
    spare = [(q, x) for q, x in wrong if (q.question_id, x) not in timed][:WARMUP]
    return [eedi_query_text(q, x) for q, x in picked], [eedi_query_text(q, x) for q, x in spare]


def _percentile(values: list[float], q: float) -> float:
    return round(float(np.percentile(values, q)), 3)


def speed(
    model: str, graphs: dict[str, Path], texts: list[str], warm: list[str], threads: list[int]
) -> dict[str, object]:
    """p50/p95 ms of one `embed([text])` per text and graph at each thread count, the graphs
    interleaved text by text; each int8 vector's cosine to the fp32 one."""
    embedders = {
        (name, t): OnnxEmbedder(model, graph=str(path), threads=t)
        for name, path in graphs.items()
        for t in threads
    }
    for emb in embedders.values():
        emb.load()
        emb.embed(warm[:1])
    for text in warm:
        for emb in embedders.values():
            emb.embed([text])
    ms: dict[tuple[str, int], list[float]] = {key: [] for key in embedders}
    vectors: dict[str, list[npt.NDArray[np.float32]]] = {name: [] for name in graphs}
    for text in texts:
        for (name, t), emb in embedders.items():
            start = time.perf_counter()
            vec = emb.embed([text])[0]
            ms[(name, t)].append((time.perf_counter() - start) * 1000)
            if t == threads[0]:
                vectors[name].append(vec)
    out: dict[str, object] = {}
    for (name, t), values in ms.items():
        out[f"{name}/threads={t}"] = {
            "p50_ms": _percentile(values, 50),
            "p95_ms": _percentile(values, 95),
            "mean_ms": round(statistics.fmean(values), 3),
        }
    base = np.stack(vectors["fp32"])
    for name in graphs:
        if name == "fp32":
            continue
        cos = (np.stack(vectors[name]) * base).sum(axis=1)
        out[f"{name}/cosine_to_fp32"] = {
            "min": round(float(cos.min()), 6),
            "median": round(float(np.median(cos)), 6),
        }
    # The fresh export against the product's cached one (the same graph: cosine 1).
    product = make_embedder(Settings(embedder_backend="onnx")).embed(texts[:10])
    out["fp32_export_vs_product_min_cosine"] = round(float((product * base[:10]).sum(1).min()), 6)
    out["n_texts"] = len(texts)
    out["tokens_median"] = statistics.median(
        embedders[("fp32", threads[0])].count_tokens(t) for t in texts
    )
    return out


class QuerySideEmbedder(CachingEmbedder):
    """Documents from `docs` (the fp32 MiniLM, its cache shared between runs); once
    `querying` is set, everything else from `queries` (an int8 graph, its own cache).

    The fold task embeds each fold's index and then its queries with one embedder; the
    task below sets `querying` between the two.
    """

    def __init__(self, docs: CachingEmbedder, queries: Embedder) -> None:
        super().__init__(queries)
        self._docs = docs
        self.querying = False
        self.batched_query_calls = 0  # calls of more than one text while querying

    @property
    def name(self) -> str:
        return self._docs.name  # the index's manifest names the fp32 model

    def count_tokens(self, text: str) -> int:
        return self._docs.count_tokens(text)

    def embed(self, texts: list[str]) -> npt.NDArray[np.float32]:
        if not self.querying:
            return self._docs.embed(texts)
        self.batched_query_calls += len(texts) > 1
        return super().embed(texts)


class SplitEediTask(EediMisconceptionTask):
    """The Eedi task with the embedder switched to documents before each fold's index is
    built (its records are read) and to queries once it is built (its items are read)."""

    def __init__(self, *args: object, split: QuerySideEmbedder | None, **kwargs: object):
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.split = split

    def build_folds(self) -> list[Fold]:
        return [replace(f, records=self._indexing(f.records)) for f in super().build_folds()]

    def _indexing(self, records: Callable[[], SourceRecords]) -> Callable[[], SourceRecords]:
        def read() -> SourceRecords:
            if self.split is not None:
                self.split.querying = False
            return records()

        return read

    async def fold_items(self, fold: Fold, index: LocalIndex) -> list[EvalItem]:
        items = await super().fold_items(fold, index)
        if self.split is not None:
            self.split.querying = True
        return items


async def cv_scores(
    args: argparse.Namespace, embedder: Embedder, split: QuerySideEmbedder | None
) -> dict[tuple[str, str], float]:
    """MAP@25 per (configuration, fold:item)."""
    task = SplitEediTask(
        args.train,
        args.misconceptions,
        default_subjects(args.misconceptions),
        folds=args.folds,
        limit=args.limit,
        split=split,
    )
    return await item_maps(task, CONFIGS, embedder)


def paired(
    base: dict[tuple[str, str], float], other: dict[tuple[str, str], float]
) -> dict[str, object]:
    """Per configuration: both means, the paired difference and its 95% interval."""
    return dict(paired_by_config(base, other, CONFIGS, (f"fp32_map@{K}", f"int8_map@{K}")))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--train", type=Path, required=True)
    p.add_argument("--misconceptions", type=Path, required=True)
    p.add_argument("--n", type=int, default=100, help="latency query texts")
    p.add_argument("--threads", default="1,2")
    p.add_argument("--folds", type=int, default=5)
    p.add_argument("--limit", type=int, default=None, help="at most this many CV pairs")
    p.add_argument("--cv", default=",".join(INT8), help="int8 graphs to run the CV with ('' none)")
    p.add_argument("--skip-speed", action="store_true")
    p.add_argument("--out", type=Path, default=None)
    args = p.parse_args()
    started = time.perf_counter()
    model = Path(resolve_model_path(DEFAULT_EMBEDDING_MODEL))
    report: dict[str, object] = {}
    with tempfile.TemporaryDirectory(prefix="int8-query-") as tmp:
        graphs = build_graphs(model, Path(tmp))
        if not args.skip_speed:
            texts, warm = latency_texts(args.train, args.n)
            threads = [int(t) for t in args.threads.split(",")]
            report["speed"] = speed(DEFAULT_EMBEDDING_MODEL, graphs, texts, warm, threads)
            print(json.dumps(report["speed"], indent=1), flush=True)
        report["speed_seconds"] = round(time.perf_counter() - started, 1)
        variants = [v for v in args.cv.split(",") if v]
        if variants:
            docs = CachingEmbedder(make_embedder(Settings(embedder_backend="onnx")))
            t = time.perf_counter()
            base = asyncio.run(cv_scores(args, docs, None))
            report["cv_seconds_fp32"] = round(time.perf_counter() - t, 1)
            cv: dict[str, object] = {}
            for name in variants:
                t = time.perf_counter()
                split = QuerySideEmbedder(
                    docs, OnnxEmbedder(DEFAULT_EMBEDDING_MODEL, graph=str(graphs[name]))
                )
                rows = paired(base, asyncio.run(cv_scores(args, split, split)))
                # What the int8 graph embedded: one text per item, one at a time.
                rows["_query_texts_int8"] = split.embedded
                rows["_batched_query_calls"] = split.batched_query_calls
                cv[name] = rows
                report[f"cv_seconds_{name}"] = round(time.perf_counter() - t, 1)
                print(name, json.dumps(cv[name], indent=1), flush=True)
            report["cv"] = cv
    report["_meta"] = {
        "command": " ".join(
            ["research/scripts/probes/int8_query_encoder.py", *map(shlex.quote, sys.argv[1:])]
        ),
        "model": DEFAULT_EMBEDDING_MODEL,
        "folds": args.folds,
        "fold_rule": f"int(QuestionId) % {args.folds}",
        "limit": args.limit,
        "seconds": round(time.perf_counter() - started, 1),
        "hardware": hardware(),
        "git_commit": git_commit(),
    }
    table(report)
    if args.out:
        args.out.write_text(json.dumps(report, indent=2, sort_keys=True) + "\n", encoding="utf-8")


def table(report: dict[str, object]) -> None:
    """The short table: speed per graph and threads, then the paired CV differences."""
    sp = report.get("speed")
    if isinstance(sp, dict):
        print(f"{'graph/threads':<28} {'p50 ms':>8} {'p95 ms':>8}")
        for key, row in sp.items():
            if isinstance(row, dict) and "p50_ms" in row:
                print(f"{key:<28} {row['p50_ms']:>8.2f} {row['p95_ms']:>8.2f}")
        for key, row in sp.items():
            if key.endswith("cosine_to_fp32"):
                print(f"{key:<28} min {row['min']:.4f} median {row['median']:.4f}")
    cv = report.get("cv")
    if isinstance(cv, dict):
        print(f"{'int8 graph':<18} {'config':<18} {'fp32':>7} {'int8':>7} {'diff':>8}  ci95")
        for name, rows in cv.items():
            for config in CONFIGS:
                r = rows[config]
                lo, hi = r["diff_ci95"]
                print(
                    f"{name:<18} {config:<18} {r[f'fp32_map@{K}']:>7.4f} "
                    f"{r[f'int8_map@{K}']:>7.4f} {r['diff']:>+8.4f}  [{lo:+.4f}, {hi:+.4f}]"
                    f"  changed {r['pairs_changed']}/{r['n']}"
                )


if __name__ == "__main__":
    main()

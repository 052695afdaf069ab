"""`tutorgraph bench eedi`: the Eedi task under named configurations, reported as
`results.json` (means with 95% intervals, bounds at the rerank depth, seen/unseen splits
and the paired difference from the first stage).

The configurations are a registry, `bench_configs()`: name -> `RunConfig`, each built from
the first stage `<sources>/<context>` by adding one segment at a time (`[/<profile>-<fusion>]
[/rerank-<model>][/refine-<refiner>][/ranker][/diagnosis][/merge]`), plus
`default/<context>`. `config_names` globs over its names, `bench_config` looks one up.

>>> bench_config("hybrid/text/rerank-msmarco").reranker
'msmarco'
>>> results = await run_eedi_benchmark(EediBenchmarkSpec(train=Path("train.csv"), ...))
... # doctest: +SKIP
"""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any, get_args

from tutorgraph.config import (
    DEFAULT_EMBEDDING_MODEL,
    MSMARCO_RERANKER,
    NEAR_DUPLICATE_THRESHOLD,
    RERANK_DEPTH,
)
from tutorgraph.embedding.embedder import Embedder
from tutorgraph.errors import ConfigurationError
from tutorgraph.training.cross_encoder import TrainingConfig
from tutorgraph.training.ranker import RankerTrainingConfig
from tutorgraph_client.models.request import (
    RETRIEVAL_PROFILES,
    STORE_SOURCES,
    Fusion,
    SourceName,
)
from tutorgraph_research.harness.configs import (
    RefinerName,
    RerankerName,
    RunConfig,
    matching,
)
from tutorgraph_research.harness.provenance import git_commit, hardware
from tutorgraph_research.harness.results import ItemScore, bootstrap_ci
from tutorgraph_research.tasks.eedi import EediMisconceptionTask, K, PairInfo
from tutorgraph_research.tasks.messages import read_student_messages

__all__ = [
    "CONFIG_SOURCES",
    "CONTEXTS",
    "FUSIONS",
    "PROFILE_NAMES",
    "REFINERS",
    "RERANK_MODELS",
    "EediBenchmarkSpec",
    "bench_config",
    "bench_configs",
    "config_names",
    "item_maps",
    "run_eedi_benchmark",
]

CONFIG_SOURCES: dict[str, list[SourceName]] = {
    "vector": ["vector"],
    "lexical": ["lexical"],
    "graph": ["graph"],
    "hybrid": list(STORE_SOURCES),
}
CONTEXTS = ("text", "construct")
PROFILE_NAMES = RETRIEVAL_PROFILES
FUSIONS: tuple[Fusion, ...] = get_args(Fusion)
# domain: the fold-trained reranker at fp32 (ONNX Runtime); domain-int8: the same, int8;
# msmarco: the public MS MARCO cross-encoder, measured only where it can be loaded.
RERANK_MODELS: tuple[RerankerName, ...] = ("domain", "domain-int8", "msmarco")
# local: the deterministic refiner over the fold's own index.
REFINERS: tuple[RefinerName, ...] = ("local",)
# What `default/<context>` runs after `hybrid/<context>/`: the request defaults (profile
# auto, RRF, the local refiner) with the shipped models and the diagnosis. Keep it equal
# to what ships.
DEFAULT_CONFIG = "refine-local/ranker/diagnosis"
# A last segment that turns the near-duplicate merge on (compared with the same name without it).
MERGE = "merge"

# (done, total) over all retrievals of the run.
BenchProgress = Callable[[int, int], None]
# A line saying which long phase (training, mining) is running.
BenchStatus = Callable[[str], None]


@dataclass
class EediBenchmarkSpec:
    train: Path
    misconceptions: Path
    test: Path | None = None
    subjects: Path | None = None
    folds: int = 5
    configs: str = "*"
    limit: int | None = None
    training: TrainingConfig = field(default_factory=TrainingConfig)
    rerank_depth: int = RERANK_DEPTH
    msmarco_model: str = MSMARCO_RERANKER
    # What the fold rerankers are fine-tuned from (tests pass a tiny local model).
    reranker_base: str = DEFAULT_EMBEDDING_MODEL
    # Score free-text student messages (`tasks.messages`) instead of the Eedi query
    # texts; each message is scored in the fold that holds its question out.
    messages: Path | None = None
    # Questions read while writing the bug rules: rows compared with a baseline also report
    # the paired difference over the other questions' pairs (`paired_diff_held_out`).
    read_questions: frozenset[int] = frozenset()
    # Keep each item's MAP@25 (`per_item`), so that two runs, two versions of the code, can
    # be compared pair by pair (`research/scripts/paired_runs.py`).
    per_item: bool = False
    # Fold encoders (`tutorgraph train-embedder --leave-out K/N` into `<dir>/fold<K>`): the
    # learned rankers read their scores, cross-fitted (`training.crossfit_encoders`).
    tuned_folds: Path | None = None
    # Write each scored packet's first misconception hits (ids and final scores) to this
    # JSON Lines file: the out-of-fold lists a second stage is measured on.
    rankings: Path | None = None
    # How the fold rankers are trained (None: the defaults, as `train-ranker`).
    ranker_training: RankerTrainingConfig | None = None
    # Score only these cross-validation folds (None: all).
    only_folds: frozenset[int] | None = None


# Misconception hits kept per packet with `rankings` (the MAP@25 cut and a margin).
RANKINGS_DEPTH = 30


def _first_stage_config(sources: str, context: str) -> RunConfig:
    """`<sources>/<context>`: the request's defaults (profile, fusion RRF, graph scope, hops),
    no refiner, reranker, learned ranker, diagnosis or merge."""
    return RunConfig(
        f"{sources}/{context}",
        factor="bench",
        sources=tuple(CONFIG_SOURCES[sources]),
        profile=None,
        fusion="rrf",
        graph_scope=None,
        refiner="none",
        reranker="none",
        context=context == "construct",
    )


def _then(config: RunConfig, segment: str, **change: Any) -> RunConfig:
    """`config` with one more name segment and the fields it changes."""
    return replace(config, name=f"{config.name}/{segment}", **change)


@cache
def _registry() -> Mapping[str, RunConfig]:
    out: dict[str, RunConfig] = {}

    def add(*configs: RunConfig) -> None:
        for c in configs:
            if c.name in out:
                raise AssertionError(f"two bench configurations named {c.name!r}")
            out[c.name] = c

    add(*(_first_stage_config(s, c) for s in CONFIG_SOURCES for c in CONTEXTS))
    plain = [out[f"hybrid/{c}"] for c in CONTEXTS]
    hybrid = plain + [
        _then(h, f"{p}-{f}", profile=p, fusion=f)
        for h in plain
        for p in PROFILE_NAMES
        for f in FUSIONS
    ]
    add(*hybrid[len(plain) :])
    add(*(_then(h, f"rerank-{m}", reranker=m) for h in hybrid for m in RERANK_MODELS))
    add(*(_then(h, f"refine-{r}", refiner=r) for h in hybrid for r in REFINERS))
    add(*(_then(h, "ranker", ranker=True) for h in hybrid))
    add(
        *(
            _then(out[f"{h.name}/refine-{r}"], "ranker", ranker=True)
            for h in plain
            for r in REFINERS
        )
    )
    add(
        *(
            _then(out[f"{h.name}/refine-local{r}"], "diagnosis", diagnosis=True)
            for h in plain
            for r in ("", "/ranker")
        )
    )
    add(*(replace(out[f"hybrid/{c}/{DEFAULT_CONFIG}"], name=f"default/{c}") for c in CONTEXTS))
    merged = [n for n in out if n.endswith("/diagnosis") or n.startswith("default/")]
    add(*(_then(out[n], MERGE, near_duplicate_threshold=NEAR_DUPLICATE_THRESHOLD) for n in merged))
    return MappingProxyType(out)


def bench_configs() -> dict[str, RunConfig]:
    """Every bench configuration by name, in table order: `<sources>/<context>` with the
    request defaults, every hybrid profile x fusion, and each hybrid one again with
    `/rerank-<model>`, with `/refine-<refiner>` and with `/ranker` (the learned final score,
    trained per fold); `default/<context>` is what a request with the shipped settings runs
    (`DEFAULT_CONFIG`); the diagnosis and default rows again with `/merge` (the
    near-duplicate merge on). What a name does not set (profile, graph scope, hops) is the
    request's default."""
    return dict(_registry())


def config_names(pattern: str = "*") -> list[str]:
    """The names of `bench_configs()` matching `pattern` (comma-separated globs), in table
    order."""
    return [c.name for c in matching(_registry().values(), pattern)]


def bench_config(name: str) -> RunConfig:
    """The `RunConfig` registered under a bench name (`bench_configs`)."""
    registry = _registry()
    if name not in registry:
        raise ConfigurationError(f"bench configuration {name!r} is none of {', '.join(registry)}")
    return registry[name]


async def item_maps(
    task: EediMisconceptionTask, names: Sequence[str], embedder: Embedder
) -> dict[tuple[str, str], float]:
    """MAP@25 of every item `task` scores under each bench configuration of `names`, by
    (configuration, "fold:item"): a run's half of a paired comparison (`paired_by_config`).

    >>> maps = await item_maps(task, ["vector/text"], embedder)  # doctest: +SKIP
    """
    out: dict[tuple[str, str], float] = {}

    def record(batch: list[ItemScore]) -> None:
        for s in batch:
            out[(s.config, f"{s.fold}:{s.item}")] = s.metrics[f"map@{K}"]

    await task.run([bench_config(n) for n in names], embedder, skip=lambda _u: False, record=record)
    return out


def _random_ap(rank: int | None, depth: int) -> float:
    """Expected AP@K of a single target when the top `depth` are shuffled uniformly."""
    if rank is None or rank > depth:
        return 0.0
    return sum(1.0 / p for p in range(1, min(depth, K) + 1)) / depth


def _mean_ci(values: Sequence[float]) -> dict[str, Any]:
    lo, hi = bootstrap_ci(values)
    return {"mean": round(statistics.fmean(values), 6), "ci95": [lo, hi], "n": len(values)}


def _report(
    scores: Sequence[ItemScore],
    info: dict[str, PairInfo],
    baseline: Sequence[ItemScore] | None,
    depth: int,
    read: frozenset[int] = frozenset(),
) -> dict[str, Any]:
    """One configuration's row of `results.json`: means with 95% bootstrap intervals, the
    oracle and random bounds at the rerank depth, seen/unseen splits, and the paired
    difference from the first stage (`baseline`, same pairs in the same order)."""
    aps = [s.metrics[f"map@{K}"] for s in scores]
    recalls = [s.metrics[f"recall@{K}"] for s in scores]
    ranks = [int(s.metrics["rank"]) or None for s in scores]
    row: dict[str, Any] = {
        f"map@{K}": round(statistics.fmean(aps), 6),
        f"recall@{K}": round(statistics.fmean(recalls), 6),
        "n": len(scores),
        f"map@{K}_ci95": list(bootstrap_ci(aps)),
        f"recall@{K}_ci95": list(bootstrap_ci(recalls)),
        f"recall@{depth}": round(statistics.fmean(r is not None and r <= depth for r in ranks), 6),
        f"oracle_map@{K}": round(statistics.fmean(r is not None and r <= depth for r in ranks), 6),
        f"random_map@{K}": round(statistics.fmean(_random_ap(r, depth) for r in ranks), 6),
        "scored_per_query": round(statistics.fmean(s.metrics["scored"] for s in scores), 2),
        "hit@10": round(statistics.fmean(r is not None and r <= 10 for r in ranks), 6),
    }
    splits: dict[str, Any] = {}
    for name in ("construct", "misconception"):
        for seen in (True, False):
            part = [
                ap for ap, s in zip(aps, scores, strict=True) if s.metrics[f"seen_{name}"] == seen
            ]
            if part:
                splits[f"{'seen' if seen else 'unseen'}_{name}"] = _mean_ci(part)
    groups = [info[s.item].pair.group for s in scores]
    for group in sorted(set(groups) - {""}):
        members = [(ap, r) for ap, r, g in zip(aps, ranks, groups, strict=True) if g == group]
        splits[group] = {
            **_mean_ci([ap for ap, _ in members]),
            "hit@10": _mean_ci([float(r is not None and r <= 10) for _, r in members]),
        }
    row["splits"] = splits
    if baseline is not None:
        diffs = [
            s.metrics[f"map@{K}"] - b.metrics[f"map@{K}"]
            for s, b in zip(scores, baseline, strict=True)
        ]
        row["paired_diff"] = _mean_ci(diffs)
        held_out = [
            d
            for d, s in zip(diffs, scores, strict=True)
            if info[s.item].pair.question.question_id not in read
        ]
        if read and held_out:
            row["paired_diff_held_out"] = _mean_ci(held_out)
    return row


def _first_stage(name: str) -> str:
    """The configuration a row is compared with: the same sources and context, request
    defaults, no refiner, reranker or learned ranker (`hybrid/construct` for
    `default/construct`); for a `/diagnosis` or `/merge` row, the same row without it."""
    if name.endswith(f"/{MERGE}"):
        return name.removesuffix(f"/{MERGE}")
    if name.endswith("/diagnosis"):
        return name.removesuffix("/diagnosis")
    sources, context, *_ = name.split("/")
    return f"{'hybrid' if sources == 'default' else sources}/{context}"


async def run_eedi_benchmark(
    spec: EediBenchmarkSpec,
    embedder: Embedder,
    *,
    progress: BenchProgress | None = None,
    status: BenchStatus | None = None,
) -> dict[str, Any]:
    """Run the benchmark and return the `results.json` mapping.

    A `/rerank-domain*` configuration trains a reranker per fold on that fold's training
    questions only (mined with the fold's own retriever), then scores its test pairs.
    """
    started = time.perf_counter()
    names = config_names(spec.configs)
    configs = [bench_config(n) for n in names]
    task = EediMisconceptionTask(
        spec.train,
        spec.misconceptions,
        spec.subjects,
        folds=spec.folds,
        training=spec.training,
        reranker_base=spec.reranker_base,
        rerank_depth=spec.rerank_depth,
        msmarco_model=spec.msmarco_model,
        test=spec.test,
        messages=read_student_messages(spec.messages) if spec.messages else None,
        limit=spec.limit,
        tuned_folds=spec.tuned_folds,
        keep_rankings=RANKINGS_DEPTH if spec.rankings else 0,
        ranker_training=spec.ranker_training,
        only_folds=spec.only_folds,
    )
    scores: dict[str, list[ItemScore]] = {n: [] for n in names}

    def record(batch: list[ItemScore]) -> None:
        for s in batch:
            scores[s.config].append(s)

    not_measured = await task.run(
        configs, embedder, skip=lambda _unit: False, record=record, progress=progress, status=status
    )
    if spec.rankings:
        with spec.rankings.open("w", encoding="utf-8") as f:
            f.writelines(json.dumps(r) + "\n" for r in task.rankings)
    results: dict[str, Any] = {}
    for name in names:
        if name in not_measured:
            results[name] = {
                f"map@{K}": None,
                f"recall@{K}": None,
                "n": 0,
                "status": not_measured[name],
            }
            continue
        sc = scores[name]
        if not sc:
            results[name] = {f"map@{K}": 0.0, f"recall@{K}": 0.0, "n": 0}
            continue
        first = _first_stage(name)
        baseline = scores.get(first) if first != name and first not in not_measured else None
        results[name] = {
            **_report(sc, task.info, baseline or None, spec.rerank_depth, spec.read_questions),
            "compared_with": first if baseline else None,
        }
        if spec.per_item:
            results[name]["per_item"] = {s.item: s.metrics[f"map@{K}"] for s in sc}
    folds = list(task.fold_plan())
    trainer = task.trainer
    msmarco = next(
        (
            not_measured[c.name]
            for c in configs
            if c.reranker == "msmarco" and c.name in not_measured
        ),
        None,
    )
    results["_meta"] = {
        "task": "eedi-misconceptions",
        "train": str(spec.train),
        "test": str(spec.test) if spec.test else None,
        "folds": len(folds),
        "fold_rule": None if spec.test else f"int(QuestionId) % {spec.folds}",
        "only_folds": sorted(spec.only_folds) if spec.only_folds is not None else None,
        "n_pairs": sum(len(f.pairs) for f in folds),
        "messages": str(spec.messages) if spec.messages else None,
        "limit": spec.limit,
        "unseen_context": task.unseen,
        "embedder": embedder.name,
        "reranker": {
            "depth": spec.rerank_depth,
            "training": asdict(spec.training),
            "folds": trainer.trained if trainer else [],
            "msmarco": msmarco.replace("not measured", "not loaded")
            if msmarco
            else spec.msmarco_model,
        }
        if any(c.reranker != "none" for c in configs)
        else None,
        "ranker": {
            "folds": trainer.rankers,
            "training": asdict(spec.ranker_training or RankerTrainingConfig()),
        }
        if trainer and trainer.rankers
        else None,
        "seconds": round(time.perf_counter() - started, 1),
        "hardware": hardware(),
        "git_commit": git_commit(),
    }
    return results

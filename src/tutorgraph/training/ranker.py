"""Train the learned ranker from labelled queries, with every learned feature cross-fitted.

The combiner must learn from feature rows that look like the ones it will score: rows of
queries no part of the ranker has seen. So:

* the graph prior and the example memory are built from all labelled queries, and each
  training row leaves its own group (question) out;
* the query adapter is cross-fitted: the queries are split into `inner_folds` by a hash of
  their group, and a row's adapter similarity comes from an adapter trained without its
  split (in the prototype, in-sample adapter scores cost 0.04 MAP@25);
* the shipped adapter is then trained on every query;
* a fine-tuned encoder's scores (`TunedTraining`) must be cross-fitted by the caller: each
  query scored by an encoder that did not see its question; with `tuned_examples` the row
  also reads the labelled queries under that same encoder, its own question left out (the
  shipped memory holds them under the serving encoder);
* the combiner's settings are picked among `combiners` by CV over those rows (the same
  inner folds: each candidate setting trained without a split, scored by MAP@25 on it),
  and the best is refit on every row; the training record keeps every setting's score.

`signals` lets a caller add what the retrieval pipeline measured of each candidate (source
ranks and scores) for a query, computed without that query's split as well.

>>> data = RankerTrainingData(queries, target_ids, target_vectors, embed)  # doctest: +SKIP
>>> ranker = fit_ranker(data)  # doctest: +SKIP
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from tutorgraph.config import RANKER_PROPOSALS
from tutorgraph.errors import ConfigurationError
from tutorgraph.ranking.adapter import AdapterConfig, QueryAdapter
from tutorgraph.ranking.combiner import Combiner, CombinerConfig, TrainingGroup
from tutorgraph.ranking.examples import ExampleMemory
from tutorgraph.ranking.metrics import average_precision_at_k
from tutorgraph.ranking.model import FEATURES, CandidateSignals, LearnedRanker
from tutorgraph.ranking.prior import LabelledExample, LinkPrior
from tutorgraph.ranking.tuned import TunedQuery, TunedText

__all__ = [
    "CrossFit",
    "LabelledQuery",
    "RankerTrainingConfig",
    "RankerTrainingData",
    "TunedTraining",
    "cross_fit",
    "fit_ranker",
    "inner_fold",
    "pick_combiner",
]

Matrix = npt.NDArray[np.float32]
# (query, its split) -> the retrieval pipeline's candidates with their signals
SignalSource = Callable[["LabelledQuery", int], Sequence[CandidateSignals]]
Progress = Callable[[str], None]
_ADAPTER_COLUMN = FEATURES.index("adapter_sim")


@dataclass(frozen=True)
class LabelledQuery:
    """A query text (as the ranker will see it), its target, group and concepts."""

    group: str
    text: str
    target: str
    concept_ids: tuple[str, ...] = ()


@dataclass(frozen=True)
class TunedTraining:
    """A fine-tuned encoder for the ranker: its part in the trained ranker (the targets'
    vectors under the encoder that will serve); `queries(queries, examples)`: each query
    under an encoder that did not see its question (with, when `examples`, that encoder's
    memory of every query); `memory(queries)`: the queries under the serving encoder."""

    part: TunedText
    queries: Callable[[Sequence[LabelledQuery], bool], list[TunedQuery]]
    memory: Callable[[Sequence[LabelledQuery]], ExampleMemory]


@dataclass(frozen=True)
class RankerTrainingConfig:
    inner_folds: int = 3
    # Per proposal list (adapter, cosine, vote): how many targets each adds to the pool.
    proposals: int = RANKER_PROPOSALS
    adapter: AdapterConfig = field(default_factory=AdapterConfig)
    # The combiner settings compared (one: no comparison). Issue 33: smaller trees (15
    # leaves, 50 rows a leaf) scored 0.415 against 0.407 in an inner CV of one outer fold's
    # training rows (research/scripts/probes/combiner_variants.py); each ranker picks for itself.
    combiners: tuple[CombinerConfig, ...] = (
        CombinerConfig(),
        CombinerConfig(num_leaves=15, min_child_samples=50),
    )
    # With a tuned encoder: also vote with the labelled examples under it (issue 33). Off
    # until a 5-fold CV measures it (README).
    tuned_examples: bool = False

    def __post_init__(self) -> None:
        if self.inner_folds < 2 or self.proposals < 1:
            raise ConfigurationError("inner_folds must be >= 2 and proposals >= 1")
        if not self.combiners:
            raise ConfigurationError("at least one combiner setting is needed")


@dataclass(frozen=True)
class RankerTrainingData:
    """What `cross_fit` and `fit_ranker` learn from: the labelled queries, the targets (ids,
    and their vectors in the same order) and the function that embeds query texts; the
    concepts' parents for the prior, the recipe, the retrieval pipeline's signals per query,
    a fine-tuned encoder and a progress callback are optional.

    >>> data = RankerTrainingData(queries, target_ids, target_vectors, embed)  # doctest: +SKIP
    >>> fit_ranker(data, info={"embedder": "all-MiniLM-L6-v2"})  # doctest: +SKIP
    """

    queries: Sequence[LabelledQuery]
    target_ids: Sequence[str]
    target_vectors: Matrix
    embed: Callable[[list[str]], Matrix]
    parents: Mapping[str, Sequence[str]] | None = None
    config: RankerTrainingConfig = field(default_factory=RankerTrainingConfig)
    signals: SignalSource | None = None
    tuned: TunedTraining | None = None
    progress: Progress | None = None

    def say(self, line: str) -> None:
        if self.progress is not None:
            self.progress(line)


def inner_fold(group: str, folds: int) -> int:
    """A stable split of a group (sha256, never Python's per-process `hash`)."""
    return int(hashlib.sha256(group.encode()).hexdigest()[:8], 16) % folds


def _pool(
    ranker: LearnedRanker,
    query: LabelledQuery,
    vector: Matrix,
    signals: Sequence[CandidateSignals],
    k: int,
    tuned: TunedQuery | None,
) -> list[CandidateSignals]:
    known = {s.target: s for s in signals}
    proposed = ranker.propose(vector, query.concept_ids, k, exclude=query.group, tuned=tuned)
    return [*signals, *(CandidateSignals(t) for t in proposed if t not in known)]


@dataclass
class CrossFit:
    """The cross-fitted training rows, and the parts built from every query."""

    queries: list[LabelledQuery]
    vectors: Matrix
    labels: list[int]
    prior: LinkPrior
    memory: ExampleMemory
    # The tuned encoder's part of the ranker (with its memory when the ranker keeps one).
    tuned: TunedText | None = None
    # Per query, in the order of `queries`: its rows, its candidates' targets in row order,
    # and the inner adapter's own AP@25 over the same candidates.
    groups: list[TrainingGroup] = field(default_factory=list)
    pools: list[list[str]] = field(default_factory=list)
    inner_adapter_ap: list[float] = field(default_factory=list)


def cross_fit(data: RankerTrainingData) -> CrossFit:
    """Feature rows for the combiner in which no query sees its own label (see the module)."""
    cfg, say, tuned, target_ids = data.config, data.say, data.tuned, data.target_ids
    row_of = {t: i for i, t in enumerate(target_ids)}
    usable = [q for q in data.queries if q.target in row_of]
    if not usable:
        raise ConfigurationError("no labelled query names a known target")
    say(f"embedding {len(usable)} labelled queries")
    vectors = data.embed([q.text for q in usable])
    tuned_queries: list[TunedQuery] | None = None
    if tuned is not None:
        say(f"tuned scores of {len(usable)} labelled queries")
        tuned_queries = tuned.queries(usable, cfg.tuned_examples)
    fit = CrossFit(
        usable,
        vectors,
        [row_of[q.target] for q in usable],
        LinkPrior.build(
            (LabelledExample(q.group, q.target, q.concept_ids) for q in usable), data.parents
        ),
        ExampleMemory(vectors, [q.target for q in usable], [q.group for q in usable]),
    )
    if tuned is not None:
        memory = tuned.memory(usable) if cfg.tuned_examples else None
        fit.tuned = tuned.part.with_examples(memory)
    split = np.array([inner_fold(q.group, cfg.inner_folds) for q in usable])
    done: dict[int, tuple[TrainingGroup, list[str], float]] = {}
    for j in range(cfg.inner_folds):
        train = np.flatnonzero(split != j)
        say(f"inner fold {j + 1}/{cfg.inner_folds}: adapter on {len(train)} queries")
        adapter = QueryAdapter.fit(
            vectors[train], [fit.labels[i] for i in train], data.target_vectors, cfg.adapter
        )
        inner = _ranker(fit, adapter, target_ids, data.target_vectors, None)
        for i in np.flatnonzero(split == j):
            q = usable[i]
            scores = tuned_queries[i] if tuned_queries is not None else None
            found = data.signals(q, j) if data.signals else []
            pool = _pool(inner, q, vectors[i], found, cfg.proposals, scores)
            rows = inner.features(vectors[i], q.concept_ids, pool, exclude=q.group, tuned=scores)
            targets = [c.target for c in pool]
            order = sorted(range(len(pool)), key=lambda n: -rows[n][_ADAPTER_COLUMN])
            done[int(i)] = (
                TrainingGroup(rows, [int(t == q.target) for t in targets]),
                targets,
                average_precision_at_k([targets[n] for n in order], {q.target}, 25),
            )
    for n in range(len(usable)):
        group, targets, ap = done[n]
        fit.groups.append(group)
        fit.pools.append(targets)
        fit.inner_adapter_ap.append(ap)
    return fit


def pick_combiner(
    fit: CrossFit,
    names: Sequence[str],
    cfg: RankerTrainingConfig,
    say: Progress,
) -> tuple[CombinerConfig, list[float]]:
    """The setting of `cfg.combiners` with the best MAP@25 over the inner folds' rows (the
    first on a tie), and each one's score; no comparison when there is one setting."""
    if len(cfg.combiners) == 1:
        return cfg.combiners[0], []
    split = [inner_fold(q.group, cfg.inner_folds) for q in fit.queries]
    scores = []
    for n, setting in enumerate(cfg.combiners, start=1):
        say(f"combiner setting {n}/{len(cfg.combiners)}: {cfg.inner_folds}-fold CV")
        aps: list[float] = []
        for j in range(cfg.inner_folds):
            train = [g for g, s in zip(fit.groups, split, strict=True) if s != j]
            model = Combiner.fit(train, names, setting)
            for g, s in zip(fit.groups, split, strict=True):
                if s == j:
                    scored = model.score(g.rows)
                    order = sorted(range(len(scored)), key=lambda i: -scored[i])
                    relevant = {str(i) for i, v in enumerate(g.labels) if v}
                    aps.append(average_precision_at_k([str(i) for i in order], relevant, 25))
        scores.append(round(float(np.mean(aps)), 4))
    return cfg.combiners[scores.index(max(scores))], scores


def _ranker(
    fit: CrossFit,
    adapter: QueryAdapter,
    target_ids: Sequence[str],
    target_vectors: Matrix,
    info: Mapping[str, Any] | None,
) -> LearnedRanker:
    return LearnedRanker(
        prior=fit.prior,
        examples=fit.memory,
        adapter=adapter,
        target_ids=target_ids,
        target_vectors=target_vectors,
        combiner=None,
        info=info,
        tuned=fit.tuned,
    )


def fit_ranker(data: RankerTrainingData, *, info: Mapping[str, Any] | None = None) -> LearnedRanker:
    """Train a `LearnedRanker` whose targets are `data.target_ids`; `info` starts its
    training record."""
    cfg, say = data.config, data.say
    started = time.perf_counter()
    fit = cross_fit(data)
    say("adapter on every query")
    adapter = QueryAdapter.fit(fit.vectors, fit.labels, data.target_vectors, cfg.adapter)
    ranker = _ranker(fit, adapter, data.target_ids, data.target_vectors, None)
    names = ranker.feature_names
    chosen, compared = pick_combiner(fit, names, cfg, say)
    say(f"combiner on {len(fit.groups)} groups")
    combiner = Combiner.fit(fit.groups, names, chosen)
    record = {
        **(info or {}),
        "queries": len(fit.queries),
        "recipe": asdict(cfg),
        "pool_recall": round(float(np.mean([any(g.labels) for g in fit.groups])), 4),
        "inner_adapter_map@25": round(float(np.mean(fit.inner_adapter_ap)), 4),
        "combiner": asdict(chosen),
        "combiners_inner_map@25": compared,
        "seconds": round(time.perf_counter() - started, 1),
    }
    return ranker.with_info(record).with_combiner(combiner)

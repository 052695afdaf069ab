"""The learned ranker: everything the final score needs, saved as one directory.

It holds the graph prior, the labelled-example memory, the query adapter, the vectors of
the targets it can propose (misconceptions, embedded by the index's embedder) and the
combiner. For one request it proposes the targets the retrieval sources may have missed,
builds each candidate's feature row (`FEATURES`) and scores the rows.

A ranker may carry a second one, `text_only` (saved in `text/`, sharing the targets):
trained on the same labelled answers without their concepts, it scores requests that name
no concept the prior has evidence for. Either may read a fine-tuned encoder's scores too
(`tuned`, `TUNED_FEATURES`; the targets' vectors under it in `tuned/`, shared).

>>> ranker = LearnedRanker.load(Path("models/ranker"))  # doctest: +SKIP
>>> rows = ranker.features(query_vector, ["eedi:construct:7"], signals)  # doctest: +SKIP
>>> ranker.combiner.score(rows)  # doctest: +SKIP
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from tutorgraph.embedding.embedder import Embedder
from tutorgraph.errors import ConfigurationError
from tutorgraph.ranking.adapter import QueryAdapter
from tutorgraph.ranking.combiner import Combiner
from tutorgraph.ranking.examples import EXAMPLE_FEATURES, ExampleMemory
from tutorgraph.ranking.prior import PRIOR_FEATURES, LinkPrior
from tutorgraph.ranking.tuned import (
    TUNED_EXAMPLE_FEATURES,
    TUNED_FEATURES,
    TunedQuery,
    TunedText,
    tuned_features,
)
from tutorgraph_client.models.request import StoreSource

__all__ = [
    "FEATURES",
    "SIGNAL_FEATURES",
    "CandidateSignals",
    "LearnedRanker",
    "RankerQuery",
    "Scoring",
]

# What the retrieval pipeline knows of a hit: 1/rank per source (0 when the source missed
# it), each source's score and the fused and rerank scores (NaN when absent).
SIGNAL_FEATURES = (
    "vector_rrank",
    "lexical_rrank",
    "graph_rrank",
    "vector_score",
    "lexical_score",
    "graph_score",
    "fused_score",
    "rerank_score",
)
FEATURES = (*SIGNAL_FEATURES, *PRIOR_FEATURES, *EXAMPLE_FEATURES, "adapter_sim", "cosine")
# The features' order is the trained model's: spelled here, typed by the API's names.
_SOURCES: tuple[StoreSource, ...] = ("vector", "lexical", "graph")
RANKER_RECORD = "ranker.json"
# The text-only ranker's sub-directory, and the tuned encoder's targets'.
TEXT_ONLY_DIR = "text"
TUNED_DIR = "tuned"
# Each ranker's labelled examples under the tuned encoder (its own query texts).
TUNED_EXAMPLES_FILE = "tuned_examples.npz"
_TUNED_SETS = (
    FEATURES,
    FEATURES + TUNED_FEATURES,
    FEATURES + TUNED_FEATURES + TUNED_EXAMPLE_FEATURES,
)


class RankerQuery(NamedTuple):
    """The scoring ranker's query: its vector, and what the tuned encoder makes of it when
    the ranker reads one."""

    vector: npt.NDArray[np.float32]
    tuned: TunedQuery | None = None


@dataclass(frozen=True)
class CandidateSignals:
    """One candidate target and what the retrieval pipeline measured of it."""

    target: str
    source_ranks: Mapping[str, int] = field(default_factory=dict)
    source_scores: Mapping[str, float] = field(default_factory=dict)
    fused_score: float | None = None
    rerank_score: float | None = None

    def row(self) -> list[float]:
        nan = math.nan
        out = [1.0 / self.source_ranks[s] if s in self.source_ranks else 0.0 for s in _SOURCES]
        out += [float(self.source_scores.get(s, nan)) for s in _SOURCES]
        out.append(nan if self.fused_score is None else float(self.fused_score))
        out.append(nan if self.rerank_score is None else float(self.rerank_score))
        return out


class LearnedRanker:
    """Proposes and scores targets for one query; loaded once, read-only, thread-safe."""

    def __init__(
        self,
        *,
        prior: LinkPrior,
        examples: ExampleMemory,
        adapter: QueryAdapter,
        target_ids: Sequence[str],
        target_vectors: npt.NDArray[np.float32],
        combiner: Combiner | None,
        info: Mapping[str, Any] | None = None,
        text_only: LearnedRanker | None = None,
        tuned: TunedText | None = None,
    ) -> None:
        if len(target_ids) != len(target_vectors):
            raise ConfigurationError("one vector per target id is needed")
        self.prior = prior
        self.examples = examples
        self.adapter = adapter
        self.target_ids = list(target_ids)
        self.target_vectors = np.ascontiguousarray(target_vectors, dtype=np.float32)
        self._row_of = {t: i for i, t in enumerate(self.target_ids)}
        self._similarities_of = functools.lru_cache(maxsize=8)(self._similarities_uncached)
        # Each target's row in the example memory's scores (-1: no example shows it).
        rows = [examples.row(t) for t in self.target_ids]
        self._example_rows = np.array([-1 if r is None else r for r in rows], dtype=np.int64)
        self.combiner = combiner
        self.info: dict[str, Any] = dict(info or {})
        self.text_only = text_only
        self.tuned = tuned
        if tuned is not None and tuned.target_vectors.shape[0] != len(self.target_ids):
            raise ConfigurationError("one tuned vector per target id is needed")
        if combiner is not None and combiner.feature_names != self.feature_names:
            raise ConfigurationError("the combiner was trained on other features than these")

    @property
    def feature_names(self) -> tuple[str, ...]:
        """`FEATURES`, `TUNED_FEATURES` when the ranker reads a tuned encoder and
        `TUNED_EXAMPLE_FEATURES` when it keeps its examples under that encoder too."""
        if self.tuned is None:
            return FEATURES
        memory = TUNED_EXAMPLE_FEATURES if self.tuned.examples is not None else ()
        return FEATURES + TUNED_FEATURES + memory

    @property
    def embedder(self) -> str | None:
        """The embedder whose vectors the adapter, the examples and the targets are in."""
        value = self.info.get("embedder")
        return str(value) if value is not None else None

    def _similarities(self, query: npt.NDArray[np.float32]) -> tuple[np.ndarray, np.ndarray]:
        # `propose` and `features` read the same query's similarities: computed once.
        return self._similarities_of(np.asarray(query, dtype=np.float32).tobytes())

    def _similarities_uncached(self, key: bytes) -> tuple[np.ndarray, np.ndarray]:
        q = np.frombuffer(key, dtype=np.float32).reshape(1, -1)
        cosine = (q @ self.target_vectors.T)[0]
        adapted = self.adapter.similarities(q, self.target_vectors)[0]
        return adapted, cosine

    def propose(
        self,
        query: npt.NDArray[np.float32],
        concept_ids: Sequence[str],
        k: int,
        *,
        exclude: str | None = None,
        tuned: TunedQuery | None = None,
    ) -> list[str]:
        """Targets the sources may have missed, without repeats: the `k` best by adapted
        similarity, by plain cosine (and by the `tuned` encoder's scores) and by the
        examples' vote, every target the prior links to the concepts, and the `k // 2` best
        by their parents' share."""
        adapted, cosine = self._similarities(query)
        lists = (adapted, cosine) if tuned is None else (adapted, cosine, tuned.scores)
        _, vote = self.examples.scores(query, exclude=exclude)
        votes = np.where(self._example_rows >= 0, np.round(vote[self._example_rows], 6), 0.0)
        out = dict.fromkeys(
            self.target_ids[i] for s in lists for i in np.argsort(-s, kind="stable")[:k]
        )
        # The prior's and the examples' targets count only where they have evidence.
        for i in np.argsort(-votes, kind="stable")[:k]:
            if votes[i] > 0:
                out.setdefault(self.target_ids[i])
        linked, parents = self.prior.shares(concept_ids, exclude=exclude)
        for shares, n in ((linked, len(linked)), (parents, k // 2)):
            known = [t for t, s in shares.items() if s > 0 and t in self._row_of]
            for t in sorted(known, key=lambda t: (-shares[t], self._row_of[t]))[:n]:
                out.setdefault(t)
        return list(out)

    def features(
        self,
        query: npt.NDArray[np.float32],
        concept_ids: Sequence[str],
        candidates: Sequence[CandidateSignals],
        *,
        exclude: str | None = None,
        tuned: TunedQuery | None = None,
    ) -> list[list[float]]:
        """One `feature_names` row per candidate; `exclude` leaves a training group out;
        `tuned`: the query under the tuned encoder (needed when the ranker reads one; with
        its vector and examples when the ranker keeps a tuned memory)."""
        if (tuned is None) != (self.tuned is None):
            raise ConfigurationError(
                "tuned scores are needed exactly when the ranker reads a tuned encoder"
            )
        targets = [c.target for c in candidates]
        memory = None
        if self.tuned is not None and self.tuned.examples is not None:
            if tuned is None or tuned.vector is None or tuned.examples is None:
                raise ConfigurationError("this ranker reads its examples under the tuned encoder")
            memory = tuned.examples.features(tuned.vector, targets, exclude=exclude)
        prior = self.prior.features(concept_ids, targets, exclude=exclude)
        examples = self.examples.features(query, targets, exclude=exclude)
        adapted, cosine = self._similarities(query)
        rows_of = [self._row_of.get(t) for t in targets]
        extra = tuned_features(tuned.scores, rows_of) if tuned is not None else None
        rows = []
        for n, (c, i) in enumerate(zip(candidates, rows_of, strict=True)):
            rows.append(
                [
                    *c.row(),
                    *(prior[name][n] for name in PRIOR_FEATURES),
                    *(examples[name][n] for name in EXAMPLE_FEATURES),
                    math.nan if i is None else round(float(adapted[i]), 6),
                    math.nan if i is None else round(float(cosine[i]), 6),
                    *(extra[n] if extra is not None else ()),
                    *(memory[name][n] for name in EXAMPLE_FEATURES if memory is not None),
                ]
            )
        return rows

    def with_combiner(self, combiner: Combiner) -> LearnedRanker:
        """The same ranker with a (newly trained) combiner."""
        return self._replace(combiner=combiner)

    def with_info(self, info: Mapping[str, Any]) -> LearnedRanker:
        """The same ranker with another training record."""
        return self._replace(info=info)

    def with_text_only(self, text_only: LearnedRanker | None) -> LearnedRanker:
        """The same ranker with a (newly trained) text-only ranker over the same targets."""
        if text_only is not None and text_only.target_ids != self.target_ids:
            raise ConfigurationError("the text-only ranker must rank the same targets")
        return self._replace(text_only=text_only)

    def with_tuned_embedder(self, embedder: Embedder) -> LearnedRanker:
        """The same ranker (and text-only one) whose tuned part embeds queries with
        `embedder` (loading one attaches none: the factory does, for serving)."""
        text = self.text_only
        if text is not None:
            text = text.with_tuned_embedder(embedder)
        tuned = self.tuned.with_embedder(embedder) if self.tuned is not None else None
        return self._replace(tuned=tuned, text_only=text)

    def _replace(self, **changes: Any) -> LearnedRanker:
        parts: dict[str, Any] = {
            "prior": self.prior,
            "examples": self.examples,
            "adapter": self.adapter,
            "target_ids": self.target_ids,
            "target_vectors": self.target_vectors,
            "combiner": self.combiner,
            "info": self.info,
            "text_only": self.text_only,
            "tuned": self.tuned,
        }
        return LearnedRanker(**{**parts, **changes})

    def save(self, directory: Path, *, targets: bool = True) -> None:
        """Write the ranker (and its text-only ranker in `text/`, without the targets; the
        tuned encoder's targets, once, in `tuned/`)."""
        if self.combiner is None:
            raise ConfigurationError("a ranker without a combiner cannot be saved")
        directory.mkdir(parents=True, exist_ok=True)
        (directory / "prior.json").write_text(json.dumps(self.prior.to_json()) + "\n")
        self.examples.save(directory / "examples.npz")
        self.adapter.save(directory / "adapter.npy")
        if targets:
            np.savez_compressed(
                directory / "targets.npz",
                ids=np.array(self.target_ids, dtype=str),
                vectors=self.target_vectors.astype(np.float16),
            )
            tuned = self.tuned or (self.text_only.tuned if self.text_only else None)
            if tuned is not None:
                (directory / TUNED_DIR).mkdir(exist_ok=True)
                np.save(
                    directory / TUNED_DIR / "targets.npy", tuned.target_vectors.astype(np.float16)
                )
        if self.tuned is not None and self.tuned.examples is not None:
            self.tuned.examples.save(directory / TUNED_EXAMPLES_FILE)
        self.combiner.save(directory)
        record = {**self.info, "features": list(self.feature_names)}
        if self.tuned is not None:
            record["tuned_model"] = self.tuned.model
        (directory / RANKER_RECORD).write_text(json.dumps(record, indent=2, sort_keys=True) + "\n")
        if self.text_only is not None:
            self.text_only.save(directory / TEXT_ONLY_DIR, targets=False)

    @classmethod
    def load(
        cls,
        directory: Path,
        *,
        targets: tuple[list[str], npt.NDArray[np.float32]] | None = None,
        tuned_targets: npt.NDArray[np.float32] | None = None,
    ) -> LearnedRanker:
        """Load a saved ranker (with its text-only ranker when `text/` holds one; a tuned
        part without its encoder, see `with_tuned_embedder`); a missing or unreadable part
        is a `ConfigurationError`."""
        try:
            info = json.loads((directory / RANKER_RECORD).read_text(encoding="utf-8"))
            features = tuple(info.get("features", ()))
            if features not in _TUNED_SETS:
                raise ConfigurationError(
                    f"the ranker in {directory} was built for other features; retrain it"
                )
            prior = LinkPrior.from_json(json.loads((directory / "prior.json").read_text()))
            if targets is None:
                with np.load(directory / "targets.npz", allow_pickle=False) as t:
                    targets = ([str(i) for i in t["ids"]], t["vectors"].astype(np.float32))
                if (directory / TUNED_DIR).is_dir():
                    tuned_file = directory / TUNED_DIR / "targets.npy"
                    tuned_targets = np.load(tuned_file, allow_pickle=False).astype(np.float32)
            tuned = None
            if features != FEATURES:
                if tuned_targets is None:
                    raise ConfigurationError(f"the ranker in {directory} has no {TUNED_DIR}/")
                memory = (
                    ExampleMemory.load(directory / TUNED_EXAMPLES_FILE)
                    if TUNED_EXAMPLE_FEATURES[0] in features
                    else None
                )
                tuned = TunedText(tuned_targets, str(info.get("tuned_model", "")), examples=memory)
            text_dir = directory / TEXT_ONLY_DIR
            return cls(
                prior=prior,
                examples=ExampleMemory.load(directory / "examples.npz"),
                adapter=QueryAdapter.load(directory / "adapter.npy"),
                target_ids=targets[0],
                target_vectors=targets[1],
                combiner=Combiner.load(directory),
                info=info,
                text_only=(
                    cls.load(text_dir, targets=targets, tuned_targets=tuned_targets)
                    if text_dir.is_dir()
                    else None
                ),
                tuned=tuned,
            )
        except (OSError, ValueError, KeyError) as exc:
            raise ConfigurationError(f"cannot load the ranker in {directory}: {exc}") from exc


class Scoring(NamedTuple):
    """Which model scores a request (None: none will), the concepts it reads, and why none
    does ("" when one does)."""

    model: LearnedRanker | None
    concepts: list[str]
    reason: str

"""The Eedi misconception-retrieval benchmark (design section 8).

Unit: one labelled (question, wrong answer) pair. For each fold the stores are built from
the fold's training questions (and the misconception list) only; no test question and no
label of a test question reaches them. Only misconception hits count, in packet order.

>>> results = await run_eedi_benchmark(EediBenchmarkSpec(train=Path("train.csv"), ...))
... # doctest: +SKIP
"""

from __future__ import annotations

import fnmatch
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tutorgraph.errors import ConfigurationError
from tutorgraph.eval.latency import hardware
from tutorgraph.eval.metrics import average_precision_at_k, recall_at_k
from tutorgraph.ingest.eedi import (
    EediQuestion,
    eedi_construct_id,
    eedi_misconception_id,
    eedi_query_text,
    eedi_records,
    read_eedi_questions,
    read_misconceptions,
    read_subjects,
)
from tutorgraph.ingest.indexer import ingest_records
from tutorgraph.models.packet import ReasoningPacket
from tutorgraph.models.request import RetrievalRequest, SourceName
from tutorgraph.retrieval.cached_embedder import CachingEmbedder
from tutorgraph.retrieval.embedder import Embedder
from tutorgraph.retrieval.retriever import HybridRetriever
from tutorgraph.stores.local_index import chroma_persistent_client, open_index

__all__ = [
    "CONFIG_SOURCES",
    "CONTEXTS",
    "FUSIONS",
    "PROFILE_NAMES",
    "EediBenchmarkSpec",
    "EediPair",
    "config_names",
    "eedi_pairs",
    "misconception_ranking",
    "run_eedi_benchmark",
]

K = 25
CONFIG_SOURCES: dict[str, list[SourceName]] = {
    "vector": ["vector"],
    "lexical": ["lexical"],
    "graph": ["graph"],
    "hybrid": ["vector", "lexical", "graph"],
}
CONTEXTS = ("text", "construct")
PROFILE_NAMES = ("auto", "exact", "balanced", "semantic")
FUSIONS = ("rrf", "weighted")

# (done, total) over all retrievals of the run.
BenchProgress = Callable[[int, int], None]


@dataclass(frozen=True)
class EediPair:
    """One labelled wrong answer: the unit of the benchmark."""

    question: EediQuestion
    letter: str
    target: str

    @property
    def query(self) -> str:
        return eedi_query_text(self.question, self.letter)


@dataclass
class EediBenchmarkSpec:
    train: Path
    misconceptions: Path
    test: Path | None = None
    subjects: Path | None = None
    folds: int = 5
    configs: str = "*"
    limit: int | None = None


@dataclass
class _Scores:
    ap: list[float] = field(default_factory=list)
    recall: list[float] = field(default_factory=list)


def eedi_pairs(questions: Sequence[EediQuestion]) -> list[EediPair]:
    """Every (question, wrong answer) with a misconception label, in file order."""
    return [
        EediPair(q, letter, eedi_misconception_id(mid))
        for q in questions
        for letter, mid in sorted(q.misconception_ids.items())
        if mid is not None and letter != q.correct_answer
    ]


def config_names(pattern: str = "*") -> list[str]:
    """`<sources>/<context>` with the request defaults, and every hybrid profile x fusion."""
    names = [f"{s}/{c}" for s in CONFIG_SOURCES for c in CONTEXTS]
    names += [f"hybrid/{c}/{p}-{f}" for c in CONTEXTS for p in PROFILE_NAMES for f in FUSIONS]
    chosen = [n for n in names if fnmatch.fnmatchcase(n, pattern)]
    if not chosen:
        raise ConfigurationError(f"--configs {pattern!r} matches none of {', '.join(names)}")
    return chosen


def misconception_ranking(packet: ReasoningPacket, target: str) -> list[str]:
    """Misconception hits in packet order; a merged hit counts as the target if it holds it."""
    return [
        target if target in hit.ids else hit.id
        for hit in packet.results
        if hit.kind == "misconception"
    ]


def _git_commit() -> str | None:
    try:
        out = subprocess.run(
            ["git", "rev-parse", "HEAD"],
            # The checkout the code runs from, wherever the benchmark is started.
            cwd=Path(__file__).resolve().parent,
            capture_output=True,
            text=True,
            timeout=5,
            check=True,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None


async def run_eedi_benchmark(
    spec: EediBenchmarkSpec,
    embedder: Embedder,
    *,
    progress: BenchProgress | None = None,
) -> dict[str, Any]:
    """Run the benchmark and return the `results.json` mapping."""
    started = time.perf_counter()
    names = config_names(spec.configs)
    train = read_eedi_questions(spec.train)
    misconceptions = read_misconceptions(spec.misconceptions)
    subjects = read_subjects(spec.subjects) if spec.subjects else []
    if spec.test is not None:
        folds = [(train, read_eedi_questions(spec.test))]
    else:
        if spec.folds < 2:
            raise ConfigurationError("--folds must be at least 2 for cross-validation")
        folds = [
            (
                [q for q in train if q.question_id % spec.folds != f],
                [q for q in train if q.question_id % spec.folds == f],
            )
            for f in range(spec.folds)
        ]
    fold_pairs = [eedi_pairs(test) for _, test in folds]
    if spec.limit is not None:
        # Spread a quick run over every fold rather than exhausting the first.
        per_fold = max(1, spec.limit // len(folds))
        fold_pairs = [pairs[:per_fold] for pairs in fold_pairs]
    total = sum(len(p) for p in fold_pairs) * len(names)

    cached = CachingEmbedder(embedder)
    scores = {n: _Scores() for n in names}
    unseen = 0
    done = 0
    for (fold_train, _), pairs in zip(folds, fold_pairs, strict=True):
        records = eedi_records(fold_train, misconceptions, subjects)
        with tempfile.TemporaryDirectory(prefix="tutorgraph-bench-") as tmp:
            index_dir = Path(tmp)
            client = chroma_persistent_client(index_dir / "chroma")
            await ingest_records(
                records, index_dir, cached, source_hash="eedi-bench", chroma_client=client
            )
            index = open_index(index_dir, embedder=cached.name, chroma_client=client)
            retriever = HybridRetriever(cached, index.vector, index.lexical, index.graph)
            for pair in pairs:
                construct = eedi_construct_id(pair.question.construct_id)
                known = not await index.graph.unknown_concepts([construct])
                unseen += 0 if known else 1
                for name in names:
                    sources, context, *variant = name.split("/")
                    tuning: dict[str, Any] = {}
                    if variant:
                        profile, fusion = variant[0].split("-")
                        tuning = {"retrieval_profile": profile, "fusion": fusion}
                    request = RetrievalRequest(
                        **tuning,
                        max_context_tokens=0,
                        query=pair.query,
                        n_results=50,
                        sources=CONFIG_SOURCES[sources],
                        concept_ids=[construct] if context == "construct" and known else [],
                    )
                    packet = await retriever.retrieve(request)
                    ranking = misconception_ranking(packet, pair.target)
                    scores[name].ap.append(average_precision_at_k(ranking, {pair.target}, K))
                    scores[name].recall.append(recall_at_k(ranking, {pair.target}, K))
                    done += 1
                    if progress:
                        progress(done, total)
            await index.aclose()

    results: dict[str, Any] = {
        name: {
            f"map@{K}": round(statistics.fmean(s.ap), 6) if s.ap else 0.0,
            f"recall@{K}": round(statistics.fmean(s.recall), 6) if s.recall else 0.0,
            "n": len(s.ap),
        }
        for name, s in scores.items()
    }
    results["_meta"] = {
        "task": "eedi-misconceptions",
        "train": str(spec.train),
        "test": str(spec.test) if spec.test else None,
        "folds": len(folds),
        "fold_rule": None if spec.test else f"int(QuestionId) % {spec.folds}",
        "n_pairs": sum(len(p) for p in fold_pairs),
        "limit": spec.limit,
        "unseen_context": unseen,
        "embedder": embedder.name,
        "reranker": None,
        "seconds": round(time.perf_counter() - started, 1),
        "hardware": hardware(),
        "git_commit": _git_commit(),
    }
    return results

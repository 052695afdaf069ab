"""The Eedi misconception-retrieval benchmark (design section 8).

Unit: one labelled (question, wrong answer) pair. For each fold the stores are built from
the fold's training questions (and the misconception list) only; no test question and no
label of a test question reaches them. Only misconception hits count, in packet order.

>>> results = await run_eedi_benchmark(EediBenchmarkSpec(train=Path("train.csv"), ...))
... # doctest: +SKIP
"""

from __future__ import annotations

import asyncio
import fnmatch
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from tutorgraph.config import DEFAULT_EMBEDDING_MODEL, MSMARCO_RERANKER
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
from tutorgraph.refinement.local import LocalRefiner
from tutorgraph.refinement.spelling import SpellingCorrector
from tutorgraph.retrieval.cached_embedder import CachingEmbedder
from tutorgraph.retrieval.embedder import Embedder
from tutorgraph.retrieval.reranker import (
    ONNX_FILES,
    Backend,
    CrossEncoderReranker,
    RerankerOptions,
)
from tutorgraph.retrieval.retriever import HybridRetriever, RetrieverConfig
from tutorgraph.stores.local_index import chroma_persistent_client, open_index
from tutorgraph.stores.protocols import GraphStore
from tutorgraph.training.cross_encoder import TrainingConfig
from tutorgraph.training.eedi import eedi_training_groups, fit_and_export

__all__ = [
    "CONFIG_SOURCES",
    "CONTEXTS",
    "FUSIONS",
    "PROFILE_NAMES",
    "REFINERS",
    "RERANK_MODELS",
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
# domain: the fold-trained reranker at fp32 (ONNX Runtime); domain-int8: the same, int8;
# msmarco: the public MS MARCO cross-encoder, measured only where it can be loaded.
RERANK_MODELS = ("domain", "domain-int8", "msmarco")
# local: the deterministic refiner over the fold's own index.
REFINERS = ("local",)

# (done, total) over all retrievals of the run.
BenchProgress = Callable[[int, int], None]
# A line saying which long phase (training, mining) is running.
BenchStatus = Callable[[str], None]


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
    training: TrainingConfig = field(default_factory=TrainingConfig)
    rerank_depth: int = 30
    msmarco_model: str = MSMARCO_RERANKER
    # What the fold rerankers are fine-tuned from (tests pass a tiny local model).
    reranker_base: str = DEFAULT_EMBEDDING_MODEL


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
    """`<sources>/<context>` with the request defaults, every hybrid profile x fusion, and
    each hybrid one again with `/rerank-<model>` and with `/refine-<refiner>`.
    `pattern`: comma-separated globs."""
    names = [f"{s}/{c}" for s in CONFIG_SOURCES for c in CONTEXTS]
    hybrid = [f"hybrid/{c}" for c in CONTEXTS]
    hybrid += [f"hybrid/{c}/{p}-{f}" for c in CONTEXTS for p in PROFILE_NAMES for f in FUSIONS]
    names += hybrid[len(CONTEXTS) :]
    names += [f"{h}/rerank-{m}" for h in hybrid for m in RERANK_MODELS]
    names += [f"{h}/refine-{r}" for h in hybrid for r in REFINERS]
    globs = [g.strip() for g in pattern.split(",") if g.strip()]
    chosen = [n for n in names if any(fnmatch.fnmatchcase(n, g) for g in globs)]
    if not chosen:
        raise ConfigurationError(f"--configs {pattern!r} matches none of {', '.join(names)}")
    return chosen


@dataclass(frozen=True)
class _Config:
    sources: str
    context: str
    tuning: dict[str, Any]
    rerank: str | None
    refine: str | None = None

    @classmethod
    def parse(cls, name: str) -> _Config:
        sources, context, *rest = name.split("/")
        refine = rest.pop()[len("refine-") :] if rest and rest[-1].startswith("refine-") else None
        rerank = rest.pop()[len("rerank-") :] if rest and rest[-1].startswith("rerank-") else None
        tuning: dict[str, Any] = {}
        if rest:
            profile, fusion = rest[0].split("-")
            tuning = {"retrieval_profile": profile, "fusion": fusion}
        return cls(sources, context, tuning, rerank, refine)


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
    status: BenchStatus | None = None,
) -> dict[str, Any]:
    """Run the benchmark and return the `results.json` mapping.

    A `/rerank-domain*` configuration trains a reranker per fold on that fold's training
    questions only (mined with the fold's own retriever), then scores its test pairs.
    """
    started = time.perf_counter()
    names = config_names(spec.configs)
    configs = {n: _Config.parse(n) for n in names}
    wanted = {c.rerank for c in configs.values() if c.rerank}
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
    say = status or (lambda _line: None)
    options = RerankerOptions(
        max_length=spec.training.max_length, query_max_tokens=spec.training.query_max_tokens
    )
    msmarco, msmarco_reason = None, None
    if "msmarco" in wanted:
        msmarco = CrossEncoderReranker(spec.msmarco_model, backend="torch")
        try:
            await asyncio.to_thread(msmarco.load)
        except ConfigurationError as exc:
            msmarco, msmarco_reason = None, exc.message

    cached = CachingEmbedder(embedder)
    scores = {n: _Scores() for n in names}
    trained: list[dict[str, Any]] = []
    unseen = 0
    done = 0
    for fold_no, ((fold_train, _), pairs) in enumerate(zip(folds, fold_pairs, strict=True), 1):
        records = eedi_records(fold_train, misconceptions, subjects)
        with tempfile.TemporaryDirectory(prefix="tutorgraph-bench-") as tmp:
            index_dir = Path(tmp)
            client = chroma_persistent_client(index_dir / "chroma")
            say(f"fold {fold_no}/{len(folds)}: indexing {len(fold_train)} questions")
            await ingest_records(
                records, index_dir, cached, source_hash="eedi-bench", chroma_client=client
            )
            index = open_index(index_dir, embedder=cached.name, chroma_client=client)
            refiner = LocalRefiner(
                index.graph, SpellingCorrector(index.lexical.document_frequencies())
            )
            base = HybridRetriever(
                cached, index.vector, index.lexical, index.graph, refiner=refiner
            )
            rerankers: dict[str, CrossEncoderReranker] = {}
            if wanted & {"domain", "domain-int8"}:
                model_dir = index_dir / "reranker"
                info = await _train_fold_reranker(
                    base, index.graph, fold_train, misconceptions, model_dir, spec, say, fold_no
                )
                trained.append(info)
                backends: dict[str, Backend] = {"domain": "onnx", "domain-int8": "onnx-int8"}
                for name, backend in backends.items():
                    if name in wanted:
                        rerankers[name] = CrossEncoderReranker(
                            model_dir, backend=backend, options=options
                        )
                        await asyncio.to_thread(rerankers[name].load)
            if msmarco is not None:
                rerankers["msmarco"] = msmarco
            retrievers = {
                name: HybridRetriever(
                    cached,
                    index.vector,
                    index.lexical,
                    index.graph,
                    RetrieverConfig(rerank_depth=spec.rerank_depth),
                    reranker=r,
                    refiner=refiner,
                )
                for name, r in rerankers.items()
            }
            say(f"fold {fold_no}/{len(folds)}: scoring {len(pairs)} test pairs")
            for pair in pairs:
                construct = eedi_construct_id(pair.question.construct_id)
                known = not await index.graph.unknown_concepts([construct])
                unseen += 0 if known else 1
                for name, cfg in configs.items():
                    if cfg.rerank is not None and cfg.rerank not in retrievers:
                        done += 1
                        continue  # a reranker that could not be loaded: not measured
                    request = RetrievalRequest(
                        **cfg.tuning,
                        max_context_tokens=0,
                        query=pair.query,
                        n_results=50,
                        sources=CONFIG_SOURCES[cfg.sources],
                        concept_ids=[construct] if cfg.context == "construct" and known else [],
                        rerank=cfg.rerank is not None,
                        use_refinement=cfg.refine is not None,
                    )
                    retriever = retrievers[cfg.rerank] if cfg.rerank else base
                    packet = await retriever.retrieve(request)
                    ranking = misconception_ranking(packet, pair.target)
                    scores[name].ap.append(average_precision_at_k(ranking, {pair.target}, K))
                    scores[name].recall.append(recall_at_k(ranking, {pair.target}, K))
                    done += 1
                    if progress:
                        progress(done, total)
            await index.aclose()

    results: dict[str, Any] = {}
    for name, sc in scores.items():
        if configs[name].rerank == "msmarco" and msmarco is None:
            results[name] = {
                f"map@{K}": None,
                f"recall@{K}": None,
                "n": 0,
                "status": f"not measured: {msmarco_reason}",
            }
            continue
        results[name] = {
            f"map@{K}": round(statistics.fmean(sc.ap), 6) if sc.ap else 0.0,
            f"recall@{K}": round(statistics.fmean(sc.recall), 6) if sc.recall else 0.0,
            "n": len(sc.ap),
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
        "reranker": {
            "depth": spec.rerank_depth,
            "training": asdict(spec.training),
            "folds": trained,
            "msmarco": spec.msmarco_model if msmarco else f"not loaded: {msmarco_reason}",
        }
        if wanted
        else None,
        "seconds": round(time.perf_counter() - started, 1),
        "hardware": hardware(),
        "git_commit": _git_commit(),
    }
    return results


async def _train_fold_reranker(
    retriever: HybridRetriever,
    graph: GraphStore,
    questions: list[EediQuestion],
    misconceptions: dict[int, str],
    model_dir: Path,
    spec: EediBenchmarkSpec,
    say: BenchStatus,
    fold_no: int,
) -> dict[str, Any]:
    """Mine and train on this fold's training questions; returns what the run records."""
    head = f"fold {fold_no}/{spec.folds if spec.test is None else 1}"
    groups = await eedi_training_groups(
        retriever,
        graph,
        questions,
        misconceptions,
        progress=lambda d, t: say(f"{head}: mining negatives {d}/{t}") if d % 100 == 0 else None,
    )
    result = await fit_and_export(
        groups,
        model_dir,
        spec.training,
        base_model=spec.reranker_base,
        progress=lambda s, t, loss: say(f"{head}: training step {s}/{t}, loss {loss:.3f}"),
    )
    sizes = {b: (model_dir / f).stat().st_size for b, f in ONNX_FILES.items()}
    return {
        "fold": fold_no,
        "groups": len(groups),
        "steps": result.steps,
        "train_seconds": round(result.seconds, 1),
        "final_loss": round(result.final_loss, 4),
        "device": result.device,
        "onnx_bytes": sizes,
    }

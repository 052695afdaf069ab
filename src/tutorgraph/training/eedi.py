"""Train the domain reranker on an Eedi train file: index it, mine negatives, fit, export.

Used by `tutorgraph train-reranker` (whole file) and by the benchmark (each fold's training
part only). The positives are the labelled misconceptions of (question, wrong answer) pairs;
the hard negatives are the hybrid retriever's own top misconception candidates over an index
built from the same training questions.

>>> result = await train_eedi_reranker(questions, misconceptions, [], embedder, out, cfg)
... # doctest: +SKIP
"""

from __future__ import annotations

import asyncio
import hashlib
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from tutorgraph.config import DEFAULT_EMBEDDING_MODEL
from tutorgraph.embedding.embedder import Embedder, resolve_model_path
from tutorgraph.index.local import LocalIndex
from tutorgraph.index.pipeline import IngestOptions
from tutorgraph.ingest.eedi import (
    EediQuestion,
    EediSubject,
    eedi_construct_id,
    eedi_misconception_id,
    eedi_query_text,
    eedi_records,
    eedi_stated_text,
    eedi_subject_id,
)
from tutorgraph.ranking.model import LearnedRanker
from tutorgraph.ranking.query_text import concept_names, named_query
from tutorgraph.retrieval.factory import Models, build_retriever
from tutorgraph.retrieval.retriever import HybridRetriever
from tutorgraph.retrieval.retriever_config import RetrieverConfig
from tutorgraph.stores.protocols import GraphStore
from tutorgraph.training.cross_encoder import (
    StepProgress,
    TrainingConfig,
    TrainingResult,
    fit_cross_encoder,
)
from tutorgraph.training.crossfit_encoders import TunedEncoders
from tutorgraph.training.embedder import EmbedderExample
from tutorgraph.training.mining import LabelledQuery, TrainingGroup, mine_groups
from tutorgraph.training.onnx_export import export_onnx
from tutorgraph.training.ranker import LabelledQuery as RankerQuery
from tutorgraph.training.ranker import RankerTrainingConfig, RankerTrainingData, fit_ranker

__all__ = [
    "data_hash",
    "eedi_embedder_examples",
    "eedi_ranker_queries",
    "eedi_text_queries",
    "eedi_training_groups",
    "train_eedi_ranker",
    "train_eedi_reranker",
]

# (done, total) of the mining; training reports through StepProgress.
PhaseProgress = Callable[[int, int], None]


def data_hash(*files: Path) -> str:
    """sha256 over the bytes of the training inputs, in the order given."""
    h = hashlib.sha256()
    for f in files:
        h.update(f.read_bytes())
    return h.hexdigest()


async def eedi_training_groups(
    retriever: HybridRetriever,
    graph: GraphStore,
    questions: Sequence[EediQuestion],
    misconceptions: dict[int, str],
    *,
    progress: PhaseProgress | None = None,
) -> list[TrainingGroup]:
    """Mine one group per labelled wrong answer, with its construct as context when known."""
    constructs = {eedi_construct_id(q.construct_id) for q in questions}
    unknown = set(await graph.unknown_concepts(sorted(constructs)))
    queries = [
        LabelledQuery(
            eedi_query_text(q, letter),
            eedi_misconception_id(mid),
            () if (c := eedi_construct_id(q.construct_id)) in unknown else (c,),
        )
        for q in questions
        for letter, mid in sorted(q.misconception_ids.items())
        if mid is not None and letter != q.correct_answer
    ]
    texts = {eedi_misconception_id(k): v for k, v in misconceptions.items()}
    return await mine_groups(retriever, queries, texts, progress=progress)


async def train_eedi_reranker(
    questions: Sequence[EediQuestion],
    misconceptions: dict[int, str],
    subjects: Sequence[EediSubject],
    embedder: Embedder,
    out_dir: Path,
    cfg: TrainingConfig,
    *,
    record: dict[str, Any] | None = None,
    base_model: str = DEFAULT_EMBEDDING_MODEL,
    quantize: bool = True,
    mine_progress: PhaseProgress | None = None,
    train_progress: StepProgress | None = None,
) -> TrainingResult:
    """Index `questions` in a scratch directory, mine groups, fit and export to ONNX."""
    records = eedi_records(list(questions), misconceptions, list(subjects))
    with tempfile.TemporaryDirectory(prefix="tutorgraph-train-") as tmp:
        options = IngestOptions(source_hash="reranker-training")
        async with LocalIndex.build(records, Path(tmp), embedder, options) as index:
            retriever = build_retriever(
                index, Models(embedder), RetrieverConfig(refiner="none", diagnosis=False)
            )
            groups = await eedi_training_groups(
                retriever, index.graph, questions, misconceptions, progress=mine_progress
            )
    return await fit_and_export(
        groups,
        out_dir,
        cfg,
        record=record,
        base_model=base_model,
        quantize=quantize,
        progress=train_progress,
    )


async def fit_and_export(
    groups: Sequence[TrainingGroup],
    out_dir: Path,
    cfg: TrainingConfig,
    *,
    record: dict[str, Any] | None = None,
    base_model: str = DEFAULT_EMBEDDING_MODEL,
    quantize: bool = True,
    progress: StepProgress | None = None,
    enforce_gates: bool = True,
) -> TrainingResult:
    """Fit off the event loop, then write the fp32 and int8 ONNX graphs (nothing is written
    when the model fails its gates: `TrainingRefused`)."""
    result = await asyncio.to_thread(
        fit_cross_encoder,
        groups,
        resolve_model_path(base_model),
        out_dir,
        cfg,
        record=record,
        progress=progress,
        enforce_gates=enforce_gates,
    )
    await asyncio.to_thread(export_onnx, out_dir, quantize=quantize)
    return result


async def eedi_ranker_queries(
    questions: Sequence[EediQuestion], graph: GraphStore
) -> list[RankerQuery]:
    """One labelled query per labelled wrong answer, named as the retriever names it (the
    construct's and its subjects' names from `graph`), its construct as context when known."""
    names: dict[str, list[str]] = {}
    out = []
    for q in questions:
        cid = eedi_construct_id(q.construct_id)
        if cid not in names:
            names[cid] = await concept_names(graph, [cid])
        for letter, mid in sorted(q.misconception_ids.items()):
            if mid is None or letter == q.correct_answer:
                continue
            out.append(
                RankerQuery(
                    str(q.question_id),
                    named_query(eedi_query_text(q, letter), names[cid]),
                    eedi_misconception_id(mid),
                    (cid,) if names[cid] else (),
                )
            )
    return out


def eedi_text_queries(questions: Sequence[EediQuestion]) -> list[RankerQuery]:
    """The text-only ranker's labelled queries: each labelled wrong answer twice, as the
    worksheet states it (`eedi_query_text`) and as a student does (`stated_query`: the
    question and their answer, no correct answer), with no concepts."""
    out = []
    for q in questions:
        for letter, mid in sorted(q.misconception_ids.items()):
            if mid is None or letter == q.correct_answer:
                continue
            target = eedi_misconception_id(mid)
            for text in (eedi_query_text(q, letter), eedi_stated_text(q, letter)):
                out.append(RankerQuery(str(q.question_id), text, target))
    return out


async def eedi_embedder_examples(
    questions: Sequence[EediQuestion], graph: GraphStore
) -> list[EmbedderExample]:
    """One example per labelled wrong answer, in the three forms the pipeline reads (the
    worksheet with its construct's names, the worksheet, what the student states); its
    construct and subject gather its hard negatives."""
    named = await eedi_ranker_queries(questions, graph)
    plain = eedi_text_queries(questions)  # two per answer, in the same order
    by_id = {str(q.question_id): q for q in questions}
    out = []
    for n, q in enumerate(named):
        question = by_id[q.group]
        concepts = (eedi_construct_id(question.construct_id), eedi_subject_id(question.subject_id))
        forms = (q.text, plain[2 * n].text, plain[2 * n + 1].text)
        assert plain[2 * n].target == q.target  # the two lists walk the answers alike
        out.append(EmbedderExample(q.group, forms, q.target, concepts))
    return out


async def train_eedi_ranker(
    questions: Sequence[EediQuestion],
    misconceptions: dict[int, str],
    graph: GraphStore,
    embedder: Embedder,
    *,
    config: RankerTrainingConfig | None = None,
    tuned: TunedEncoders | None = None,
    info: dict[str, Any] | None = None,
    progress: Callable[[str], None] | None = None,
) -> LearnedRanker:
    """Fit the learned ranker on the labelled answers of `questions`, over every misconception
    of the list (the graph must hold the questions' constructs and subjects), and its
    text-only ranker on the same answers without concepts; both read the `tuned` encoders'
    scores when given."""
    queries = await eedi_ranker_queries(questions, graph)
    ids = sorted(misconceptions)
    target_ids = [eedi_misconception_id(m) for m in ids]
    constructs = sorted({c for q in queries for c in q.concept_ids})
    parents = {c.id: c.parent_ids for c in await graph.get_concepts(constructs)}
    record = {"embedder": embedder.name, **(info or {})}
    say = progress or (lambda _line: None)

    def fit() -> LearnedRanker:
        texts = [misconceptions[m] for m in ids]
        vectors = embedder.embed(texts)
        training = tuned.training(texts) if tuned is not None else None
        data = RankerTrainingData(
            queries,
            target_ids,
            vectors,
            embedder.embed,
            parents=parents,
            config=config or RankerTrainingConfig(),
            tuned=training,
            progress=say,
        )
        ranker = fit_ranker(data, info=record)
        # The text-only ranker: the same answers without concepts (so no parents either).
        text_only = replace(
            data,
            queries=eedi_text_queries(questions),
            parents=None,
            progress=lambda line: say(f"text-only: {line}"),
        )
        name = f"{record.get('name', 'learned-ranker')}/text"
        text = fit_ranker(text_only, info={**record, "name": name})
        return ranker.with_text_only(text)

    return await asyncio.to_thread(fit)

"""`tutorgraph train-reranker`, `train-ranker` and `train-embedder`: fit the domain models on an
Eedi train file; `train-linker`: fit the concept linker's standards model on a bundle."""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer

from tutorgraph.cli._common import (
    console,
    default_subjects,
    fail_on_errors,
    load_settings,
    progress_bars,
)
from tutorgraph.cli.options import (
    BaseModelOption,
    EediSubjectsOption,
    EediTrainOption,
    LearningRateOption,
    MisconceptionsOption,
    SeedOption,
)
from tutorgraph.config import DEFAULT_EMBEDDING_MODEL
from tutorgraph.embedding.reranker import ONNX_FILES
from tutorgraph.ingest.bundle import read_bundle
from tutorgraph.ingest.eedi import (
    EediQuestion,
    eedi_fold,
    eedi_misconception_id,
    eedi_records,
    read_eedi_questions,
    read_misconceptions,
    read_subjects,
)
from tutorgraph.ranking.model import TUNED_DIR
from tutorgraph.retrieval.factory import bundled_standards_path, make_embedder
from tutorgraph.stores.embedded_graph import EmbeddedGraphStore
from tutorgraph.training.cross_encoder import TRAINING_RECORD, TrainingConfig
from tutorgraph.training.crossfit_encoders import (
    TunedEncoders,
    copy_serving_encoder,
    load_fold_encoders,
)
from tutorgraph.training.eedi import (
    data_hash,
    eedi_embedder_examples,
    train_eedi_ranker,
    train_eedi_reranker,
)
from tutorgraph.training.embedder import EmbedderTrainingConfig, fit_embedder
from tutorgraph.training.ranker import RankerTrainingConfig

__all__ = ["register"]

_D = TrainingConfig()
# What a slim (bundled) model keeps: the int8 graph, the tokenizer, the config, the record.
_SLIM_KEEP = {
    "config.json",
    "tokenizer.json",
    "tokenizer_config.json",
    "special_tokens_map.json",
    "vocab.txt",
    TRAINING_RECORD,
}


def train_reranker_cmd(
    train: EediTrainOption,
    out: Annotated[Path, typer.Option(help="Model directory to write.")] = Path(
        "models/eedi-minilm-reranker"
    ),
    misconceptions: MisconceptionsOption = None,
    subjects: EediSubjectsOption = None,
    epochs: Annotated[float, typer.Option(help="Passes over the mined groups.")] = _D.epochs,
    learning_rate: LearningRateOption = _D.learning_rate,
    batch_size: Annotated[int, typer.Option(help="Pairs per step.")] = _D.batch_size,
    negatives: Annotated[int, typer.Option(help="Hard negatives per positive.")] = _D.negatives,
    random_negatives: Annotated[
        int, typer.Option(help="Random (easy) negatives per positive.")
    ] = _D.random_negatives,
    layers: Annotated[
        int | None, typer.Option(help="Keep only the first N transformer layers (faster).")
    ] = _D.layers,
    max_length: Annotated[int, typer.Option(help="Tokens per pair.")] = _D.max_length,
    query_max_tokens: Annotated[
        int, typer.Option(help="Query tokens kept (head and tail).")
    ] = _D.query_max_tokens,
    seed: SeedOption = _D.seed,
    base_model: BaseModelOption = DEFAULT_EMBEDDING_MODEL,
    slim: Annotated[
        bool, typer.Option(help="Keep only the int8 ONNX model (what the package bundles).")
    ] = False,
) -> None:
    """Fine-tune a cross-encoder from the local MiniLM weights; writes HF + ONNX fp32/int8."""
    settings = load_settings()
    misconceptions = misconceptions or train.parent / "misconception_mapping.csv"
    if subjects is None:
        subjects = default_subjects(train)
    with fail_on_errors():
        cfg = TrainingConfig(
            epochs=epochs,
            learning_rate=learning_rate,
            batch_size=batch_size,
            negatives=negatives,
            random_negatives=random_negatives,
            layers=layers,
            max_length=max_length,
            query_max_tokens=query_max_tokens,
            seed=seed,
        )
        for f in (train, misconceptions, *([subjects] if subjects else [])):
            if not f.is_file():
                raise typer.BadParameter(f"{f} is not a file")
        inputs = [train, misconceptions, *([subjects] if subjects else [])]
        record = {
            "task": "eedi-misconception-reranking",
            "data": {str(f): f.stat().st_size for f in inputs},
            "data_sha256": data_hash(*inputs),
        }
        questions = read_eedi_questions(train)
        texts = read_misconceptions(misconceptions)
        subject_rows = read_subjects(subjects) if subjects else []
        embedder = make_embedder(settings)
        with progress_bars() as bars:
            mine = bars.add_task("mining hard negatives", total=None)
            fit = bars.add_task("training", total=None)
            result = asyncio.run(
                train_eedi_reranker(
                    questions,
                    texts,
                    subject_rows,
                    embedder,
                    out,
                    cfg,
                    record=record,
                    base_model=base_model,
                    mine_progress=lambda d, t: bars.update(mine, completed=d, total=t),
                    train_progress=lambda s, t, loss: bars.update(
                        fit, completed=s, total=t, description=f"training (loss {loss:.3f})"
                    ),
                )
            )
    if slim:
        for p in out.iterdir():
            if p.is_file() and p.name not in _SLIM_KEEP:
                p.unlink()
        (out / ONNX_FILES["onnx"]).unlink(missing_ok=True)
    sizes = {p.relative_to(out).as_posix(): p.stat().st_size for p in out.rglob("*.onnx")}
    console.print(
        f"trained {result.steps} steps on {result.record['groups']} groups in "
        f"{result.seconds:.0f}s ({result.device}) -> {out}",
        highlight=False,
    )
    console.print(json.dumps(sizes), highlight=False)


def _inputs(train: Path, misconceptions: Path | None, subjects: Path | None) -> list[Path]:
    """The training files, checked: train.csv, the misconception list, the subjects if any."""
    files = [
        train,
        misconceptions or train.parent / "misconception_mapping.csv",
        *([s] if (s := subjects or default_subjects(train)) else []),
    ]
    for f in files:
        if not f.is_file():
            raise typer.BadParameter(f"{f} is not a file")
    return files


@dataclass(frozen=True)
class _EediFiles:
    """An Eedi train file with its misconceptions and subjects, read, and its graph."""

    questions: list[EediQuestion]
    misconceptions: dict[int, str]
    graph: EmbeddedGraphStore
    # File names, sizes and their sha256: no path of the training machine.
    record: dict[str, Any]


def _read_eedi(train: Path, misconceptions: Path | None, subjects: Path | None) -> _EediFiles:
    files = _inputs(train, misconceptions, subjects)
    questions = read_eedi_questions(files[0])
    texts = read_misconceptions(files[1])
    subject_rows = read_subjects(files[2]) if len(files) > 2 else []
    return _EediFiles(
        questions,
        texts,
        EmbeddedGraphStore(eedi_records(questions, texts, subject_rows)),
        {"data": {f.name: f.stat().st_size for f in files}, "data_sha256": data_hash(*files)},
    )


def train_ranker_cmd(
    train: EediTrainOption,
    out: Annotated[Path, typer.Option(help="Ranker directory to write.")] = Path(
        "models/eedi-ranker"
    ),
    misconceptions: MisconceptionsOption = None,
    subjects: EediSubjectsOption = None,
    name: Annotated[str, typer.Option(help="The model name packets report.")] = "eedi-ranker",
    tuned_model: Annotated[
        Path | None,
        typer.Option(
            file_okay=False,
            help="A `train-embedder` output trained on all of --train's questions: the "
            "rankers read its scores, and its int8 graph, tokenizer and record are copied "
            "into <out>/tuned to serve them.",
        ),
    ] = None,
    tuned_folds: Annotated[
        Path | None,
        typer.Option(
            file_okay=False,
            help="With --tuned-model: fold encoders (`train-embedder --leave-out K/N --out "
            "DIR/foldK`) that score the training answers, each those it did not see.",
        ),
    ] = None,
    tuned_examples: Annotated[
        bool,
        typer.Option(
            help="With --tuned-model: the rankers also vote with the labelled answers under "
            "the fine-tuned encoder (their vectors ship in tuned_examples.npz; off by "
            "default until a 5-fold CV measures it)."
        ),
    ] = False,
) -> None:
    """Fit the learned final score (graph prior, example vote, query adapter, LightGBM
    combiner) on every labelled wrong answer, and its text-only ranker (the same answers
    without concepts, in `<out>/text`); CPU minutes. Serve it with
    TUTORGRAPH_RANKER_MODEL=<out>."""
    settings = load_settings()
    if (tuned_model is None) != (tuned_folds is None):
        raise typer.BadParameter("--tuned-model and --tuned-folds go together")
    with fail_on_errors():
        eedi = _read_eedi(train, misconceptions, subjects)
        embedder = make_embedder(settings)
        info = {"name": name, "task": "eedi-misconception-ranking", **eedi.record}
        tuned = None
        if tuned_model is not None and tuned_folds is not None:
            encoder = copy_serving_encoder(tuned_model, out / TUNED_DIR)
            folds = load_fold_encoders(tuned_folds)
            tuned = TunedEncoders(encoder, f"{TUNED_DIR}/model", folds)
        with progress_bars() as bars:
            task = bars.add_task("training the learned ranker", total=None)
            ranker = asyncio.run(
                train_eedi_ranker(
                    eedi.questions,
                    eedi.misconceptions,
                    eedi.graph,
                    embedder,
                    config=RankerTrainingConfig(tuned_examples=tuned_examples),
                    tuned=tuned,
                    info=info,
                    progress=lambda line: bars.update(task, description=line),
                )
            )
        ranker.save(out)
    for part in (ranker, ranker.text_only):
        if part is not None:
            summary = {k: part.info.get(k) for k in ("queries", "pool_recall", "seconds")}
            console.print(
                f"trained {part.info['name']} -> {out}: {json.dumps(summary)}", highlight=False
            )


_E = EmbedderTrainingConfig()


def train_embedder_cmd(
    train: EediTrainOption,
    out: Annotated[Path, typer.Option(help="Directory to write.")] = Path(
        "models/eedi-minilm-embedder"
    ),
    misconceptions: MisconceptionsOption = None,
    subjects: EediSubjectsOption = None,
    epochs: Annotated[float, typer.Option(help="Passes over the examples.")] = _E.epochs,
    learning_rate: LearningRateOption = _E.learning_rate,
    batch_size: Annotated[int, typer.Option(help="Queries per step.")] = _E.batch_size,
    max_length: Annotated[int, typer.Option(help="Tokens per text.")] = _E.max_length,
    hard_negatives: Annotated[
        bool, typer.Option(help="One hard negative per query (else in-batch negatives only).")
    ] = _E.hard_negatives,
    validation_share: Annotated[
        float, typer.Option(help="Share of the questions held out for the gates.")
    ] = _E.validation_share,
    seed: SeedOption = _E.seed,
    base_model: BaseModelOption = DEFAULT_EMBEDDING_MODEL,
    leave_out: Annotated[
        str | None,
        typer.Option(
            help="K/N: leave out the questions of fold K of N (int(QuestionId) % N == K), "
            "as `bench eedi` folds them: a cross-fitted model for that fold's features."
        ),
    ] = None,
) -> None:
    """Fine-tune MiniLM as a bi-encoder for misconception retrieval (MultipleNegativesRanking
    loss, hard negatives); writes <out>/model (HF weights, ONNX fp32/int8), the
    misconceptions' vectors in <out>/embeddings and <out>/training.json. Refused (nothing
    written) when the held-out questions' loss or MAP@25 does not beat the base model's."""
    with fail_on_errors():
        cfg = EmbedderTrainingConfig(
            epochs=epochs,
            learning_rate=learning_rate,
            batch_size=batch_size,
            max_length=max_length,
            hard_negatives=hard_negatives,
            validation_share=validation_share,
            seed=seed,
        )
        fold = _fold(leave_out)
        eedi = _read_eedi(train, misconceptions, subjects)
        questions = [
            q
            for q in eedi.questions
            if fold is None or eedi_fold(q.question_id, fold[1]) != fold[0]
        ]
        examples = asyncio.run(eedi_embedder_examples(questions, eedi.graph))
        record = {
            "base_model": base_model,
            **eedi.record,
            "examples": len(examples),
            "left_out_fold": None if fold is None else {"fold": fold[0], "folds": fold[1]},
        }
        targets = {eedi_misconception_id(k): v for k, v in eedi.misconceptions.items()}
        with progress_bars() as bars:
            task = bars.add_task("training the embedder", total=None)
            result = fit_embedder(
                examples,
                targets,
                base_model,
                out,
                cfg,
                record=record,
                progress=lambda s, t, loss: bars.update(
                    task, completed=s, total=t, description=f"training (loss {loss:.3f})"
                ),
            )
    gates = result.gates
    console.print(
        f"trained {result.steps} steps in {result.seconds:.0f}s ({result.device}) -> {out}; "
        f"held-out MAP@25 {gates.base_map:.4f} -> {gates.map:.4f}, "
        f"loss {gates.base_loss:.4f} -> {gates.loss:.4f} ({gates.held_out} answers)",
        highlight=False,
    )


def _fold(value: str | None) -> tuple[int, int] | None:
    """`--leave-out K/N` as (K, N)."""
    if value is None:
        return None
    k, _, n = value.partition("/")
    if not (k.isdigit() and n.isdigit() and int(k) < int(n)):
        raise typer.BadParameter(f"--leave-out {value!r}: K/N with 0 <= K < N, such as 0/5")
    return int(k), int(n)


def register(app: typer.Typer) -> None:
    app.command("train-reranker")(train_reranker_cmd)
    app.command("train-ranker")(train_ranker_cmd)
    app.command("train-embedder")(train_embedder_cmd)
    app.command("train-linker")(train_linker_cmd)


def train_linker_cmd(
    bundle: Annotated[
        Path, typer.Argument(help="The curriculum bundle the index was built from.")
    ] = Path("data/curriculum"),
    out: Annotated[
        Path | None,
        typer.Option(help="Where to write standards.npz (default: the bundled model's path)."),
    ] = None,
    per_generator: Annotated[
        int, typer.Option(min=1, max=500, help="Problems drawn from each generator.")
    ] = 20,
    epochs: Annotated[int, typer.Option(min=1, max=5000, help="Full-batch Adam steps.")] = 150,
    seed: Annotated[int, typer.Option(help="Seed of the problems and the fit.")] = 0,
) -> None:
    """Train the concept linker's standards model on generated problems and the bundle's
    aligned items (issue 48); serve it with TUTORGRAPH_LINKER_MODEL=PATH."""
    # The generators (an engine and its data files) are loaded when training, not with the CLI.
    from tutorgraph.training.linker import train_linker

    settings = load_settings()
    records = read_bundle(bundle)
    target = out or bundled_standards_path()
    embedder = make_embedder(settings)
    embedder.load()
    with progress_bars() as bars:
        tasks: dict[str, Any] = {}

        def step(stage: str, done: int, total: int) -> None:
            if stage not in tasks:
                tasks[stage] = bars.add_task(stage, total=total)
            bars.update(tasks[stage], completed=done, total=total)

        model = train_linker(
            records, embedder, per_generator=per_generator, epochs=epochs, seed=seed, progress=step
        )
    model.save(target)
    console.print(
        f"wrote {target}: {len(model.classes)} standards over {model.embedder}; "
        f"serve it with TUTORGRAPH_LINKER_MODEL={target}"
    )

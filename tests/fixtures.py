"""Shared fixtures: the committed data slices, a bundle built from them, and one real index.

Everything here reads only `tests/data` and writes only under pytest's temporary folders, so
the suite runs without `../shared`. The expensive things (loading MiniLM, embedding the slice
bundle into ChromaDB) happen once per session.

A plugin, not a conftest: the repository's root `conftest.py` loads it with `pytest_plugins`,
so the engine's tests (`tests/`) and the research package's (`research/tests/`) share one
instance of each session fixture (one session index, not one per tree). `tests/conftest.py`
re-exports its helpers for `from tests.conftest import ...`.
"""

from __future__ import annotations

import asyncio
import atexit
import functools
import json
import os
import shutil
import subprocess
import sys
import tempfile
import warnings
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest

from tutorgraph.config import RERANK_DEPTH
from tutorgraph.index.pipeline import IngestReport, ingest_bundle
from tutorgraph.ingest.bundle import write_bundle
from tutorgraph.ingest.eedi import (
    EediQuestion,
    eedi_misconception_id,
    eedi_query_text,
    eedi_records,
    read_eedi_questions,
    read_misconceptions,
    read_subjects,
)
from tutorgraph.ingest.learning_commons import load_learning_commons
from tutorgraph.models.records import SourceRecords
from tutorgraph_client.models.packet import ReasoningPacket

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "tests" / "data"
EEDI_DIR = DATA / "eedi"
LC_DIR = DATA / "learning-commons"
OPENSTAX_DIR = DATA / "openstax"
MODEL_NAME = "sentence-transformers/all-MiniLM-L6-v2"

# The held-out retrieval case of tests/data/eedi/SOURCE.md: kept out of the session index.
HELD_OUT_QUESTION = 163

# -- the data slices (cheap: no model, no chroma) ------------------------------------------


@pytest.fixture
def no_hub(monkeypatch: pytest.MonkeyPatch) -> None:
    """No model hub, as on these machines. huggingface_hub reads HF_HUB_OFFLINE once, at
    import, so the variable alone would leave a load trying the network (a minute of retries
    for the MS MARCO cross-encoder): its frozen flag is patched too."""
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setattr("huggingface_hub.constants.HF_HUB_OFFLINE", True)


@pytest.fixture(scope="session")
def eedi_questions() -> list[EediQuestion]:
    return read_eedi_questions(EEDI_DIR / "train.csv")


@pytest.fixture(scope="session")
def eedi_misconceptions() -> dict[int, str]:
    return read_misconceptions(EEDI_DIR / "misconception_mapping.csv")


def slice_records(
    questions: Sequence[EediQuestion], misconceptions: dict[int, str]
) -> SourceRecords:
    """Eedi (the given questions, all misconceptions and subjects) + Learning Commons."""
    records = eedi_records(
        questions, misconceptions, read_subjects(EEDI_DIR / "subject_metadata.csv")
    )
    records.extend(load_learning_commons(LC_DIR))
    return records


@pytest.fixture(scope="session")
def make_slice_records() -> Callable[[Sequence[EediQuestion], dict[int, str]], SourceRecords]:
    return slice_records


@pytest.fixture(scope="session")
def full_slice_records(
    eedi_questions: list[EediQuestion], eedi_misconceptions: dict[int, str]
) -> SourceRecords:
    """Every committed Eedi and Learning Commons record (no OpenStax: no tokenizer needed)."""
    return slice_records(eedi_questions, eedi_misconceptions)


@pytest.fixture(scope="session")
def slice_bundle(
    tmp_path_factory: pytest.TempPathFactory, full_slice_records: SourceRecords
) -> Path:
    """A bundle of `full_slice_records`, written once; tests that break it copy it first."""
    out = tmp_path_factory.mktemp("slice-bundle")
    write_bundle(full_slice_records, out)
    return out


@dataclass(frozen=True)
class LabelledAnswer:
    """A wrong answer Eedi labels with a misconception: its question, the query the
    benchmarks send for it (`eedi_query_text`) and the misconception's id."""

    question: EediQuestion
    query: str
    target: str


def labelled_answers(questions: Sequence[EediQuestion]) -> list[LabelledAnswer]:
    """Every labelled wrong answer of `questions`, in file order (each question's by letter)."""
    return [
        LabelledAnswer(q, eedi_query_text(q, letter), eedi_misconception_id(mid))
        for q in questions
        for letter, mid in sorted(q.misconception_ids.items())
        if mid is not None and letter != q.correct_answer
    ]


def misconception_ranking(packet: ReasoningPacket, target: str) -> list[str]:
    """The packet's misconception hits in order; a merged hit that holds `target` counts as
    it."""
    return [
        target if target in h.ids else h.id for h in packet.results if h.kind == "misconception"
    ]


# -- the real index (MiniLM + ChromaDB embedded), built once -----------------------------------


@pytest.fixture(scope="session")
def embedder():  # type: ignore[no-untyped-def]
    """The real MiniLM embedder the product uses by default (ONNX Runtime), weights loaded
    once from the offline package: indexes the CLI builds in the tests then match it."""
    from tutorgraph.embedding.onnx_embedder import OnnxEmbedder

    emb = OnnxEmbedder(MODEL_NAME)
    emb.load()
    return emb


OPENSTAX_ABSENT = (
    f"the OpenStax test slice ({OPENSTAX_DIR.relative_to(REPO)}) is absent: the session index "
    "holds no OpenStax documents"
)


@pytest.fixture(scope="session")
def openstax_records() -> SourceRecords | None:
    """The OpenStax slice chunked by MiniLM tokens.

    The slice is the one optional input here: None (with a warning naming it) only when its
    folder is absent, and the tests that need OpenStax skip on None. The MiniLM tokenizer is a
    dependency, not an option. Anything else (an import error, a loader error, a slice the
    loader cannot read) raises: a broken loader must not silently drop OpenStax from the
    session index.
    """
    if not OPENSTAX_DIR.is_dir():
        warnings.warn(OPENSTAX_ABSENT, pytest.PytestWarning, stacklevel=1)
        return None
    from tutorgraph.ingest.build import minilm_token_counter
    from tutorgraph.ingest.openstax import load_openstax

    records = load_openstax(OPENSTAX_DIR, count_tokens=minilm_token_counter(MODEL_NAME))
    assert records.documents, f"{OPENSTAX_DIR} is there, but the loader found no document in it"
    return records


@pytest.fixture(scope="session")
def index_records(
    eedi_questions: list[EediQuestion],
    eedi_misconceptions: dict[int, str],
    openstax_records: SourceRecords | None,
) -> SourceRecords:
    """What the session index holds: the slices WITHOUT held-out question 163."""
    train = [q for q in eedi_questions if q.question_id != HELD_OUT_QUESTION]
    records = slice_records(train, eedi_misconceptions)
    if openstax_records is not None:
        records.extend(openstax_records)
    return records


@pytest.fixture(scope="session")
def index_bundle(tmp_path_factory: pytest.TempPathFactory, index_records: SourceRecords) -> Path:
    out = tmp_path_factory.mktemp("index-bundle")
    write_bundle(index_records, out)
    return out


@pytest.fixture(scope="session")
def session_index(
    tmp_path_factory: pytest.TempPathFactory, index_bundle: Path, embedder
) -> tuple[Path, IngestReport]:  # type: ignore[no-untyped-def]
    """`index_bundle` ingested into a fresh index folder (real Chroma, real MiniLM)."""
    index_dir = tmp_path_factory.mktemp("index")
    report = asyncio.run(ingest_bundle(index_bundle, index_dir, embedder))
    assert not report.rejected, report.rejected[:3]
    return index_dir, report


@pytest.fixture(scope="session")
def opened_index(session_index: tuple[Path, IngestReport], embedder) -> Iterator[object]:  # type: ignore[no-untyped-def]
    from tutorgraph.index.local import LocalIndex

    index = LocalIndex.load(session_index[0], embedder=embedder.name)
    yield index
    asyncio.run(index.aclose())


def index_retriever(opened_index, embedder, *, rerank_depth: int = RERANK_DEPTH, **kw):  # type: ignore[no-untyped-def]
    """A retriever over the session index, with its concept linker and lessons (as the
    factory builds it); `kw` goes to `HybridRetriever` (the reranker)."""
    from tutorgraph.retrieval.retriever import HybridRetriever, RetrieverConfig

    kw.setdefault("linker", opened_index.linker)
    kw.setdefault("lessons", opened_index.lessons)
    kw.setdefault("item_vectors", opened_index.item_vectors)

    # A generous timeout: the 2 s default could degrade a packet on a busy 2-core runner.
    return HybridRetriever(
        embedder,
        opened_index.vector,
        opened_index.lexical,
        opened_index.graph,
        RetrieverConfig(source_timeout_s=60.0, rerank_depth=rerank_depth),
        **kw,
    )


@pytest.fixture(scope="session")
def retriever(opened_index, embedder):  # type: ignore[no-untyped-def]
    return index_retriever(opened_index, embedder)


@functools.cache
def minilm_int8_graph() -> Path:
    """The untrained MiniLM's graph quantised as `train-embedder` quantises its model's
    (exported once per test session)."""
    from tutorgraph.config import DEFAULT_EMBEDDING_MODEL
    from tutorgraph.embedding.embedder import resolve_model_path
    from tutorgraph.embedding.onnx_embedder import export_transformer
    from tutorgraph.training.onnx_export import quantize_int8

    folder = Path(tempfile.mkdtemp(prefix="tutorgraph-int8-"))
    atexit.register(shutil.rmtree, folder, True)
    fp32 = folder / "model.onnx"
    export_transformer(Path(resolve_model_path(DEFAULT_EMBEDDING_MODEL)), fp32)
    int8 = quantize_int8(fp32, folder / "model_qint8.onnx", per_channel=True)
    fp32.unlink()
    return int8


def encoder_output(folder: Path, left_out: dict[str, int] | None = None) -> Path:
    """A folder laid out as `train-embedder [--leave-out K/N]` writes it, whose weights are
    the untrained MiniLM (training is `test_embedder_training.py`'s concern)."""
    from tutorgraph.config import DEFAULT_EMBEDDING_MODEL
    from tutorgraph.embedding.embedder import resolve_model_path
    from tutorgraph.ranking.tuned import TUNED_GRAPH

    model = folder / "model"
    (model / TUNED_GRAPH).parent.mkdir(parents=True)
    for f in Path(resolve_model_path(DEFAULT_EMBEDDING_MODEL)).iterdir():
        (model / f.name).symlink_to(f)
    (model / TUNED_GRAPH).symlink_to(minilm_int8_graph())
    (folder / "training.json").write_text(json.dumps({"left_out_fold": left_out}))
    return folder


# -- running the real CLI ------------------------------------------------------------------


def cli_command() -> list[str]:
    script = Path(sys.executable).with_name("tutorgraph")
    if script.is_file():
        return [str(script)]
    return [sys.executable, "-c", "from tutorgraph.cli.app import main; main()"]


def cli_env(**extra: str) -> dict[str, str]:
    # No TUTORGRAPH_* settings from the caller's shell, and no terminal size: output is
    # what a pipe (CI, a log file) gets.
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith("TUTORGRAPH_") and k not in {"COLUMNS", "LINES"}
    }
    env.update(
        HF_HUB_OFFLINE="1",
        TOKENIZERS_PARALLELISM="false",
        # Generous: a degraded packet would make byte comparisons meaningless.
        TUTORGRAPH_SOURCE_TIMEOUT_S="60",
    )
    env.update(extra)
    return env


@pytest.fixture(scope="session")
def child_env() -> Callable[..., dict[str, str]]:
    """`child_env(**extra)`: the environment every subprocess of the suite gets."""
    return cli_env


@pytest.fixture(scope="session")
def cli_cwd(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where CLI subprocesses run, so that a default `.tutorgraph/` never lands in the repo."""
    return tmp_path_factory.mktemp("cli-cwd")


@pytest.fixture(scope="session")
def run_cli(cli_cwd: Path) -> Callable[..., subprocess.CompletedProcess[str]]:
    """Run `tutorgraph ARGS...` in a subprocess and wait for it."""

    def run(*args: str, timeout: float = 180, **env: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [*cli_command(), *args],
            cwd=cli_cwd,
            env=cli_env(**env),
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )

    return run


@pytest.fixture(scope="session")
def lc_bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The Learning Commons slice alone (35 records) as a bundle folder."""
    out = tmp_path_factory.mktemp("lc-bundle")
    write_bundle(load_learning_commons(LC_DIR), out)
    return out


@pytest.fixture(scope="session")
def lc_index(
    run_cli: Callable[..., subprocess.CompletedProcess[str]],
    lc_bundle: Path,
    tmp_path_factory: pytest.TempPathFactory,
) -> Path:
    """`lc_bundle` ingested by the CLI (seconds): a small index for the tests of `tutorgraph
    serve` itself. Shared by the session: copy it before anything writes to it."""
    index_dir = tmp_path_factory.mktemp("lc-index") / "index"
    proc = run_cli("ingest", str(lc_bundle), "--index-dir", str(index_dir))
    assert proc.returncode == 0, proc.stderr
    return index_dir


@pytest.fixture(scope="session")
def start_cli(cli_cwd: Path) -> Callable[..., subprocess.Popen[str]]:
    """Start `tutorgraph ARGS...` without waiting, so that independent runs overlap."""

    def start(*args: str, **env: str) -> subprocess.Popen[str]:
        return subprocess.Popen(
            [*cli_command(), *args],
            cwd=cli_cwd,
            env=cli_env(**env),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )

    return start


@pytest.fixture
def copy_bundle(tmp_path: Path) -> Callable[[Path], Path]:
    def copy(src: Path) -> Path:
        dst = tmp_path / f"bundle-{src.name}"
        shutil.copytree(src, dst)
        return dst

    return copy


@pytest.fixture
def cli_with_loaded_model(monkeypatch: pytest.MonkeyPatch, embedder):  # type: ignore[no-untyped-def]
    """A CliRunner whose `open_retriever` reuses the session's MiniLM (saves a 5 s reload)."""
    from typer.testing import CliRunner

    from tutorgraph.cli import _common

    # Patch the name where `load_models` (which `open_retriever` calls) looks it up.
    wiring = sys.modules[_common.open_retriever.__module__]
    monkeypatch.setattr(
        sys.modules[wiring.load_models.__module__],
        "SentenceTransformerEmbedder",
        lambda *a, **k: embedder,
    )
    for key in ("TUTORGRAPH_INDEX_DIR", "TUTORGRAPH_EMBEDDING_MODEL"):
        monkeypatch.delenv(key, raising=False)
    return CliRunner()


# -- a tiny cross-encoder, built here from test text (no download) -------------------------


def build_tiny_cross_encoder(out: Path, texts: Sequence[str], *, seed: int = 0) -> Path:
    """A 2-layer BERT sequence classifier (one logit) with a WordPiece vocabulary learnt
    from `texts`: small enough to build, train and export in seconds, real enough that the
    sentence-transformers, ONNX and training paths all run on it."""
    import torch
    from tokenizers import BertWordPieceTokenizer
    from transformers import BertConfig, BertForSequenceClassification, BertTokenizerFast

    out.mkdir(parents=True, exist_ok=True)
    wordpiece = BertWordPieceTokenizer(lowercase=True)
    wordpiece.train_from_iterator(list(texts), vocab_size=600, min_frequency=1)
    wordpiece.save_model(str(out))
    tokenizer = BertTokenizerFast(vocab_file=str(out / "vocab.txt"), do_lower_case=True)
    tokenizer.save_pretrained(str(out))
    torch.manual_seed(seed)
    config = BertConfig(
        vocab_size=tokenizer.vocab_size,
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=64,
        max_position_embeddings=512,
        num_labels=1,
    )
    BertForSequenceClassification(config).save_pretrained(str(out))
    return out


@pytest.fixture(scope="session")
def tiny_cross_encoder(
    tmp_path_factory: pytest.TempPathFactory,
    eedi_questions: list[EediQuestion],
    eedi_misconceptions: dict[int, str],
) -> Path:
    """The tiny model in HF format plus its fp32 and int8 ONNX graphs."""
    from tutorgraph.ingest.eedi import eedi_query_text
    from tutorgraph.training.onnx_export import export_onnx

    texts = list(eedi_misconceptions.values()) + [
        eedi_query_text(q, x) for q in eedi_questions for x in q.answers if x != q.correct_answer
    ]
    path = build_tiny_cross_encoder(tmp_path_factory.mktemp("tiny-ce"), texts)
    export_onnx(path)
    return path

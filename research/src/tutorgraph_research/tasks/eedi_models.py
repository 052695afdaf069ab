"""The models the Eedi benchmark trains on each fold's training questions only: a domain
reranker (mined with the fold's own retriever, fine-tuned, exported to ONNX) and the
learned ranker.

With a `work` folder a finished fold reranker is kept (`<work>/eedi-fold-<k>/reranker`,
with a fingerprint of everything it was trained on), so a resumed run reuses it.

>>> trainer = FoldTrainer(misconceptions, subjects, embedder.name, TrainingConfig())
>>> model_dir = await trainer.reranker(retriever, graph, fold)  # doctest: +SKIP
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from tutorgraph.config import DEFAULT_EMBEDDING_MODEL
from tutorgraph.embedding.embedder import Embedder
from tutorgraph.embedding.reranker import ONNX_FILES
from tutorgraph.ingest.eedi import EediQuestion, EediSubject
from tutorgraph.ranking.model import LearnedRanker
from tutorgraph.retrieval.retriever import HybridRetriever
from tutorgraph.stores.protocols import GraphStore
from tutorgraph.training.cross_encoder import TrainingConfig
from tutorgraph.training.crossfit_encoders import TunedEncoders
from tutorgraph.training.eedi import eedi_training_groups, fit_and_export, train_eedi_ranker
from tutorgraph.training.ranker import RankerTrainingConfig

__all__ = ["FoldTrainer"]

# Written into a finished fold reranker folder: what it was trained on, and how.
_FOLD_RECORD = "fold.json"


# What a fold's training record keeps of each ranker it trained.
_RANKER_FIGURES = (
    "queries",
    "pool_recall",
    "inner_adapter_map@25",
    "combiner",
    "combiners_inner_map@25",
)


@dataclass
class FoldTrainer:
    """Trains the fold models of one run and records what it trained (`trained`, `rankers`)."""

    misconceptions: dict[int, str]
    subjects: list[EediSubject]
    embedder_name: str
    training: TrainingConfig
    # What the fold rerankers are fine-tuned from (tests pass a tiny local model).
    reranker_base: str = DEFAULT_EMBEDDING_MODEL
    # Where fold rerankers persist between runs; None: a temporary folder per run.
    work: Path | None = None
    # Train fold models on at most this many training questions (quick runs).
    train_limit: int | None = None
    say: Callable[[str], None] = lambda _line: None
    # How the fold rankers are trained (None: the defaults).
    ranker_training: RankerTrainingConfig | None = None
    trained: list[dict[str, Any]] = field(default_factory=list)
    rankers: list[dict[str, Any]] = field(default_factory=list)
    _scratch: Path | None = None

    def cleanup(self) -> None:
        """Remove the temporary models (a `work` folder is kept)."""
        if self._scratch is not None:
            shutil.rmtree(self._scratch, ignore_errors=True)
            self._scratch = None

    async def ranker(
        self,
        graph: GraphStore,
        embedder: Embedder,
        key: int,
        label: str,
        train: list[EediQuestion],
        tuned: TunedEncoders | None = None,
    ) -> LearnedRanker:
        """The learned ranker trained on the fold's training questions only (reading the
        `tuned` encoders' cross-fitted scores when given)."""
        self.say(f"{label}: training the learned ranker")
        started = time.perf_counter()
        ranker = await train_eedi_ranker(
            self._limited(train),
            self.misconceptions,
            graph,
            embedder,
            config=self.ranker_training,
            tuned=tuned,
            progress=lambda line: self.say(f"{label}: ranker: {line}"),
        )
        self.rankers.append(
            {
                "fold": key + 1,
                "train_seconds": round(time.perf_counter() - started, 1),
                "tuned_model": tuned.model if tuned is not None else None,
                **{k: ranker.info[k] for k in _RANKER_FIGURES},
                **(
                    {f"text_only_{k}": ranker.text_only.info[k] for k in _RANKER_FIGURES}
                    if ranker.text_only is not None
                    else {}
                ),
            }
        )
        return ranker

    async def reranker(
        self,
        retriever: HybridRetriever,
        graph: GraphStore,
        key: int,
        label: str,
        train: list[EediQuestion],
    ) -> Path:
        """The fold's trained reranker: reused from the work folder when a finished model
        with the same inputs is there, else mined, trained and (atomically) saved."""
        questions = self._limited(train)
        if self.work is None:
            if self._scratch is None:
                self._scratch = Path(tempfile.mkdtemp(prefix="tutorgraph-rerankers-"))
            model_dir = self._scratch / f"fold-{key}"
            self.trained.append(
                await self._train(retriever, graph, key, label, questions, model_dir)
            )
            return model_dir
        final = self.work / f"eedi-fold-{key}" / "reranker"
        fingerprint = self._fingerprint(questions)
        done = final / _FOLD_RECORD
        if done.is_file():
            info = json.loads(done.read_text(encoding="utf-8"))
            if info.get("fingerprint") == fingerprint:
                self.say(f"{label}: reusing the reranker in {final}")
                self.trained.append({**info["info"], "reused": True})
                return final
        # Train beside the final folder and rename it into place: a killed run leaves only
        # a partial folder, never one that looks finished.
        partial = final.with_name(f"reranker.partial-{os.getpid()}")
        for old in final.parent.glob("reranker.partial-*"):
            shutil.rmtree(old, ignore_errors=True)
        info = await self._train(retriever, graph, key, label, questions, partial)
        record = {"fingerprint": fingerprint, "info": info}
        (partial / _FOLD_RECORD).write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
        if final.exists():
            shutil.rmtree(final)
        partial.rename(final)
        self.trained.append(info)
        return final

    def _limited(self, questions: list[EediQuestion]) -> list[EediQuestion]:
        """At most `train_limit` of the questions, spread evenly (quick runs)."""
        if self.train_limit is None or len(questions) <= self.train_limit:
            return questions
        step = len(questions) / self.train_limit
        return [questions[int(i * step)] for i in range(self.train_limit)]

    def _fingerprint(self, questions: Sequence[EediQuestion]) -> str:
        """A hash of everything a fold reranker depends on (a changed input retrains it)."""
        h = hashlib.sha256()
        h.update(repr(list(questions)).encode())
        h.update(repr(sorted(self.misconceptions.items())).encode())
        h.update(repr(sorted(self.subjects, key=lambda s: s.subject_id)).encode())
        h.update(json.dumps(asdict(self.training), sort_keys=True).encode())
        h.update(f"{self.reranker_base}|{self.embedder_name}".encode())
        return h.hexdigest()

    async def _train(
        self,
        retriever: HybridRetriever,
        graph: GraphStore,
        key: int,
        label: str,
        questions: list[EediQuestion],
        model_dir: Path,
    ) -> dict[str, Any]:
        """Mine and train on the fold's training questions; returns what the run records."""
        groups = await eedi_training_groups(
            retriever,
            graph,
            questions,
            self.misconceptions,
            progress=lambda d, t: (
                self.say(f"{label}: mining negatives {d}/{t}") if d % 100 == 0 else None
            ),
        )
        result = await fit_and_export(
            groups,
            model_dir,
            self.training,
            base_model=self.reranker_base,
            progress=lambda s, t, loss: self.say(
                f"{label}: training step {s}/{t}, loss {loss:.3f}"
            ),
            # The benchmark measures what was learnt, gates passed or not (recorded below).
            enforce_gates=False,
        )
        sizes = {b: (model_dir / f).stat().st_size for b, f in ONNX_FILES.items()}
        return {
            "fold": key + 1,
            "groups": len(groups),
            "steps": result.steps,
            "train_seconds": round(result.seconds, 1),
            "final_loss": round(result.final_loss, 4),
            "gates": result.gates.to_json() if result.gates else None,
            "device": result.device,
            "onnx_bytes": sizes,
        }

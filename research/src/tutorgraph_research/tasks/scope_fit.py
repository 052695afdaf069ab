"""Fit the scope model (`tutorgraph.confidence.scope`) on judged messages (issue 47, item 5).

Rows, each run through the real pipeline so that the signals are the ones served:

* in scope or not: the calibration set ``data/calibration/scope_messages.jsonl`` (written for
  this: greetings, chit-chat, other subjects, keyboard mash, other languages, maths beyond
  K-12, and school maths in students' words), the development third of the packet messages,
  and short texts of the bundle's own exercises, questions and lessons (maths by
  construction);
* the slot confidences: the development packet messages only, labelled by
  `tasks.tutoring.score_packet` (standard@1, teach@10, misconception@10).

The held-out third of the packet messages is never read. The in-scope probability a slot
model sees is the out-of-fold one, so that it is no more sure of itself than at serving.
The flag's threshold is the highest out-of-fold probability that flags at most
`MAX_FALSE_FLAGS` of the student-written maths messages.

>>> model, report = await fit_scope(retriever, calibration, messages, documents)  # doctest: +SKIP
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from tutorgraph.confidence.logistic import Logistic
from tutorgraph.confidence.scope import ScopeModel, ScopeSignals
from tutorgraph.retrieval.packet import build_packet
from tutorgraph.retrieval.pipeline import run_stages
from tutorgraph.retrieval.retriever import HybridRetriever
from tutorgraph.retrieval.scope_signals import scope_signals
from tutorgraph.retrieval.state import RequestState
from tutorgraph_client.models.request import RetrievalRequest
from tutorgraph_research.tasks.packet_messages import OFF_TOPIC, PacketMessage
from tutorgraph_research.tasks.tutoring import request_for, score_packet

__all__ = [
    "MAX_FALSE_FLAGS",
    "ScopeExample",
    "fit_scope",
    "load_calibration",
    "sample_documents",
]

MAX_FALSE_FLAGS = 0.01
FOLDS = 5
L2_GRID = (0.1, 0.3, 1.0, 3.0, 10.0, 100.0)
SLOT_L2 = 1.0
_SEED = 47


@dataclass(frozen=True)
class ScopeExample:
    """One message for the in-scope model: its text, 1 for maths, and whether a student
    wrote it (the false-flag budget counts those)."""

    text: str
    in_scope: int
    student: bool
    source: str


def load_calibration(path: Path) -> list[ScopeExample]:
    """The calibration set: `{"id", "text", "label": "math" | "off_topic", "tags"}` lines."""
    out = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        row = json.loads(line)
        if row.get("label") not in ("math", "off_topic") or not str(row.get("text", "")).strip():
            raise ValueError(f"{path}:{n}: needs a text and a label of math or off_topic")
        out.append(ScopeExample(row["text"], int(row["label"] == "math"), True, "calibration"))
    return out


def sample_documents(path: Path, n: int, *, max_chars: int = 300) -> list[ScopeExample]:
    """`n` short texts of the bundle's documents (a fixed seed), as maths examples."""
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    short = [r["text"] for r in rows if 0 < len(r["text"]) <= max_chars]
    random.Random(_SEED).shuffle(short)
    return [ScopeExample(t, 1, False, "bundle") for t in short[:n]]


async def _signals(retriever: HybridRetriever, request: Any) -> tuple[ScopeSignals, RequestState]:
    state = await run_stages(retriever.stages, RequestState(request))
    return await scope_signals(state, retriever.embedder), state


def _folds(n: int) -> np.ndarray:
    return np.random.default_rng(_SEED).permutation(n) % FOLDS


def _out_of_fold(x: np.ndarray, y: np.ndarray, l2: float) -> np.ndarray:
    folds, out = _folds(len(y)), np.zeros(len(y))
    for f in range(FOLDS):
        train, test = folds != f, folds == f
        out[test] = Logistic.fit(x[train], y[train], l2=l2).probabilities(x[test])
    return out


def _log_loss(p: np.ndarray, y: np.ndarray) -> float:
    p = np.clip(p, 1e-6, 1 - 1e-6)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def _threshold(p: np.ndarray, y: np.ndarray, student: np.ndarray) -> float:
    """The highest threshold whose flags (p < t) take at most `MAX_FALSE_FLAGS` of the
    student-written maths messages."""
    maths = np.sort(p[(y == 1) & student])
    allowed = int(np.floor(MAX_FALSE_FLAGS * len(maths)))
    return round(float(maths[allowed]), 4) if len(maths) else 0.5


async def fit_scope(
    retriever: HybridRetriever,
    embedder: str,
    examples: Sequence[ScopeExample],
    messages: Sequence[PacketMessage],
    *,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[ScopeModel, dict[str, Any]]:
    """Fit the four models; the report holds the out-of-fold figures they were chosen by."""
    dev = [m for m in messages if m.split == "dev"]
    total, done = len(examples) + len(dev), 0
    rows: list[ScopeSignals] = []
    labels: list[int] = []
    students: list[bool] = []
    for ex in examples:
        signals, _ = await _signals(retriever, RetrievalRequest(query=ex.text[:2000]))
        rows.append(signals)
        labels.append(ex.in_scope)
        students.append(ex.student)
        done += 1
        if progress:
            progress(done, total)
    dev_parts: list[dict[str, float]] = []
    for m in dev:
        signals, state = await _signals(retriever, request_for(m))
        rows.append(signals)
        labels.append(int(m.kind != OFF_TOPIC))
        students.append(True)
        dev_parts.append(score_packet(m, build_packet(state)).parts)
        done += 1
        if progress:
            progress(done, total)
    x = np.stack([s.scope_row() for s in rows])
    y = np.asarray(labels, dtype=np.float64)
    student = np.asarray(students)
    losses = {l2: _log_loss(_out_of_fold(x, y, l2), y) for l2 in L2_GRID}
    l2 = min(losses, key=lambda k: losses[k])
    oof = _out_of_fold(x, y, l2)
    threshold = _threshold(oof, y, student)
    scope = Logistic.fit(x, y, l2=l2)

    dev_rows = rows[len(examples) :]
    dev_in = oof[len(examples) :]

    def slot(name: str, row: Callable[[ScopeSignals, float], list[float]]) -> Logistic | None:
        keep = [i for i, p in enumerate(dev_parts) if name in p or name != "misconception@10"]
        xs = np.array([row(dev_rows[i], float(dev_in[i])) for i in keep])
        ys = np.array([dev_parts[i].get(name, 0.0) for i in keep])
        if not 0 < ys.sum() < len(ys):
            return None
        return Logistic.fit(xs, ys, l2=SLOT_L2)

    concept = slot("standard@1", ScopeSignals.concept_row)
    teach = slot("teach@10", ScopeSignals.teach_row)
    misconceptions = slot("misconception@10", ScopeSignals.misconception_row)
    if concept is None or teach is None:
        raise ValueError("the development messages need both outcomes of standard@1 and teach@10")
    flagged = oof < threshold
    maths = (y == 1) & student
    report = {
        "rows": {"in_scope": int(y.sum()), "off_topic": int(len(y) - y.sum()), "dev": len(dev)},
        "l2": l2,
        "out_of_fold_log_loss": {str(k): round(v, 4) for k, v in losses.items()},
        "threshold": threshold,
        "out_of_fold_recall": round(float(flagged[y == 0].mean()), 4),
        "out_of_fold_false_flags": round(float(flagged[maths].mean()), 4),
    }
    model = ScopeModel(
        embedder=embedder,
        scope=scope,
        threshold=threshold,
        concept=concept,
        teach=teach,
        misconceptions=misconceptions,
        info={"name": "tutorgraph/scope", **report},
    )
    return model, report

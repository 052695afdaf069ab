"""MaE: out-of-domain misconception diagnosis.

MaE (Otero, Druga and Lan, "A Benchmark for Math Misconceptions: Bridging Gaps in Middle
School Algebra with AI-Supported Instruction", arXiv:2412.03765; github.com/creature-ai/
math-misconceptions, MIT License) gives 55 algebra misconceptions (``MaE01`` ... ``MaE55``),
each with 4 examples: a question, a student's incorrect answer, the correct answer, a topic
and the research source. ``data.json`` is a list of flat objects with those fields (plus image
names and an ``Explanation`` of the error, which names the misconception and so never
reaches a query).

The index holds the 55 MaE misconceptions (``mae:misconception:MaE01``) among the 2,587 Eedi
misconceptions as distractors, and nothing else: no concepts link them, so the graph source
has nothing to traverse here. Each example is a query written as the Eedi benchmark writes
one (question, correct answer, student answer); its target is its misconception. Nothing is
trained on MaE, so there are no folds (fold 0). Metrics: MAP@25, Recall@1, Recall@25 over the
misconception hits in packet order.

>>> examples = read_mae(Path("../shared/data/mae/data.json"))  # doctest: +SKIP
>>> len(examples), len({e.misconception_id for e in examples})  # doctest: +SKIP
(220, 55)
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tutorgraph.ingest.eedi import LICENSE as EEDI_LICENSE
from tutorgraph.ingest.eedi import SOURCE as EEDI_SOURCE
from tutorgraph.ingest.eedi import eedi_misconception_id, read_misconceptions
from tutorgraph.models.records import SourceRecords
from tutorgraph.ranking.metrics import average_precision_at_k, recall_at_k
from tutorgraph_client.models.curriculum import Misconception
from tutorgraph_client.models.packet import ReasoningPacket
from tutorgraph_research.harness.folds import (
    EvalItem,
    Fold,
    eval_item,
    stable_sample,
)
from tutorgraph_research.harness.runner import FoldTask

__all__ = [
    "MAE_LICENSE",
    "MAE_METRICS",
    "MAE_SOURCE",
    "MaeExample",
    "MaeTask",
    "mae_misconception_id",
    "mae_query_text",
    "mae_records",
    "mae_scores",
    "read_mae",
]

MAE_SOURCE = "mae"
MAE_LICENSE = "MIT"
MAE_METRICS: tuple[str, ...] = ("map@25", "recall@1", "recall@25")
K = 25
QUICK_ITEMS = 20
_FIELDS = {
    "Misconception": str,
    "Misconception ID": str,
    "Topic": str,
    "Example Number": int,
    "Question": str,
    "Incorrect Answer": str,
    "Correct Answer": str,
    "Source": str,
}


@dataclass(frozen=True)
class MaeExample:
    """One MaE example: a misconception shown by a question and a student's wrong answer."""

    misconception_id: str
    misconception: str
    topic: str
    example: int
    question: str
    incorrect_answer: str
    correct_answer: str
    source: str

    @property
    def item_id(self) -> str:
        """A stable id, e.g. ``MaE01#1``."""
        return f"{self.misconception_id}#{self.example}"


def read_mae(path: Path) -> list[MaeExample]:
    """Read MaE's ``data.json``, in file order. ValueError names the entry that is malformed,
    a repeated (misconception, example number), or a misconception given two texts.

    >>> read_mae(Path("tests/data/mae/data.json"))[0].item_id  # doctest: +SKIP
    'MaE01#1'
    """
    try:
        rows = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ValueError(f"{path}: not a JSON file: {exc}") from exc
    if not isinstance(rows, list):
        raise ValueError(f"{path}: expected a JSON list of examples")
    out: list[MaeExample] = []
    texts: dict[str, str] = {}
    seen: set[tuple[str, int]] = set()
    for n, row in enumerate(rows):
        where = f"{path}: entry {n}"
        if not isinstance(row, dict):
            raise ValueError(f"{where}: expected an object")
        for key, kind in _FIELDS.items():
            if not isinstance(row.get(key), kind) or isinstance(row.get(key), bool):
                raise ValueError(f"{where}: {key!r} missing or not a {kind.__name__}")
        ex = MaeExample(
            misconception_id=row["Misconception ID"].strip(),
            misconception=" ".join(row["Misconception"].split()),
            topic=row["Topic"].strip(),
            example=row["Example Number"],
            question=row["Question"].strip(),
            incorrect_answer=row["Incorrect Answer"].strip(),
            correct_answer=row["Correct Answer"].strip(),
            source=" ".join(row["Source"].split()),
        )
        if not (ex.misconception_id and ex.misconception and ex.question and ex.incorrect_answer):
            raise ValueError(f"{where}: empty misconception, question or incorrect answer")
        if (ex.misconception_id, ex.example) in seen:
            raise ValueError(f"{where}: {ex.item_id} appears twice")
        seen.add((ex.misconception_id, ex.example))
        if texts.setdefault(ex.misconception_id, ex.misconception) != ex.misconception:
            raise ValueError(f"{where}: {ex.misconception_id} has two different texts")
        out.append(ex)
    return out


def mae_misconception_id(mid: str) -> str:
    """The curriculum id of an MaE misconception, e.g. ``mae:misconception:MaE01``."""
    return f"mae:misconception:{mid}"


def _one_line(text: str) -> str:
    return " ".join(line.strip() for line in text.split("\n") if line.strip())


def mae_query_text(ex: MaeExample) -> str:
    """The query, written as the Eedi benchmark writes one (`eedi_query_text`).

    >>> ex = MaeExample("MaE01", "m", "t", 1, "What part is shaded?", "1/3", "1/4", "s")
    >>> print(mae_query_text(ex))
    What part is shaded?
    Correct answer: 1/4
    Student answer: 1/3
    """
    lines = [ex.question]
    if ex.correct_answer:
        lines.append(f"Correct answer: {_one_line(ex.correct_answer)}")
    lines.append(f"Student answer: {_one_line(ex.incorrect_answer)}")
    return "\n".join(lines)


def mae_records(
    examples: Sequence[MaeExample], eedi_misconceptions: dict[int, str]
) -> SourceRecords:
    """The index: every MaE misconception and every Eedi one, no concepts, no documents."""
    mae = {ex.misconception_id: ex.misconception for ex in examples}
    records = [
        Misconception(
            id=mae_misconception_id(mid), text=text, source=MAE_SOURCE, license=MAE_LICENSE
        )
        for mid, text in sorted(mae.items())
    ]
    records += [
        Misconception(
            id=eedi_misconception_id(mid), text=text, source=EEDI_SOURCE, license=EEDI_LICENSE
        )
        for mid, text in sorted(eedi_misconceptions.items())
    ]
    return SourceRecords(misconceptions=records)


def _rank(packet: ReasoningPacket, item: EvalItem) -> list[str]:
    # Misconception hits in packet order; a merged hit (same text) counts if it holds the target.
    (target,) = item.relevant
    return [
        target if target in hit.ids else hit.id
        for hit in packet.results
        if hit.kind == "misconception"
    ]


def mae_scores(ranking: list[str], item: EvalItem) -> dict[str, float]:
    """MAP@25, Recall@1 and Recall@25 of one ranking.

    >>> mae_scores(["m2", "m1"], eval_item("i", "q", ["m1"]))
    {'map@25': 0.5, 'recall@1': 0.0, 'recall@25': 1.0}
    """
    relevant = set(item.relevant)
    return {
        "map@25": average_precision_at_k(ranking, relevant, K),
        "recall@1": recall_at_k(ranking, relevant, 1),
        "recall@25": recall_at_k(ranking, relevant, K),
    }


class MaeTask(FoldTask):
    """MaE examples -> their misconception, among the Eedi misconceptions; fold 0 only."""

    name = "mae"
    metrics = MAE_METRICS
    rank = staticmethod(_rank)
    score = staticmethod(mae_scores)

    def __init__(
        self,
        mae: Path,
        eedi_misconceptions: Path,
        *,
        quick: bool = False,
        work: Path | None = None,
        limit: int | None = None,
    ) -> None:
        """`mae`: MaE's ``data.json``; `eedi_misconceptions`: ``misconception_mapping.csv``.
        `limit` takes a stable sample of the examples (quick runs: 20)."""
        self.mae, self.eedi_misconceptions = mae, eedi_misconceptions
        self.limit = limit if limit is not None else (QUICK_ITEMS if quick else None)
        self.work = work
        self.stats: dict[str, Any] = {}

    def build_folds(self) -> list[Fold]:
        """The one fold: every MaE and Eedi misconception; the (sampled) examples."""
        examples = read_mae(self.mae)
        eedi = read_misconceptions(self.eedi_misconceptions)
        records = mae_records(examples, eedi)
        chosen = stable_sample(examples, self.limit, key=lambda e: e.item_id)
        items = [
            eval_item(e.item_id, mae_query_text(e), [mae_misconception_id(e.misconception_id)])
            for e in chosen
        ]
        self.stats = {
            "items": len(items),
            "misconceptions": {
                "mae": len({e.misconception_id for e in examples}),
                "eedi": len(eedi),
            },
        }
        return [Fold.of(0, records, items)]

"""The fixed query sets the latency harness times, and their loaders.

The fixed query set of the paper is `tests/data/routing_queries.jsonl` (110 real queries of
all four query types, drawn mechanically from Eedi, Learning Commons and OpenStax or written
like a student, labelled by hand; see `tests/data/ROUTING_LABELS.md`); its 30-query holdout
file warms the models up, so no timed query is ever answered from a cache. The diagnosis is
timed on student messages (`DIAGNOSIS_QUERIES`).

>>> queries = load_query_set(limit=20)  # doctest: +SKIP
>>> warm = [q.query for q in load_query_set(WARMUP_QUERIES)][:10]  # doctest: +SKIP
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from tutorgraph.ingest.eedi import eedi_question_id

__all__ = [
    "DIAGNOSIS_QUERIES",
    "LATENCY_QUERIES",
    "REPO_ROOT",
    "WARMUP_QUERIES",
    "LatencyQuery",
    "load_diagnosis_queries",
    "load_query_set",
    "question_constructs",
]

REPO_ROOT = Path(__file__).resolve().parents[4]
# The fixed query set (timed) and its warm-up set; see the module docstring.
LATENCY_QUERIES = REPO_ROOT / "tests" / "data" / "routing_queries.jsonl"
WARMUP_QUERIES = REPO_ROOT / "tests" / "data" / "routing_queries_holdout.jsonl"
# Student messages with a labelled wrong answer (`tasks.messages`): the fixed set above
# states an answer the bug rules can check only once, so the diagnosis is timed on these.
DIAGNOSIS_QUERIES = REPO_ROOT / "data" / "benchmarks" / "student_messages.jsonl"


@dataclass(frozen=True)
class LatencyQuery:
    """One query of the fixed set, with its hand label (`query_type`) and where it came from."""

    query: str
    query_type: str
    origin: str
    # Sent as the request's context (a student message: its question's construct), so the
    # learned ranker, which scores requests with context only, runs on it.
    concept_ids: tuple[str, ...] = ()


def load_query_set(path: Path = LATENCY_QUERIES, *, limit: int | None = None) -> list[LatencyQuery]:
    """The queries of a JSON Lines file (`query`, `query_type`, `origin`), in file order.

    `limit` takes an even spread of that many (quick runs keep every query type).

    >>> len(load_query_set(limit=20))  # doctest: +SKIP
    20
    """
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    out = [LatencyQuery(r["query"], r.get("query_type", ""), r.get("origin", "")) for r in rows]
    return _spread(out, limit)


def load_diagnosis_queries(
    path: Path = DIAGNOSIS_QUERIES,
    *,
    limit: int | None = None,
    constructs: Mapping[str, Sequence[str]] | None = None,
) -> list[LatencyQuery]:
    """The student messages of `path` as misconception queries (the text a tutoring app
    sends; the local refiner reads the stated answer from it), `limit` an even spread.
    `constructs` maps an Eedi question id (`eedi:question:<n>`) to the concept ids sent as
    the message's context, as an app that knows the problem would.

    >>> load_diagnosis_queries(limit=1)[0].origin  # doctest: +SKIP
    'eedi-message'
    """
    from tutorgraph_research.tasks.messages import read_student_messages

    messages = read_student_messages(path)
    known = constructs or {}
    return _spread(
        [
            LatencyQuery(
                m.message,
                "misconception",
                "eedi-message",
                tuple(known.get(eedi_question_id(m.question_id), ())),
            )
            for m in messages
        ],
        limit,
    )


def question_constructs(index_dir: Path) -> dict[str, list[str]]:
    """Each Eedi question's concept ids, from the catalogue of the index at `index_dir`.

    >>> question_constructs(Path(".tutorgraph"))["eedi:question:1"]  # doctest: +SKIP
    ['eedi:construct:856']
    """
    from tutorgraph.index.layout import IndexLayout, load_catalogue

    return {
        d.id: list(d.concept_ids)
        for d in load_catalogue(IndexLayout.live(index_dir)).documents
        if d.id.startswith("eedi:question:")
    }


def _spread(queries: list[LatencyQuery], limit: int | None) -> list[LatencyQuery]:
    """An even spread of `limit` of `queries` (all of them without a limit)."""
    if limit is None or limit >= len(queries):
        return queries
    step = len(queries) / limit
    return [queries[int(i * step)] for i in range(limit)]

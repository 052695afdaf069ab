"""What the OpenAPI schema says beyond the models' fields: the routes' examples, and
descriptions without doctest blocks.

The models' docstrings carry a small doctest each (the project's style for public API
docstrings), and pydantic and FastAPI copy docstrings into the schema, where `>>>` lines
mean nothing to an app developer. `install_openapi` strips every doctest block from every
description of the schema, once, when it is first built; the docstrings keep them.

The examples are built from the models themselves, so each one validates (Schemathesis
sends the request examples to the app, `tests/integration/test_api_fuzz.py`).

>>> strip_doctests("What a caller asks for.\\n\\n>>> RetrievalRequest(query='q').query\\n'q'")
'What a caller asks for.'
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

from fastapi import FastAPI
from pydantic import BaseModel

from tutorgraph_client.models.answer import AnswerRequest
from tutorgraph_client.models.api import (
    BreakerState,
    DependencyState,
    Health,
    IngestJobOut,
    IngestJobReport,
    Readiness,
)
from tutorgraph_client.models.packet import (
    TIMING_KEYS,
    AnswerCheck,
    DiagnosisFinding,
    GradeInfo,
    Hit,
    PacketSlots,
    ReasoningPacket,
    Slot,
    SlotHit,
)
from tutorgraph_client.models.request import RetrievalRequest

__all__ = [
    "ANSWER_EXAMPLES",
    "HEALTH_EXAMPLE",
    "INGEST_JOB_EXAMPLE",
    "METRICS_EXAMPLE",
    "PACKET_EXAMPLE",
    "READINESS_EXAMPLE",
    "RETRIEVE_EXAMPLES",
    "install_openapi",
    "strip_doctests",
]

_BLANK_RUNS = re.compile(r"\n{3,}")


def strip_doctests(text: str) -> str:
    """`text` without its doctest blocks: each runs from a `>>>` line to the next blank line
    (its `...` continuations and expected output included)."""
    kept: list[str] = []
    in_example = False
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith(">>>"):
            in_example = True
        elif not stripped:
            in_example = False
        if not in_example:
            kept.append(line)
    return _BLANK_RUNS.sub("\n\n", "\n".join(kept)).strip()


def _strip_descriptions(node: Any) -> None:
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "description" and isinstance(value, str):
                node[key] = strip_doctests(value)
            else:
                _strip_descriptions(value)
    elif isinstance(node, list):
        for value in node:
            _strip_descriptions(value)


def install_openapi(app: FastAPI) -> None:
    """Make `app.openapi()` (and so `/openapi.json`, `/docs`, `/redoc`) strip doctest blocks
    from every description of the schema FastAPI builds; built once, then cached."""
    build = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            schema = build()
            _strip_descriptions(schema)
            app.openapi_schema = schema
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]  # FastAPI's documented recipe


def _example(
    model: type[BaseModel], summary: str, description: str, value: dict[str, Any]
) -> dict[str, Any]:
    """An OpenAPI example object; `value` is validated here, so it cannot drift from `model`."""
    model.model_validate(value)
    return {"summary": summary, "description": description, "value": value}


_WRONG_ANSWER: dict[str, Any] = {
    "query": "I got 3 + 4 x 2 = 14",
    "problem": "3 + 4 x 2",
    "student_answer": "14",
    "correct_answer": "11",
}
_WORD_PROBLEM: dict[str, Any] = {
    "query": "Sam has 3 bags with 4 apples each. How many apples?",
    "grade": "3",
}
_LOCAL_CONTEXT: dict[str, Any] = {
    "query": "How do I compare 3/4 and 2/3?",
    "n_results": 5,
    "local_context": [
        {
            "id": "lesson-3",
            "title": "Comparing fractions",
            "text": "Compare fractions by writing them with a common denominator.",
        }
    ],
}

# `Body(openapi_examples=...)` of `POST /v1/retrieve`.
RETRIEVE_EXAMPLES: dict[str, Any] = {
    "stated_wrong_answer": _example(
        RetrievalRequest,
        "A stated wrong answer",
        "The app knows the problem and the student's answer: the diagnosis names the "
        "misconception that gives 14 (working left to right).",
        _WRONG_ANSWER,
    ),
    "word_problem": _example(
        RetrievalRequest,
        "A word problem, with the student's grade",
        "The grade is a hint for choosing the concepts, never a filter.",
        _WORD_PROBLEM,
    ),
    "with_local_context": _example(
        RetrievalRequest,
        "A question, with the lesson page the student is on",
        "Your own short documents are searched for this request only (hits `local:<id>`).",
        _LOCAL_CONTEXT,
    ),
}

# `Body(openapi_examples=...)` of `POST /v1/answer`.
ANSWER_EXAMPLES: dict[str, Any] = {
    "stated_wrong_answer": _example(
        AnswerRequest,
        "A stated wrong answer, as one JSON response",
        "`stream: false`: one AnswerResponse (the answer, its citations and the packet).",
        {**_WRONG_ANSWER, "stream": False},
    ),
    "word_problem": _example(
        AnswerRequest,
        "A word problem, streamed",
        "The default: Server-Sent Events `packet`, then `delta`s, then `done`.",
        _WORD_PROBLEM,
    ),
    "in_a_dialogue": _example(
        AnswerRequest,
        "A student's short turn in a dialogue, as one JSON response",
        "`conversation` holds the turns before this one, oldest first; the answer model is "
        "shown the latest of them, labelled, beside the context.",
        {
            "query": "is it 12?",
            "conversation": [
                {"role": "tutor", "text": "Let's practise adding. What is 7 + 6?"},
            ],
            "stream": False,
        },
    ),
}

_MISCONCEPTION = Hit(
    id="eedi:misconception:1507",
    ids=["eedi:misconception:1507"],
    kind="misconception",
    text="Carries out operations from left to right regardless of priority order",
    concept_ids=["eedi:construct:1104"],
    score=0.5,
    rank=1,
    found_by=["diagnosis", "lexical"],
    source_ranks={"lexical": 3},
    source_scores={"lexical": 7.41},
    fused_score=0.0163,
)

# A small packet: what `POST /v1/retrieve` answers to the stated wrong answer (abridged).
PACKET_EXAMPLE: dict[str, Any] = ReasoningPacket(
    query=_WRONG_ANSWER["query"],
    results=[_MISCONCEPTION],
    total_results=1,
    lexical_count=1,
    timings_ms={stage: 0.0 for stage in TIMING_KEYS} | {"total": 38.2},
    diagnosis=[
        DiagnosisFinding(
            misconception_id="eedi:misconception:1507",
            rule="order_left_to_right",
            reproduced_answer="14",
            explanation="14 is what you get by working from left to right, ignoring that × "
            "and ÷ come before + and -",
        )
    ],
    answer_check=AnswerCheck(
        problem="3 + 4 × 2", student_answer="14", correct=False, correct_answer="11"
    ),
    slots=PacketSlots(
        misconceptions=Slot(
            hits=[
                SlotHit.of(
                    _MISCONCEPTION,
                    score=0.85,
                    role="reproduces_answer",
                    confidence=0.85,
                )
            ],
            scale="slot",
            stated_answer=True,
        ),
        teach=Slot(
            empty_reason="no explanation or worked example of the linked standards or near "
            "the message"
        ),
        practice=Slot(
            empty_reason="no exercise or question of the linked standards or among the "
            "message's candidates"
        ),
    ),
    grade=GradeInfo(),
).model_dump(mode="json")

HEALTH_EXAMPLE: dict[str, Any] = Health().model_dump(mode="json")

READINESS_EXAMPLE: dict[str, Any] = Readiness(
    status="ready",
    generation="000003",
    dependencies={
        "index": DependencyState(state="ok", detail="generation 000003 (1234 concepts, ...)"),
        "embedder": DependencyState(state="ok", detail="sentence-transformers/all-MiniLM-L6-v2"),
        "vector": DependencyState(state="ok", latency_ms=2.1),
        "lexical": DependencyState(state="ok", latency_ms=0.4),
        "graph": DependencyState(
            state="ok", latency_ms=0.9, breaker=BreakerState(state="closed", failures=0)
        ),
        "reranker": DependencyState(
            state="off", detail="not configured (TUTORGRAPH_RERANKER_MODEL is empty)"
        ),
        "ranker": DependencyState(state="ok", detail="tutorgraph/eedi-ranker"),
        "refiner": DependencyState(state="ok", detail="local"),
        "answerer": DependencyState(
            state="off", detail="no answer model: no OpenAI key or base URL is configured"
        ),
    },
).model_dump(mode="json")

METRICS_EXAMPLE = (
    "# HELP tutorgraph_http_requests_total HTTP requests by method, route template and "
    "status code.\n"
    "# TYPE tutorgraph_http_requests_total counter\n"
    'tutorgraph_http_requests_total{method="POST",route="/v1/retrieve",status="200"} 42.0\n'
)

INGEST_JOB_EXAMPLE: dict[str, Any] = IngestJobOut(
    job_id="3f9c2a7be01d4c56",
    status="succeeded",
    prune=False,
    created_at=datetime(2025, 5, 1, 9, 30, tzinfo=UTC),
    started_at=datetime(2025, 5, 1, 9, 30, 1, tzinfo=UTC),
    finished_at=datetime(2025, 5, 1, 9, 31, 12, tzinfo=UTC),
    upload_bytes=3_145_728,
    report=IngestJobReport(
        added=120,
        updated=4,
        unchanged=9876,
        pruned=0,
        rejected=1,
        rejected_records=[
            "documents.jsonl:17: unknown concept_ids ['my:typo'] (in neither the "
            "bundle nor the index)"
        ],
        counts={"concepts": 1234, "misconceptions": 2587, "documents": 6179, "items": 10000},
        seconds=71.3,
    ),
    generation="000004",
).model_dump(mode="json")

"""The ReasoningPacket (design section 8a): its hits, in slots, and its reports.

The hits' models live in `models.hit` and the reports' (linked concepts, graph context, what
each stage did) in `models.packet_info`; this module re-exports every one of them, as it
always has.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from tutorgraph_client.models.conversation import DialogueInfo
from tutorgraph_client.models.grade import Grade
from tutorgraph_client.models.hit import (
    Conflict,
    Corroboration,
    Hit,
    HitKind,
    HitSource,
    NearDuplicate,
    SupersededCopy,
)
from tutorgraph_client.models.packet_info import (
    AnswerCheck,
    ChainStep,
    DiagnosisFinding,
    GradeInfo,
    GraphContext,
    LanguageInfo,
    LinkedConcept,
    RankerInfo,
    RerankerInfo,
    ScopeInfo,
)
from tutorgraph_client.models.refined_query import RefinedQuery
from tutorgraph_client.models.request import SourceName

__all__ = [
    "TIMING_KEYS",
    "AnswerCheck",
    "ChainStep",
    "Conflict",
    "Corroboration",
    "DiagnosisFinding",
    "DialogueInfo",
    "GradeInfo",
    "GraphContext",
    "Hit",
    "HitKind",
    "HitSource",
    "LanguageInfo",
    "LinkedConcept",
    "NearDuplicate",
    "PacketSlots",
    "RankerInfo",
    "ReasoningPacket",
    "RerankerInfo",
    "ScopeInfo",
    "Slot",
    "SlotHit",
    "SlotRole",
    "SlotScale",
    "SlotVia",
    "SupersededCopy",
    "teaching_first",
]


# The keys of a packet's `timings_ms`, in pipeline order: the stages and sources a tutoring
# app times (several pipeline stages report under one key, and some under `total` only); a
# part that did not run reports 0. (Called `STAGES` before issue 60.)
TIMING_KEYS = (
    "refine",
    "embed",
    "link",
    "vector",
    "lexical",
    "graph",
    "local",
    "merge",
    "fuse",
    "rerank",
    "rank",
    "diagnose",
    "lessons",
    "total",
)


SlotScale = Literal["slot", "cosine", "learned", "fused", "rerank", "none"]
SlotVia = Literal["standard", "message"]
SlotRole = Literal["reproduces_answer", "possible", "topic_error"]


class SlotHit(Hit):
    """A hit in a slot, with where it came from (`via`: the content of a standard the message
    was linked to, or the message's own nearest content), the standard, the grade it is
    written for, and for a misconception its own `role` and `confidence`. Its `score` is the
    one the slot ranked it by (the standard's probability, grade distance, similarity to the
    message, kind; for a stated answer's misconceptions, their confidence); its `rank` its
    place among the packet's `results` (0: not among them).

    >>> SlotHit(id="x", ids=["x"], kind="explanation", text="…", score=1.0, rank=0,
    ...         found_by=[], fused_score=0.0).via
    'message'
    """

    via: SlotVia = Field(
        default="message",
        description="standard: the content of a standard the message is linked to (its own "
        "lesson, examples, practice or misconceptions, or those aligned with it); message: "
        "the content nearest the message, when the standards have nothing better.",
    )
    standard: str | None = Field(
        default=None,
        description="The Common Core standard it came through (or belongs to), when one did.",
        examples=["ccss:2.NBT.B.5"],
    )
    grade: Grade | None = Field(
        default=None,
        description="The grade it is written for: its standard's, for content aligned to one "
        "by id; else the highest grade of the standards its concepts are aligned with; null "
        "when neither is known.",
    )
    role: SlotRole | None = Field(
        default=None,
        description="misconceptions only: reproduces_answer (the bug rules reproduce the "
        "student's stated answer with it), possible (a stated answer it does not reproduce; "
        "see `confidence`) or topic_error (no answer stated: a common error of the standard).",
    )
    confidence: float | None = Field(
        default=None,
        description="misconceptions only: its own calibrated probability of being the "
        "student's (reproduces_answer and possible); null for a topic's common errors.",
    )

    @classmethod
    def of(cls, hit: Hit, **fields: object) -> SlotHit:
        """`hit` as a slot's hit, with `fields` set (a copy)."""
        return cls(**{**hit.model_dump(), **fields})


class Slot(BaseModel):
    """One part of the packet a tutor needs (design 8a): its hits, best first, on one
    `scale` (`slot`: the slot's own score, `retrieval/slot_score.py`; `cosine`: the lessons
    search; `learned`: the misconception ranker's score; `fused`: the retrieval sources'
    fused score; `rerank`: the cross-encoder's; the generated practice that leads `practice`
    is not scored), a calibrated `confidence` where a model gives one, why it is empty when
    it is, and a `note` when what it holds is above the child's level because nothing else
    exists. For `misconceptions`, `stated_answer` says whether the student stated an answer;
    each hit's `role` says what it claims.

    >>> Slot(empty_reason="no lesson in the index").hits
    []
    """

    model_config = ConfigDict(extra="forbid")

    hits: list[SlotHit] = Field(
        default_factory=list,
        description="The slot's hits, best first, each saying where it came from (`via`).",
    )
    scale: SlotScale = Field(
        default="none",
        description="What the hits' `score`s are: slot (the slot's own score), cosine, "
        "learned, fused or rerank; none when the slot is empty or holds generated practice "
        "only (`generated` hits score 0).",
    )
    note: str | None = Field(
        default=None,
        description="Set when the slot holds content above the child's level because "
        "nothing else exists (a K-2 packet with negative numbers, algebra or graphs).",
    )

    @field_validator("hits", mode="before")
    @classmethod
    def _plain_hits(cls, hits: object) -> object:
        """A plain `Hit` is taken as a slot's hit with the defaults (`via: message`)."""
        if isinstance(hits, list):
            return [
                h.model_dump() if isinstance(h, Hit) and not isinstance(h, SlotHit) else h
                for h in hits
            ]
        return hits

    confidence: float | None = Field(
        default=None, description="A calibrated probability that the slot is right, if known."
    )
    empty_reason: str | None = Field(default=None, description="Why the slot is empty, when it is.")
    stated_answer: bool | None = Field(
        default=None,
        description="misconceptions only: true when the student stated an answer (each hit's "
        "`role` says whether it reproduces it), false when the hits are the topic's common "
        "errors.",
    )


class PacketSlots(BaseModel):
    """The packet by job: `concepts` (the ids of `ReasoningPacket.concepts` in the Common
    Core, with the confidence that the first is right), `teach` (explanations and worked
    examples), `misconceptions` and `practice` (exercises and questions; generated
    problems for the first standard lead it)."""

    model_config = ConfigDict(extra="forbid")

    concepts: list[str] = Field(
        default_factory=list,
        description="The Common Core ids of the packet's `concepts`, best first.",
    )
    concepts_confidence: float | None = Field(
        default=None, description="The calibrated probability that the first is right."
    )
    teach: Slot = Field(
        default_factory=Slot,
        description="Explanations and worked examples (the lessons): the linked standards' "
        "own first, then those aligned with them, then the message's nearest.",
    )
    misconceptions: Slot = Field(
        default_factory=Slot,
        description="For a stated answer, the misconceptions that reproduce it first, then "
        "those likely on their own score; else the linked standard's common errors, or none.",
    )
    practice: Slot = Field(
        default_factory=Slot,
        description="Exercises and questions: first, when the first linked Common Core "
        "standard has a generator (and fits the request's grade band), 3 to 5 problems made "
        "for the request (`generated: true`, with `answer` and `steps`; the student's "
        "problem's structure with new numbers where the standard has it); then the linked "
        "standards' own practice, then aligned, then the message's nearest.",
    )


class ReasoningPacket(BaseModel):
    """What a tutoring app gets back for a request.

    >>> p = ReasoningPacket(query="q", timings_ms={s: 0.0 for s in TIMING_KEYS})
    >>> p.degraded_sources, p.reranker.applied
    ([], False)
    """

    model_config = ConfigDict(extra="forbid")

    query: str = Field(description="The request's text.")
    refined_query: RefinedQuery | None = Field(
        default=None, description="How the message was read, or null without refinement."
    )
    results: list[Hit] = Field(
        default_factory=list,
        description="The merged hits, best first; for a stated answer, the misconceptions "
        "that explain it first.",
    )
    graph_context: GraphContext = Field(
        default_factory=GraphContext,
        description="The graph neighbourhood of the request: seed concepts, prerequisite "
        "paths, misconceptions.",
    )
    context: str = Field(
        default="",
        description="A prompt-ready text block within `max_context_tokens`: what the packet "
        "knows about the message (`## About this message`: the topic, the grade, the answer "
        "check, the diagnosis; lines that cite nothing), then the hits by kind, each line led by "
        "its `[id]`; on `no_match`, only that nothing matched and why.",
    )
    total_results: int = Field(default=0, description="Hits found, before the cut to n_results.")
    vector_count: int = Field(default=0, description="Hits the vector search found.")
    lexical_count: int = Field(default=0, description="Hits the word (BM25) search found.")
    graph_count: int = Field(default=0, description="Hits the graph search found.")
    timings_ms: dict[str, float] = Field(
        description="Milliseconds per stage (refine, embed, link, vector, lexical, graph, "
        "local, merge, fuse, rerank, rank, diagnose, lessons, total); 0 for stages that did "
        "not run."
    )
    degraded_sources: list[SourceName] = Field(
        default_factory=list,
        description="Sources that failed or timed out: the packet was made without them.",
    )
    degraded_reasons: dict[SourceName, str] = Field(
        default_factory=dict,
        description="Why each of `degraded_sources` is missing, as `<source> failed: <why>`: "
        "`vector failed: no answer within 2 s`, `graph failed: StoreError "
        "(ServiceUnavailable)`, or its circuit breaker is open (`graph failed: circuit breaker "
        "open after 3 failures in a row, ...; next probe in 8.2 s`: skipped at once).",
    )
    degraded_stages: dict[str, str] = Field(
        default_factory=dict,
        description="Parts of the pipeline that did not deliver all of their part, and why: "
        "an optional stage that failed (`<stage> failed: <why>`, e.g. `link failed: "
        "RuntimeError`: no concepts, so the graph was seeded without them; `rerank`, `rank`, "
        "`diagnose`, `lessons`, `scope`), the local context partly ranked by its words "
        "only (`local`), or the generated practice (`practice failed: <why>`: none made).",
    )
    reranker: RerankerInfo = Field(
        default_factory=RerankerInfo, description="Whether the cross-encoder ran."
    )
    ranker: RankerInfo = Field(
        default_factory=RankerInfo, description="Whether the learned final score ran."
    )
    diagnosis: list[DiagnosisFinding] = Field(
        default_factory=list,
        description="The misconceptions whose bug rules reproduce the student's answer "
        "(empty when the answer is right, or when no problem and answer could be read).",
    )
    answer_check: AnswerCheck | None = Field(
        default=None,
        description="The problem and answer the diagnosis read and whether the answer is "
        "right, or what the message did not say; null when it is not about an answer.",
    )
    conflicts: list[Conflict] = Field(
        default_factory=list,
        description="Hits that disagree (factual), and stale copies replaced by a newer "
        "version (temporal).",
    )
    concepts: list[LinkedConcept] = Field(
        default_factory=list,
        description="What the message is about, per taxonomy, best first: the request's "
        "concept_ids, then the concept linker's.",
    )
    lessons: list[Hit] = Field(
        default_factory=list,
        description="The explanations and worked examples the packet teaches with (the teach "
        "slot's hits, `score` their cosine with the message), searched apart from the results, "
        "best first (empty when the request asks for none).",
    )
    slots: PacketSlots = Field(
        default_factory=PacketSlots,
        description="The packet by job (concepts, teach, misconceptions, practice), each slot "
        "on its own scale.",
    )
    confidence: float | None = Field(
        default=None,
        description="The calibrated probability that the first Common Core concept is right; "
        "null when the scope model is off.",
    )
    no_match: bool = Field(
        default=False,
        description='True when an app should say "I\'m not sure" (see no_match_reason); the '
        "hits stay.",
    )
    no_match_reason: str | None = Field(
        default=None,
        description="not_english: ... (the message reads as another language, maths or "
        "not: only English is supported), off_topic: ... (not school math the curriculum "
        "covers), no_content: ... (nothing in the index matched) or chit_chat: ... (in a "
        "dialogue, a social turn, a request to stop or an off-topic remark; `concepts` still "
        "report the session's topic).",
    )
    scope: ScopeInfo = Field(
        default_factory=ScopeInfo,
        description="The scope model's reading: is this school math the curriculum covers?",
    )
    grade: GradeInfo = Field(
        default_factory=GradeInfo,
        description="The grade the concept linker used as its prior (given or inferred).",
    )
    language: LanguageInfo = Field(
        default_factory=LanguageInfo, description="The message's language as read."
    )
    dialogue: DialogueInfo | None = Field(
        default=None,
        description="What was read from the request's `conversation` (the problem and "
        "answer and their turns, help request, chit-chat, the topic carried or changed); "
        "null without one.",
    )
    debug: dict[str, Any] | None = Field(
        default=None, description="Per-stage details when the request set `debug`, else null."
    )


def teaching_first(
    lessons: Sequence[Hit], results: Sequence[Hit], k: int | None = None
) -> list[Hit]:
    """The packet's hits in the order a model should read them: its lessons (the
    explanations and worked examples nearest the message) and its results alternate, a
    lesson first, and once either list runs out the other goes on; a lesson that is also
    a result comes once. The context and the framework adapters read a packet in this
    order, so that neither teaching nor a stated answer's misconceptions crowd the other
    out, whatever the budget. With `k`, the first `k` of them.

    >>> [h.kind for h in teaching_first(packet.lessons, packet.results, k=3)]  # doctest: +SKIP
    ['explanation', 'misconception', 'worked_example']
    """
    seen = {h.id for h in lessons}
    rest = [h for h in results if h.id not in seen]
    out: list[Hit] = []
    for i in range(max(len(lessons), len(rest))):
        out += [*lessons[i : i + 1], *rest[i : i + 1]]
    return out if k is None else out[:k]

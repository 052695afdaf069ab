"""Hits and the ReasoningPacket (design section 8a)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from tutorgraph_client.models.grade import Band, Grade
from tutorgraph_client.models.refined_query import RefinedQuery
from tutorgraph_client.models.request import SourceName

__all__ = [
    "STAGES",
    "AnswerCheck",
    "ChainStep",
    "Conflict",
    "Corroboration",
    "DiagnosisFinding",
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
    "SlotScale",
    "SupersededCopy",
    "teaching_first",
]

# The retrieval sources; `diagnosis`: a bug rule reproduced the student's answer; `ranker`:
# the learned ranker proposed a misconception that no source had found.
HitSource = Literal["vector", "lexical", "graph", "local", "diagnosis", "ranker"]
HitKind = Literal[
    "concept", "misconception", "explanation", "worked_example", "exercise", "question"
]

# Every stage of `timings_ms`, in pipeline order; stages that did not run report 0.
STAGES = (
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


class NearDuplicate(BaseModel):
    """A hit folded into another because their stored vectors nearly match."""

    model_config = ConfigDict(extra="forbid")

    id: str
    ids: list[str]
    similarity: float
    found_by: list[HitSource]


class Corroboration(BaseModel):
    """Who agrees with a hit: every source that found it or a near-duplicate of it, and the
    near-duplicates merged into it."""

    model_config = ConfigDict(extra="forbid")

    sources: list[HitSource] = Field(default_factory=list)
    near_duplicates: list[NearDuplicate] = Field(default_factory=list)


class SupersededCopy(BaseModel):
    """A stale copy of a record that a source returned, and the version that replaced it."""

    model_config = ConfigDict(extra="forbid")

    source: str
    updated_at: str | None
    superseded_by: str | None


class Conflict(BaseModel):
    """Hits that disagree. `factual`: the same problem with different stated answers (all
    kept, each listing the others in `conflicts_with`; `answers` maps id to answer).
    `temporal`: one id at two versions in two sources (the latest kept, the stale copies in
    `superseded`). `preferred` is the id (or, temporal, the version) that wins."""

    model_config = ConfigDict(extra="forbid")

    kind: Literal["factual", "temporal"]
    ids: list[str]
    preferred: str
    reason: str
    answers: dict[str, str] = Field(default_factory=dict)
    superseded: list[SupersededCopy] = Field(default_factory=list)


class Hit(BaseModel):
    """One piece of evidence, with where it came from and how it scored."""

    model_config = ConfigDict(extra="forbid")

    id: str
    ids: list[str]
    kind: HitKind
    title: str = ""
    text: str
    concept_ids: list[str] = Field(default_factory=list)
    score: float
    rank: int
    found_by: list[HitSource]
    source_ranks: dict[str, int] = Field(default_factory=dict)
    source_scores: dict[str, float] = Field(default_factory=dict)
    fused_score: float
    # What each source added to `fused_score` (weight / (k + rank), or weight x normalised score).
    source_contributions: dict[str, float] = Field(default_factory=dict)
    rerank_score: float | None = None
    # The learned final score of a misconception (see `ReasoningPacket.ranker`), else null.
    learned_score: float | None = None
    graph_path: list[str] | None = None
    # Set when near-duplicates were merged into this hit (their ids are in `ids` too).
    corroborated_by: Corroboration | None = None
    # Hits that answer the same problem differently (see `ReasoningPacket.conflicts`).
    conflicts_with: list[str] = Field(default_factory=list)


class ChainStep(BaseModel):
    """A concept on the prerequisite chain of a linked concept, `depth` edges before it;
    `relation` is the edge it leaves by (`aligned_with`: the standard a construct or section
    teaches, whose own prerequisites follow)."""

    model_config = ConfigDict(extra="forbid")

    id: str
    name: str
    description: str = ""
    depth: int
    relation: str


class LinkedConcept(BaseModel):
    """A concept the request is about, in one taxonomy (`common-core`, `eedi`, `openstax`):
    from the caller's `concept_ids` (`evidence: {"caller": true}`, no score), else named by
    the concept linker (its fused score; its dense and lexical ranks, cosine, BM25 and
    structural overlap). The first concept of each taxonomy carries its prerequisite chain
    (foundations first)."""

    model_config = ConfigDict(extra="forbid")

    id: str
    taxonomy: str
    name: str
    description: str = ""
    score: float | None = None
    evidence: dict[str, Any] = Field(default_factory=dict)
    prerequisites: list[ChainStep] = Field(default_factory=list)


class GraphContext(BaseModel):
    """The graph neighbourhood of the request: matched concepts, prerequisites, misconceptions."""

    model_config = ConfigDict(extra="forbid")

    concepts: list[dict[str, Any]] = Field(default_factory=list)
    prerequisites: list[list[str]] = Field(default_factory=list)
    misconceptions: list[dict[str, Any]] = Field(default_factory=list)


class RerankerInfo(BaseModel):
    """Whether the cross-encoder ran, and why not when it did not."""

    model_config = ConfigDict(extra="forbid")

    applied: bool = False
    model: str | None = None
    reason: str | None = None


class RankerInfo(BaseModel):
    """Whether the learned final score ran, why not, and how many misconceptions it added
    that no source had found (`proposed`: such hits have `found_by: ["ranker"]`)."""

    model_config = ConfigDict(extra="forbid")

    applied: bool = False
    model: str | None = None
    reason: str | None = None
    proposed: int = 0


class DiagnosisFinding(BaseModel):
    """A bug rule that reproduces the student's answer, and the misconception it names."""

    model_config = ConfigDict(extra="forbid")

    misconception_id: str
    rule: str
    reproduced_answer: str
    explanation: str


class AnswerCheck(BaseModel):
    """The problem and the student's answer the diagnosis read, and whether it is right. A
    message about an answer that says too little is not guessed at: `missing` names what it
    did not say (`problem`, `answer`) and `correct` is null."""

    model_config = ConfigDict(extra="forbid")

    problem: str | None = None
    student_answer: str | None = None
    correct: bool | None = None
    correct_answer: str | None = None
    missing: list[Literal["problem", "answer"]] = Field(default_factory=list)


class ScopeInfo(BaseModel):
    """Whether the scope model ran (why not, when it did not) and what it said:
    `in_scope` is the calibrated probability that the message is school math the
    curriculum covers (`confidence/scope.py`)."""

    model_config = ConfigDict(extra="forbid")

    applied: bool = False
    model: str | None = None
    reason: str | None = None
    in_scope: float | None = None
    # Below it, the packet says `no_match` ("off_topic").
    threshold: float | None = None


class GradeInfo(BaseModel):
    """The student's grade as the linker used it: the request's (`source` "request"), or
    the band the standards model reads from the message (`source` "inferred", with the
    model's probability for that band); null fields when neither is known.

    >>> GradeInfo(grade="3", band="3-5", source="request").band
    '3-5'
    """

    model_config = ConfigDict(extra="forbid")

    grade: Grade | None = None
    band: Band | None = None
    source: Literal["request", "inferred"] | None = None
    probability: float | None = None


class LanguageInfo(BaseModel):
    """The message's language as the refiner read it. Only English is supported: a message
    read as another language (`english` false, `detected` its ISO 639-1 code when known) is
    not spell-corrected into English words, and `note` says what that means for the packet."""

    model_config = ConfigDict(extra="forbid")

    english: bool = True
    detected: str | None = None
    note: str | None = None


SlotScale = Literal["cosine", "learned", "fused", "rerank", "none"]


class Slot(BaseModel):
    """One part of the packet a tutor needs (design 8a): its hits, best first, on one
    `scale` (`cosine`: the lessons search; `learned`: the misconception ranker's score;
    `fused`: the retrieval sources' fused score; `rerank`: the cross-encoder's), a
    calibrated `confidence` where a model gives one, and why it is empty when it is. For
    `misconceptions`, `stated_answer` says whether they explain an answer the student
    stated (else: common errors of the topic).

    >>> Slot(empty_reason="no lesson in the index").hits
    []
    """

    model_config = ConfigDict(extra="forbid")

    hits: list[Hit] = Field(default_factory=list)
    scale: SlotScale = "none"
    confidence: float | None = None
    empty_reason: str | None = None
    stated_answer: bool | None = None


class PacketSlots(BaseModel):
    """The packet by job: `concepts` (the ids of `ReasoningPacket.concepts` in the Common
    Core, with the confidence that the first is right), `teach` (explanations and worked
    examples), `misconceptions` and `practice` (exercises and questions)."""

    model_config = ConfigDict(extra="forbid")

    concepts: list[str] = Field(default_factory=list)
    concepts_confidence: float | None = None
    teach: Slot = Field(default_factory=Slot)
    misconceptions: Slot = Field(default_factory=Slot)
    practice: Slot = Field(default_factory=Slot)


class ReasoningPacket(BaseModel):
    """What a tutoring app gets back for a request.

    >>> p = ReasoningPacket(query="q", timings_ms={s: 0.0 for s in STAGES})
    >>> p.degraded_sources, p.reranker.applied
    ([], False)
    """

    model_config = ConfigDict(extra="forbid")

    query: str
    refined_query: RefinedQuery | None = None
    results: list[Hit] = Field(default_factory=list)
    graph_context: GraphContext = Field(default_factory=GraphContext)
    context: str = ""
    total_results: int = 0
    vector_count: int = 0
    lexical_count: int = 0
    graph_count: int = 0
    timings_ms: dict[str, float]
    degraded_sources: list[SourceName] = Field(default_factory=list)
    reranker: RerankerInfo = Field(default_factory=RerankerInfo)
    ranker: RankerInfo = Field(default_factory=RankerInfo)
    # The misconceptions whose bug rules reproduce the student's answer (empty when the
    # answer is right, or when no problem and answer could be read: `answer_check` null).
    diagnosis: list[DiagnosisFinding] = Field(default_factory=list)
    answer_check: AnswerCheck | None = None
    # Hits that disagree (factual), and stale copies replaced by a newer version (temporal).
    conflicts: list[Conflict] = Field(default_factory=list)
    # The concept linker's result, per taxonomy, best first (issue 31; design 8a).
    concepts: list[LinkedConcept] = Field(default_factory=list)
    # The explanations and worked examples nearest the message, searched apart from the
    # rest, best first (`retrieval/lessons.py`; empty when the request asks for none).
    lessons: list[Hit] = Field(default_factory=list)
    # The packet by job, each slot on its own scale (design 8a).
    slots: PacketSlots = Field(default_factory=PacketSlots)
    # The calibrated probability that the first Common Core concept is right (null when the
    # scope model is off); `no_match`: an app should say "I'm not sure" (`no_match_reason`).
    confidence: float | None = None
    no_match: bool = False
    no_match_reason: str | None = None
    scope: ScopeInfo = Field(default_factory=ScopeInfo)
    # The grade the concept linker used as its prior (given or inferred, issue 48).
    grade: GradeInfo = Field(default_factory=GradeInfo)
    language: LanguageInfo = Field(default_factory=LanguageInfo)
    debug: dict[str, Any] | None = None


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

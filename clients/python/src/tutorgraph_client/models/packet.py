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

    id: str = Field(description="The id of the hit folded in.")
    ids: list[str] = Field(description="Every id merged into that hit.")
    similarity: float = Field(description="The cosine of its stored vector to the kept hit's.")
    found_by: list[HitSource] = Field(description="The sources that found it.")


class Corroboration(BaseModel):
    """Who agrees with a hit: every source that found it or a near-duplicate of it, and the
    near-duplicates merged into it."""

    model_config = ConfigDict(extra="forbid")

    sources: list[HitSource] = Field(
        default_factory=list,
        description="Every source that found the hit or one of its near-duplicates.",
    )
    near_duplicates: list[NearDuplicate] = Field(
        default_factory=list, description="The near-duplicates merged into the hit."
    )


class SupersededCopy(BaseModel):
    """A stale copy of a record that a source returned, and the version that replaced it."""

    model_config = ConfigDict(extra="forbid")

    source: str = Field(description="The source that returned the stale copy.")
    updated_at: str | None = Field(description="When the stale copy was last changed.")
    superseded_by: str | None = Field(
        description="When the version that replaced it was last changed."
    )


class Conflict(BaseModel):
    """Hits that disagree. `factual`: the same problem with different stated answers (all
    kept, each listing the others in `conflicts_with`; `answers` maps id to answer).
    `temporal`: one id at two versions in two sources (the latest kept, the stale copies in
    `superseded`). `preferred` is the id (or, temporal, the version) that wins."""

    model_config = ConfigDict(extra="forbid")

    kind: Literal["factual", "temporal"] = Field(
        description="factual: the same problem with different stated answers; temporal: one "
        "id at two versions in two sources."
    )
    ids: list[str] = Field(description="The hits (factual) or the one id (temporal) involved.")
    preferred: str = Field(description="The id, or for temporal the version, that wins.")
    reason: str = Field(description="Why it wins.")
    answers: dict[str, str] = Field(
        default_factory=dict, description="factual: each hit's stated answer, by id."
    )
    superseded: list[SupersededCopy] = Field(
        default_factory=list, description="temporal: the stale copies that were dropped."
    )


class Hit(BaseModel):
    """One piece of evidence, with where it came from and how it scored."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(
        description="The record's id (eedi:misconception:1667, openstax:...); `local:<id>` "
        "for your own local_context documents."
    )
    ids: list[str] = Field(
        description="Every id merged into this hit (itself and its near-duplicates)."
    )
    kind: HitKind = Field(
        description="concept, misconception, explanation, worked_example, exercise or question."
    )
    title: str = Field(default="", description="Its title, when it has one.")
    text: str = Field(description="The text to show or give to a model.")
    concept_ids: list[str] = Field(
        default_factory=list, description="The curriculum concepts it belongs to."
    )
    score: float = Field(
        description="The final score the hits are ordered by; comparable within one list only."
    )
    rank: int = Field(
        description="Its position in its list, from 1 (0: a slot's extra hit, not among the "
        "results)."
    )
    found_by: list[HitSource] = Field(
        description="The sources that found it: vector, lexical, graph, local; diagnosis (a "
        "bug rule reproduced the student's answer); ranker (the learned ranker proposed it)."
    )
    source_ranks: dict[str, int] = Field(
        default_factory=dict, description="Its rank in each source's own list."
    )
    source_scores: dict[str, float] = Field(
        default_factory=dict, description="Its score in each source's own list."
    )
    fused_score: float = Field(description="Its score once the sources' lists were merged.")
    source_contributions: dict[str, float] = Field(
        default_factory=dict,
        description="What each source added to `fused_score` (weight / (k + rank), or weight "
        "x normalised score).",
    )
    rerank_score: float | None = Field(
        default=None, description="The cross-encoder's score, when the hits were reranked."
    )
    learned_score: float | None = Field(
        default=None,
        description="The learned final score of a misconception (see the packet's `ranker`), "
        "else null.",
    )
    graph_path: list[str] | None = Field(
        default=None, description="The concept ids the graph search followed to it, if any."
    )
    corroborated_by: Corroboration | None = Field(
        default=None,
        description="Set when near-duplicates were merged into this hit (their ids are in "
        "`ids` too).",
    )
    conflicts_with: list[str] = Field(
        default_factory=list,
        description="Hits that answer the same problem differently (see the packet's `conflicts`).",
    )


class ChainStep(BaseModel):
    """A concept on the prerequisite chain of a linked concept, `depth` edges before it;
    `relation` is the edge it leaves by (`aligned_with`: the standard a construct or section
    teaches, whose own prerequisites follow)."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(description="The concept's id.")
    name: str = Field(description="Its name (a standard's code).")
    description: str = Field(default="", description="What it is about.")
    depth: int = Field(description="How many edges before the linked concept it comes.")
    relation: str = Field(
        description="The edge it leaves by (builds_towards, ...; aligned_with: the standard "
        "a construct or section teaches)."
    )


class LinkedConcept(BaseModel):
    """A concept the request is about, in one taxonomy (`common-core`, `eedi`, `openstax`):
    from the caller's `concept_ids` (`evidence: {"caller": true}`, no score), else named by
    the concept linker (its fused score; its dense and lexical ranks, cosine, BM25 and
    structural overlap). The first concept of each taxonomy carries its prerequisite chain
    (foundations first)."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(description="The concept's id.", examples=["ccss:3.OA.A.3"])
    taxonomy: str = Field(description="common-core, eedi or openstax.")
    name: str = Field(description="Its name (a standard's code).")
    description: str = Field(default="", description="What it is about.")
    score: float | None = Field(
        default=None,
        description="The linker's fused score (higher is better); null for the caller's own "
        "concept_ids.",
    )
    evidence: dict[str, Any] = Field(
        default_factory=dict,
        description="Why it was chosen: `caller: true` for the request's concept_ids, else the "
        "linker's cosine, dense_rank, bm25, lexical_rank and structure.",
    )
    prerequisites: list[ChainStep] = Field(
        default_factory=list,
        description="Its prerequisite chain, foundations first (the first concept of each "
        "taxonomy only).",
    )


class GraphContext(BaseModel):
    """The graph neighbourhood of the request: matched concepts, prerequisites, misconceptions."""

    model_config = ConfigDict(extra="forbid")

    concepts: list[dict[str, Any]] = Field(
        default_factory=list,
        description="The graph's seed concepts: id, name, kind, seed (request, code, linked, "
        "text or evidence) and weight.",
    )
    prerequisites: list[list[str]] = Field(
        default_factory=list, description="Prerequisite paths of concept ids, foundations first."
    )
    misconceptions: list[dict[str, Any]] = Field(
        default_factory=list, description="Misconceptions linked to those concepts."
    )


class RerankerInfo(BaseModel):
    """Whether the cross-encoder ran, and why not when it did not."""

    model_config = ConfigDict(extra="forbid")

    applied: bool = Field(default=False, description="Whether the hits were reranked.")
    model: str | None = Field(default=None, description="The reranker model, when it ran.")
    reason: str | None = Field(
        default=None, description="Why it did not run (turned off, not asked for, ...)."
    )


class RankerInfo(BaseModel):
    """Whether the learned final score ran, why not, and how many misconceptions it added
    that no source had found (`proposed`: such hits have `found_by: ["ranker"]`)."""

    model_config = ConfigDict(extra="forbid")

    applied: bool = Field(
        default=False, description="Whether the learned ranker scored the misconceptions."
    )
    model: str | None = Field(default=None, description="The ranker model, when it ran.")
    reason: str | None = Field(default=None, description="Why it did not run.")
    proposed: int = Field(
        default=0, description="Misconceptions it added that no source had found."
    )


class DiagnosisFinding(BaseModel):
    """A bug rule that reproduces the student's answer, and the misconception it names."""

    model_config = ConfigDict(extra="forbid")

    misconception_id: str = Field(description="The misconception the rule names.")
    rule: str = Field(description="The bug rule's name.")
    reproduced_answer: str = Field(
        description="The answer the rule computes, which is the student's."
    )
    explanation: str = Field(
        description="How the error gives that answer, in words a tutor can use."
    )


class AnswerCheck(BaseModel):
    """The problem and the student's answer the diagnosis read, and whether it is right. A
    message about an answer that says too little is not guessed at: `missing` names what it
    did not say (`problem`, `answer`) and `correct` is null."""

    model_config = ConfigDict(extra="forbid")

    problem: str | None = Field(default=None, description="The problem as read.")
    student_answer: str | None = Field(default=None, description="The student's answer as read.")
    correct: bool | None = Field(
        default=None,
        description="Whether the answer is right; null when the problem or answer is missing.",
    )
    correct_answer: str | None = Field(
        default=None, description="The answer the diagnosis computed, when it could."
    )
    missing: list[Literal["problem", "answer"]] = Field(
        default_factory=list,
        description="What the message did not say, so nothing was diagnosed: problem, answer.",
    )


class ScopeInfo(BaseModel):
    """Whether the scope model ran (why not, when it did not) and what it said:
    `in_scope` is the calibrated probability that the message is school math the
    curriculum covers (`confidence/scope.py`)."""

    model_config = ConfigDict(extra="forbid")

    applied: bool = Field(default=False, description="Whether the scope model ran.")
    model: str | None = Field(default=None, description="The scope model, when it ran.")
    reason: str | None = Field(default=None, description="Why it did not run.")
    in_scope: float | None = Field(
        default=None,
        description="The calibrated probability that the message is school math the "
        "curriculum covers.",
    )
    threshold: float | None = Field(
        default=None,
        description='Below it, the packet says `no_match` ("off_topic").',
    )


class GradeInfo(BaseModel):
    """The student's grade as the linker used it: the request's (`source` "request"), or
    the band the standards model reads from the message (`source` "inferred", with the
    model's probability for that band); null fields when neither is known.

    >>> GradeInfo(grade="3", band="3-5", source="request").band
    '3-5'
    """

    model_config = ConfigDict(extra="forbid")

    grade: Grade | None = Field(
        default=None, description="The request's grade (K, 1-8, HS), when it gave one."
    )
    band: Band | None = Field(default=None, description="The grade band: K-2, 3-5, 6-8 or HS.")
    source: Literal["request", "inferred"] | None = Field(
        default=None,
        description="request: the request's grade; inferred: read from the message.",
    )
    probability: float | None = Field(
        default=None, description="inferred only: the model's probability for that band."
    )


class LanguageInfo(BaseModel):
    """The message's language as the refiner read it. Only English is supported: a message
    read as another language (`english` false, `detected` its ISO 639-1 code when known) is
    not spell-corrected into English words, and `note` says what that means for the packet."""

    model_config = ConfigDict(extra="forbid")

    english: bool = Field(default=True, description="Whether the message reads as English.")
    detected: str | None = Field(
        default=None,
        description="Its ISO 639-1 language code, when another language was detected.",
    )
    note: str | None = Field(
        default=None, description="What a non-English message means for the packet."
    )


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

    hits: list[Hit] = Field(default_factory=list, description="The slot's hits, best first.")
    scale: SlotScale = Field(
        default="none",
        description="What the hits' scores are: cosine, learned, fused or rerank; none when "
        "the slot is empty.",
    )
    confidence: float | None = Field(
        default=None, description="A calibrated probability that the slot is right, if known."
    )
    empty_reason: str | None = Field(default=None, description="Why the slot is empty, when it is.")
    stated_answer: bool | None = Field(
        default=None,
        description="misconceptions only: true when they explain an answer the student "
        "stated, false when they are the topic's common errors.",
    )


class PacketSlots(BaseModel):
    """The packet by job: `concepts` (the ids of `ReasoningPacket.concepts` in the Common
    Core, with the confidence that the first is right), `teach` (explanations and worked
    examples), `misconceptions` and `practice` (exercises and questions)."""

    model_config = ConfigDict(extra="forbid")

    concepts: list[str] = Field(
        default_factory=list,
        description="The Common Core ids of the packet's `concepts`, best first.",
    )
    concepts_confidence: float | None = Field(
        default=None, description="The calibrated probability that the first is right."
    )
    teach: Slot = Field(
        default_factory=Slot, description="Explanations and worked examples (the lessons)."
    )
    misconceptions: Slot = Field(
        default_factory=Slot, description="Misconceptions that explain the student's error."
    )
    practice: Slot = Field(default_factory=Slot, description="Exercises and questions.")


class ReasoningPacket(BaseModel):
    """What a tutoring app gets back for a request.

    >>> p = ReasoningPacket(query="q", timings_ms={s: 0.0 for s in STAGES})
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
        description="A prompt-ready text block of the hits, within `max_context_tokens`.",
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
        description="The explanations and worked examples nearest the message, searched "
        "apart from the results, best first (empty when the request asks for none).",
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
        description="off_topic: ... (not school math the curriculum covers) or no_content: "
        "... (nothing in the index matched).",
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

"""A packet's hits (design section 8a): what each is, which sources found it and how it
scored, the copies folded into it, and the conflicts between hits.

>>> hit = Hit(id="m1", ids=["m1"], kind="misconception", text="Adds the denominators",
...     score=0.8, rank=1, found_by=["graph"], fused_score=0.03)
>>> hit.found_by, hit.conflicts_with
(['graph'], [])
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from tutorgraph_client.models.request import ALL_SOURCES, SourceName

__all__ = [
    "Conflict",
    "Corroboration",
    "Hit",
    "HitKind",
    "HitSource",
    "NearDuplicate",
    "SupersededCopy",
]

# The retrieval sources; `diagnosis`: a bug rule reproduced the student's answer; `ranker`:
# the learned ranker proposed a misconception that no source had found; `generator`: a
# practice problem made for the request by the problem generators (`Hit.generated`).
HitSource = Literal[SourceName, "diagnosis", "ranker", "generator"]


HitKind = Literal[
    "concept", "misconception", "explanation", "worked_example", "exercise", "question"
]


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
        description=f"The sources that found it: {', '.join(ALL_SOURCES)}; diagnosis (a "
        "bug rule reproduced the student's answer); ranker (the learned ranker proposed it); "
        "generator (made for this request: `generated`)."
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
    generated: bool = Field(
        default=False,
        description="True for a practice problem made for this request by the problem "
        "generators, not found in the index (only in `slots.practice`, first): its id is "
        "`generated:<standard code>:<hash>`, it has `answer` and `steps`, scores 0 and rank 0.",
    )
    answer: str | None = Field(
        default=None,
        description="The problem's answer, computed exactly, for a generated practice "
        "problem (`generated`); null for the index's hits.",
    )
    steps: list[str] = Field(
        default_factory=list,
        description="The worked steps to `answer`, for a generated practice problem "
        "(`generated`); empty for the index's hits.",
    )

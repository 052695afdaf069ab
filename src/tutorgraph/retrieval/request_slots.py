"""A request's slots (issue 62), as the lessons stage fills them once the message's nearest
lessons are known: the linked standards with their probabilities, their content from the
graph (`slot_sources.py`), each candidate's cosine with the query (the index's stored
vectors), the child's grade range, and `slots.fill_slots`.

>>> picks = await request_slots(state, graph, vectors, slots=4, guard=guard)  # doctest: +SKIP
>>> picks.teach.hits[0].via  # doctest: +SKIP
'standard'
"""

from __future__ import annotations

from tutorgraph.retrieval.concepts import PRACTICE_KINDS
from tutorgraph.retrieval.content_level import child_range
from tutorgraph.retrieval.slot_score import STANDARD_CONFIDENCE
from tutorgraph.retrieval.slot_sources import Guard, standard_content, weighted_standards
from tutorgraph.retrieval.slots import SlotInputs, SlotPicks, fill_slots
from tutorgraph.retrieval.state import RequestState
from tutorgraph.stores.protocols import GraphStore, IndexItem, ItemSimilarity

__all__ = ["request_slots"]


async def request_slots(
    state: RequestState,
    graph: GraphStore,
    vectors: ItemSimilarity | None,
    *,
    slots: int,
    guard: Guard | None = None,
) -> SlotPicks:
    """The request's three slots; `slots` is how many lessons the teach slot holds (the
    request's `lessons`, else the server's); `guard` wraps each graph call. Raises
    `SourceUnavailableError` when the query was not embedded, or (through `guard`) when the
    graph failed."""
    request = state.request
    vector = await state.query_embedding()
    standards = weighted_standards(state.linked)
    findings = [f.misconception_id for f in state.findings]
    check = state.answer_check
    stated = bool(check and check.student_answer)
    # The message's own candidates: its lessons, and the search's practice and misconceptions.
    message = [
        IndexItem(h.id, h.kind, h.title, h.text, tuple(h.concept_ids))
        for h in (*state.lessons, *state.hits)
        if h.kind in PRACTICE_KINDS or h.kind in ("misconception", "explanation", "worked_example")
    ]
    # Without a stated answer only the first standard's misconceptions are shown, and only
    # when it is likely (a stated answer's come from the message, weighed by their owners).
    sure = bool(standards) and standards[0].probability >= STANDARD_CONFIDENCE
    content = await standard_content(
        graph,
        standards,
        findings=findings,
        message_items=message,
        misconceptions="first" if sure and not stated else "none",
        guard=guard,
    )
    # The cosines the slots' scores read (a stated answer's misconceptions are not scored).
    ids = [c.item.id for c in (*content.documents, *content.misconceptions)]
    ids += [it.id for it in message if it.kind != "misconception"]
    # A gather of a few hundred stored rows: far less than a thread hop.
    similarities = vectors.similarities(vector, ids) if vectors is not None else {}
    teach_empty = None
    if slots == 0:
        teach_empty = "the request asked for no lessons (lessons = 0)"
    elif "vector" not in request.sources:
        teach_empty = "lessons are searched by the vector source, which the request left out"
    grade = state.grade_info
    return fill_slots(
        content,
        SlotInputs(
            lessons=state.lessons,
            hits=state.hits,
            similarities=similarities,
            child=child_range(request.grade, grade.band if grade.source else None),
            teach_slots=0 if teach_empty else slots,
            teach_empty=teach_empty,
            stated=stated,
            findings=findings,
        ),
    )

"""The diagnosis stage: the bug rules that reproduce the student's wrong answer put their
misconceptions first, each with an RRF term like a source's.

>>> hits, findings, check = await diagnose_hits(diagnoser, fetch, request, None, hits)
... # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from tutorgraph.diagnosis.diagnose import Diagnoser
from tutorgraph.diagnosis.problem import find_problem
from tutorgraph.models.curriculum import Misconception
from tutorgraph.models.packet import AnswerCheck, DiagnosisFinding, Hit
from tutorgraph.models.refined_query import RefinedQuery
from tutorgraph.models.request import RetrievalRequest
from tutorgraph.retrieval.fusion import DIAGNOSIS_WEIGHT, RRF_K
from tutorgraph.retrieval.hits import misconception_hit

__all__ = ["diagnose_hits"]


async def diagnose_hits(
    diagnoser: Diagnoser,
    fetch: Callable[[list[str]], Awaitable[list[Misconception] | None]],
    request: RetrievalRequest,
    refined: RefinedQuery | None,
    hits: list[Hit],
) -> tuple[list[Hit], list[DiagnosisFinding], AnswerCheck | None]:
    """Which bug rules reproduce the student's answer; their misconceptions lead the hits
    (found by `diagnosis`, fetched with `fetch` when no source had them)."""
    answer = request.student_answer or (refined.student_answer if refined else None)
    if not answer:
        return hits, [], None
    problem = find_problem(request.problem or request.query, student_answer=answer)
    if problem is None:
        return hits, [], None
    result = diagnoser.diagnose(problem, answer, request.correct_answer)
    if result.correct is None or result.correct_answer is None:
        return hits, [], None
    check = AnswerCheck(
        problem=problem,
        student_answer=answer,
        correct=result.correct,
        correct_answer=result.correct_answer,
    )
    findings = [
        DiagnosisFinding(
            misconception_id=m,
            rule=f.rule,
            reproduced_answer=f.reproduced_answer,
            explanation=f.explanation,
        )
        for f in result.findings
        for m in f.misconception_ids
    ]
    ids = list(dict.fromkeys(d.misconception_id for d in findings))
    if not ids:
        return hits, findings, check
    have = {h.id: h for h in hits}
    if missing := [m for m in ids if m not in have]:
        found = await fetch(missing)
        for misconception in found or []:
            have[misconception.id] = misconception_hit(misconception)
    lead = []
    for rank, mid in enumerate((m for m in ids if m in have), start=1):
        hit = have[mid]
        # An RRF term like any source's; a hit no source found scores by it alone.
        part = DIAGNOSIS_WEIGHT / (RRF_K + rank)
        if not hit.found_by:
            hit.score = round(part, 9)
        hit.found_by = [*hit.found_by, "diagnosis"]
        hit.source_ranks = {**hit.source_ranks, "diagnosis": rank}
        hit.source_contributions = {**hit.source_contributions, "diagnosis": round(part, 9)}
        hit.fused_score = round(hit.fused_score + part, 9)
        lead.append(hit)
    chosen = {id(h) for h in lead}
    # Only misconceptions that exist in this index are shown as hits.
    findings = [d for d in findings if d.misconception_id in have]
    return lead + [h for h in hits if id(h) not in chosen], findings, check

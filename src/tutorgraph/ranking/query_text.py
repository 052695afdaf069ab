"""What the learned models read as the query: the concept's names, then the student's text.

A question alone rarely says what it tests; its construct and subject names do. When a
request names concepts, the ranker (and, where it is on, the embedder and the reranker)
reads `"<concept>. <parent>.\\n<query>"`, with the student's answer added as a line of its
own when the request carries it apart from the text. Training builds its texts with the
same function from the same graph, so both sides see one format.

A request without such concepts is read by the text-only ranker as what the student states:
the problem and their answer (`stated_query`), the form a worksheet's question takes without
its correct answer, so a message and a worksheet row read alike.

>>> named_query("1/2 + 1/4 = ?", ["Add fractions", "Fractions"], student_answer="2/6")
'Add fractions. Fractions.\\n1/2 + 1/4 = ?\\nStudent answer: 2/6'
"""

from __future__ import annotations

from collections.abc import Sequence

from tutorgraph.stores.protocols import GraphStore

__all__ = ["concept_names", "named_query", "stated_query"]


def named_query(query: str, names: Sequence[str], *, student_answer: str | None = None) -> str:
    text = query.strip()
    if student_answer and student_answer.strip() not in text:
        text = f"{text}\nStudent answer: {student_answer.strip()}"
    names = [n.strip() for n in dict.fromkeys(names) if n.strip()]
    return f"{'. '.join(names)}.\n{text}" if names else text


def stated_query(problem: str, student_answer: str | None) -> str:
    """The problem and, on a line of its own, the student's answer.

    >>> stated_query("0.6 × 0.4", "2.4")
    '0.6 × 0.4\\nStudent answer: 2.4'
    """
    text = problem.strip()
    return f"{text}\nStudent answer: {student_answer.strip()}" if student_answer else text


async def concept_names(graph: GraphStore, concept_ids: Sequence[str]) -> list[str]:
    """The names of the concepts, then of their parents (an Eedi construct's subjects)."""
    concepts = await graph.get_concepts(list(dict.fromkeys(concept_ids)))
    parent_ids = [p for c in concepts for p in c.parent_ids if p not in concept_ids]
    parents = await graph.get_concepts(list(dict.fromkeys(parent_ids))) if parent_ids else []
    return [c.name for c in (*concepts, *parents)]

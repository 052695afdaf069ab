"""Generated practice through the real pipeline (real MiniLM, real Chroma, the session
index): a grade-2 student's subtraction gets problems of its structure for the standard the
linker links, with their answers and steps, first in the practice slot; a standard no
generator covers gets none.

The session index's catalogue holds grade 6 and one high-school standard only, so the
linker here is the one a user's index of the bundled curriculum has: every card of
`data/curriculum` with the vectors stored beside it, and the bundled standards model.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from tests.conftest import index_retriever

from tutorgraph.embedding.stored_vectors import StoredVectors
from tutorgraph.ingest.bundle import load_trusted
from tutorgraph.linking import ConceptLinker, build_cards
from tutorgraph.linking.standards_model import StandardModel
from tutorgraph.mathtext.evaluate import matches
from tutorgraph.problems import covers, practice
from tutorgraph.retrieval.factory import bundled_standards_path
from tutorgraph_client.models.grade import standard_grade
from tutorgraph_client.models.request import RetrievalRequest

pytestmark = pytest.mark.integration

CURRICULUM = Path(__file__).resolve().parents[2] / "data" / "curriculum"
SUBTRACTION = "I did 52 - 38 and got 26"


@pytest.fixture(scope="module")
def k8(opened_index, embedder):  # type: ignore[no-untyped-def]
    """The session index searched, the bundled curriculum's standards linked."""
    cards = build_cards(load_trusted(CURRICULUM, documents=False).concepts)
    stored = StoredVectors.read(CURRICULUM / "embeddings")
    assert stored is not None
    found = stored.lookup([c.text for c in cards], stored.fingerprint)
    assert len(found) == len(cards)
    linker = ConceptLinker(cards, np.stack([found[i] for i in range(len(cards))]))
    linker = linker.with_model(StandardModel.load(bundled_standards_path()))
    return index_retriever(opened_index, embedder, linker=linker)


async def test_a_grade_2_subtraction_gets_practice_of_its_structure_with_answers(k8) -> None:  # type: ignore[no-untyped-def]
    request = RetrievalRequest(query=SUBTRACTION, grade="2", debug=True)
    packet = await k8.retrieve(request)
    standard = packet.slots.concepts[0]
    assert covers(standard) and standard_grade(standard) == "2", standard
    slot = packet.slots.practice
    made = [h for h in slot.hits if h.generated]
    assert 3 <= len(made) <= 5
    assert slot.hits[: len(made)] == made  # first in the slot
    # The index's practice follows: what is aligned to the standard, then the rest.
    found = [standard in h.concept_ids for h in slot.hits[len(made) :]]
    assert found == sorted(found, reverse=True)
    assert packet.debug is not None
    assert packet.debug["practice"]["standard"] == standard
    assert packet.debug["practice"]["shape"] == "#-#"
    assert packet.debug["practice"]["matched"] == len(made)  # all of the student's structure
    # The engine's problems for this request: the same texts, answers and steps.
    problems = practice(standard, key=SUBTRACTION, like="52 - 38").problems
    assert [h.text for h in made] == [p.text for p in problems]
    for hit, problem in zip(made, problems, strict=True):
        assert hit.id.startswith("generated:") and hit.found_by == ["generator"]
        assert hit.kind == "exercise" and hit.rank == 0 and hit.concept_ids == [standard]
        assert hit.answer == problem.answer and matches(problem.expression, hit.answer)
        assert problem.expression.count("-") == 1 and "+" not in problem.expression
        assert hit.steps and hit.answer in hit.steps[-1]
        assert "52" not in hit.text or "38" not in hit.text  # new numbers
    # Practice for the student, not evidence: never a result, never in the context.
    assert not any(h.generated for h in packet.results)
    assert not any(h.id in packet.context for h in made)
    # The same request, the same problems.
    again = await k8.retrieve(request)
    assert [h for h in again.slots.practice.hits if h.generated] == made


async def test_a_standard_no_generator_covers_gets_none(k8) -> None:  # type: ignore[no-untyped-def]
    query = "What is the average rate of change of f(x) = x^2 + 3x between x = 1 and x = 4?"
    packet = await k8.retrieve(RetrievalRequest(query=query, debug=True))
    standard = packet.slots.concepts[0]
    assert not covers(standard), standard
    assert not any(h.generated for h in packet.slots.practice.hits)
    assert packet.debug is not None
    assert packet.debug["practice"]["reason"] == f"no generator covers {standard}"

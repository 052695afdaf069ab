"""The text-only ranker: which ranker scores a request, what it reads, how it is trained."""

from __future__ import annotations

import pytest
from tests.unit.test_learned_ranker import ranker

from tutorgraph.errors import ConfigurationError
from tutorgraph.ingest.eedi import EediQuestion, eedi_query_text
from tutorgraph.retrieval.facts import RequestFacts, request_facts
from tutorgraph.retrieval.ranker_runtime import scoring_ranker, stated_text
from tutorgraph.training.eedi import eedi_text_queries
from tutorgraph_client.models.refined_query import RefinedQuery
from tutorgraph_client.models.request import RetrievalRequest

pytestmark = pytest.mark.unit


def facts(request: RetrievalRequest, refined: RefinedQuery | None = None) -> RequestFacts:
    """The request's facts, as the facts stage reads them."""
    return request_facts(request, refined)


QUESTION = EediQuestion(
    1, 10, "Multiply decimals", 5, "Decimals", "A", "0.6 × 0.4 =",
    {"A": "0.24", "B": "2.4", "C": "1", "D": "24"},
    {"A": None, "B": 7, "C": 9, "D": None},
)  # fmt: skip


def test_concept_evidence_picks_the_concept_ranker_else_the_text_only_one() -> None:
    concepts = ranker()
    both = concepts.with_text_only(ranker())
    answered = {"query": "0.6 x 0.4", "student_answer": "2.4"}
    known = RetrievalRequest(**answered, concept_ids=["c1"])
    unseen = RetrievalRequest(**answered, concept_ids=["c9"])
    bare = RetrievalRequest(**answered)
    assert scoring_ranker(both, known, facts(known)) == (both, ["c1"], "")
    assert scoring_ranker(both, unseen, facts(unseen)) == (both.text_only, [], "")
    assert scoring_ranker(both, bare, facts(bare)) == (both.text_only, [], "")
    assert scoring_ranker(concepts, unseen, facts(unseen))[0] is None
    assert "no labelled examples" in scoring_ranker(concepts, unseen, facts(unseen))[2]
    assert "no concept_ids" in scoring_ranker(concepts, bare, facts(bare))[2]


def test_the_text_only_ranker_scores_only_where_a_students_answer_is_known() -> None:
    both = ranker().with_text_only(ranker())
    question = RetrievalRequest(query="what is a zorblax fraction")
    model, _, why = scoring_ranker(both, question, facts(question))
    assert model is None and "needs a student's answer" in why
    # The refiner's reading counts: a message that states its answer is scored.
    refined = RefinedQuery(
        original_query="i got 2.4", optimized_query="", student_answer="2.4", refiner="local"
    )
    answered = RetrievalRequest(query="i got 2.4")
    assert scoring_ranker(both, answered, facts(answered, refined))[0] is both.text_only


def test_a_text_only_ranker_must_rank_the_same_targets() -> None:
    other = ranker()
    other.target_ids = [*other.target_ids[:-1], "elsewhere"]
    with pytest.raises(ConfigurationError, match="same targets"):
        ranker().with_text_only(other)


def test_the_text_only_ranker_reads_what_the_student_states() -> None:
    message = RetrievalRequest(query="for 7 - 2 x 3 I put 15")
    assert stated_text(message, facts(message)) == "7 - 2 × 3\nStudent answer: 15"
    # One precedence (the request's facts): the request's answer, then the message's, then
    # the refiner's.
    refined = RefinedQuery(
        original_query=message.query, optimized_query="", student_answer="9", refiner="local"
    )
    assert stated_text(message, facts(message, refined)).endswith("Student answer: 15")
    told = RetrievalRequest(query=message.query, student_answer="11")
    assert stated_text(told, facts(told, refined)).endswith("Student answer: 11")
    unsaid = RetrievalRequest(query="for 7 - 2 x 3 what do I get")
    assert stated_text(unsaid, facts(unsaid, refined)).endswith("Student answer: 9")
    given = RetrievalRequest(query="help", problem="3^2", student_answer="6")
    assert stated_text(given, facts(given)) == "3^2\nStudent answer: 6"
    # A worksheet (it labels its answers) and a message without a problem: as written.
    sheet = eedi_query_text(QUESTION, "B")
    worksheet = RetrievalRequest(query=sheet)
    assert stated_text(worksheet, facts(worksheet)) == sheet
    vague = RetrievalRequest(query="why are decimals so hard")
    assert stated_text(vague, facts(vague)) == "why are decimals so hard"


def test_each_labelled_answer_is_trained_as_the_worksheet_and_as_the_student_states_it() -> None:
    queries = eedi_text_queries([QUESTION])
    assert [q.target for q in queries] == ["eedi:misconception:7"] * 2 + [
        "eedi:misconception:9"
    ] * 2
    assert all(q.group == "1" and q.concept_ids == () for q in queries)
    assert queries[0].text == eedi_query_text(QUESTION, "B")
    assert queries[1].text == "0.6 × 0.4 =\nStudent answer: 2.4"

"""The packet's context states what the packet knows (issue 62, part 5): the topic, the grade,
the answer check and the diagnosis come first, then the teaching and practice items; figure
descriptions are left out; a packet that matched nothing says only that. Each packet here is
built by the real finish stage and `build_packet` from a request state (a word count stands
in for the tokenizer), and its citable ids are what `synthesis/citations.py` reads."""

from __future__ import annotations

import pytest

from tutorgraph.retrieval.context import assemble_context, no_match_context
from tutorgraph.retrieval.context_header import Known, known_lines
from tutorgraph.retrieval.figure_text import without_figure_text
from tutorgraph.retrieval.packet import build_packet
from tutorgraph.retrieval.router import resolve_route
from tutorgraph.retrieval.stages import FinishStage
from tutorgraph.retrieval.state import RequestState
from tutorgraph.synthesis.citations import CitationFilter, citable_ids
from tutorgraph_client.models.packet import (
    AnswerCheck,
    DiagnosisFinding,
    GradeInfo,
    Hit,
    LinkedConcept,
    ReasoningPacket,
    ScopeInfo,
)
from tutorgraph_client.models.request import RetrievalRequest

pytestmark = pytest.mark.unit

MESSAGE = "I did 52 - 38 and got 26"
MISCONCEPTION = "eedi:misconception:1138"
EXPLANATION = "26 is what you get by taking the smaller digit from the larger in each column"
STATEMENT = (
    "Fluently add and subtract within 100 using strategies based on place value, properties "
    "of operations, and/or the relationship between addition and subtraction."
)
# How a picture's description sits in an OpenStax document: its own line after the rows.
ALT = (
    "The figure shows the numbers 59, 60, and 62 separated by a small space from the numbers "
    "65, 68, and 70. Each set of three has a bracket underneath grouping the numbers together."
)


class Words:
    """A tokenizer that counts words."""

    name = "words"

    def count_tokens(self, text: str) -> int:
        return len(text.split())


def hit(id_: str, kind: str, text: str, rank: int = 1, title: str = "") -> Hit:
    return Hit(
        id=id_,
        ids=[id_],
        kind=kind,  # type: ignore[arg-type]
        title=title,
        text=text,
        score=1.0 / rank,
        rank=rank,
        found_by=["vector"],
        fused_score=1.0 / rank,
    )


LESSON = hit(
    "openstax:m81245:example:fs-id1",
    "worked_example",
    f"Subtract 43 - 26.\nSolution: Take away 2 tens and 6 ones. | 43 - 26 = 17\n{ALT}",
    title="Subtract Whole Numbers",
)
HITS = [
    hit(MISCONCEPTION, "misconception", "Subtracts the smallest digit from the largest digit", 1),
    hit("eedi:misconception:1514", "misconception", "Adds instead of subtracts", 2),
    hit("tutorgraph:practice:2.NBT.B.5:1", "exercise", "Find 61 - 27. Answer: 34", 3),
]
STANDARD = LinkedConcept(
    id="ccss:2.NBT.B.5", taxonomy="common-core", name="2.NBT.B.5", description=STATEMENT
)
CONSTRUCT = LinkedConcept(
    id="eedi:construct:1", taxonomy="eedi", name="Subtract with borrowing", description=""
)
WRONG = AnswerCheck(problem="52 - 38", student_answer="26", correct=False, correct_answer="14")
FINDING = DiagnosisFinding(
    misconception_id=MISCONCEPTION,
    rule="column_subtraction_smaller_from_larger",
    reproduced_answer="26",
    explanation=EXPLANATION,
)


async def _packet(
    *,
    budget: int = 1500,
    check: AnswerCheck | None = WRONG,
    findings: tuple[DiagnosisFinding, ...] = (FINDING,),
    grade: GradeInfo | None = None,
    scope: ScopeInfo | None = None,
    hits: tuple[Hit, ...] = tuple(HITS),
) -> ReasoningPacket:
    """The packet the finish stage and `build_packet` make of a request state that holds
    these stages' outputs."""
    state = RequestState(RetrievalRequest(query=MESSAGE, max_context_tokens=budget))
    state.route = resolve_route(
        query=MESSAGE,
        retrieval_profile=None,
        semantic_weight=None,
        graph_scope=None,
        rerank=None,
        student_answer=check is not None,
    )
    state.hits = [h.model_copy() for h in hits]
    state.lessons = [LESSON.model_copy()]
    state.linked = [CONSTRUCT, STANDARD]
    state.grade_info = grade or GradeInfo(band="K-2", source="inferred", probability=0.6)
    state.answer_check = check
    state.findings = list(findings)
    state.scope_info = scope or ScopeInfo(applied=True, in_scope=0.98, threshold=0.3)
    await FinishStage(Words()).run(state)  # type: ignore[arg-type]
    return build_packet(state)


async def test_a_wrong_answer_context_states_the_answer_check_and_the_diagnosis() -> None:
    packet = await _packet()
    lines = packet.context.splitlines()
    assert lines[:6] == [
        "## About this message",
        f"Topic: Common Core 2.NBT.B.5: {STATEMENT}",
        "Grade band: K-2 (read from the message)",
        "Answer check: the student's answer to 52 - 38 is 26, which is wrong; the right answer "
        "is 14.",
        f"Diagnosis: {EXPLANATION}. The misconception that gives 26: Subtracts the smallest "
        "digit from the largest digit.",
        "",
    ]
    # Then teaching and practice as before: lessons and results alternate, a lesson first.
    assert [line for line in lines if line.startswith("## ")] == [
        "## About this message",
        "## Worked examples",
        "## Likely misconceptions",
        "## Practice questions",
    ]
    assert packet.context.index("## About") < packet.context.index(f"[{LESSON.id}]")


async def test_only_the_items_are_citable_and_the_filter_keeps_working() -> None:
    packet = await _packet()
    cited = {LESSON.id, *(h.id for h in HITS)}
    assert citable_ids(packet) == cited
    # No line of what is known reads as an item: none opens with a bracket.
    known = packet.context.split("\n\n")[0].splitlines()
    assert not any(line.startswith("[") for line in known)
    checked = CitationFilter(citable_ids(packet))
    text = checked.feed(f"Columns [{MISCONCEPTION}], grade [ccss:2.NBT.B.5].") + checked.finish()
    assert text == f"Columns [{MISCONCEPTION}], grade."
    assert checked.cited == [MISCONCEPTION] and checked.removed == ["ccss:2.NBT.B.5"]


async def test_the_figure_description_is_left_out_of_the_context_only() -> None:
    packet = await _packet()
    assert "The figure shows" not in packet.context
    assert "43 - 26 = 17" in packet.context  # the rows it described stay
    assert ALT in packet.lessons[0].text  # the packet's own hit keeps it


@pytest.mark.parametrize(
    ("check", "findings", "says"),
    [
        (
            AnswerCheck(problem="52 - 38", student_answer="14", correct=True, correct_answer="14"),
            (),
            "Answer check: the student's answer to 52 - 38 is 14, which is right.",
        ),
        (
            AnswerCheck(student_answer="26", missing=["problem"]),
            (),
            "Answer check: the student's answer is 26; the message gives no problem to check "
            "it against.",
        ),
        (
            AnswerCheck(problem="52 - 38", missing=["answer"]),
            (),
            "Answer check: the problem is 52 - 38; the message gives no answer to check.",
        ),
    ],
)
async def test_each_answer_check_is_stated_as_it_is(
    check: AnswerCheck, findings: tuple[DiagnosisFinding, ...], says: str
) -> None:
    packet = await _packet(check=check, findings=findings)
    assert says in packet.context.splitlines()
    assert "Diagnosis:" not in packet.context


async def test_the_requests_grade_is_stated_as_given() -> None:
    grade = GradeInfo(grade="2", band="K-2", source="request")
    packet = await _packet(grade=grade, check=None, findings=())
    assert packet.context.splitlines()[1:3] == [
        f"Topic: Common Core 2.NBT.B.5: {STATEMENT}",
        "Grade: 2 (given with the request)",
    ]
    assert "Answer check" not in packet.context


def test_a_misconception_no_hit_holds_is_named_by_its_id_and_rules_are_grouped() -> None:
    other = FINDING.model_copy(update={"misconception_id": "eedi:misconception:7"})
    lines = [k.text for k in known_lines([], GradeInfo(), WRONG, [FINDING, other], HITS)]
    assert lines == [
        "Answer check: the student's answer to 52 - 38 is 26, which is wrong; the right answer "
        "is 14.",
        f"Diagnosis: {EXPLANATION}. The misconceptions that give 26: Subtracts the smallest "
        "digit from the largest digit; eedi:misconception:7.",
    ]


@pytest.mark.parametrize("budget", [0, 6, 12, 30, 45, 60, 90, 120, 200, 1500])
async def test_the_whole_context_keeps_its_budget_and_the_known_lines_their_order(
    budget: int,
) -> None:
    packet = await _packet(budget=budget)
    assert len(packet.context.split()) <= budget
    order = ["Topic:", "Grade band:", "Answer check:", "Diagnosis:"]
    known = packet.context.split("\n\n")[0].splitlines()
    shown = [o for line in known for o in order if line.startswith(o)]
    assert shown == [o for o in order if o in shown]  # in their order, whatever fits
    assert " …" not in "".join(k for k in known if not k.startswith("Topic:"))  # facts whole
    if budget >= 60:  # the answer check goes in first, the topic's statement last
        assert "the right answer is 14." in packet.context
        # The known lines take at most half: the best item still shows.
        assert f"[{LESSON.id}]" in packet.context
    if budget >= 200:
        assert shown == order


async def test_a_packet_that_matched_nothing_says_only_that() -> None:
    scope = ScopeInfo(applied=True, in_scope=0.01, threshold=0.32)
    packet = await _packet(scope=scope, check=None, findings=())
    assert packet.no_match
    assert packet.context == (
        "## No match\nNothing in the curriculum matches this message, so there is nothing to "
        f"answer from ({packet.no_match_reason})."
    )
    assert citable_ids(packet) == set()
    assert (await _packet(scope=scope, budget=0)).context == ""


def test_no_match_context_keeps_its_budget() -> None:
    reason = "no_content: nothing in the index matched the message"
    words = Words().count_tokens
    assert no_match_context(reason, count_tokens=words, max_tokens=0) == ""
    short = no_match_context(reason, count_tokens=words, max_tokens=10)
    assert short.startswith("## No match\nNothing") and short.endswith(" …")
    assert words(short) <= 10


def test_known_lines_alone_make_a_context() -> None:
    known = [Known("A b.", 1), Known("C d e f g h.", 0)]
    ctx = assemble_context([], count_tokens=Words().count_tokens, max_tokens=100, known=known)
    assert ctx == "## About this message\nA b.\nC d e f g h."
    # Short of room, the line kept first goes in, and the order stays.
    ctx = assemble_context([], count_tokens=Words().count_tokens, max_tokens=12, known=known)
    assert ctx == "## About this message\nC d e f g h."


@pytest.mark.parametrize(
    ("hit_id", "text", "shown"),
    [
        # Eedi's picture, a bracket inside it too: the question says a picture was there.
        (
            "eedi:question:1",
            "Find p. [image: A triangle with angles 49 and p [not to scale]] A: 51",
            "Find p. (image) A: 51",
        ),
        ("eedi:question:2", "[IMAGE: a bar model]", "(image)"),
        # OpenStax: the description's own line goes, the steps stay.
        (
            "openstax:m1:example:e1",
            "Solve.\nStep 1 | x = 3\nThis figure has two columns. The first says x equals 3.",
            "Solve.\nStep 1 | x = 3",
        ),
        (
            "openstax:m1:example:e2",
            "Round 843.\nThe image shows 843 with the tens place labelled.\nIt is 840.",
            "Round 843.\nIt is 840.",
        ),
        # A text that is only a description keeps it: there is nothing else to read.
        (
            "openstax:m1:chunk:3",
            "The image shows 78 divided by 3.",
            "The image shows 78 divided by 3.",
        ),
        # Prose that merely mentions a figure, and other sources' lines, stay.
        (
            "openstax:m1:chunk:4",
            "In the figure, the circle has three equal parts.\nThe graph of y = 2x is a line.",
            "In the figure, the circle has three equal parts.\nThe graph of y = 2x is a line.",
        ),
        (
            "local:notes:1",
            "Warm-up.\nThe image shows a clock.",
            "Warm-up.\nThe image shows a clock.",
        ),
    ],
)
def test_figure_descriptions_are_left_out(hit_id: str, text: str, shown: str) -> None:
    assert without_figure_text(hit_id, text) == shown


def test_the_topic_is_the_standard_the_slots_lead_with_when_it_is_linked() -> None:
    first = LinkedConcept(
        id="ccss:2.OA.A.1", taxonomy="common-core", name="2.OA.A.1", description="Word problems."
    )
    linked = [first, STANDARD]
    topic = next(k.text for k in known_lines(linked, GradeInfo(), None, [], [], STANDARD.id))
    assert topic.startswith("Topic: Common Core 2.NBT.B.5:")
    # Not linked, or no lead: the first linked standard.
    for lead in ("ccss:9.ZZ.A.1", None):
        topic = next(k.text for k in known_lines(linked, GradeInfo(), None, [], [], lead))
        assert topic == "Topic: Common Core 2.OA.A.1: Word problems."

"""The packet's context through the real pipeline (real MiniLM, real Chroma, the session
index, the bundled scope model and bug rules; issue 62, part 5): a stated wrong answer's
context says what is known first (the topic, the grade, that the answer is wrong and what is
right, the diagnosis), then the items an answer cites; an off-topic message's context holds
no content, only that nothing matched and why.

The session index holds the Eedi slice's misconceptions only, and a diagnosis names only a
misconception the index holds: "52 - 38 = 26" is checked here (26 is wrong, 14 is right),
and the diagnosis sentence on an answer whose misconception the slice holds (0.6 x 0.2)."""

from __future__ import annotations

import pytest
from tests.conftest import index_retriever

from tutorgraph.confidence.scope import ScopeModel
from tutorgraph.diagnosis.diagnose import Diagnoser
from tutorgraph.retrieval.factory import bundled_scope_path
from tutorgraph.retrieval.loaded import Loaded
from tutorgraph.synthesis.citations import citable_ids
from tutorgraph_client.models.packet import ReasoningPacket
from tutorgraph_client.models.request import RetrievalRequest

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def scoped(opened_index, embedder):  # type: ignore[no-untyped-def]
    return index_retriever(
        opened_index,
        embedder,
        scope=Loaded.of(ScopeModel.load(bundled_scope_path())),
        diagnoser=Diagnoser.bundled(),
    )


def _known(packet: ReasoningPacket) -> list[str]:
    """The context's first block, what the packet knows; it cites nothing."""
    block, _, rest = packet.context.partition("\n\n")
    lines = block.splitlines()
    assert lines[0] == "## About this message" and rest.startswith("## ")
    assert not any(line.startswith("[") for line in lines)
    return lines[1:]


async def test_a_stated_wrong_answer_is_said_to_be_wrong_with_the_right_answer(scoped) -> None:  # type: ignore[no-untyped-def]
    request = RetrievalRequest(query="I did 52 - 38 and got 26", grade="2")
    packet = await scoped.retrieve(request)
    assert not packet.no_match
    known = _known(packet)
    assert (
        "Answer check: the student's answer to 52 - 38 is 26, which is wrong; the right answer "
        "is 14."
    ) in known
    # The topic (the first linked standard) and the request's grade come first.
    standard = next(c for c in packet.concepts if c.taxonomy == "common-core")
    assert known[0].startswith(f"Topic: Common Core {standard.name}: ")
    assert known[1] == "Grade: 2 (given with the request)"
    # The items are cited as before.
    assert citable_ids(packet) and all(f"[{i}]" in packet.context for i in citable_ids(packet))


async def test_a_diagnosed_answer_states_the_rule_and_its_misconception(scoped) -> None:  # type: ignore[no-untyped-def]
    packet = await scoped.retrieve(RetrievalRequest(query="I did 0.6 x 0.2 and got 1.2"))
    (finding, *_) = packet.diagnosis
    misconception = next(h for h in packet.results if h.id == finding.misconception_id)
    known = _known(packet)
    assert packet.answer_check is not None and packet.answer_check.problem == "0.6 × 0.2"
    assert (
        "Answer check: the student's answer to 0.6 × 0.2 is 1.2, which is wrong; the right "
        "answer is 0.12."
    ) in known
    diagnosis = next(line for line in known if line.startswith("Diagnosis: "))
    assert diagnosis.startswith(f"Diagnosis: {finding.explanation.rstrip('.')}. ")
    assert misconception.text.rstrip(".") in diagnosis
    # The misconception is also a cited item, under its id.
    assert f"[{misconception.id}] " in packet.context


async def test_an_off_topic_context_holds_no_content(scoped) -> None:  # type: ignore[no-untyped-def]
    packet = await scoped.retrieve(
        RetrievalRequest(query="hey whats up, can we talk about football")
    )
    assert packet.no_match and packet.results  # the hits stay, for the app to decide
    assert packet.context == (
        "## No match\nNothing in the curriculum matches this message, so there is nothing to "
        f"answer from ({packet.no_match_reason})."
    )
    assert citable_ids(packet) == set()

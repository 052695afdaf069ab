"""A dialogue's topic for its latest turn: new, carried or changed, and the session's
Common Core standard before the turn.

- **new**: no earlier turn was maths (the window is empty): the turn is linked alone.
- **carried**: the turn leans on the dialogue ("12?", "idk", chit-chat): it was linked with
  the session's window, whose first standard is the session's; or it stands alone (its own
  problem or topic) and the session's domain (grade and domain: `3.OA`) is still that of
  one of its first `KEPT_WITHIN` standards ("what about 8 x 7?" after 7 x 6).
- **changed**: it stands alone and none of them is in the session's domain ("can you help
  with fractions now" after 7 x 6); for a turn that asks for a topic it names, its first
  standard alone ("can u do money instead" after skip-counting: 2.MD, not 2.NBT); the first
  reply to a tutor's turn that announces a change ("Let's switch to shapes."). The
  session's standard is the window's own first standard, linked apart (one more encoder
  pass, only for a turn that stands alone).

A domain within the first `KEPT_WITHIN` (3), not the first standard itself: a short new
problem's first standard is often a neighbour of the session's, or a poor link ("what
about 8 x 7? is it 54" links 7.EE.B.4.a first and 3.OA.A.4 second, after 3.OA.A.1 for
"what is 7 x 6?"), and moving the topic on such a difference would lose the session for
nothing. Chosen by reading such examples, not tuned on any dialogue set.

>>> from tutorgraph_client.models.packet import LinkedConcept
>>> linked = [LinkedConcept(id="ccss:3.OA.C.7", taxonomy="common-core", name="x")]
>>> dialogue_topic(carried=True, linked=linked, session=None)
Topic(state='carried', standard='ccss:3.OA.C.7')
>>> dialogue_topic(carried=False, linked=linked, session="ccss:4.NF.B.3")
Topic(state='changed', standard='ccss:4.NF.B.3')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tutorgraph.linking.linker import STRUCTURED as COMMON_CORE
from tutorgraph_client.models.conversation import TopicState
from tutorgraph_client.models.packet import LinkedConcept

__all__ = ["KEPT_WITHIN", "NEW_TOPIC", "Topic", "dialogue_topic"]

KEPT_WITHIN = 3


@dataclass(frozen=True)
class Topic:
    """The turn's topic (`DialogueInfo.topic`) and the session's standard before it
    (`DialogueInfo.topic_standard`, None when it had none)."""

    state: TopicState
    standard: str | None


NEW_TOPIC = Topic("new", None)


def _standards(linked: Sequence[LinkedConcept]) -> list[str]:
    return [c.id for c in linked if c.taxonomy == COMMON_CORE]


def _domain(standard: str) -> str:
    """A standard's grade and domain: `ccss:3.OA.A.1` is `3.OA`."""
    return ".".join(standard.rpartition(":")[2].split(".")[:2])


def dialogue_topic(
    *,
    carried: bool,
    linked: Sequence[LinkedConcept],
    session: str | None,
    asked: bool = False,
    announced: bool = False,
) -> Topic:
    """The topic of a turn of a dialogue that had one (see the module's docstring):
    `carried`, the turn was linked with the window (its first standard is the session's);
    else `session`, the window's own first standard, against the turn's `linked`. A turn
    that `asked` for a topic it names ("can u do money instead") is read by its first
    standard alone: the student said what the topic is. The first reply to a tutor's turn
    that `announced` a change ("Let's switch to shapes.") has a `changed` topic."""
    standards = _standards(linked)
    if carried and announced:
        return Topic("changed", None)  # the tutor said so; the standard before is not linked
    if carried:
        return Topic("carried", standards[0] if standards else session)
    within = standards[:1] if asked else standards[:KEPT_WITHIN]
    if session is not None and _domain(session) in {_domain(s) for s in within}:
        return Topic("carried", session)
    return Topic("changed", session)

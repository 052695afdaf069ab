"""Why an app should say "I'm not sure": the packet's `no_match_reason`, a code and a
sentence (``code: sentence (figures)``), or None.

- ``not_english``: the message reads as another language (`refinement/language.py`). Only
  English is supported, so every such message is flagged; it is ``not_english`` whenever
  it reads as maths (`refinement/foreign_maths.py`: an expression, numbers with an
  operation word, a maths word of its language), or the scope model reads it as in scope,
  or there is no scope model.
- ``off_topic``: the scope model reads the message as not school math the curriculum
  covers (`in_scope` below its threshold), and, when it is not English, nothing of maths
  survives the language: the English scope model cannot read "¿cuánto es 3/4 más 1/2?",
  which is maths in Spanish, not off-topic.
- ``no_content``: nothing in the index matched the message.
- ``chit_chat``: in a dialogue (the request's `conversation`), the turn is a social remark,
  a request to stop or an off-topic remark (`refinement/turn_kinds.py`); it comes first,
  and the packet's concepts are the session's topic, linked from the dialogue before it.

>>> no_match_reason(state)  # doctest: +SKIP
'not_english: the message reads as maths in Spanish, and only English is supported (language es)'
"""

from __future__ import annotations

from tutorgraph.refinement.foreign_maths import reads_as_maths
from tutorgraph.refinement.language import LANGUAGE_NAMES
from tutorgraph.retrieval.state import RequestState

__all__ = ["no_match_reason"]


def no_match_reason(state: RequestState) -> str | None:
    """The packet's `no_match_reason` for a request whose stages have all run (see the
    module's docstring), or None when the packet needs no flag."""
    dialogue = state.facts.dialogue
    if dialogue is not None and dialogue.kind.chit_chat:
        return (
            "chit_chat: the turn reads as a social remark, a request to stop or an off-topic "
            "remark, not maths (the concepts are the session's topic)"
        )
    info, language = state.scope_info, state.language
    in_scope, threshold = info.in_scope, info.threshold
    below = in_scope is not None and threshold is not None and in_scope < threshold
    if not language.english:
        maths = reads_as_maths(state.request.query, language.detected)
        if maths or not below:
            return _not_english(language.detected, maths=maths)
    if below:
        return (
            f"off_topic: the message does not read as school math the curriculum covers "
            f"(in_scope {in_scope:.2f} < {threshold:.2f})"
        )
    if not state.hits and not state.lessons and not state.linked:
        return "no_content: nothing in the index matched the message"
    return None


def _not_english(code: str | None, *, maths: bool) -> str:
    name = LANGUAGE_NAMES.get(code or "")
    if maths:
        reads = f"reads as maths in {name or 'a language other than English'}"
    else:
        reads = f"reads as {name}" if name else "does not read as English"
    return (
        f"not_english: the message {reads}, and only English is supported "
        f"(language {code or 'unknown'})"
    )

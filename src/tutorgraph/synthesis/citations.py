"""Citation checking: every `[id]` an answer cites must name an item of its packet's context.

A citation to anything else is removed from the text and reported. It works on a stream:
text that may still open a citation (an unclosed `[`) is held back until it is decided.

>>> f = CitationFilter({"eedi:misconception:1"})
>>> f.feed("Compare denominators [eedi:misconc") + f.feed("eption:1] and [made:up].") + f.finish()
'Compare denominators [eedi:misconception:1] and.'
>>> f.removed
['made:up']
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from tutorgraph_client.models.packet import ReasoningPacket

__all__ = ["CitationFilter", "citable_ids"]

# An id is namespaced (`ccss:...`, `eedi:...`, `openstax:...`, `local:...`), which keeps
# math in brackets ([0, 1], [x]) from being read as a citation.
_CITATION = re.compile(r"( ?)\[([A-Za-z][\w.-]*:[^\[\]\s]+)\]")
_CONTEXT_ID = re.compile(r"^\[([^\]\s]+)\]", re.M)
# A held-back `[` longer than this cannot be a citation any more.
_MAX_HELD = 200


def citable_ids(packet: ReasoningPacket) -> set[str]:
    """The ids the context shows, with every id merged into those hits."""
    shown = set(_CONTEXT_ID.findall(packet.context))
    return {i for h in packet.results if h.id in shown for i in h.ids} | shown


class CitationFilter:
    """Removes citations outside `allowed` from streamed text; `cited` and `removed` keep
    the ids seen, each once, in order."""

    def __init__(self, allowed: Iterable[str]) -> None:
        self._allowed = set(allowed)
        self._held = ""
        self.cited: list[str] = []
        self.removed: list[str] = []

    def feed(self, delta: str) -> str:
        """The part of the text so far that is decided, with bad citations removed."""
        text = self._held + delta
        start = text.rfind("[")
        if start != -1 and "]" not in text[start:] and len(text) - start <= _MAX_HELD:
            # Hold a space before it too: it goes if the citation does.
            start -= 1 if start and text[start - 1] == " " else 0
            text, self._held = text[:start], text[start:]
        else:
            self._held = ""
        return self._clean(text)

    def finish(self) -> str:
        """Whatever was held back, decided now that the text has ended."""
        text, self._held = self._held, ""
        return self._clean(text)

    def _clean(self, text: str) -> str:
        def check(m: re.Match[str]) -> str:
            found = m.group(2)
            if found in self._allowed:
                if found not in self.cited:
                    self.cited.append(found)
                return m.group(0)
            if found not in self.removed:
                self.removed.append(found)
            return ""

        return _CITATION.sub(check, text)

"""CNXML rendered as text: inline runs (math, emphasis, links) and blocks (paragraphs,
notes, lists, tables, figures, definitions) as lines."""

from __future__ import annotations

from typing import Any

from tutorgraph.ingest.openstax._cnxml import (
    _C,
    _DROPPED_NOTES,
    _INLINE,
    _MATH_TAG,
    _NOT_RENDERED,
    _local,
)
from tutorgraph.ingest.openstax._text import _clean, _nonempty
from tutorgraph.mathtext.mathml import mathml_to_text

__all__ = ["_BlockRenderer", "_InlineRenderer"]

_LINK_TARGET_WORDS = {
    "figure": "the figure",
    "table": "the table",
    "example": "the example",
    "exercise": "the exercise",
    "equation": "the equation",
}
_ORDINAL_SUP = frozenset({"st", "nd", "rd", "th"})


class _InlineRenderer:
    """Inline text: math, emphasis, links (filled in from module titles and target kinds)."""

    def __init__(self, titles: dict[str, str], targets: dict[str, str]) -> None:
        self.titles = titles
        self.targets = targets

    def inline(self, el: Any) -> str:
        """Text of an element read as part of a line."""
        tag = _local(el)
        if el.tag == _MATH_TAG:
            return mathml_to_text(el)
        if not tag or tag in _NOT_RENDERED:
            return ""
        if tag == "link":
            return self._link(el)
        if tag in {"newline", "space"}:
            return " "
        inner = self.inline_children(el)
        if tag == "sup":
            text = inner.strip()
            return text if text in _ORDINAL_SUP else f"^{text}"
        if tag == "sub":
            return f"_{inner.strip()}"
        if tag == "list":
            return " " + "; ".join(_clean(self.inline_children(i)) for i in el) + " "
        return inner

    def inline_children(self, el: Any) -> str:
        parts = [el.text or ""]
        for child in el:
            parts.append(self.inline(child))
            parts.append(child.tail or "")
        return "".join(parts)

    def _link(self, el: Any) -> str:
        text = self.inline_children(el)
        if text.strip():
            return text
        document = el.get("document")
        if document:
            return self.titles.get(document, "")
        target = el.get("target-id")
        if target:
            return _LINK_TARGET_WORDS.get(self.targets.get(target, ""), "")
        return ""


class _BlockRenderer(_InlineRenderer):
    """Block text: each paragraph, list item and table row a line; examples and exercises
    are left to the reader that collects them."""

    def blocks(self, el: Any) -> list[str]:
        """Lines (paragraphs, list items, table rows) of a block element, examples excluded."""
        tag = _local(el)
        if el.tag == _MATH_TAG:
            return _nonempty([mathml_to_text(el)])
        if not tag or tag in _NOT_RENDERED or tag in {"example", "exercise"}:
            return []
        if tag == "note":
            if el.get("class") in _DROPPED_NOTES:
                return []
            return self._titled(el)
        if tag == "section":
            return self._titled(el)
        if tag == "list":
            return self._list(el)
        if tag == "table":
            return self._table(el)
        if tag == "figure":
            return [b for c in el if _local(c) == "caption" for b in self.flow(c)]
        if tag == "definition":
            term = _clean("".join(self.inline(t) for t in el if _local(t) == "term"))
            meaning = [b for m in el if _local(m) == "meaning" for b in self.flow(m)]
            if term and meaning:
                return [f"{term}: {meaning[0]}", *meaning[1:]]
            return _nonempty([term, *meaning])
        return self.flow(el)

    def flow(self, el: Any) -> list[str]:
        """Mixed content: runs of inline text become lines, block children their own lines."""
        out: list[str] = []
        buf: list[str] = [el.text or ""]

        def flush() -> None:
            line = _clean("".join(buf))
            if line:
                out.append(line)
            buf.clear()

        for child in el:
            tag = _local(child)
            if child.tag == _MATH_TAG or tag in _INLINE or tag == "link" or tag == "space":
                buf.append(self.inline(child))
            elif tag == "newline":
                flush()
            elif tag:
                flush()
                out.extend(self.blocks(child))
            buf.append(child.tail or "")
        flush()
        return out

    def _titled(self, el: Any) -> list[str]:
        title = self.title_of(el)
        return _nonempty([title, *self.flow(el)])

    def title_of(self, el: Any) -> str:
        title = el.find(f"{_C}title")
        return _clean(self.inline_children(title)) if title is not None else ""

    def _list(self, el: Any) -> list[str]:
        out: list[str] = []
        style = el.get("number-style", "arabic")
        enumerated = el.get("list-type") == "enumerated" and "circled" not in (
            el.get("class") or ""
        )
        n = 0
        for item in el:
            if _local(item) != "item":
                continue
            lines = self.flow(item)
            if not lines:
                continue
            n += 1
            if enumerated:
                lines[0] = f"{_number_label(n, style)}. {lines[0]}"
            out.extend(lines)
        return out

    def _table(self, el: Any) -> list[str]:
        out: list[str] = []
        for row in el.iterfind(f"{_C}tgroup/*/{_C}row"):
            cells = [" ".join(self.flow(entry)) for entry in row if _local(entry) == "entry"]
            line = " | ".join(c for c in cells if c)
            if line:
                out.append(line)
        label = _clean(el.get("aria-label") or "")
        if label and el.find(f".//{_C}media") is not None:
            out.append(label)  # the image's content in words
        caption = el.find(f"{_C}caption")
        if caption is not None:
            out.extend(self.flow(caption))
        return out


def _number_label(n: int, style: str) -> str:
    if style == "lower-alpha":
        return chr(ord("a") + (n - 1) % 26)
    if style == "upper-alpha":
        return chr(ord("A") + (n - 1) % 26)
    return str(n)

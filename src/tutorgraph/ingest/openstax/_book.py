"""The book as its files give it: the collections' module order and chapters, and each
module's parsed CNXML with its title and class."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lxml import etree

from tutorgraph.ingest.openstax._cnxml import _C, _MD, _local
from tutorgraph.ingest.openstax._render import _InlineRenderer
from tutorgraph.ingest.openstax._text import _clean

__all__ = ["_Book", "_Module", "_parse_module", "_read_collections"]


@dataclass
class _Book:
    """What the collection files say: module order and the chapter of each module."""

    order: list[str] = field(default_factory=list)
    seen: set[str] = field(default_factory=set)
    chapter: dict[str, tuple[str, int]] = field(default_factory=dict)
    chapter_modules: dict[tuple[str, int], list[str]] = field(default_factory=dict)
    chapter_titles: dict[tuple[str, int], str] = field(default_factory=dict)


def _read_collections(root: Path) -> _Book:
    book = _Book()
    for path in sorted((root / "collections").glob("*.collection.xml")):
        _walk_collection(etree.parse(str(path)).getroot(), book, path.name, None)
    return book


def _walk_collection(el: Any, book: _Book, name: str, chapter: tuple[str, int] | None) -> None:
    for child in el:
        tag = _local(child)
        if tag == "module":
            module = child.get("document")
            if not module or module in book.seen:
                continue  # the first listing wins
            book.seen.add(module)
            book.order.append(module)
            if chapter is not None:
                book.chapter[module] = chapter
                book.chapter_modules.setdefault(chapter, []).append(module)
        elif tag == "subcollection":
            # A nested subcollection (a unit) would make its innermost level the chapter.
            key = (name, len(book.chapter_titles))
            book.chapter_titles[key] = _clean(child.findtext(f"{_MD}title") or "")
            _walk_collection(child, book, name, key)
        elif tag == "content":
            _walk_collection(child, book, name, chapter)


@dataclass
class _Module:
    module_id: str
    root: Any
    title: str
    cls: str | None


def _parse_module(root: Path, module_id: str) -> _Module:
    path = root / "modules" / module_id / "index.cnxml"
    if not path.is_file():
        raise FileNotFoundError(f"{path}: listed in a collection but missing")
    doc = etree.parse(str(path)).getroot()
    title_el = doc.find(f"{_C}title")
    # Titles can hold math and superscripts ("Factor Trinomials of the Form x^2 + bx + c").
    renderer = _InlineRenderer({}, {})
    title = _clean(renderer.inline_children(title_el)) if title_el is not None else ""
    if not title:
        title = _clean(doc.findtext(f".//{_MD}title") or module_id)
    return _Module(module_id, doc, title, doc.get("class"))

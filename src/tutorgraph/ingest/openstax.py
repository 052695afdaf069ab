"""OpenStax CNXML books to curriculum records: section concepts, "Be Prepared" edges, documents.

Input is an OpenStax book bundle: `collections/*.collection.xml` list the modules of each book
in order (chapters are `subcollection`s) and `modules/mNNNNN/index.cnxml` hold the text, with
math as MathML (converted by `tutorgraph.mathtext.mathml`).

Output (design section 4):

* one `section` concept per chapter section (prefaces, chapter introductions and appendices are
  not sections), described by its "you will be able to" objectives;
* `prepares_for` edges from each "Be Prepared" readiness-quiz link to the section it names;
* documents: explanation chunks (the prose, packed paragraph by paragraph under a token
  budget), worked examples (`<example>`) and exercises (`<exercise>`, with their solution when
  the book gives one). The readiness-quiz exercises are left out: they test an earlier section
  and are already captured by the edges. Chapter review exercises are filed under the section
  their review block names; practice-test exercises under every section of the chapter.

Images are dropped; a table that holds images keeps its accessible description (`aria-label`),
which is often the only account of a worked solution's steps.

>>> records = load_openstax(Path("tests/data/openstax"), count_tokens=len)  # doctest: +SKIP
>>> records.concepts[0].id  # doctest: +SKIP
'openstax:section:m81244'
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lxml import etree

from tutorgraph.mathtext.mathml import MATHML_NS, mathml_to_text
from tutorgraph.models.curriculum import Concept, Document, DocumentKind, Prerequisite
from tutorgraph.models.records import SourceRecords

__all__ = [
    "OPENSTAX_LICENSE",
    "OPENSTAX_SOURCE",
    "OpenStaxStats",
    "load_openstax",
    "section_id",
]

OPENSTAX_SOURCE = "openstax"
OPENSTAX_LICENSE = "CC-BY-4.0"

_CNXML_NS = "http://cnx.rice.edu/cnxml"
_COLLXML_NS = "http://cnx.rice.edu/collxml"
_MDML_NS = "http://cnx.rice.edu/mdml"
_C = "{" + _CNXML_NS + "}"
_COL = "{" + _COLLXML_NS + "}"
_MD = "{" + _MDML_NS + "}"
_MATH_TAG = "{" + MATHML_NS + "}math"

# Module classes that are not sections of a chapter.
_NON_SECTION_CLASSES = frozenset({"introduction", "preface", "appendix"})
# Notes that carry no subject matter: pointers to videos, manipulatives, reading activities;
# "be-prepared" holds the readiness quiz, which becomes edges instead of text.
_DROPPED_NOTES = frozenset(
    {
        "be-prepared",
        "media",
        "media-2",
        "manipulative-math",
        "links-to-literacy",
        "links-to-learning",
    }
)
_EXERCISE_SECTIONS = frozenset({"section-exercises", "review-exercises", "practice-test"})
_NOT_RENDERED = frozenset({"media", "image", "label", "title", "metadata", "colspec", "glossary"})
_INLINE = frozenset(
    {"emphasis", "term", "span", "foreign", "cite", "cite-title", "code", "quote", "sup", "sub"}
)
_LINK_TARGET_WORDS = {
    "figure": "the figure",
    "table": "the table",
    "example": "the example",
    "exercise": "the exercise",
    "equation": "the equation",
}
_ORDINAL_SUP = frozenset({"st", "nd", "rd", "th"})
_TEXT_MAP = str.maketrans(
    {chr(0x24D0 + i): f"({chr(ord('a') + i)})" for i in range(26)}
    | {chr(0x24B6 + i): f"({chr(ord('A') + i)})" for i in range(26)}
    | {chr(0x2460 + i): f"({i + 1})" for i in range(20)}
    # The minus sign typed as prose ("7 − 0 = 7") is spelled like the converted math.
    | {"−": "-", "\u00a0": " ", "\u200b": "", "\u2009": " ", "\u2003": " ", "\u2002": " "}
)
_SENTENCE_END = re.compile(r"(?<=[.!?:;])\s+(?=\S)")
_CHUNK_SEP = "\n"
_TITLE_SEP = " — "


def section_id(module_id: str) -> str:
    """The concept id of an OpenStax section module.

    >>> section_id("m81244")
    'openstax:section:m81244'
    """
    return f"openstax:section:{module_id}"


def _local(el: Any) -> str:
    tag = el.tag
    if not isinstance(tag, str):
        return ""
    return tag.rsplit("}", 1)[-1]


def _clean(text: str) -> str:
    return " ".join(text.translate(_TEXT_MAP).split())


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


@dataclass(frozen=True)
class _Context:
    """Where an example or exercise sits: the titles above it and the concepts it serves."""

    titles: tuple[str, ...]
    concept_ids: tuple[str, ...]
    exercise_section: bool = False


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


class _ModuleReader(_InlineRenderer):
    """Renders one section module into documents and edges."""

    def __init__(
        self,
        module: _Module,
        *,
        titles: dict[str, str],
        sections: set[str],
        chapter_sections: list[str],
        chapter_title: str,
    ) -> None:
        targets: dict[str, str] = {}
        for el in module.root.iter():
            el_id = el.get("id") if isinstance(el.tag, str) else None
            if el_id:
                targets.setdefault(el_id, _local(el))
        super().__init__(titles, targets)
        self.module = module
        self.sections = sections
        self.chapter_sections = chapter_sections
        self.chapter_title = chapter_title
        self.concept = section_id(module.module_id)
        self.examples: list[Document] = []
        self.exercises: list[Document] = []
        self.skipped_empty = 0
        self.quiz_exercises = 0

    # ---- block rendering -------------------------------------------------------------------

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

    # ---- examples and exercises -----------------------------------------------------------

    def collect(self, el: Any, ctx: _Context) -> None:
        """Find examples and exercises under `el` in document order."""
        instruction = ""
        heading = ""
        for child in el:
            tag = _local(child)
            if not tag:
                continue
            if tag == "example":
                self._add_example(child, ctx)
            elif tag == "exercise":
                self._add_exercise(child, ctx, heading, instruction)
            elif tag == "note" and child.get("class") in _DROPPED_NOTES:
                if child.get("class") == "be-prepared":
                    self.quiz_exercises += sum(1 for _ in child.iter(f"{_C}exercise"))
            elif tag == "section":
                self.collect(child, self._section_context(child, ctx))
            elif tag == "para" and ctx.exercise_section:
                # In exercise sets a bold line names the topic and the next paragraph says
                # what to do ("In the following exercises, add."); both belong to the items.
                text = _clean(self.inline_children(child))
                if _is_heading(child):
                    heading, instruction = text, ""
                elif text:
                    instruction = text
                self.collect(child, ctx)
            else:
                self.collect(child, ctx)

    def _section_context(self, sec: Any, ctx: _Context) -> _Context:
        cls = sec.get("class") or ""
        title = self.title_of(sec)
        if cls == "review-exercises":
            return _Context(
                (title or "Chapter Review Exercises",),
                tuple(self.chapter_sections),
                exercise_section=True,
            )
        if cls == "practice-test":
            return _Context(
                (title or "Practice Test",), tuple(self.chapter_sections), exercise_section=True
            )
        concept_ids = ctx.concept_ids
        if ctx.exercise_section and len(ctx.concept_ids) > 1:
            # A chapter review block per section: its title links to that section.
            linked = [
                d
                for link in sec.iterfind(f"{_C}title/{_C}link")
                if (d := link.get("document")) in self.sections
            ]
            if linked:
                concept_ids = (section_id(linked[0]),)
        return _Context(
            (*ctx.titles, title) if title else ctx.titles,
            concept_ids,
            exercise_section=ctx.exercise_section or cls in _EXERCISE_SECTIONS,
        )

    def _doc_title(self, ctx: _Context, *extra: str) -> str:
        parts = [p for p in (*ctx.titles, *extra) if p]
        if ctx.concept_ids == (self.concept,):
            head = [self.module.title]
        elif len(ctx.concept_ids) == 1:
            head = [self.titles.get(ctx.concept_ids[0].rsplit(":", 1)[-1], "")]
        else:
            head = [self.chapter_title]
        # The innermost heading is the informative one; the outer ones are in the concept.
        inner = parts[-1:] if parts and parts[-1] not in head else []
        return _TITLE_SEP.join(p for p in [*head, *inner] if p)

    def _problem_solution(self, exercise: Any) -> tuple[list[str], list[str]]:
        problem: list[str] = []
        solution: list[str] = []
        for part in exercise:
            tag = _local(part)
            if tag == "problem":
                problem.extend(self.flow(part))
            elif tag == "solution":
                lines = self.flow(part)
                if lines:
                    solution.extend([f"Solution: {lines[0]}", *lines[1:]])
            elif tag and tag not in _NOT_RENDERED:
                problem.extend(self.blocks(part))
        return problem, solution

    def _add_example(self, el: Any, ctx: _Context) -> None:
        title = self.title_of(el)
        lines: list[str] = _nonempty([title])
        for child in el:
            if _local(child) == "exercise":
                problem, solution = self._problem_solution(child)
                lines.extend(problem + solution)
            else:
                lines.extend(self.blocks(child))
        self._emit(self.examples, "worked_example", "example", el, ctx, lines, title)

    def _add_exercise(self, el: Any, ctx: _Context, heading: str, instruction: str) -> None:
        problem, solution = self._problem_solution(el)
        if not problem:
            # Only a picture (a graph to read, a figure to model): nothing to search.
            self.skipped_empty += 1
            return
        lines = _nonempty([instruction, *problem, *solution])
        self._emit(self.exercises, "exercise", "exercise", el, ctx, lines, heading)

    def _emit(
        self,
        sink: list[Document],
        kind: DocumentKind,
        label: str,
        el: Any,
        ctx: _Context,
        lines: list[str],
        extra_title: str,
    ) -> None:
        text = _CHUNK_SEP.join(lines)
        if not text:
            self.skipped_empty += 1
            return
        sink.append(
            Document(
                id=f"openstax:{self.module.module_id}:{label}:{el.get('id')}",
                kind=kind,
                title=self._doc_title(ctx, extra_title),
                text=text,
                concept_ids=list(ctx.concept_ids),
                source=OPENSTAX_SOURCE,
                license=OPENSTAX_LICENSE,
            )
        )

    # ---- explanation prose -----------------------------------------------------------------

    def divisions(self) -> list[tuple[str, list[str]]]:
        """(title, lines) for each run of prose: the opening, each sub-section, the glossary."""
        out: list[tuple[str, list[str]]] = []
        content = self.module.root.find(f"{_C}content")
        if content is not None:
            pending: list[str] = []
            for child in content:
                if _local(child) == "section":
                    if pending:
                        out.append(("", pending))
                        pending = []
                    if (child.get("class") or "") in _EXERCISE_SECTIONS:
                        continue
                    out.append((self.title_of(child), self.flow(child)))
                else:
                    pending.extend(self.blocks(child))
            if pending:
                out.append(("", pending))
        glossary = self.module.root.find(f"{_C}glossary")
        if glossary is not None:
            out.append(("Glossary", [b for d in glossary for b in self.blocks(d)]))
        return [(t, lines) for t, lines in out if lines]

    def prerequisites(self) -> tuple[list[str], int]:
        """Sections named by this module's "Be Prepared" links, and how many links were dropped."""
        found: list[str] = []
        dropped = 0
        for note in self.module.root.iter(f"{_C}note"):
            if note.get("class") != "be-prepared":
                continue
            for link in note.iter(f"{_C}link"):
                target = link.get("document")
                if not target:
                    continue
                if target == self.module.module_id or target not in self.sections:
                    dropped += 1
                elif target not in found:
                    found.append(target)
        return found, dropped

    def objectives(self) -> str:
        abstract = self.module.root.find(f".//{_MD}abstract")
        if abstract is None:
            return ""
        items = [_clean(self.inline_children(i)) for i in abstract.iter(f"{_C}item")]
        items = [i for i in items if i]
        if items:
            return "; ".join(items)
        return _clean(self.inline_children(abstract))


def _nonempty(lines: Iterable[str]) -> list[str]:
    return [line for line in lines if line]


def _is_heading(para: Any) -> bool:
    """A paragraph that is nothing but bold text: a topic line in an exercise set."""
    kids = [c for c in para if isinstance(c.tag, str)]
    if len(kids) != 1 or _local(kids[0]) != "emphasis":
        return False
    return not (para.text or "").strip() and not (kids[0].tail or "").strip()


def _number_label(n: int, style: str) -> str:
    if style == "lower-alpha":
        return chr(ord("a") + (n - 1) % 26)
    if style == "upper-alpha":
        return chr(ord("A") + (n - 1) % 26)
    return str(n)


def _split_long(text: str, count_tokens: Callable[[str], int], limit: int) -> list[str]:
    """Pieces of one over-long line: sentences, then words, then characters, each under limit."""
    if count_tokens(text) <= limit:
        return [text]
    for splitter in (_SENTENCE_END.split, str.split):
        parts = splitter(text)
        if len(parts) > 1:
            out: list[str] = []
            for part in parts:
                out.extend(_split_long(part, count_tokens, limit))
            return _pack(out, count_tokens, limit, sep=" ")
    # One unbreakable run (a long formula with no spaces): halve it.
    mid = len(text) // 2
    if mid == 0:
        return [text]
    return _split_long(text[:mid], count_tokens, limit) + _split_long(
        text[mid:], count_tokens, limit
    )


def _pack(
    pieces: list[str], count_tokens: Callable[[str], int], limit: int, *, sep: str
) -> list[str]:
    """Greedy packing of consecutive pieces; each pack is counted whole, so it is exact."""
    out: list[str] = []
    current: list[str] = []
    for piece in pieces:
        if current and count_tokens(sep.join([*current, piece])) > limit:
            out.append(sep.join(current))
            current = []
        current.append(piece)
    if current:
        out.append(sep.join(current))
    return out


def _chunks(lines: list[str], count_tokens: Callable[[str], int], limit: int) -> list[str]:
    pieces = [p for line in lines for p in _split_long(line, count_tokens, limit)]
    return _pack(pieces, count_tokens, limit, sep=_CHUNK_SEP)


@dataclass
class OpenStaxStats:
    """Counts worth reporting after a load (what was skipped and why)."""

    sections: int = 0
    non_sections: int = 0
    prerequisite_links_dropped: int = 0
    quiz_exercises_skipped: int = 0
    empty_skipped: int = 0


def load_openstax(
    root: Path,
    *,
    count_tokens: Callable[[str], int],
    max_chunk_tokens: int = 200,
    stats: OpenStaxStats | None = None,
) -> SourceRecords:
    """Load OpenStax CNXML books under `root` (a `collections/` and a `modules/` folder).

    `count_tokens` measures chunk size (the embedding model's tokenizer in production); every
    explanation chunk has at most `max_chunk_tokens` tokens by it. Pass `stats` to learn what
    was skipped.

    >>> words = lambda text: len(text.split())
    >>> recs = load_openstax(Path("tests/data/openstax"), count_tokens=words)  # doctest: +SKIP
    >>> sorted({d.kind for d in recs.documents})  # doctest: +SKIP
    ['exercise', 'explanation', 'worked_example']
    """
    if max_chunk_tokens < 1:
        raise ValueError("max_chunk_tokens must be positive")
    stats = stats if stats is not None else OpenStaxStats()
    book = _read_collections(root)
    modules = {m: _parse_module(root, m) for m in book.order}
    titles = {m: mod.title for m, mod in modules.items()}
    sections = {
        m for m, mod in modules.items() if mod.cls not in _NON_SECTION_CLASSES and m in book.chapter
    }
    stats.sections = len(sections)
    stats.non_sections = len(modules) - len(sections)

    records = SourceRecords()
    for module_id in book.order:
        if module_id not in sections:
            continue
        module = modules[module_id]
        chapter = book.chapter[module_id]
        reader = _ModuleReader(
            module,
            titles=titles,
            sections=sections,
            chapter_sections=[
                section_id(m) for m in book.chapter_modules[chapter] if m in sections
            ],
            chapter_title=book.chapter_titles.get(chapter, ""),
        )
        concept = reader.concept
        records.concepts.append(
            Concept(
                id=concept,
                name=module.title,
                description=reader.objectives(),
                kind="section",
                grade=None,
                parent_ids=[],
                source=OPENSTAX_SOURCE,
                license=OPENSTAX_LICENSE,
            )
        )
        prereqs, dropped = reader.prerequisites()
        stats.prerequisite_links_dropped += dropped
        records.prerequisites.extend(
            Prerequisite(
                prerequisite_id=section_id(p),
                concept_id=concept,
                relation="prepares_for",
                source=OPENSTAX_SOURCE,
            )
            for p in sorted(prereqs)
        )

        n = 0
        for division_title, lines in reader.divisions():
            title = _TITLE_SEP.join(t for t in (module.title, division_title) if t)
            for text in _chunks(lines, count_tokens, max_chunk_tokens):
                records.documents.append(
                    Document(
                        id=f"openstax:{module_id}:chunk:{n}",
                        kind="explanation",
                        title=title,
                        text=text,
                        concept_ids=[concept],
                        source=OPENSTAX_SOURCE,
                        license=OPENSTAX_LICENSE,
                    )
                )
                n += 1

        content = module.root.find(f"{_C}content")
        if content is not None:
            reader.collect(content, _Context((), (concept,)))
        records.documents.extend(reader.examples)
        records.documents.extend(reader.exercises)
        stats.quiz_exercises_skipped += reader.quiz_exercises
        stats.empty_skipped += reader.skipped_empty
    return records

"""One section module read into records: its objectives, the sections its "Be Prepared"
quiz links to, its runs of prose, and its worked examples and exercises, each filed under
the concepts it serves."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tutorgraph.ingest.openstax._book import _Module
from tutorgraph.ingest.openstax._cnxml import (
    _C,
    _DROPPED_NOTES,
    _EXERCISE_SECTIONS,
    _MD,
    _NOT_RENDERED,
    _local,
)
from tutorgraph.ingest.openstax._render import _BlockRenderer
from tutorgraph.ingest.openstax._source import OPENSTAX_LICENSE, OPENSTAX_SOURCE, section_id
from tutorgraph.ingest.openstax._text import _CHUNK_SEP, _TITLE_SEP, _clean, _nonempty
from tutorgraph_client.models.curriculum import Document, DocumentKind

__all__ = ["_Context", "_ModuleReader"]


@dataclass(frozen=True)
class _Context:
    """Where an example or exercise sits: the titles above it and the concepts it serves."""

    titles: tuple[str, ...]
    concept_ids: tuple[str, ...]
    exercise_section: bool = False


class _ModuleReader(_BlockRenderer):
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


def _is_heading(para: Any) -> bool:
    """A paragraph that is nothing but bold text: a topic line in an exercise set."""
    kids = [c for c in para if isinstance(c.tag, str)]
    if len(kids) != 1 or _local(kids[0]) != "emphasis":
        return False
    return not (para.text or "").strip() and not (kids[0].tail or "").strip()

"""`load_openstax`: the books under a folder read into concepts, edges and documents."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from tutorgraph.ingest.openstax._book import _parse_module, _read_collections
from tutorgraph.ingest.openstax._chunking import _chunks
from tutorgraph.ingest.openstax._cnxml import _C, _NON_SECTION_CLASSES
from tutorgraph.ingest.openstax._section import _Context, _ModuleReader
from tutorgraph.ingest.openstax._source import OPENSTAX_LICENSE, OPENSTAX_SOURCE, section_id
from tutorgraph.ingest.openstax._text import _TITLE_SEP
from tutorgraph.models.records import SourceRecords
from tutorgraph_client.models.curriculum import Concept, Document, Prerequisite

__all__ = ["OpenStaxStats", "load_openstax"]


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

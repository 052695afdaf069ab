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

The modules, in reading order: `_book` (collections and modules), `_render` (CNXML to text),
`_section` (one section's examples, exercises, prose and edges), `_chunking` (the token
budget), `_load` (`load_openstax`); `_cnxml`, `_text` and `_source` hold what they share.

>>> records = load_openstax(Path("tests/data/openstax"), count_tokens=len)  # doctest: +SKIP
>>> records.concepts[0].id  # doctest: +SKIP
'openstax:section:m81244'
"""

from tutorgraph.ingest.openstax._load import OpenStaxStats, load_openstax
from tutorgraph.ingest.openstax._source import OPENSTAX_LICENSE, OPENSTAX_SOURCE, section_id

__all__ = [
    "OPENSTAX_LICENSE",
    "OPENSTAX_SOURCE",
    "OpenStaxStats",
    "load_openstax",
    "section_id",
]

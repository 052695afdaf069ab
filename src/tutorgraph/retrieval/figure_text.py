"""Figure descriptions left out of the context (never out of the stored documents, which the
searches still read).

A picture's description is written for a screen reader: it restates the rows beside it in
spoken math ("x squared plus 4 x equals 0"), or describes a picture the model cannot see. It
is kept in the index (a table of images has no other account of its steps) but costs the
context a fifth of its room. Two forms reach a document's text:

- Eedi: `[image: A number line from 0 to 10 ...]` inside the question; it becomes
  `(image)`, so the question still says a picture was there.
- OpenStax: a table's `aria-label`, its own line after the table's rows, unmarked
  (`ingest/openstax/_render.py`). It is known by how such descriptions open ("This figure
  has two columns", "The image shows", "Step 1 says,"): in the bundled curriculum it finds
  832 of the 1,341 table descriptions (63% of their characters), and the 13 other lines it
  finds describe pictures too; the rest open like prose ("We are given", "Step 1 is") and
  stay.

>>> without_figure_text("eedi:question:1", "Shade 1/4. [image: A square split in 4] Which?")
'Shade 1/4. (image) Which?'
>>> without_figure_text("openstax:m1:example:e1", "Solve x + 2 = 5.\\nThe image shows x = 3.")
'Solve x + 2 = 5.'
"""

from __future__ import annotations

import re

__all__ = ["without_figure_text"]

# `[image: ...]`, whose description may hold one level of brackets ("[not to scale]").
_IMAGE = re.compile(r"\[image:(?:[^\[\]]|\[[^\[\]]*\])*\]", re.IGNORECASE)
IMAGE_MARK = "(image)"
# How a described picture's line opens (measured on the bundle: the module's docstring).
_DESCRIPTION = re.compile(
    r"^(?:"
    r"(?:This|The) (?:above )?(?:figure|image|solution image|picture|table)(?:,| (?:has|shows?|"
    r"is|begins|says|reads|contains|instructs|compares|it|consists|depicts|illustrates|"
    r"displays|lists|gives)\b)"
    r"|In this (?:image|figure)\b"
    r"|Step \d+ (?:says|reads),"
    r"|The (?:first|top) (?:line|row) (?:of the (?:figure|image|table) )?"
    r"(?:says|reads|shows|is|has|contains)\b"
    r"|The (?:text|problem|example|first step) (?:reads|says)\b"
    r"|A table (?:is|with)\b"
    r"|The example shows\b"
    r")"
)
_OPENSTAX = "openstax:"


def without_figure_text(hit_id: str, text: str) -> str:
    """`text` without its figure descriptions: `[image: ...]` spans become `(image)`, and an
    OpenStax document (`hit_id`) loses the lines that describe a picture. A text that is only
    a description is kept as it is (a table of images has no other account of its steps)."""
    out = _IMAGE.sub(IMAGE_MARK, text) if "[" in text else text
    if hit_id.startswith(_OPENSTAX):
        lines = out.split("\n")
        kept = [line for line in lines if not _DESCRIPTION.match(line.strip())]
        if kept and len(kept) < len(lines):
            out = "\n".join(kept)
    return out

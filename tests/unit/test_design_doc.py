"""docs/DESIGN.md stays a map, not a log: at most 650 lines, every relative link in it and in
the evaluation protocol (research/docs/EVALUATION.md) resolves, anchors included, the
sections other documents cite by number exist, and §2 holds the markers the stage table is
rendered between."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytestmark = pytest.mark.unit

ROOT = Path(__file__).resolve().parents[2]
DESIGN = ROOT / "docs" / "DESIGN.md"
EVALUATION = ROOT / "research" / "docs" / "EVALUATION.md"
MAX_LINES = 650
# Cited as "design section N" or "DESIGN.md §N" across the code and the docs.
CITED_SECTIONS = ("1", "2", "3", "4", "5", "5a", "6", "7", "8", "8a", "9")

_LINK = re.compile(r"\]\(([^)\s]+)\)")
_FENCE = re.compile(r"```.*?```", re.S)


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens.

    >>> _slug("## 8a. Request, packet and settings (the public contract)")
    '8a-request-packet-and-settings-the-public-contract'
    """
    text = heading.lstrip("#").strip().lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def _anchors(doc: Path) -> set[str]:
    return {_slug(line) for line in doc.read_text().splitlines() if line.startswith("#")}


def _broken_links(doc: Path) -> list[str]:
    broken = []
    for target in _LINK.findall(_FENCE.sub("", doc.read_text())):
        if re.match(r"[a-z]+:", target):
            continue
        path, _, anchor = target.partition("#")
        dest = (doc.parent / path).resolve() if path else doc
        if not dest.exists():
            broken.append(f"{target}: no such file")
        elif anchor and dest.suffix == ".md" and anchor not in _anchors(dest):
            broken.append(f"{target}: no such heading")
    return broken


def test_design_stays_under_its_line_budget() -> None:
    assert len(DESIGN.read_text().splitlines()) <= MAX_LINES


@pytest.mark.parametrize("doc", [DESIGN, EVALUATION], ids=["design", "evaluation"])
def test_every_relative_link_resolves(doc: Path) -> None:
    assert _broken_links(doc) == []


def test_the_cited_sections_exist() -> None:
    numbers = set(re.findall(r"^## (\d+a?)\. ", DESIGN.read_text(), re.M))
    assert set(CITED_SECTIONS) <= numbers


def test_design_points_at_the_evaluation_protocol() -> None:
    text = DESIGN.read_text()
    section = text[text.index("## 8. Evaluation") : text.index("## 8a.")]
    assert "../research/docs/EVALUATION.md" in section


def test_the_pipeline_section_holds_the_stage_table_markers() -> None:
    text = DESIGN.read_text()
    section = text[text.index("## 2. Pipeline") : text.index("## 3. Layout")]
    lines = section.splitlines()
    assert "<!-- stage-table:start -->" in lines
    assert "<!-- stage-table:end -->" in lines
    assert lines.index("<!-- stage-table:start -->") < lines.index("<!-- stage-table:end -->")

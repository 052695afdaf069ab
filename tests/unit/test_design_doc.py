"""docs/DESIGN.md stays a map, not a log: at most 650 lines, no measured figure (those are in
docs/RESULTS.md), every relative link in it and in the evaluation protocol
(research/docs/EVALUATION.md) resolves, anchors included, the sections other documents cite
by number exist, and §2 holds the markers the stage table is rendered between."""

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
_NUMBER = r"[+\-−]?\d[\d,]*(?:\.\d+)?"
# A measured figure: a time, a size, a rate, a share, a speed-up, a metric's value, a
# bootstrap interval or a before -> after pair.
_MEASURED = re.compile(
    rf"{_NUMBER} ?(?:ms|MiB|GiB|MB|GB|req/s|pairs/s|texts/s)\b|\d\.\d+ ?s\b|{_NUMBER} ?%"
    rf"|{_NUMBER} ?x (?:faster|slower)"
    rf"|\b(?:MAP|hit|teach|nDCG|recall|precision|accuracy|p50|p95|p99)(?:@\d+)?"
    rf"[ :=]+(?:of |was |is )?{_NUMBER}|{_NUMBER} (?:MAP|hit|teach|nDCG|recall)@\d+"
    rf"|\[{_NUMBER}, ?{_NUMBER}\]|{_NUMBER} ?(?:->|→) ?{_NUMBER}"
)
# Not measurements: a value right after its name (`SOURCE_TIMEOUT_S` (2 s), `LESSON_SLOTS`
# (4)), a bound (under 1 MiB free, at most 1%), the protocol's 95% intervals.
_CONSTANT = re.compile(
    r"`(?:[A-Z][A-Z0-9_]+|[a-z][a-z0-9]*_[a-z0-9_]+)`,? \([^()]*\)"
    r"|\b(?:under|over|at most|at least|up to|within|below|above) [\d.,]+ ?\S+"
    r"|\b95% (?:bootstrap|interval|CI)"
)
_FENCE = re.compile(r"```.*?```", re.S)


def _measured(text: str) -> list[str]:
    """Each measured figure in `text`, with its line number.

    >>> _measured("p50 8.7 ms, within `SOURCE_TIMEOUT_S` (2 s)")
    ['1: 8.7 ms']
    """
    return [
        f"{n}: {m.group()}"
        for n, line in enumerate(text.splitlines(), start=1)
        for m in _MEASURED.finditer(_CONSTANT.sub("", line))
    ]


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


def test_design_holds_no_measured_figure() -> None:
    assert _measured(DESIGN.read_text()) == []


@pytest.mark.parametrize(
    "text",
    ["p50 8.7 ms", "MAP@25 0.250", "MAP@25 +0.0006 [+0.0001, +0.0014]", "3x faster",
     "nDCG@10 0.239 -> 0.327", "570 MiB peak RSS", "53.3 req/s", "6% of Eedi questions",
     "hit@10 of 0.651", "lost 0.004 MAP@25", "about 5.5 s", "recall: 0.98",
     "`lessons` (1.0 ms p50)"],
)  # fmt: skip
def test_a_measured_figure_is_found(text: str) -> None:
    assert _measured(text)


@pytest.mark.parametrize(
    "text",
    ["`SOURCE_TIMEOUT_S` (2 s)", "`LESSON_SLOTS` (4)", "`READ_TIMEOUT_S` (0.5 s)",
     "`max_wait_ms` (2 ms)", "with under 1 MiB free", "flags at most 1% of messages",
     "a mean with a 95% bootstrap interval", "cosine >= 0.5", "boosts (x1.2)",
     "0.9 x the best constant's", "MAP@25 within noise of fp32", "hit@1/3/5/10"],
)  # fmt: skip
def test_a_design_constant_is_no_measured_figure(text: str) -> None:
    assert _measured(text) == []


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

"""The paper's tables, numbers and figures, rendered from the results files only.

Inputs (one results folder, e.g. `results/paper/`):

- `ablations.jsonl`: tidy rows of `harness.results.summary_rows` (task, config, factor, metric,
  value, ci95, n, fold, query_type, status, ...); a row whose `status` is not "ok" marks its
  configuration "not measured" with the reason.
- `latency.json` (`tasks.latency.run_latency_harness`), `scale.json`
  (`tasks.scale.run_scale_sweep`), `bundle.json` (the bundled index: counts by source) and
  `phases.json` (time per reproduction phase).

Outputs: `tables/<name>.tex` and `tables/<name>.md` (the same table twice),
`tables/numbers.tex` (`\\newcommand` macros for every number the prose names),
`figures/*.png` (matplotlib, Agg), and `paper.md`, converted from `paper.tex` by
`latex_to_markdown`. Rendering is deterministic: the same inputs give byte-identical text
files, and PNGs carry no timestamp or version metadata. Missing inputs render as tables
that say so, so the paper always builds.

>>> render_tables(Path("results/paper"), Path("paper/tables"))  # doctest: +SKIP
[PosixPath('paper/tables/headline.tex'), ...]
"""

from __future__ import annotations

from pathlib import Path

from tutorgraph_research.report._figures import PIPELINE, render_figures
from tutorgraph_research.report._format import METRIC_LABELS, PRIMARY_METRIC, TASK_TITLES, fmt_ci
from tutorgraph_research.report._inputs import load_results
from tutorgraph_research.report._markdown import latex_to_markdown, render_paper_markdown
from tutorgraph_research.report._table import Note, Table, tex_escape
from tutorgraph_research.report._tables import render_tables

__all__ = [
    "METRIC_LABELS",
    "PIPELINE",
    "PRIMARY_METRIC",
    "TASK_TITLES",
    "Note",
    "Table",
    "fmt_ci",
    "latex_to_markdown",
    "load_results",
    "render_all",
    "render_figures",
    "render_paper_markdown",
    "render_tables",
    "tex_escape",
]


def render_all(results: Path, out: Path, *, paper_tex: Path | None = None) -> list[Path]:
    """Tables, numbers, figures and (given `paper_tex`) `paper.md`, all under `out`."""
    written = render_tables(results, out / "tables")
    written += render_figures(results, out / "figures")
    if paper_tex is not None:
        written.append(render_paper_markdown(paper_tex, out))
    return written

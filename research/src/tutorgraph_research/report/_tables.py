"""Every table of the paper, with the not-measured list, the findings and `numbers.tex`,
rendered from the results files. The tables are `_ablation_tables` and `_system_tables`, the
generated lists `_findings` and the macros `_numbers`.

>>> render_tables(Path("results/paper"), Path("paper/tables"))  # doctest: +SKIP
[PosixPath('paper/tables/data.tex'), ...]
"""

from __future__ import annotations

from pathlib import Path

from tutorgraph_research.report._ablation_tables import (
    ablation_table,
    by_query_type,
    headline,
    hops_table,
    subsets_table,
)
from tutorgraph_research.report._findings import findings, gain_cost, not_measured
from tutorgraph_research.report._format import HEADER, write_if_changed
from tutorgraph_research.report._inputs import Ablations, Results, load_results
from tutorgraph_research.report._numbers import numbers, numbers_tex
from tutorgraph_research.report._system_tables import (
    data_table,
    latency_configs,
    latency_stages,
    phases_table,
    scale_fit_table,
    scale_table,
)
from tutorgraph_research.report._table import Table

__all__ = ["build_tables", "render_tables"]


def build_tables(res: Results) -> list[Table]:
    """Every table of the paper, in order."""
    ab = Ablations(res.ablations)
    tables = [data_table(res.bundle), headline(ab)]
    tables += [ablation_table(ab, t) for t in ab.tasks]
    tables += [
        subsets_table(ab),
        hops_table(ab),
        by_query_type(ab),
        latency_stages(res.latency),
        latency_configs(res.latency),
        scale_table(res.scale),
        scale_fit_table(res.scale),
        phases_table(res.phases),
    ]
    return tables


def render_tables(results: Path, out: Path) -> list[Path]:
    """Write `<name>.tex` and `<name>.md` for every table, plus `numbers.tex`,
    `findings.tex|md` and `ablation-tables.tex|md` (which inputs the per-task tables)."""
    res = load_results(results)
    ab = Ablations(res.ablations)
    written = []
    tables = build_tables(res)
    for t in tables:
        written.append(write_if_changed(out / f"{t.name}.tex", t.latex()))
        written.append(write_if_changed(out / f"{t.name}.md", t.markdown()))
    per_task = [t.name for t in tables if t.name.startswith("ablation-")]
    head = HEADER.format(src="ablations.jsonl")
    tex = f"% {head}\n" + "".join(f"\\input{{tables/{n}}}\n" for n in per_task)
    md = f"<!-- {head} -->\n" + "\n".join(
        (out / f"{n}.md").read_text(encoding="utf-8") for n in per_task
    )
    if not per_task:
        tex += "No per-task ablation results yet.\n"
        md += "No per-task ablation results yet.\n"
    written.append(write_if_changed(out / "ablation-tables.tex", tex))
    written.append(write_if_changed(out / "ablation-tables.md", md))
    ntex, nmd = not_measured(res, ab)
    written.append(write_if_changed(out / "not-measured.tex", ntex))
    written.append(write_if_changed(out / "not-measured.md", nmd))
    ftex, fmd = findings(ab)
    written.append(write_if_changed(out / "findings.tex", ftex))
    written.append(write_if_changed(out / "findings.md", fmd))
    gtex, gmd = gain_cost(ab, res.latency)
    written.append(write_if_changed(out / "gain-cost.tex", gtex))
    written.append(write_if_changed(out / "gain-cost.md", gmd))
    written.append(write_if_changed(out / "numbers.tex", numbers_tex(numbers(res, ab))))
    return written

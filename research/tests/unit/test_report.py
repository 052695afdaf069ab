"""Tables, numbers and paper.md rendered from results files: format, notes, determinism, and
the committed tables re-rendered from the committed results (they must match)."""

from __future__ import annotations

import filecmp
import json
import shutil
from pathlib import Path

import pytest

from tutorgraph_research.report import (
    Note,
    Table,
    fmt_ci,
    latex_to_markdown,
    render_all,
    render_figures,
    render_tables,
    tex_escape,
)

pytestmark = pytest.mark.unit

REPO = Path(__file__).resolve().parents[3]
FIXTURE = REPO / "tests" / "data" / "paper"


def _summary(task: str, config: str, metric: str, value: float, **kw: object) -> dict[str, object]:
    row: dict[str, object] = {
        "task": task,
        "config": config,
        "factor": "best" if config == "default" else config.split("=")[0],
        "metric": metric,
        "value": value,
        "ci95": [value - 0.01, value + 0.01],
        "n": 40,
        "fold": "all",
        "query_type": "all",
        "seed": 0,
        "status": "ok",
    }
    row.update(kw)
    return row


def _write_rows(folder: Path, rows: list[dict[str, object]]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "ablations.jsonl").write_text(
        "".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8"
    )
    return folder


# -- formatting --------------------------------------------------------------------------------


def test_fmt_ci_rounds_the_mean_and_both_bounds() -> None:
    assert fmt_ci(0.31234, [0.29815, 0.32701]) == "0.312 [0.298, 0.327]"
    assert fmt_ci(1.0, [1.0, 1.0]) == "1.000 [1.000, 1.000]"
    assert fmt_ci(0.25, None) == "0.250"
    assert fmt_ci(None, None) == "n/a"
    assert fmt_ci(12.345, [10.0, 14.0], digits=1) == "12.3 [10.0, 14.0]"


def test_tex_escape_covers_the_characters_config_names_and_reasons_use() -> None:
    assert tex_escape("graph_scope=off") == "graph\\_scope=off"
    assert tex_escape("50% & #1 {x} ~ ^") == (
        "50\\% \\& \\#1 \\{x\\} \\textasciitilde{} \\textasciicircum{}"
    )
    assert tex_escape("a\\b") == "a\\textbackslash{}b"


def test_not_measured_cells_render_with_a_lettered_note_in_both_formats() -> None:
    table = Table(
        "t",
        "Caption with 5% and x_y.",
        ["Configuration", "MAP@25", "n"],
        [
            ["best", "0.300 [0.290, 0.310]", "10"],
            "factor: reranker",
            ["reranker=msmarco", Note("not measured", "no model hub here"), ""],
            ["refiner=openai", Note("not measured", "no OpenAI key"), ""],
            ["reranker=other", Note("not measured", "no model hub here"), ""],
        ],
    )
    tex = table.latex()
    assert "\\caption{Caption with 5\\% and x\\_y.}\\label{tab:t}" in tex
    assert "reranker=msmarco & not measured\\textsuperscript{a} &  \\\\" in tex
    assert "refiner=openai & not measured\\textsuperscript{b} &  \\\\" in tex
    assert "reranker=other & not measured\\textsuperscript{a}" in tex  # one note per reason
    assert "\\textsuperscript{a} no model hub here \\\\ \\textsuperscript{b} no OpenAI key" in tex
    assert "\\multicolumn{3}{l}{\\emph{factor: reranker}}" in tex
    assert tex.count("\\toprule") == tex.count("\\bottomrule") == 1
    md = table.markdown()
    assert "| reranker=msmarco | not measured (a) |  |" in md
    assert "(a) no model hub here  \n(b) no OpenAI key" in md
    assert "| *factor: reranker* |  |  |" in md
    assert "**Table (t).** Caption with 5% and x_y." in md  # numbered only inside the paper


def test_ablation_tables_show_not_measured_configs_and_their_reason(tmp_path: Path) -> None:
    rows = [
        _summary("eedi-misconceptions", "default", "map@25", 0.3),
        _summary("eedi-misconceptions", "default", "recall@25", 0.6),
        _summary(
            "eedi-misconceptions",
            "sources=no-graph",
            "map@25",
            0.25,
            paired={"versus": "default", "diff": -0.05, "ci95": [-0.08, -0.02], "n": 40},
        ),
        _summary("eedi-misconceptions", "sources=no-graph", "recall@25", 0.5),
        {
            **_summary("eedi-misconceptions", "reranker=msmarco", "map@25", 0.0),
            "metric": None,
            "value": None,
            "ci95": None,
            "n": 0,
            "status": "not measured: cross-encoder/ms-marco cannot be loaded offline",
        },
    ]
    results = _write_rows(tmp_path / "results", rows)
    render_tables(results, tmp_path / "tables")
    md = (tmp_path / "tables" / "ablation-eedi-misconceptions.md").read_text(encoding="utf-8")
    assert "| default (reference) | 0.300 [0.290, 0.310] | 0.600 [0.590, 0.610] |  | 40 |" in md
    assert "| 0.500 [0.490, 0.510] | -0.050 [-0.080, -0.020] | 40 |" in md
    assert "| reranker=msmarco | not measured (a) | not measured (a) |  | – |" in md
    assert "(a) cross-encoder/ms-marco cannot be loaded offline" in md
    # Grid order, factors as group rows.
    assert md.index("default (reference)") < md.index("sources=no-graph") < md.index("msmarco")
    headline = (tmp_path / "tables" / "headline.md").read_text(encoding="utf-8")
    assert "| sources=no-graph | 0.250 [0.240, 0.260] |" in headline
    assert "-0.050 [-0.080, -0.020]" in headline
    listed = (tmp_path / "tables" / "not-measured.md").read_text(encoding="utf-8")
    assert "reranker=msmarco in the ablations (eedi-misconceptions): cross-encoder" in listed
    findings = (tmp_path / "tables" / "findings.md").read_text(encoding="utf-8")
    assert (
        "without the graph 0.250 [0.240, 0.260], a difference of -0.050 [-0.080, -0.020] "
        "(paired, n = 40; the interval excludes 0)"
    ) in findings


def test_the_by_query_type_table_compares_best_and_no_graph_per_type(tmp_path: Path) -> None:
    rows = []
    for qtype, best, nog in (("misconception", 0.4, 0.2), ("concept_lookup", 0.3, 0.31)):
        rows += [
            _summary("linking-eedi", "default", "mrr", best, query_type=qtype),
            _summary("linking-eedi", "sources=no-graph", "mrr", nog, query_type=qtype),
        ]
    rows += [_summary("linking-eedi", "default", "mrr", 0.35)]
    rows += [_summary("linking-eedi", "sources=no-graph", "mrr", 0.25)]
    render_tables(_write_rows(tmp_path / "r", rows), tmp_path / "t")
    md = (tmp_path / "t" / "by-query-type.md").read_text(encoding="utf-8")
    assert "| *Concept linking: Eedi question to construct (MRR)* |" in md
    assert "| misconception | 40 | 0.400 [0.390, 0.410] | 0.200 [0.190, 0.210] | +0.200 |" in md
    assert "| concept lookup | 40 | 0.300 [0.290, 0.310] | 0.310 [0.300, 0.320] | -0.010 |" in md
    findings = (tmp_path / "t" / "findings.md").read_text(encoding="utf-8")
    assert "adds most to misconception queries (+0.200" in findings
    assert "least to concept lookup queries (-0.010" in findings


def test_the_hops_table_and_finding_compare_traversal_depths(tmp_path: Path) -> None:
    rows = [
        _summary("prerequisites", config, "map@10", value)
        for config, value in (("default", 0.2), ("hops=0", 0.1), ("hops=1", 0.2), ("hops=2", 0.3))
    ]
    rows.append(_summary("mae", "default", "map@25", 0.5))  # a task without the hops factor
    render_tables(_write_rows(tmp_path / "r", rows), tmp_path / "t")
    md = (tmp_path / "t" / "hops.md").read_text(encoding="utf-8")
    assert "| Task | Metric | by query type | 0 hops | 1 hop | 2 hops |" in md
    assert (
        "| Prerequisite retrieval | MAP@10 | 0.200 [0.190, 0.210] | 0.100 [0.090, 0.110] "
        "| 0.200 [0.190, 0.210] | 0.300 [0.290, 0.310] |"
    ) in md
    assert (
        "| MaE misconception diagnosis (out of domain) | MAP@25 | 0.500 [0.490, 0.510] |  |" in md
    )
    findings = (tmp_path / "t" / "findings.md").read_text(encoding="utf-8")
    assert (
        "Two prerequisite hops instead of one: 0.300 [0.290, 0.310] against "
        "0.200 [0.190, 0.210], +0.100 (the intervals do not overlap)."
    ) in findings


def test_seen_unseen_and_gain_cost_read_the_subsets_and_the_paired_rows(tmp_path: Path) -> None:
    task = "eedi-misconceptions"
    paired = {"versus": "default", "diff": -0.1, "ci95": [-0.15, -0.05], "n": 40}
    rows = [
        _summary(task, "default", "map@25", 0.3),
        _summary(task, "ranker=off", "map@25", 0.2, paired=paired),
    ]
    for config, seen, unseen in (("default", 0.4, 0.1), ("ranker=off", 0.25, 0.12)):
        rows += [
            _summary(task, config, "map@25", seen, subset="seen construct", n=30),
            _summary(task, config, "map@25", unseen, subset="unseen construct", n=10),
        ]
    latency = {
        "rows": [],
        "diagnosis": {
            "status": "ok",
            "row": {"n_queries": 30, "ran_ms": {"rank": {"n": 20, "p50": 12.5, "p95": 30.0}}},
        },
    }
    folder = _write_rows(tmp_path / "r", rows)
    (folder / "latency.json").write_text(json.dumps(latency), encoding="utf-8")
    render_tables(folder, tmp_path / "t")
    md = (tmp_path / "t" / "seen-unseen.md").read_text(encoding="utf-8")
    assert "| n | 30 | 10 |" in md
    assert "| default (reference) | 0.400 [0.390, 0.410] | 0.100 [0.090, 0.110] |" in md
    gain = (tmp_path / "t" / "gain-cost.md").read_text(encoding="utf-8")
    # The gain of the learned score is minus the change of turning it off.
    assert (
        "The learned final score: MAP@25 +0.100 [+0.050, +0.150] (paired, n = 40; the "
        "interval excludes 0); +0.150 on seen constructs (n = 30) and -0.020 on unseen "
        "constructs (n = 10). Cost: the rank stage takes 12.5 ms at the median and 30.0 ms "
        "at p95 where it ran (20 of 30 timed queries)."
    ) in gain


def test_missing_results_render_tables_that_say_so(tmp_path: Path) -> None:
    written = render_tables(tmp_path / "nothing", tmp_path / "tables")
    names = {p.name for p in written}
    assert {"headline.tex", "scale.md", "latency-stages.tex", "numbers.tex"} <= names
    assert "not run" in (tmp_path / "tables" / "scale.md").read_text(encoding="utf-8")
    numbers = (tmp_path / "tables" / "numbers.tex").read_text(encoding="utf-8")
    assert "\\newcommand{\\LatDefaultPfifty}{n/a}" in numbers
    assert "not run" in (tmp_path / "tables" / "scale-fit.md").read_text(encoding="utf-8")


def _scale_size(factor: int, documents: int) -> dict[str, object]:
    items = 1000 + documents
    ms = {"p50": 0.0, "p95": 0.0, "p99": 0.0, "mean": 0.0}
    return {
        "factor": factor,
        "ratio": documents / 1000,
        "counts": {
            "documents": documents,
            "exercises": documents - 1000,
            "items": items,
            "concepts": 600,
            "misconceptions": 400,
            "prerequisites": 50,
        },
        "build_s": items / 1000,
        "disk_mb": items / 100,
        "rss_loaded_mb": 300.0,
        "rss_peak_mb": 300.0 + items / 1000,
        "n_queries": 20,
        "stages_ms": {
            "refine": ms,
            "lexical": ms | {"p50": items / 1000},
            "wall": {"p50": 40.0, "p95": 50.0, "p99": 60.0, "mean": 42.0},
        },
    }


def test_the_scale_tables_name_the_hardware_a_short_size_and_each_stage_fit(
    tmp_path: Path,
) -> None:
    results = tmp_path / "results"
    results.mkdir()
    scale = {
        "hardware": {"cpu": "Test CPU", "cores": 2, "python": "3.11.7"},
        "config": "best",
        # x4 asked for 4,000 documents; only 2,500 real ones exist.
        "sizes": [_scale_size(1, 1000), _scale_size(2, 2000), _scale_size(4, 2500)],
    }
    (results / "scale.json").write_text(json.dumps(scale), encoding="utf-8")
    render_tables(results, tmp_path / "t")
    table = (tmp_path / "t" / "scale.md").read_text(encoding="utf-8")
    assert "| x2 (2.00) | 2,000 | 1,000 | 3,000 |" in table
    assert "| all (2.50) | 2,500 | 1,500 | 3,500 |" in table
    fit = (tmp_path / "t" / "scale-fit.md").read_text(encoding="utf-8")
    for text in (table, fit):
        assert "Test CPU, 2 cores, Python 3.11.7" in text
    # Fitted here from the sizes (the file has no `fits`): 2,000 to 3,500 items.
    assert "3 sizes of the scale sweep (2,000 to 3,500 indexed items)" in fit
    assert "| refine | n/a | n/a | 0.000 ms | n/a |" in fit
    assert "| wall | 0.00 | n/a | 0.000 ms | n/a |" in fit
    assert "| lexical | 1.00 | 1.00 | 1.000 ms | 1.00 |" in fit
    assert "| build | 1.00 | 1.00 | 1.000 s | 1.00 |" in fit
    assert "| index on disk | 1.00 | 1.00 | 10.000 MB | 1.00 |" in fit


# -- paper.tex -> paper.md ------------------------------------------------------------------------


def test_latex_to_markdown_handles_the_paper_subset(tmp_path: Path) -> None:
    (tmp_path / "tables").mkdir()
    (tmp_path / "tables" / "numbers.tex").write_text(
        "\\newcommand{\\NQ}{110}\n\\newcommand{\\Cfg}{graph\\_scope on}\n", encoding="utf-8"
    )
    (tmp_path / "tables" / "t.md").write_text(
        "<!-- generated -->\n**Table (t).** Cap.\n\n| a |\n|---|\n| 1 |\n", encoding="utf-8"
    )
    tex = r"""
\title{A \emph{title}}
\begin{document}
\maketitle
% a comment that must vanish
\section{Results}
We ran \NQ{} queries (\Cfg), see Table~\ref{tab:t} and Figure~\ref{fig:f}~\cite{b,a}.
It is 5\% ``faster'' --- or not; \texttt{tutorgraph\_x} and \url{https://x.org}.

\input{tables/t}

\begin{figure}[htbp]
\includegraphics[width=\linewidth]{figures/f.png}
\caption{A figure.}
\label{fig:f}
\end{figure}

\begin{itemize}
\item one
\item two \textbf{bold}
\end{itemize}

\paragraph{Note.} Last words.

\begin{verbatim}
python x.py --quick
\end{verbatim}

\begin{thebibliography}{9}
\bibitem{a} A. Author. First.
\bibitem{b} B. Author. Second.
\end{thebibliography}
\end{document}
"""
    md = latex_to_markdown(tex, tmp_path)
    assert md.startswith("# A *title*\n\n## Results\n\n")
    assert "comment" not in md
    assert "We ran 110 queries (graph_scope on), see Table 1 and Figure 1 [2, 1]." in md
    assert "It is 5% \u201cfaster\u201d \u2014 or not; `tutorgraph_x` and <https://x.org>." in md
    assert "**Table 1.** Cap.\n\n| a |\n|---|\n| 1 |" in md and "generated" not in md
    assert "![A figure.](figures/f.png)\n\n**Figure 1.** A figure." in md
    assert "- one\n- two **bold**" in md
    assert "**Note.** Last words." in md
    assert "```\npython x.py --quick\n```" in md
    assert md.endswith("## References\n\n1. A. Author. First.\n2. B. Author. Second.\n")


# -- determinism and the committed tables -----------------------------------------------------


def test_rendering_is_deterministic(tmp_path: Path) -> None:
    results = FIXTURE / "results"
    render_tables(results, tmp_path / "a")
    render_tables(results, tmp_path / "b")
    diff = filecmp.dircmp(tmp_path / "a", tmp_path / "b")
    assert sorted(diff.left_list) == sorted(diff.right_list)
    _, mismatch, errors = filecmp.cmpfiles(
        tmp_path / "a", tmp_path / "b", diff.left_list, shallow=False
    )
    assert not mismatch and not errors


def test_figures_are_byte_stable(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    first = render_figures(FIXTURE / "results", tmp_path / "a")
    second = render_figures(FIXTURE / "results", tmp_path / "b")
    assert [p.name for p in first] == ["pipeline.png", "ablation.png", "latency.png", "scale.png"]
    for a, b in zip(first, second, strict=True):
        assert a.read_bytes() == b.read_bytes(), a.name
        assert a.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def _assert_tables_match(results: Path, committed: Path, tmp_path: Path) -> None:
    fresh = tmp_path / "tables"
    render_tables(results, fresh)
    rendered = sorted(p.name for p in fresh.iterdir())
    on_disk = sorted(p.name for p in committed.iterdir() if p.suffix in (".tex", ".md"))
    assert rendered == on_disk, "tables were added or removed: re-render and commit them"
    for name in rendered:
        assert (fresh / name).read_text(encoding="utf-8") == (committed / name).read_text(
            encoding="utf-8"
        ), f"{committed / name} does not match its results: re-render, never edit by hand"


def test_the_committed_fixture_tables_match_their_results(tmp_path: Path) -> None:
    _assert_tables_match(FIXTURE / "results", FIXTURE / "tables", tmp_path)


def test_the_paper_tables_match_the_paper_results(tmp_path: Path) -> None:
    results, tables = REPO / "results" / "paper", REPO / "paper" / "tables"
    if not (results / "ablations.jsonl").is_file() or not tables.is_dir():
        pytest.skip("no full results in results/paper yet (research/scripts/reproduce_paper.py)")
    _assert_tables_match(results, tables, tmp_path)


def test_the_paper_markdown_matches_the_paper_source(tmp_path: Path) -> None:
    paper = REPO / "paper"
    if not (paper / "paper.md").is_file() or not (REPO / "results" / "paper").is_dir():
        pytest.skip("paper/paper.md has not been rendered yet")
    shutil.copytree(paper / "tables", tmp_path / "tables")
    shutil.copyfile(paper / "paper.tex", tmp_path / "paper.tex")
    md = latex_to_markdown((paper / "paper.tex").read_text(encoding="utf-8"), tmp_path)
    committed = (paper / "paper.md").read_text(encoding="utf-8")
    assert committed.split("\n", 1)[1] == md, "paper.md is stale: re-render it"


def test_render_all_writes_the_paper_markdown(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    out = tmp_path / "paper"
    out.mkdir()
    shutil.copyfile(REPO / "paper" / "paper.tex", out / "paper.tex")
    written = render_all(FIXTURE / "results", out, paper_tex=out / "paper.tex")
    md = (out / "paper.md").read_text(encoding="utf-8")
    assert out / "paper.md" in written
    assert "\\" not in md.replace("\\|", ""), "a LaTeX command survived the conversion"
    assert "{{" not in md and "?]" not in md, "an unresolved reference or citation"
    for section in ("Problem", "System", "Data and licenses", "Protocol", "Results"):
        assert f"## {section}" in md
    assert "arXiv:2507.03226" in md

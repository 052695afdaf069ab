"""Regenerate the tables of docs/RESULTS.md from the JSON files in results/.

    python research/scripts/results_md.py          # rewrite the generated blocks in place
    python research/scripts/results_md.py --check  # exit 1 (and show the diff) if out of date

A generated block sits between two markers; everything outside them is hand-written prose
and is kept as it is:

    <!-- generated:NAME -->
    ...the table BLOCKS[NAME] renders from results/*.json...
    <!-- /generated -->

Every block the script knows must appear in the document once, and every marker must name a
block it knows. Figures in the prose around the blocks are not checked: see the list of
blocks below for what is generated.
"""

from __future__ import annotations

import argparse
import difflib
import json
import re
import sys
from collections.abc import Callable, Sequence
from decimal import ROUND_HALF_UP, Decimal
from functools import cache
from pathlib import Path
from typing import Any

# `python research/scripts/results_md.py` puts research/scripts/ first on sys.path: the
# tutoring tables are tutoring_table.py's, so that both print the same thing.
from tutoring_table import tables as tutoring_tables

from tutorgraph_research.harness.results import bootstrap_ci
from tutorgraph_research.tasks.standards_linking import hit_scores

REPO = Path(__file__).resolve().parents[2]
DOC = REPO / "docs" / "RESULTS.md"
RESULTS = REPO / "results"

MARKER = re.compile(
    r"<!-- generated:(?P<name>[a-z0-9-]+) -->\n(?P<body>.*?)<!-- /generated -->", re.DOTALL
)
HITS = ("hit@1", "hit@3", "hit@10")

Json = dict[str, Any]


class Results:
    """The JSON files of one results folder, each read once."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    @cache  # noqa: B019 - one instance per run, a handful of files
    def __call__(self, name: str) -> Json:
        path = self.folder / name
        if not path.is_file():
            raise SystemExit(f"{path}: missing (a generated block of docs/RESULTS.md reads it)")
        data: Json = json.loads(path.read_text(encoding="utf-8"))
        return data


# -- formatting --------------------------------------------------------------------------


def signed(x: float) -> str:
    """+0.123 / −0.123 (a true minus sign, as the prose writes it) / 0.000 stays +0.000."""
    text = f"{x:+.3f}"
    return text.replace("-", "−") if text != "-0.000" else "+0.000"


def change(before: float, after: float, delta: float, ci: Sequence[float]) -> str:
    return f"{before:.3f} → {after:.3f} ({signed(delta)} [{signed(ci[0])}, {signed(ci[1])}])"


def cell(stat: Json) -> str:
    """One paired figure of linker_cv.json: before → after (change [95% interval])."""
    return change(stat["before"], stat["after"], stat["delta"], stat["ci95"])


def ms(x: float, minus: float | None = None) -> str:
    """Milliseconds to one decimal, halves rounded up: the harness stores two decimals
    (59.55 is 59.6, as the prose has always written it). With MINUS, the signed change."""
    value = Decimal(str(x)) - Decimal(str(minus or 0))
    text = str(abs(value).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP))
    if minus is None:
        return text
    return ("−" if value < 0 else "+") + text


def table(header: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


# -- naming the standard (issue 48) ------------------------------------------------------

# (label, data set, split, system after): BEFORE is always the packet with the standards
# model off; AFTER the served packet without and with the item's grade.
LINKING_PACKET_ROWS = (
    ("hand-written word problems, held out", "word-problems", "heldout", "packet"),
    ("the same, grade given", "word-problems", "heldout", "packet+grade"),
    ("tutoring messages, held out", "tutoring_messages", "heldout", "packet"),
    ("the same, grade given", "tutoring_messages", "heldout", "packet+grade"),
    ("MathFish aligned rows (never trained on)", "mathfish", "all", "packet"),
    ("the same, grade given", "mathfish", "all", "packet+grade"),
    ("word problems, dev", "word-problems", "dev", "packet"),
    ("tutoring messages, dev", "tutoring_messages", "dev", "packet"),
)


def linking_packet(results: Results) -> str:
    """`packet.concepts` before (the standards model off) and after, paired item by item as
    research/scripts/linking_paired.py pairs them (bootstrap of 1,000 resamples, seed 0)."""
    before = results("linking_bench_issue48_model_off.json")["items"]
    after = results("linking_bench_issue48.json")["items"]
    rows = []
    for label, name, split, system in LINKING_PACKET_ROWS:
        first = {it["id"]: it for it in before[name]}
        pairs = [
            (first[it["id"]], it)
            for it in after[name]
            if it["id"] in first and split in ("all", it["split"])
        ]
        cells = []
        for metric in HITS:
            x = [hit_scores(b["packet"], b["standards"])[metric] for b, _ in pairs]
            y = [hit_scores(a[system], a["standards"])[metric] for _, a in pairs]
            d = [v - u for u, v in zip(x, y, strict=True)]
            cells.append(change(sum(x) / len(x), sum(y) / len(y), sum(d) / len(d), bootstrap_ci(d)))
        rows.append((label, len(pairs), *cells))
    return table(("set", "n", *HITS), rows)


LINKER_CELLS = (
    ("held-out generators", "generated/heldout-generators"),
    ("MathFish (out of fold)", "mathfish/all"),
    ("word problems, held out", "word-problems/heldout"),
    ("tutoring messages, held out", "tutoring/heldout"),
)
LINKER_SYSTEMS = ("model", "cards+grade", "model+grade")


def linker_cv(results: Results) -> str:
    """The standards model against the card search alone, per set (`cells`)."""
    cells = results("linker_cv.json")["cells"]
    rows = []
    for label, key in LINKER_CELLS:
        for system in LINKER_SYSTEMS:
            stats = cells[key][system]
            rows.append((label, system, stats["hit@1"]["n"], *(cell(stats[m]) for m in HITS)))
    return table(("set", "system", "n", *HITS), rows)


LINKER_CV5 = (
    ("all", "all"),
    ("held-out generators", "generated"),
    ("MathFish", "mathfish"),
    ("tutoring messages", "tutoring"),
    ("hand-written word problems", "word-problems"),
)


def linker_cv5(results: Results) -> str:
    """The 5-fold CV of the whole recipe (`cv5`), hit@1, both comparisons."""
    cv5 = results("linker_cv.json")["cv5"]
    rows = []
    for label, key in LINKER_CV5:
        a, b = cv5[key]["model vs cards"]["hit@1"], cv5[key]["model+grade vs cards+grade"]["hit@1"]
        rows.append((f"{label} ({a['n']:,})", cell(a), cell(b)))
    return table(("set", "model vs cards", "model + grade vs cards + grade"), rows)


LINKER_ATTEMPTS = (
    (
        "model alone, log-probability only, L2 1e-4, MathFish not in the tuning "
        "(`results/linker_cv_attempt_log_only.json`, the script at b15f2ed)",
        "linker_cv_attempt_log_only.json",
    ),
    (
        "L2 1e-3, cluster term and floor (`..._attempt_l2_1e-3.json`, `--l2 1e-3`)",
        "linker_cv_attempt_l2_1e-3.json",
    ),
    (
        "L2 1e-4, cluster term and floor, MathFish out of fold (shipped; grade weight ≤ 0.16; "
        "`results/linker_cv.json`)",
        "linker_cv.json",
    ),
    (
        "L2 1e-5, the same, grade weight ≤ 0.08 (`..._attempt_l2_1e-5.json`, `--l2 1e-5`)",
        "linker_cv_attempt_l2_1e-5.json",
    ),
)


def linker_attempts(results: Results) -> str:
    """hit@1 of each attempt's model without / with the grade."""
    rows = []
    for label, name in LINKER_ATTEMPTS:
        cells = results(name)["cells"]

        def pair(key: str, cells: Json = cells) -> str:
            model, graded = cells[key]["model"]["hit@1"], cells[key]["model+grade"]["hit@1"]
            return f"{model['after']:.3f} / {graded['after']:.3f}"

        rows.append(
            (
                label,
                pair("word-problems/heldout"),
                pair("tutoring/heldout"),
                pair("mathfish/all"),
                pair("generated/heldout-generators"),
            )
        )
    header = (
        "attempt",
        "word held out, no grade / grade",
        "tutoring held out",
        "MathFish",
        "new generators",
    )
    return table(header, rows)


# -- misconception ranking on Eedi (issues 32-33) --------------------------------------------

# (step, 5-fold CV run, paired runs of MAP@25, paired runs of hit@10): each paired file pairs
# the run before (named by its commit) with this one, item by item
# (research/scripts/paired_runs.py).
EEDI_RANKERS = (
    ("the reader (issues 31-32)", "eedi_reader_cv.json", (), ()),
    (
        "the text-only ranker (issue 32)",
        "eedi_text_ranker_cv.json",
        ("eedi_text_ranker_paired.json",),
        ("eedi_text_ranker_paired_hit10.json",),
    ),
    (
        "rankers reading a fine-tuned encoder, fp32, 2 epochs",
        "eedi_tuned_cv.json",
        ("eedi_tuned_paired.json",),
        ("eedi_tuned_paired_hit10.json",),
    ),
    (
        "the same encoders as int8 graphs",
        "eedi_tuned_int8_cv.json",
        ("eedi_tuned_int8_paired.json",),
        (),
    ),
    (
        "int8 encoders of 4 epochs (bundled)",
        "eedi_tuned_e4_cv.json",
        ("eedi_tuned_e4_paired.json", "eedi_tuned_e4_vs_e2_paired.json"),
        ("eedi_tuned_e4_paired_hit10.json",),
    ),
    (
        "each ranker picks its combiner's settings",
        "eedi_combiner_cv.json",
        ("eedi_combiner_paired.json",),
        ("eedi_combiner_paired_hit10.json",),
    ),
    (
        "a tuned example memory (shipped)",
        "eedi_tuned_memory_cv.json",
        ("eedi_tuned_memory_paired.json", "eedi_tuned_memory_vs_issue_start.json"),
        ("eedi_tuned_memory_paired_hit10.json",),
    ),
)
EEDI_CONTEXTS = (("default/construct", "with the construct"), ("default/text", "from the text"))


def eedi_rankers(results: Results) -> str:
    """Eedi MAP@25 (5-fold CV, all 3,486 labelled wrong answers) of each step of issues 32-33,
    each paired with the run before it on the same folds."""

    def paired(names: Sequence[str], config: str) -> str:
        cells = []
        for name in names:
            p = results(name)[config]
            diff = p["paired_diff"]
            cells.append(
                f"vs {p['commits'][0][:7]}: "
                + change(p["before"], p["after"], diff["mean"], diff["ci95"])
            )
        return "; ".join(cells) or "–"

    rows = []
    for step, run, maps, hits in EEDI_RANKERS:
        data = results(run)
        for config, context in EEDI_CONTEXTS:
            row = data[config]
            lo, hi = row["map@25_ci95"]
            rows.append(
                (
                    step,
                    data["_meta"]["git_commit"][:7],
                    context,
                    f"{row['map@25']:.3f} [{lo:.3f}, {hi:.3f}]",
                    f"{row['hit@10']:.3f}",
                    paired(maps, config),
                    paired(hits, config),
                )
            )
    header = (
        "step",
        "commit",
        "context",
        "MAP@25 [95% CI]",
        "hit@10",
        "MAP@25, paired",
        "hit@10, paired",
    )
    return table(header, rows)


def alignment(results: Results) -> str:
    """`align-bundle`'s edges judged by hand, per method (research/scripts/alignment_sample.py)."""
    data = results("alignment_precision.json")
    rows = []
    for method, stat in data.items():
        lo, hi = stat["ci95_wilson"]
        rows.append(
            (method, stat["n"], stat["correct"], f"{stat['precision']:.3f} [{lo:.3f}, {hi:.3f}]")
        )
    return table(("method", "judged", "right", "precision [95% Wilson]"), rows)


# -- whole packets (issue 47) ------------------------------------------------------------


def tutoring_typed(results: Results) -> str:
    return tutoring_tables(
        results("tutoring_bench_baseline.json"), results("tutoring_bench_issue47.json")
    )


def tutoring_fields(results: Results) -> str:
    return tutoring_tables(
        results("tutoring_bench_baseline_fields.json"),
        results("tutoring_bench_issue47_fields.json"),
    )


def _ci(stat: Json) -> str:
    return f"{stat['mean']:.3f} [{stat['ci95'][0]:.2f}, {stat['ci95'][1]:.2f}]"


def _met(value: float, bar: float, at_least: bool) -> str:
    return "" if (value >= bar if at_least else value <= bar) else " (missed)"


def tutoring_bars(results: Results) -> str:
    """The held-out third against issue 47's bars: before (67a8a71) and after."""
    first = results("tutoring_bench_baseline.json")["heldout"]
    last = results("tutoring_bench_issue47.json")["heldout"]

    def part(name: str, bar: float) -> tuple[str, str]:
        a, b = first["all"].get(name), last["all"][name]
        return (f"{a['mean']:.3f}" if a else "–", _ci(b) + _met(b["mean"], bar, True))

    def flags(split: Json) -> tuple[str, str]:
        f = split["off_topic_flag"]
        off = split["off_topic"]["flagged"]["n"]
        return f"{f['flagged_off_topic']} of {off}", f"{f['flagged_math']} of {f['math_messages']}"

    (off_a, math_a), (off_b, math_b) = flags(first), flags(last)
    flag_b = last["off_topic_flag"]
    off_n = last["off_topic"]["flagged"]["n"]
    math_share = flag_b["flagged_math"] / flag_b["math_messages"]
    rows = [
        ("packet score (every message)", "≥ 0.85", *part("packet", 0.85)),
        ("balanced", "≥ 95%", *part("balanced", 0.95)),
        ("teach@10", "≥ 90%", *part("teach@10", 0.90)),
        ("misconception@10, stated errors", "≥ 90%", *part("misconception@10", 0.90)),
        (
            "off-topic flagged",
            "≥ 90%",
            off_a,
            f"{off_b} ({flag_b['flagged_off_topic'] / off_n:.3f})"
            + _met(flag_b["flagged_off_topic"] / off_n, 0.90, True),
        ),
        (
            "maths messages flagged",
            "≤ 2%",
            math_a,
            f"{math_b} ({math_share:.1%})" + _met(math_share, 0.02, False),
        ),
    ]
    reader = last["all"]["reader_none"]
    none_read = round(reader["mean"] * reader["n"])
    rows.append(
        (
            "reader reads no answer where none is stated",
            "≥ 98%",
            _reader_before(first),
            f"{none_read} of {reader['n']} ({reader['mean']:.3f})"
            + _met(reader["mean"], 0.98, True),
        )
    )
    return table(("measure", "bar", "before", "after"), rows)


def _reader_before(split: Json) -> str:
    stat = split["all"].get("reader_none")
    if stat is None:  # the baseline predates the part: see the prose under the table
        return "–"
    return f"{round(stat['mean'] * stat['n'])} of {stat['n']} ({stat['mean']:.3f})"


LATENCY_47_ROUNDS = (1, 2, 3)


def latency_47(results: Results) -> str:
    """67a8a71 (base) and HEAD alternated, three rounds: total p50 / p95, and the p50 change."""

    def total(side: str, kind: str, r: int) -> Json:
        stages: Json = results(f"latency_47_{side}_{kind}_{r}.json")["stages_ms"]
        return stages["total"]  # type: ignore[no-any-return]

    def cell(kind: str, r: int) -> str:
        a, b = total("base", kind, r), total("head", kind, r)
        return (
            f"{ms(a['p50'])} / {ms(a['p95'])} → {ms(b['p50'])} / {ms(b['p95'])} "
            f"({ms(b['p50'], a['p50'])})"
        )

    rows = [(r, cell("c", r), cell("t", r)) for r in LATENCY_47_ROUNDS]
    return table(("round", "with the construct, p50 / p95 ms", "without, p50 / p95 ms"), rows)


# -- the front door (issue 49) -----------------------------------------------------------


def cold_start(results: Results) -> str:
    """A one-shot `tutorgraph query`'s cold start, before and after, p50 and where it goes."""
    data = results("cold_start.json")
    rows = []
    for run, label in (
        ("intermediate_quiet", "quieter machine (ranker always loaded)"),
        ("final_run1", "final code, busy machine, run 1"),
        ("final_run2", "final code, busy machine, run 2"),
    ):
        for query in ("student_answer", "plain_question"):
            before, after = data[run][f"{query}/before"], data[run][f"{query}/after"]
            load = before["loadavg_at_end"][0]
            rows.append(
                (label, query.replace("_", " "), f"{load:.1f}", before["p50_s"], after["p50_s"])
            )
    return table(("run", "query", "load at end", "before p50 s", "after p50 s"), rows)


def cold_start_breakdown(results: Results) -> str:
    """Medians (s) of each phase, the quieter run, a query that states an answer."""
    run = results("cold_start.json")["intermediate_quiet"]
    before = run["student_answer/before"]["breakdown_p50_s"]
    after = run["student_answer/after"]["breakdown_p50_s"]
    phases = ("imports", "index_open", "models", "first_query", "rest", "total")
    return table(
        ("phase", "before", "after"), [(p.replace("_", " "), before[p], after[p]) for p in phases]
    )


def coverage(results: Results) -> str:
    """Standards with aligned content, and lessons by the grade the standards model reads."""
    data = results("coverage_by_grade.json")
    read = data["by_model_grade"]
    rows = [
        (
            grade,
            row["standards"],
            row["lessons"],
            row["practice"],
            row["misconceptions"],
            read["lessons"][grade],
            read["practice"][grade],
        )
        for grade, row in data["by_grade"].items()
    ]
    header = (
        "grade",
        "standards",
        "with aligned lessons",
        "with aligned practice",
        "with aligned misconceptions",
        "lessons read as this grade",
        "practice read as this grade",
    )
    return table(header, rows)


# The blocks, in the order the document holds them.
BLOCKS: dict[str, Callable[[Results], str]] = {
    "linking-packet": linking_packet,
    "linker-cv": linker_cv,
    "linker-cv5": linker_cv5,
    "linker-attempts": linker_attempts,
    "tutoring-typed": tutoring_typed,
    "tutoring-fields": tutoring_fields,
    "tutoring-bars": tutoring_bars,
    "latency-47": latency_47,
    "eedi-rankers": eedi_rankers,
    "cold-start": cold_start,
    "cold-start-breakdown": cold_start_breakdown,
    "coverage": coverage,
    "alignment": alignment,
}


# -- the document ------------------------------------------------------------------------


def render(text: str, results: Results) -> str:
    """TEXT with every generated block rewritten; prose outside the markers unchanged."""
    seen = [m.group("name") for m in MARKER.finditer(text)]
    unknown = sorted(set(seen) - set(BLOCKS))
    missing = [name for name in BLOCKS if name not in seen]
    twice = sorted({name for name in seen if seen.count(name) > 1})
    problems = [
        *(f"unknown block {n!r}" for n in unknown),
        *(f"block {n!r} is not in the document" for n in missing),
        *(f"block {n!r} appears more than once" for n in twice),
    ]
    if problems:
        raise SystemExit("docs/RESULTS.md markers: " + "; ".join(problems))

    def body(match: re.Match[str]) -> str:
        name = match.group("name")
        return (
            f"<!-- generated:{name} -->\n\n{BLOCKS[name](results).strip()}\n\n<!-- /generated -->"
        )

    return MARKER.sub(body, text)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="fail if the document is stale")
    parser.add_argument("--doc", type=Path, default=DOC, help="the document (docs/RESULTS.md)")
    parser.add_argument("--results", type=Path, default=RESULTS, help="the results folder")
    args = parser.parse_args(argv)
    text = args.doc.read_text(encoding="utf-8")
    new = render(text, Results(args.results))
    if new == text:
        return 0
    if args.check:
        sys.stdout.writelines(
            difflib.unified_diff(
                text.splitlines(keepends=True),
                new.splitlines(keepends=True),
                f"{args.doc} (as committed)",
                f"{args.doc} (from {args.results})",
            )
        )
        rerun = "python research/scripts/results_md.py"
        print(f"\n{args.doc} is out of date: run {rerun}", file=sys.stderr)
        return 1
    args.doc.write_text(new, encoding="utf-8")
    print(f"{args.doc}: generated blocks rewritten", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

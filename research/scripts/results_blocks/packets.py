"""The blocks of "Whole packets" (issue 47): the tutoring tables, the bars, the latency
rounds."""

from __future__ import annotations

# research/scripts/ is first on sys.path (results_md.py runs from it): the tutoring tables
# are tutoring_table.py's, so that both print the same thing.
from tutoring_table import tables as tutoring_tables

from .common import Json, Results, ms, table

__all__ = [
    "latency_47",
    "slots_62",
    "teach_61",
    "tutoring_bars",
    "tutoring_fields",
    "tutoring_typed",
]


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


def teach_61(results: Results) -> str:
    """Held-out third, by grade band: teach@10 (a lesson of an accepted section or aligned to
    an accepted standard) and teach_band@10 (one written for the message's band), before and
    after issue 61's content, each with the paired change's 95% bootstrap interval."""
    from tutorgraph_client.models.grade import band
    from tutorgraph_research.harness.results import bootstrap_ci

    def parts(name: str) -> dict[str, Json]:
        rows = results(name)["messages"]
        return {m["id"]: m for m in rows if m["split"] == "heldout" and m["grade"] is not None}

    before, after = parts("tutoring_bench_before61.json"), parts("tutoring_bench_61.json")
    groups = {
        "K-2": {"K-2"},
        "3-5": {"3-5"},
        "K-5": {"K-2", "3-5"},
        "6-8": {"6-8"},
        "HS": {"HS"},
    }
    rows = []
    for name, bands in groups.items():
        ids = [i for i, m in after.items() if band(m["grade"]) in bands and i in before]
        row: list[object] = [name, len(ids)]
        for part in ("teach@10", "teach_band@10"):
            old = [before[i]["parts"][part] for i in ids if part in before[i]["parts"]]
            new = [after[i]["parts"][part] for i in ids if part in after[i]["parts"]]
            diffs = [
                after[i]["parts"][part] - before[i]["parts"][part]
                for i in ids
                if part in after[i]["parts"] and part in before[i]["parts"]
            ]
            lo, hi = bootstrap_ci(diffs, resamples=1000, seed=0)
            mean_old, mean_new = sum(old) / len(old), sum(new) / len(new)
            row.append(f"{mean_old:.3f} → {mean_new:.3f} [{lo:+.2f}, {hi:+.2f}]")
        rows.append(row)
    header = ("band", "messages", "teach@10 before → after", "teach_band@10 before → after")
    return table(header, rows)


# Issue 62's bars on the held-out third: (part, its group, bar) where a bar applies.
_BARS_62: tuple[tuple[str, str, float | None], ...] = (
    ("standard@3", "all", None),
    ("teach@10", "all", 0.90),
    ("teach_slot_band", "K-5", 0.90),
    ("practice_on_target", "all", 0.85),
    ("misconception@10", "all", 0.90),
    ("misconception_own", "all", 1.0),
    ("packet", "all", 0.90),
    ("context_answer", "all", 1.0),
    ("context_diagnosis", "all", 1.0),
    ("context_no_match", "all", 1.0),
)


def slots_62(results: Results) -> str:
    """Held-out third, typed and with the grade sent: each part before issue 62's slots
    (6c5cd9f) and after, the paired change's 95% interval, and the bar."""
    rows = []
    for part, group, bar in _BARS_62:
        row: list[object] = [part if group == "all" else f"{part} ({group})"]
        for suffix in ("", "_grade"):
            before = results(f"tutoring_bench_before62{suffix}.json")["heldout"]
            after = results(f"tutoring_bench_62{suffix}.json")
            new = after["heldout"]["teach_by_band" if group == "K-5" else "all"]
            new = new[group] if group == "K-5" else new
            old = before["teach_by_band"][group] if group == "K-5" else before["all"]
            if part not in new:
                row.append("—")
                continue
            was = f"{old[part]['mean']:.3f}" if part in old else "—"
            change = after["paired"]["heldout"].get(part) if group == "all" else None
            paired = f" ({change['ci95'][0]:+.2f}, {change['ci95'][1]:+.2f})" if change else ""
            mark = _met(new[part]["mean"], bar, True) if bar is not None else ""
            row.append(f"{was} → {new[part]['mean']:.3f}{paired} n={new[part]['n']}{mark}")
        row.append("—" if bar is None else f"{bar:.2f}")
        rows.append(row)
    header = ("part", "typed: before → after (paired 95%)", "with the grade", "bar")
    return table(header, rows)

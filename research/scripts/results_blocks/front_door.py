"""The blocks of "The front door" (issue 49): the cold start and the coverage by grade."""

from __future__ import annotations

from .common import Results, table

__all__ = ["cold_start", "cold_start_breakdown", "coverage", "coverage_61"]


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
    """Standards with aligned content, and lessons by the grade the standards model reads
    (the bundle of issue 49, before the project's own lessons)."""
    data = results("coverage_by_grade_49.json")
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


def coverage_61(results: Results) -> str:
    """Per grade, the standards with issue 61's bar met (an explanation, two worked examples,
    five practice items, a misconception) before and after its content, and lessons by grade."""
    before = results("coverage_by_grade_before61.json")
    after = results("coverage_by_grade.json")
    rows = []
    for grade, row in after["by_grade"].items():
        old = before["by_grade"][grade]
        rows.append(
            (
                grade,
                row["standards"],
                f"{old['all']} -> {row['all']}",
                row["explanation"],
                row["worked_example"],
                row["practice"],
                f"{old['misconception']} -> {row['misconception']}",
                row["own_at_grade"],
                after["lessons_by_grade"][grade],
            )
        )
    header = (
        "grade",
        "standards",
        "all four, before -> after",
        "explanation",
        "2 worked examples",
        "5 practice",
        "a misconception, before -> after",
        "own content at its grade",
        "lessons written for this grade",
    )
    return table(header, rows)

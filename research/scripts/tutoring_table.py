"""Markdown tables of `tutorgraph bench tutoring` reports, for docs/RESULTS.md.

    python research/scripts/tutoring_table.py results/tutoring_bench_baseline.json \
        results/tutoring_bench_lessons_context.json

One table per split: each kind's parts in the first report -> the last, and the last
report's paired differences over the same messages (its --baseline) when it has them.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

GROUPS = ("math", "word_problem", "stated_error", "why", "concept", "no_answer_numbers")
PARTS = ("standard@1", "standard@3", "teach@10", "misconception@10", "balanced", "packet")


def _cell(row: dict[str, Any], part: str) -> str:
    if part not in row:
        return "–"
    lo, hi = row[part]["ci95"]
    return f"{row[part]['mean']:.3f} [{lo:.2f}, {hi:.2f}]"


def tables(first: dict[str, Any], last: dict[str, Any]) -> str:
    out = []
    for split in ("dev", "heldout"):
        out.append(f"**{split}** (n = {last[split]['all']['packet']['n']} messages)\n")
        out.append("| kind | n | " + " | ".join(PARTS) + " |")
        out.append("|---|---|" + "---|" * len(PARTS))
        for group in GROUPS:
            a, b = first[split][group], last[split][group]
            cells = [_cell(b, p) if a is b else f"{_cell(a, p)} → {_cell(b, p)}" for p in PARTS]
            out.append(f"| {group} | {b['packet']['n']} | " + " | ".join(cells) + " |")
        flag = last[split]["off_topic_flag"]
        out.append(
            f"\nOff-topic flag: recall {flag['recall']}, precision {flag['precision']} "
            f"({flag['flagged_off_topic']} off-topic and {flag['flagged_math']} of "
            f"{flag['math_messages']} math messages flagged).\n"
        )
        if "paired" in last:
            diffs = last["paired"][split]
            out.append(
                "Paired, last − first: "
                + "; ".join(
                    f"{p} {diffs[p]['mean']:+.3f} [{diffs[p]['ci95'][0]:+.3f}, "
                    f"{diffs[p]['ci95'][1]:+.3f}]"
                    for p in PARTS
                    if p in diffs
                )
                + ".\n"
            )
    return "\n".join(out)


def main(argv: list[str]) -> None:
    if len(argv) not in (1, 2):
        sys.exit("usage: tutoring_table.py REPORT [LATER_REPORT]")
    reports = [json.loads(Path(p).read_text(encoding="utf-8")) for p in argv]
    print(tables(reports[0], reports[-1]))


if __name__ == "__main__":
    main(sys.argv[1:])

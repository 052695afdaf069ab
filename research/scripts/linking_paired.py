"""Pair two `tutorgraph bench linking` reports item by item (issue 48).

    python research/scripts/linking_paired.py BEFORE.json AFTER.json [--system packet] \\
        [--after-system S]

For each data set and split: the mean hit@1 / hit@3 / hit@10 of BEFORE's `--system` and
AFTER's `--after-system` (default the same) over the items both scored, and the paired
difference with its 95% bootstrap interval (1,000 resamples, seed 0).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from tutorgraph_research.harness.results import bootstrap_ci
from tutorgraph_research.tasks.standards_linking import hit_scores


def main(before: Path, after: Path, system: str, after_system: str) -> None:
    b, a = json.loads(before.read_text()), json.loads(after.read_text())
    for name, items in a["items"].items():
        first = {it["id"]: it for it in b["items"].get(name, [])}
        for split in ("dev", "heldout", "all"):
            rows = [
                (first[it["id"]], it)
                for it in items
                if it["id"] in first and split in ("all", it["split"])
            ]
            if not rows:
                continue
            cells = []
            for metric in ("hit@1", "hit@3", "hit@10"):
                x = [hit_scores(p[system], p["standards"])[metric] for p, _ in rows]
                y = [hit_scores(q[after_system], q["standards"])[metric] for _, q in rows]
                d = [v - u for u, v in zip(x, y, strict=True)]
                lo, hi = bootstrap_ci(d)
                cells.append(
                    f"{metric} {sum(x) / len(x):.3f}->{sum(y) / len(y):.3f} "
                    f"{sum(d) / len(d):+.3f} [{lo:+.3f}, {hi:+.3f}]"
                )
            print(f"{name:18} {split:8} n={len(rows):4}  " + "  ".join(cells))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    parser.add_argument("--system", default="packet")
    parser.add_argument("--after-system", default=None)
    args = parser.parse_args()
    main(args.before, args.after, args.system, args.after_system or args.system)

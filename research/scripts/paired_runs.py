"""The paired difference between two `tutorgraph bench eedi --per-item` runs (two versions of
the code on the same folds), per configuration, with a 95% bootstrap interval.

    python research/scripts/paired_runs.py BEFORE.json AFTER.json [AFTER2.json ...] \
        [--metric hit@10] [--out results/x.json]

Several AFTER files are parts of one run (`bench eedi --only-folds`, disjoint folds): their
items are pooled; the pairs are the items both sides scored.

`--metric hit@10` pairs whether each item's target is in the top 10 (its AP@25 >= 1/10: each
benchmark item has one target, so its AP is 1/rank).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from tutorgraph_research.harness.results import bootstrap_ci


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path, nargs="+")
    parser.add_argument("--metric", choices=("map@25", "hit@10"), default="map@25")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    before = json.loads(args.before.read_text())
    parts = [json.loads(p.read_text()) for p in args.after]
    report = {}
    for config in dict.fromkeys(c for part in parts for c in part):
        rows = [part[config] for part in parts if "per_item" in part.get(config, {})]
        if config.startswith("_") or not rows or "per_item" not in before.get(config, {}):
            continue
        a = before[config]["per_item"]
        b = {item: ap for row in rows for item, ap in row["per_item"].items()}
        if args.metric == "hit@10":
            a, b = ({k: float(v >= 0.1) for k, v in x.items()} for x in (a, b))
        items = sorted(set(a) & set(b))
        diffs = [b[i] - a[i] for i in items]
        low, high = bootstrap_ci(diffs)
        report[config] = {
            "metric": args.metric,
            "n": len(items),
            "before": round(sum(a[i] for i in items) / len(items), 6),
            "after": round(sum(b[i] for i in items) / len(items), 6),
            "paired_diff": {
                "mean": round(sum(diffs) / len(diffs), 6),
                "ci95": [round(low, 6), round(high, 6)],
            },
            "changed_items": sum(d != 0 for d in diffs),
            "commits": [
                before["_meta"].get("git_commit"),
                *dict.fromkeys(part["_meta"].get("git_commit") for part in parts),
            ],
        }
    text = json.dumps(report, indent=1)
    print(text)
    if args.out:
        args.out.write_text(text + "\n")


if __name__ == "__main__":
    main()

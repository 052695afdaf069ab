"""The paired difference between two `tutorgraph bench eedi --per-item` runs (two versions of
the code on the same folds), per configuration, with a 95% bootstrap interval.

    python scripts/paired_runs.py BEFORE.json AFTER.json [--metric hit@10] [--out results/x.json]

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
    parser.add_argument("after", type=Path)
    parser.add_argument("--metric", choices=("map@25", "hit@10"), default="map@25")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    before, after = (json.loads(p.read_text()) for p in (args.before, args.after))
    report = {}
    for config, row in after.items():
        if (
            config.startswith("_")
            or "per_item" not in row
            or "per_item" not in before.get(config, {})
        ):
            continue
        a, b = before[config]["per_item"], row["per_item"]
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
            "commits": [before["_meta"].get("git_commit"), after["_meta"].get("git_commit")],
        }
    text = json.dumps(report, indent=1)
    print(text)
    if args.out:
        args.out.write_text(text + "\n")


if __name__ == "__main__":
    main()

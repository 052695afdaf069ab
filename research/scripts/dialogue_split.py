"""Choose the held-out third of `data/benchmarks/dialogues.jsonl`, stratified by batch and
kind.

Within each batch and kind the dialogues' ids are sorted, shuffled with a seeded
`random.Random` (`tutorgraph_research.tasks.dialogue_set.dialogue_splits`, seed 63), and the
first third (rounded to the nearest whole dialogue) is `heldout`, the rest `dev`; the file
is rewritten with each dialogue's `split` set, nothing else changed. Run it after adding a
batch (give its first id a place in `BATCH_STARTS`, so that the earlier batches keep their
splits) and before any result is read, or with `--check` to exit 1 when a dialogue's `split`
differs from the rule (`research/tests/unit/test_dialogue_set.py` does):

    .venv/bin/python research/scripts/dialogue_split.py
    .venv/bin/python research/scripts/dialogue_split.py --check

The held-out third is kept out of all tuning (data/benchmarks/DIALOGUES.md).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from tutorgraph_research.tasks.dialogue_set import dialogue_splits

DIALOGUES = Path("data/benchmarks/dialogues.jsonl")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dialogues", type=Path, default=DIALOGUES)
    parser.add_argument("--check", action="store_true", help="exit 1 if a split differs")
    args = parser.parse_args()
    lines = args.dialogues.read_text(encoding="utf-8").splitlines()
    rows = [json.loads(line) for line in lines if line.strip()]
    wanted = dialogue_splits(rows)
    wrong = [r["id"] for r in rows if r.get("split") != wanted[str(r["id"])]]
    if args.check:
        if wrong:
            print(f"{args.dialogues}: split differs from the rule for {', '.join(wrong)}")
            return 1
        print(f"{args.dialogues}: every split follows the rule")
        return 0
    with args.dialogues.open("w", encoding="utf-8") as f:
        for row in rows:
            row["split"] = wanted[str(row["id"])]
            f.write(json.dumps(row, ensure_ascii=False) + "\n")
    held = sum(v == "heldout" for v in wanted.values())
    print(f"{args.dialogues}: {held} of {len(rows)} held out ({len(wrong)} changed)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

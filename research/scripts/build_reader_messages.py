"""Write the math-message reader benchmark (`data/benchmarks/reader_messages.jsonl`).

    .venv/bin/python research/scripts/build_reader_messages.py /work/shared/data/eedi/train.csv \
        data/benchmarks/reader_messages.jsonl

Each row is one message in a student's words with its labels: the problem it states (plain
ASCII, canonical), the student's answer, the answer the student says is right, the kind of
request, and the Eedi misconception(s) accepted for that answer. Problems come from

* real Eedi pairs (`source == "eedi"`): questions of `train.csv` whose text is a pure
  calculation and whose labelled wrong option is a single number. The calculation is
  extracted from the LaTeX and kept only when it evaluates to the question's own correct
  option (the extraction is checked against Eedi's key), and
* the project's own problems (`source == "own"`, `OWN_PROBLEMS`): a misconception id is
  given only where the wrong answer is exactly what that Eedi misconception produces.

Canonical problem forms: `7 - 2 * 3`, `2/3 + 1/4` (a fraction is `a/b` with no spaces,
division is ` / `), `2 1/2 * 3` (mixed number), `0.5`, `-4`, `(-5) + (-2)`, `3^2`,
`sqrt(16)`, `40% of 120`, `1/6 of 24`, `round 2.45 to 1 dp`, `round 0.0373 to 2 sf`,
`round 4296 to the nearest 10`, `325076 - 100`.

The split is by phrasing, not by item: phrasing `p` is held out when
`int(sha256(("phrasing:" + p).encode()).hexdigest(), 16) % 3 == 0`. Everything is
deterministic (choices come from sha256 of fixed keys).
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

from reader_messages.build import heldout, messages
from reader_messages.eedi import eedi_items
from reader_messages.own import own_items


def main(train: str, out: str) -> None:
    root = Path(__file__).resolve().parents[2]
    known = {
        json.loads(line)["id"]
        for line in (root / "data/curriculum/misconceptions.jsonl").read_text().splitlines()
        if line.strip()
    }
    eedi, dropped = eedi_items(Path(train), known)
    items = eedi + own_items()
    rows = messages(items)
    path = Path(out)
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = [json.dumps(r, ensure_ascii=False, sort_keys=True) for r in rows]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    splits = Counter(str(r["split"]) for r in rows)
    sources = Counter(str(r["source"]) for r in rows)
    phr = Counter(str(r["phrasing"]) for r in rows)
    held = sorted(p for p in phr if heldout(p))
    print(
        f"{len(eedi)} Eedi pairs from {len({i.question_id for i in eedi})} questions;"
        f" dropped: {dict(dropped)}"
    )
    print(f"{len(rows)} messages -> {out}; splits {dict(splits)}; sources {dict(sources)}")
    print(f"{len(phr)} phrasings, {len(held)} held out")


if __name__ == "__main__":
    main(*sys.argv[1:3])

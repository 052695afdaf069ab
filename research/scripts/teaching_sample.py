"""A seeded random sample of the project's own teaching records, 10 per lessons file (grade
band K-2, 3-4, 5-6, 7-8), for a teacher's reading (issue 61):

    python research/scripts/teaching_sample.py [--per-band 10] [--seed 4061] --out FILE

Each row: the record's id, kind, grade, title and text as the bundle holds it, the standard's
text, and empty `verdict` and `note` for the reader.
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

from tutorgraph.ingest.teaching import TEACHING_DIR, load_teaching

ROOT = Path(__file__).resolve().parents[2]
# The lessons files' grade bands.
BANDS = {"k2": {"K", "1", "2"}, "34": {"3", "4"}, "56": {"5", "6"}, "78": {"7", "8"}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-band", type=int, default=10)
    parser.add_argument("--seed", type=int, default=4061)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    concepts = {
        r["id"]: r
        for r in map(json.loads, (ROOT / "data/curriculum/concepts.jsonl").open(encoding="utf-8"))
    }
    docs = load_teaching(ROOT / TEACHING_DIR).documents
    rng = random.Random(args.seed)
    rows = []
    for name, grades in BANDS.items():
        for d in rng.sample([d for d in docs if d.grade in grades], args.per_band):
            standard = concepts[d.concept_ids[0]]
            rows.append(
                {
                    "band": name,
                    "id": d.id,
                    "kind": d.kind,
                    "grade": d.grade,
                    "title": d.title,
                    "text": d.text,
                    "standard": f"{standard['id']}: {standard['description']}",
                    "verdict": None,
                    "note": "",
                }
            )
    args.out.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows))
    print(f"{len(rows)} items in {args.out}")


if __name__ == "__main__":
    main()

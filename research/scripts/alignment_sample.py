"""The aligned_with edges a person judged, and their precision per method.

    python research/scripts/alignment_sample.py draw    # the sample, judgments empty
    python research/scripts/alignment_sample.py report  # precision per method, Wilson intervals

`draw` takes a seeded sample of the bundle's aligned_with edges (30 whose standard both
methods named, 20 named by card similarity only, 20 by item similarity only) with both sides'
texts, into tests/data/alignment_judgments.jsonl; a person then sets each row's `correct`
(does the construct or section teach, or directly practise, the standard?) and `note`.
`report` writes results/alignment_precision.json.
"""

from __future__ import annotations

import json
import math
import random
import sys
from pathlib import Path

from tutorgraph.ingest.bundle import load_trusted
from tutorgraph.linking.alignment import items_by_concept
from tutorgraph.linking.cards import build_cards

BUNDLE = Path("data/curriculum")
SAMPLE = Path("tests/data/alignment_judgments.jsonl")
OUT = Path("results/alignment_precision.json")
PER_METHOD = {"item-and-card-similarity": 30, "card-similarity": 20, "item-similarity": 20}


def draw() -> None:
    records = load_trusted(BUNDLE)
    cards = {c.concept_id: c for c in build_cards(records.concepts)}
    items = items_by_concept(records.documents)
    edges = [p for p in records.prerequisites if p.relation == "aligned_with"]
    rng = random.Random(31)
    rows = []
    for method, n in PER_METHOD.items():
        pool = sorted((e for e in edges if e.method == method), key=lambda e: e.concept_id)
        for e in sorted(rng.sample(pool, min(n, len(pool))), key=lambda e: e.concept_id):
            rows.append(
                {
                    "concept_id": e.concept_id,
                    "standard_id": e.prerequisite_id,
                    "method": method,
                    "score": e.score,
                    "concept": cards[e.concept_id].text,
                    "items": [t[:200] for t in items.get(e.concept_id, [])[:2]],
                    "standard": cards[e.prerequisite_id].description,
                    "correct": None,
                    "note": "",
                }
            )
    SAMPLE.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows))
    print(f"{len(rows)} edges to judge in {SAMPLE}")


def wilson(k: int, n: int, z: float = 1.96) -> list[float]:
    if n == 0:
        return [0.0, 0.0]
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return [round(centre - half, 3), round(centre + half, 3)]


def report() -> None:
    rows = [json.loads(line) for line in SAMPLE.read_text().splitlines()]
    out: dict[str, dict[str, object]] = {}
    for method in [*PER_METHOD, "all"]:
        judged = [r for r in rows if method in ("all", r["method"])]
        k = sum(bool(r["correct"]) for r in judged)
        out[method] = {
            "n": len(judged),
            "correct": k,
            "precision": round(k / len(judged), 3) if judged else None,
            "ci95_wilson": wilson(k, len(judged)),
        }
    OUT.write_text(json.dumps(out, indent=1) + "\n")
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    {"draw": draw, "report": report}[sys.argv[1]]()

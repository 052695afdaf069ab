"""Factual conflicts in a curriculum bundle: the same problem with different stated answers.

The rule is the retriever's (`tutorgraph.retrieval.conflicts`), run over every exercise and
question of the bundle at once. Prints the count and every group found.

    python research/scripts/factual_conflicts.py data/curriculum \\
        --out results/factual_conflicts.json
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from tutorgraph.ingest.bundle import load_trusted
from tutorgraph.retrieval.conflicts import factual_conflicts, stated_answer
from tutorgraph_client.models.packet import Hit


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("bundle", type=Path)
    p.add_argument("--out", type=Path, default=None)
    args = p.parse_args()
    docs = load_trusted(args.bundle).documents
    hits = [
        Hit(id=d.id, ids=[d.id], kind=d.kind, text=d.text, score=0.0, rank=0, found_by=[],
            fused_score=0.0)
        for d in docs
        if stated_answer(d.kind, d.text) is not None
    ]  # fmt: skip
    conflicts = factual_conflicts(hits)
    report = {
        "bundle": str(args.bundle),
        "documents": len(docs),
        "with_a_comparable_answer": len(hits),
        "factual_conflicts": len(conflicts),
        "groups": [
            {"ids": c.ids, "preferred": c.preferred, "answers": c.answers} for c in conflicts
        ],
    }
    text = json.dumps(report, indent=2, ensure_ascii=False)
    print(text)
    if args.out:
        args.out.write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()

"""Which Eedi benchmark pairs the story reader (issue 48) can change, and how their packets
change: the facts are the only path by which issue 48 reaches the Eedi ranking (the graph's
seeds and the ranker never read the Common Core links).

    python research/scripts/probes/eedi_story_check.py --index-dir IDX [--train CSV]

For every labelled pair whose request reads a story, the bundled pipeline's misconception
ranking with the story read and with it switched off, and the MAP@25 of each over those
pairs (the bundled ranker saw these questions in training: an A/B of the two, not a
cross-validated score).
"""

from __future__ import annotations

import argparse
import asyncio
import json
from pathlib import Path
from unittest import mock

from tutorgraph.config import Settings
from tutorgraph.index.service import open_retriever
from tutorgraph.ingest.eedi import read_eedi_questions
from tutorgraph.retrieval.facts import request_facts
from tutorgraph_client.models.request import RetrievalRequest
from tutorgraph_research.tasks.eedi import eedi_pairs, misconception_ranking


def ap25(ranking: list[str], target: str) -> float:
    top = ranking[:25]
    return 1.0 / (top.index(target) + 1) if target in top else 0.0


async def main(index_dir: Path, train: Path) -> None:
    pairs = [
        p
        for p in eedi_pairs(read_eedi_questions(train))
        if request_facts(RetrievalRequest(query=p.query[:2000]), None).story is not None
    ]
    opened = open_retriever(Settings(index_dir=index_dir))
    rows = []
    try:
        for p in pairs:
            request = RetrievalRequest(query=p.query[:2000], n_results=25, max_context_tokens=0)
            after = misconception_ranking(await opened.retriever.retrieve(request), p.target)
            with mock.patch("tutorgraph.retrieval.facts.read_story", return_value=None):
                before = misconception_ranking(await opened.retriever.retrieve(request), p.target)
            rows.append(
                {
                    "item": p.item_id,
                    "same": before == after,
                    "ap_before": ap25(before, p.target),
                    "ap_after": ap25(after, p.target),
                }
            )
    finally:
        await opened.aclose()
    n = len(rows)
    print(
        json.dumps(
            {
                "pairs_with_a_story": n,
                "rankings_unchanged": sum(r["same"] for r in rows),
                "map25_before": round(sum(r["ap_before"] for r in rows) / max(n, 1), 4),
                "map25_after": round(sum(r["ap_after"] for r in rows) / max(n, 1), 4),
                "items": rows,
            },
            indent=1,
        )
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--index-dir", type=Path, required=True)
    parser.add_argument("--train", type=Path, default=Path("../shared/data/eedi/train.csv"))
    args = parser.parse_args()
    asyncio.run(main(args.index_dir, args.train))

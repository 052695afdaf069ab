"""Candidate Common Core standards for every Eedi construct, to be judged (issue 61).

    PYTHONPATH=src:clients/python/src:research/src \\
        python research/scripts/alignment_candidates.py [--bundle data/curriculum] \\
        [--out /work/probe/i61/align_constructs/candidates.jsonl] [--top 8] [--widen 3]

For each construct the query is its name and the stems of its first `QUESTIONS` questions
(`alignment.items_by_concept` order, the answer options cut off). The concept linker over the
bundle's cards, with the bundled standards model fused in (`ConceptLinker.with_model`, no
grade: Eedi's constructs carry none), scores every standard; its best `--top` are the
candidates. The pool is widened with the `--widen` nearest standards by the two cosines of
`linking.alignment` (the construct's card against the standards' cards, and the mean of its
questions' vectors against them). Every candidate carries its rank and score in the linker's
full ranking, and the sources that named it. One JSON line per construct, sorted by id:

    {"concept_id": ..., "name": ..., "questions": [...], "candidates": [{"standard": ...,
     "rank": 3, "score": 0.41, "sources": ["linker", "card-cosine"]}, ...]}

Deterministic for a given bundle and model; the cards' vectors come from the bundle's stored
vectors, the queries and questions are embedded in batches (a minute or two on two cores).
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from tutorgraph.config import Settings
from tutorgraph.embedding.stored_vectors import StoredVectors
from tutorgraph.ingest.bundle import read_bundle
from tutorgraph.linking.alignment import items_by_concept
from tutorgraph.linking.cards import build_cards
from tutorgraph.linking.linker import ConceptLinker
from tutorgraph.linking.standards_model import StandardModel
from tutorgraph.retrieval.factory import bundled_standards_path, make_embedder

ROOT = Path(__file__).resolve().parents[2]
OUT = Path("/work/probe/i61/align_constructs/candidates.jsonl")
# Questions read into a construct's query, and the characters kept of each stem.
QUESTIONS = 3
STEM_CHARS = 300
_OPTIONS = re.compile(r"\nA:")
_BATCH = 64


def stem(text: str) -> str:
    """A question without its answer options, at most `STEM_CHARS` characters.

    >>> stem("What is 2 + 3?\\nA: 4\\nB: 5")
    'What is 2 + 3?'
    """
    return " ".join(_OPTIONS.split(text, maxsplit=1)[0].split())[:STEM_CHARS]


def embed(embedder: Any, texts: list[str]) -> npt.NDArray[np.float32]:
    """`texts`' unit vectors, embedded in batches."""
    parts = [embedder.embed(texts[i : i + _BATCH]) for i in range(0, len(texts), _BATCH)]
    return np.asarray(np.concatenate(parts), dtype=np.float32)


def top(scores: npt.NDArray[np.float32], n: int) -> list[int]:
    """The positions of the `n` best scores (ties by position)."""
    return [int(i) for i in np.lexsort((np.arange(len(scores)), -scores))[:n]]


def main(args: argparse.Namespace) -> None:
    records = read_bundle(args.bundle)
    cards = build_cards(records.concepts)
    stored = StoredVectors.read(args.bundle / "embeddings")
    embedder = make_embedder(Settings())
    found = stored.lookup([c.text for c in cards], stored.fingerprint) if stored else {}
    missing = [i for i in range(len(cards)) if i not in found]
    fresh = embed(embedder, [cards[i].text for i in missing]) if missing else None
    dim = fresh.shape[1] if fresh is not None else next(iter(found.values())).shape[0]
    vectors = np.zeros((len(cards), dim), dtype=np.float32)
    for i, vector in found.items():
        vectors[i] = vector
    if fresh is not None:
        vectors[missing] = fresh
    linker = ConceptLinker(cards, vectors, embedder).with_model(
        StandardModel.load(bundled_standards_path())
    )
    ids = linker.standard_ids
    row = {c.concept_id: i for i, c in enumerate(cards)}
    standard_vectors = vectors[[row[s] for s in ids]]

    items = items_by_concept(records.documents)
    constructs = [c for c in cards if c.taxonomy == "eedi"]
    questions = {c.concept_id: [stem(t) for t in items.get(c.concept_id, [])] for c in constructs}
    queries = [" ".join([c.name, *questions[c.concept_id][:QUESTIONS]]).strip() for c in constructs]
    print(f"{len(constructs)} constructs, {len(ids)} standards; embedding the queries")
    query_vectors = embed(embedder, queries)
    flat = [t for c in constructs for t in questions[c.concept_id]]
    print(f"embedding {len(flat)} question stems")
    item_vectors = embed(embedder, flat) if flat else np.zeros((0, dim), dtype=np.float32)

    lines, at = [], 0
    for c, query, qv in zip(constructs, queries, query_vectors, strict=True):
        scores = linker.standard_scores(query, qv)
        order = top(scores, len(ids))
        rank = {p: r + 1 for r, p in enumerate(order)}
        sources: dict[int, list[str]] = {p: ["linker"] for p in order[: args.top]}
        for p in top(standard_vectors @ vectors[row[c.concept_id]], args.widen):
            sources.setdefault(p, []).append("card-cosine")
        n = len(questions[c.concept_id])
        if n:
            mean = item_vectors[at : at + n].mean(axis=0)
            mean = mean / (np.linalg.norm(mean) or 1.0)
            for p in top(standard_vectors @ mean, args.widen):
                sources.setdefault(p, []).append("item-cosine")
        at += n
        candidates = [
            {
                "standard": ids[p],
                "rank": rank[p],
                "score": round(float(scores[p]), 4),
                "sources": sources[p],
            }
            for p in sorted(sources, key=lambda p: rank[p])
        ]
        lines.append(
            {
                "concept_id": c.concept_id,
                "name": c.name,
                "questions": questions[c.concept_id][:QUESTIONS],
                "candidates": candidates,
            }
        )
    lines.sort(key=lambda r: str(r["concept_id"]))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in lines))
    pool = sum(len(r["candidates"]) for r in lines)
    print(f"{pool} candidate pairs for {len(lines)} constructs in {args.out}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bundle", type=Path, default=ROOT / "data/curriculum")
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--top", type=int, default=8, help="the linker's best N standards")
    parser.add_argument("--widen", type=int, default=3, help="N nearest by each cosine")
    main(parser.parse_args())

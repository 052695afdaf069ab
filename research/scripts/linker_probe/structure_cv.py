"""Does the linker's structural evidence beat the linker without it? 5-fold CV over MathFish's
aligned rows and the dev tutoring messages (never the held-out third): on each fold the
(structure, story) weights are chosen on the other four folds (most hits@1 + hits@10), then
the held-out fold is scored with them and with no structure; the paired difference of the
pooled held-out hits has a 95% bootstrap interval. Uses `prep.py`'s data and
`adapter.py`'s cached vectors.

    WORK=/tmp/la python research/scripts/linker_probe/structure_cv.py \\
        > results/linker_structure_cv.log
"""

import gzip
import hashlib
import itertools
import json
import os
from pathlib import Path

import numpy as np

from tutorgraph.ingest.bundle import load_trusted
from tutorgraph.linking.cards import build_cards
from tutorgraph.linking.linker import ConceptLinker
from tutorgraph_research.harness.results import bootstrap_ci

WORK = Path(os.environ.get("WORK", "/tmp/la"))
with gzip.open(os.environ.get("DATA", ".device/data.json.gz"), "rt") as fh:
    data = json.load(fh)
C, E = np.load(WORK / "cards.npy"), np.load(WORK / "evals.npy")
cards = build_cards(load_trusted(Path("data/curriculum"), documents=False).concepts)
items = [
    (e, v) for e, v in zip(data["evals"], E, strict=True) if e["set"] in ("mathfish", "msg-dev")
]
fold = [int(hashlib.sha256(e["text"].encode()).hexdigest(), 16) % 5 for e, _ in items]
GRID = [(0.0, 0.0), *itertools.product((0.06, 0.1, 0.15), (0.1, 0.2, 0.3, 0.4))]
hits = {}
for s, t in GRID:
    linker = ConceptLinker(cards, C, structure_weight=s, story_weight=t)
    row = []
    for e, v in items:
        top = [c.concept_id for c in linker.link(e["text"], 10, v)["common-core"]]
        row.append((float(top[0] in e["std"]), float(bool(set(top) & set(e["std"])))))
    hits[(s, t)] = np.array(row)
chosen = np.zeros((len(items), 2))
for k in range(5):
    train = np.array([f != k for f in fold])
    best = max(GRID[1:], key=lambda g: hits[g][train].sum())
    print(f"fold {k}: chose structure {best[0]}, story {best[1]}")
    chosen[~train] = hits[best][~train]
base = hits[(0.0, 0.0)]
for m, name in enumerate(("hit@1", "hit@10")):
    d = chosen[:, m] - base[:, m]
    lo, hi = bootstrap_ci(list(d))
    print(
        f"{name}: without {base[:, m].mean():.3f}, with (CV) {chosen[:, m].mean():.3f}, "
        f"paired {d.mean():+.3f} [{lo:+.3f}, {hi:+.3f}], n={len(d)}"
    )

"""Probe (issue 33): does a cross-encoder trained on this CPU order held-out answers' candidates
better than the fine-tuned encoder that proposed them?

Fold encoder 0 (never saw fold 0) ranks every misconception for each labelled answer. A
3-layer MiniLM cross-encoder (mean-pooled, `cross_encoder_pooling.py`) is trained on TRAIN
answers of folds 1-4 (their label and 3 hard negatives from that encoder's best), then
reorders the first 20 of TEST answers of fold 0; MAP@25 of both orders over those answers,
paired (95% bootstrap interval).

    python research/scripts/probes/cross_encoder_heldout.py POOLING LR EPOCHS TRAIN TEST
    # mean 5e-5 6 400 200 (315 s): loss 1.058 1.053 1.041 1.035 1.019 0.974; held-out 200:
    # encoder 0.2418, cross-encoder@20 0.1423, paired -0.0995 [-0.1481, -0.0481]
    # mean 5e-5 6 800 200 (606 s): loss 1.053 1.045 ... 0.851 0.679; held-out 200 (another
    # sample: the draw of TRAIN moves it): encoder 0.2275, cross-encoder@20 0.1327, paired
    # -0.0948 [-0.1432, -0.0487]
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import numpy as np
import torch
from cross_encoder_pooling import (  # this folder's probe: the model and its loop
    PairModel,
    fold0_misconceptions,
)

from tutorgraph.embedding.reranker import RerankerOptions, encode_pairs
from tutorgraph.ingest.eedi import read_eedi_questions
from tutorgraph.ranking.metrics import average_precision_at_k
from tutorgraph_research.harness.results import bootstrap_ci
from tutorgraph_research.tasks.eedi import eedi_pairs

DATA = Path("../shared/data/eedi")
DEPTH = 20


def main() -> None:
    pooling, lr, epochs = sys.argv[1], float(sys.argv[2]), int(sys.argv[3])
    n_train, n_test = int(sys.argv[4]), int(sys.argv[5])
    torch.manual_seed(0)
    pairs = eedi_pairs(read_eedi_questions(DATA / "train.csv"))
    rng = random.Random(0)
    train = rng.sample([p for p in pairs if p.question.question_id % 5 != 0], n_train)
    test = rng.sample([p for p in pairs if p.question.question_id % 5 == 0], n_test)
    names, row_ids, encoder, targets = fold0_misconceptions()

    def ranked(ps: list) -> list[list[int]]:
        q = encoder.embed([p.query for p in ps])
        return [list(np.argsort(-(targets @ v), kind="stable")) for v in q]

    model = PairModel(pooling)
    options = RerankerOptions(max_length=192)
    examples = []
    for p, order in zip(train, ranked(train), strict=True):
        hard = [i for i in order if row_ids[i] != p.target][:3]
        texts = [names[row_ids.index(p.target)]] + [names[i] for i in hard]
        encoded = encode_pairs(model.tok, p.query, texts, options)
        examples += list(zip(encoded, [1.0, 0.0, 0.0, 0.0], strict=True))
    model.fit(examples, lr, epochs, rng, "epoch")
    model.body.eval()
    before, after = [], []
    with torch.no_grad():
        for p, order in zip(test, ranked(test), strict=True):
            top = order[:DEPTH]
            encoded = encode_pairs(model.tok, p.query, [names[i] for i in top], options)
            s = model.score(encoded).numpy()
            reordered = [top[i] for i in np.argsort(-s, kind="stable")]
            before.append(average_precision_at_k([row_ids[i] for i in order], {p.target}, 25))
            after.append(
                average_precision_at_k(
                    [row_ids[i] for i in reordered + order[DEPTH:]], {p.target}, 25
                )
            )
    diffs = [a - b for a, b in zip(after, before, strict=True)]
    low, high = bootstrap_ci(diffs)
    print(
        f"held-out {len(test)}: encoder {np.mean(before):.4f}, cross-encoder@{DEPTH} "
        f"{np.mean(after):.4f}, paired {np.mean(diffs):+.4f} [{low:+.4f}, {high:+.4f}]"
    )


if __name__ == "__main__":
    main()

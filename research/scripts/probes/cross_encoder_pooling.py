"""Probe (issue 33): does the MiniLM cross-encoder overfit 40 labelled answers given more
steps, and does mean pooling (as the bi-encoder was trained) learn sooner than [CLS]? A plain
PyTorch loop: 3 layers, 40 answers of fold 0, each with 3 hard negatives from fold encoder 0's
cosine, BCE with the positive weighted 3, batches of 16 (10 steps an epoch), body at LR, head
at 1e-3; prints the mean loss per epoch (a constant prediction's is about 1.04).

    python research/scripts/probes/cross_encoder_pooling.py {cls,mean} LR EPOCHS
    # mean 5e-5 12 -> 1.057 1.038 1.017 1.000 0.987 0.904 0.717 0.460 0.270 0.203 0.169 0.167
    # cls  5e-5 12 -> 1.048 1.043 1.040 1.041 1.041 1.034 1.012 0.888 0.637 0.445 0.238 0.142

Both overfit: the 6 epochs of `cross_encoder_overfit.py` stopped before either left the
constant (mean pooling leaves it about two epochs sooner).
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import numpy as np
import torch
from transformers import AutoModel, AutoTokenizer

from tutorgraph.embedding.embedder import resolve_model_path
from tutorgraph.embedding.onnx_embedder import OnnxEmbedder
from tutorgraph.embedding.reranker import EncodedPair, RerankerOptions, encode_pairs, pad_batch
from tutorgraph.ingest.eedi import eedi_misconception_id, read_eedi_questions, read_misconceptions
from tutorgraph.ranking.tuned import TUNED_GRAPH
from tutorgraph_research.tasks.eedi import eedi_pairs

DATA = Path("../shared/data/eedi")
FEED = ("input_ids", "attention_mask", "token_type_ids")


class PairModel:
    """MiniLM's first 3 layers and a linear head over [CLS] or the mean of the tokens."""

    def __init__(self, pooling: str) -> None:
        path = str(resolve_model_path("sentence-transformers/all-MiniLM-L6-v2"))
        self.pooling = pooling
        self.tok = AutoTokenizer.from_pretrained(path)
        self.body = AutoModel.from_pretrained(path)
        self.body.encoder.layer = self.body.encoder.layer[:3]
        self.head = torch.nn.Linear(384, 1)

    def score(self, encoded: list[EncodedPair]) -> torch.Tensor:
        arrays = pad_batch(encoded, self.tok.pad_token_id)
        feed = {k: torch.from_numpy(v) for k, v in arrays.items() if k in FEED}
        out = self.body(**feed).last_hidden_state
        if self.pooling == "cls":
            return self.head(out[:, 0]).view(-1)
        mask = feed["attention_mask"].unsqueeze(-1).float()
        return self.head((out * mask).sum(1) / mask.sum(1)).view(-1)

    def fit(
        self,
        examples: list[tuple[EncodedPair, float]],
        lr: float,
        epochs: int,
        rng: random.Random,
        label: str,
    ) -> None:
        """BCE (positives weighted 3), batches of 16, body at `lr`, head at 1e-3; prints
        `label`, the epoch and its mean loss."""
        optimiser = torch.optim.AdamW(
            [
                {"params": self.body.parameters(), "lr": lr},
                {"params": self.head.parameters(), "lr": 1e-3},
            ]
        )
        bce = torch.nn.BCEWithLogitsLoss(pos_weight=torch.tensor(3.0))
        for epoch in range(epochs):
            rng.shuffle(examples)
            losses = []
            for i in range(0, len(examples), 16):
                batch = examples[i : i + 16]
                loss = bce(self.score([e for e, _ in batch]), torch.tensor([y for _, y in batch]))
                loss.backward()
                optimiser.step()
                optimiser.zero_grad()
                losses.append(loss.item())
            print(label, epoch, round(sum(losses) / len(losses), 3), flush=True)


def fold0_misconceptions() -> tuple[list[str], list[str], OnnxEmbedder, np.ndarray]:
    """Every misconception's name and row id, fold encoder 0 (loaded) and their vectors."""
    mis = read_misconceptions(DATA / "misconception_mapping.csv")
    ids = sorted(mis)
    names = [mis[m] for m in ids]
    encoder = OnnxEmbedder("models/probe-e4/fold0/model", graph=TUNED_GRAPH)
    encoder.load()
    return names, [eedi_misconception_id(m) for m in ids], encoder, encoder.embed(names)


def main() -> None:
    pooling, lr, epochs = sys.argv[1], float(sys.argv[2]), int(sys.argv[3])
    torch.manual_seed(0)
    pairs = [
        p for p in eedi_pairs(read_eedi_questions(DATA / "train.csv"))
        if p.question.question_id % 5 == 0
    ][:40]  # fmt: skip
    names, row_ids, encoder, targets = fold0_misconceptions()
    queries = encoder.embed([p.query for p in pairs])
    model = PairModel(pooling)
    examples = []
    for p, q in zip(pairs, queries, strict=True):
        hard = [i for i in np.argsort(-(targets @ q)) if row_ids[i] != p.target][:3]
        texts = [names[row_ids.index(p.target)]] + [names[i] for i in hard]
        encoded = encode_pairs(model.tok, p.query, texts, RerankerOptions())
        examples += list(zip(encoded, [1.0, 0.0, 0.0, 0.0], strict=True))
    model.fit(examples, lr, epochs, random.Random(0), pooling)


if __name__ == "__main__":
    main()

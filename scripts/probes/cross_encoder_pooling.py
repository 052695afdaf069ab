"""Probe (issue 33): does the MiniLM cross-encoder overfit 40 labelled answers given more
steps, and does mean pooling (as the bi-encoder was trained) learn sooner than [CLS]? A plain
PyTorch loop: 3 layers, 40 answers of fold 0, each with 3 hard negatives from fold encoder 0's
cosine, BCE with the positive weighted 3, batches of 16 (10 steps an epoch), body at LR, head
at 1e-3; prints the mean loss per epoch (a constant prediction's is about 1.04).

    python scripts/probes/cross_encoder_pooling.py {cls,mean} LR EPOCHS
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
from tutorgraph.ingest.eedi import eedi_misconception_id, read_eedi_questions, read_misconceptions
from tutorgraph.ranking.tuned import TUNED_GRAPH
from tutorgraph.retrieval.reranker import RerankerOptions, encode_pairs, pad_batch
from tutorgraph_research.tasks.eedi import eedi_pairs

DATA = Path("../shared/data/eedi")
FEED = ("input_ids", "attention_mask", "token_type_ids")


def main() -> None:
    pooling, lr, epochs = sys.argv[1], float(sys.argv[2]), int(sys.argv[3])
    torch.manual_seed(0)
    pairs = [
        p for p in eedi_pairs(read_eedi_questions(DATA / "train.csv"))
        if p.question.question_id % 5 == 0
    ][:40]  # fmt: skip
    mis = read_misconceptions(DATA / "misconception_mapping.csv")
    ids = sorted(mis)
    names = [mis[m] for m in ids]
    row_ids = [eedi_misconception_id(m) for m in ids]
    encoder = OnnxEmbedder("models/probe-e4/fold0/model", graph=TUNED_GRAPH)
    encoder.load()
    targets = encoder.embed(names)
    queries = encoder.embed([p.query for p in pairs])
    path = str(resolve_model_path("sentence-transformers/all-MiniLM-L6-v2"))
    tok = AutoTokenizer.from_pretrained(path)
    body = AutoModel.from_pretrained(path)
    body.encoder.layer = body.encoder.layer[:3]
    head = torch.nn.Linear(384, 1)
    examples = []
    for p, q in zip(pairs, queries, strict=True):
        hard = [i for i in np.argsort(-(targets @ q)) if row_ids[i] != p.target][:3]
        texts = [names[row_ids.index(p.target)]] + [names[i] for i in hard]
        encoded = encode_pairs(tok, p.query, texts, RerankerOptions())
        examples += list(zip(encoded, [1.0, 0.0, 0.0, 0.0], strict=True))
    optimiser = torch.optim.AdamW(
        [{"params": body.parameters(), "lr": lr}, {"params": head.parameters(), "lr": 1e-3}]
    )
    bce = torch.nn.BCEWithLogitsLoss(pos_weight=torch.tensor(3.0))

    def score(feed: dict[str, torch.Tensor]) -> torch.Tensor:
        out = body(**feed).last_hidden_state
        if pooling == "cls":
            return head(out[:, 0]).view(-1)
        mask = feed["attention_mask"].unsqueeze(-1).float()
        return head((out * mask).sum(1) / mask.sum(1)).view(-1)

    rng = random.Random(0)
    for epoch in range(epochs):
        rng.shuffle(examples)
        losses = []
        for i in range(0, len(examples), 16):
            batch = examples[i : i + 16]
            arrays = pad_batch([e for e, _ in batch], tok.pad_token_id)
            feed = {k: torch.from_numpy(v) for k, v in arrays.items() if k in FEED}
            loss = bce(score(feed), torch.tensor([y for _, y in batch]))
            loss.backward()
            optimiser.step()
            optimiser.zero_grad()
            losses.append(loss.item())
        print(pooling, epoch, round(sum(losses) / len(losses), 3), flush=True)


if __name__ == "__main__":
    main()

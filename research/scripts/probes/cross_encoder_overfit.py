"""Probe (issue 33): can the MiniLM cross-encoder even overfit 40 labelled answers on this
CPU? A plain PyTorch loop (no tutorgraph training code): 3 layers, each answer's label and 3
hard negatives from the fine-tuned fold encoders, BCE with the positive weighted 3, batches
of 16, 6 epochs; prints the mean loss per epoch (a constant prediction's loss is 1.04).

    python research/scripts/probes/cross_encoder_overfit.py BODY_LR [HEAD_LR]
    # 5e-5 -> 1.039 1.039 1.041 1.041 1.040 1.040
    # 5e-5 1e-3 -> 1.042 1.050 1.044 1.042 1.056 1.041 (an earlier copy of this loop that
    # read the same negatives from a cache; the classifier head's init is not seeded)
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import torch
from transformers import AutoModelForSequenceClassification, AutoTokenizer

from tutorgraph.embedding.embedder import resolve_model_path
from tutorgraph.embedding.reranker import RerankerOptions, encode_pairs, pad_batch
from tutorgraph.ingest.eedi import eedi_misconception_id, read_eedi_questions, read_misconceptions
from tutorgraph.training.crossfit_encoders import load_fold_encoders
from tutorgraph_research.tasks.eedi import eedi_pairs
from tutorgraph_research.tasks.second_stage import RankedPair, tuned_negatives

DATA = Path("../shared/data/eedi")


def main() -> None:
    body_lr = float(sys.argv[1])
    head_lr = float(sys.argv[2]) if len(sys.argv) > 2 else body_lr
    pairs = [
        RankedPair(p.item_id, p.question.question_id, p.query, p.target, ())
        for p in eedi_pairs(read_eedi_questions(DATA / "train.csv"))[:40]
    ]
    names = {
        eedi_misconception_id(k): v
        for k, v in read_misconceptions(DATA / "misconception_mapping.csv").items()
    }
    hard = tuned_negatives(pairs, load_fold_encoders(Path("models/probe-e4"), 5), names)
    path = str(resolve_model_path("sentence-transformers/all-MiniLM-L6-v2"))
    tok = AutoTokenizer.from_pretrained(path)
    model = AutoModelForSequenceClassification.from_pretrained(path, num_labels=1)
    model.bert.encoder.layer = model.bert.encoder.layer[:3]
    examples = []
    for p in pairs:
        texts = [names[p.target]] + [names[h] for h in hard[p.item][:3]]
        encoded = encode_pairs(tok, p.query, texts, RerankerOptions())
        examples += list(zip(encoded, [1.0, 0.0, 0.0, 0.0], strict=True))
    head = ("classifier", "bert.pooler")
    named = list(model.named_parameters())
    groups = [
        {"params": [x for n, x in named if not n.startswith(head)], "lr": body_lr},
        {"params": [x for n, x in named if n.startswith(head)], "lr": head_lr},
    ]
    optimiser = torch.optim.AdamW(groups)
    bce = torch.nn.BCEWithLogitsLoss(pos_weight=torch.tensor(3.0))
    model.train()
    rng = random.Random(0)
    for epoch in range(6):
        rng.shuffle(examples)
        total = 0.0
        for i in range(0, len(examples), 16):
            batch = examples[i : i + 16]
            arrays = pad_batch([e for e, _ in batch], tok.pad_token_id)
            feed = {k: torch.from_numpy(v) for k, v in arrays.items()}
            labels = torch.tensor([y for _, y in batch], dtype=torch.float32)
            loss = bce(model(**feed).logits.view(-1), labels)
            loss.backward()
            optimiser.step()
            optimiser.zero_grad()
            total += loss.item()
        print(epoch, round(total / (len(examples) / 16), 3), flush=True)


if __name__ == "__main__":
    main()

"""Probe (issue 33): does a cross-encoder recipe learn on this CPU? One fold-0 training run
on the first N pairs of the other folds, hard negatives from the fine-tuned fold encoders
(`tuned_negatives`), and its gates (loss against a constant's, within-query spread).

    python research/scripts/probes/cross_encoder_pilot.py LR BASE N LOSS NEGATIVES
    # e.g. 3e-5 tuned 800 bce 3 | 3e-5 sentence-transformers/all-MiniLM-L6-v2 800 bce 3
    #      5e-5 sentence-transformers/all-MiniLM-L6-v2 800 listwise 7

BASE `tuned` starts from fold encoder 0 (models/probe-e4/fold0/model). Writes nothing to
the repository; the model goes to /tmp.
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

from tutorgraph.ingest.eedi import eedi_misconception_id, read_eedi_questions, read_misconceptions
from tutorgraph.training.cross_encoder import TrainingConfig
from tutorgraph.training.crossfit_encoders import fold_model_dir, load_fold_encoders
from tutorgraph.training.eedi import fit_and_export
from tutorgraph.training.mining import TrainingGroup
from tutorgraph_research.tasks.eedi import eedi_pairs
from tutorgraph_research.tasks.second_stage import RankedPair, tuned_negatives

DATA = Path("../shared/data/eedi")
FOLDS = Path("models/probe-e4")


def main() -> None:
    lr, base, n, loss, negatives = sys.argv[1:6]
    pairs = [
        RankedPair(p.item_id, p.question.question_id, p.query, p.target, ())
        for p in eedi_pairs(read_eedi_questions(DATA / "train.csv"))
    ]
    names = {
        eedi_misconception_id(k): v
        for k, v in read_misconceptions(DATA / "misconception_mapping.csv").items()
    }
    hard = tuned_negatives(pairs, load_fold_encoders(FOLDS, 5), names)
    sub = [p for p in pairs if p.question % 5 != 0][: int(n)]
    groups = [
        TrainingGroup(p.query, names[p.target], tuple(names[h] for h in hard[p.item])) for p in sub
    ]
    cfg = TrainingConfig(
        epochs=1.0,
        layers=3,
        learning_rate=float(lr),
        loss="listwise" if loss == "listwise" else "bce",
        negatives=int(negatives),
        validation_share=0.2,
    )
    out = Path(f"/tmp/cross-encoder-pilot-{lr}-{loss}-{negatives}-{Path(base).name}")
    start = str(fold_model_dir(FOLDS, 0)) if base == "tuned" else base
    asyncio.run(fit_and_export(groups, out, cfg, base_model=start, enforce_gates=False))
    record = json.loads((out / "training.json").read_text())
    print(lr, loss, negatives, base, json.dumps(record["gates"]), record["seconds"])


if __name__ == "__main__":
    main()

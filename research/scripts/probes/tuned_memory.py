"""Probe (issue 33): does the tuned example memory lift the learned ranker, judged inside
the training data only?

Builds cross-fitted training rows of the concept ranker as `train-ranker` does (no
first-stage signals, as `combiner_variants.py`) over the questions of the folds whose
encoders are given (`--folds 1,2`: `int(QuestionId) % 5` in {1, 2}, each scored by the fold
encoder that never saw it; a part of the training rows of any outer fold not among them),
with the tuned memory on; then compares the combiner with and without the memory's two
columns by 3-fold CV over those rows (split by question), and pairs the two per labelled
answer (95% bootstrap interval). The other folds' questions are never read. A probe, not a
cross-validation: the bench is what measures.

Issue 33 (fold encoders 0-2 of models/probe-e4, 4 epochs):
    --folds 1,2 (1,397 answers): 31 leaves / 20 0.3257 -> 0.3326, +0.0068 [-0.0042, +0.0173];
        15 / 50 0.3429 -> 0.3469, +0.0040 [-0.0069, +0.0133]
    --folds 0,1,2 (2,110 answers, results/probe_tuned_memory.json): 31 / 20 0.3866 -> 0.3864,
        -0.0002 [-0.0096, +0.0089]; 15 / 50 0.3946 -> 0.4008, +0.0062 [-0.0017, +0.0143]

    python research/scripts/probes/tuned_memory.py --train ../shared/data/eedi/train.csv \\
        --subjects ../shared/data/eedi-subjects/subject_metadata.csv \\
        --tuned-folds models/probe-e4 --folds 1,2 --out results/probe_tuned_memory.json
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time
from pathlib import Path

import numpy as np

from tutorgraph.config import DEFAULT_EMBEDDING_MODEL
from tutorgraph.embedding.onnx_embedder import OnnxEmbedder
from tutorgraph.ingest.eedi import (
    eedi_fold,
    eedi_misconception_id,
    eedi_records,
    read_eedi_questions,
    read_misconceptions,
    read_subjects,
)
from tutorgraph.ranking.combiner import Combiner, CombinerConfig, TrainingGroup
from tutorgraph.ranking.metrics import average_precision_at_k
from tutorgraph.ranking.model import FEATURES
from tutorgraph.ranking.tuned import TUNED_EXAMPLE_FEATURES, TUNED_FEATURES, TUNED_GRAPH
from tutorgraph.stores.embedded_graph import EmbeddedGraphStore
from tutorgraph.training.crossfit_encoders import FoldEncoders, TunedEncoders, fold_model_dir
from tutorgraph.training.eedi import eedi_ranker_queries
from tutorgraph.training.ranker import (
    RankerTrainingConfig,
    RankerTrainingData,
    cross_fit,
    inner_fold,
)
from tutorgraph_research.harness.results import bootstrap_ci

WITH = FEATURES + TUNED_FEATURES + TUNED_EXAMPLE_FEATURES
WITHOUT = FEATURES + TUNED_FEATURES
SETTINGS = {
    "31 leaves / 20": CombinerConfig(),
    "15 leaves / 50": CombinerConfig(num_leaves=15, min_child_samples=50),
}


def inner_aps(
    groups: list[TrainingGroup], split: list[int], names: tuple[str, ...], cfg: CombinerConfig
) -> list[float]:
    """Each group's AP@25 from a combiner trained on the other two inner folds."""
    aps = [0.0] * len(groups)
    for j in range(3):
        train = [g for g, s in zip(groups, split, strict=True) if s != j]
        model = Combiner.fit(train, names, cfg)
        for n, (g, s) in enumerate(zip(groups, split, strict=True)):
            if s == j:
                score = np.asarray(model.score(g.rows))
                order = [str(i) for i in np.argsort(-score, kind="stable")]
                relevant = {str(i) for i, v in enumerate(g.labels) if v}
                aps[n] = average_precision_at_k(order, relevant, 25) if relevant else 0.0
    return aps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--train", type=Path, required=True)
    parser.add_argument("--subjects", type=Path, required=True)
    parser.add_argument("--tuned-folds", type=Path, required=True)
    parser.add_argument("--folds", default="1,2", help="the folds whose encoders are given")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    started = time.perf_counter()
    keep = {int(k) for k in args.folds.split(",")}
    questions = [q for q in read_eedi_questions(args.train) if eedi_fold(q.question_id, 5) in keep]
    texts = read_misconceptions(args.train.parent / "misconception_mapping.csv")
    graph = EmbeddedGraphStore(eedi_records(questions, texts, read_subjects(args.subjects)))
    queries = asyncio.run(eedi_ranker_queries(questions, graph))
    ids = sorted(texts)
    constructs = sorted({c for q in queries for c in q.concept_ids})
    parents = {c.id: c.parent_ids for c in asyncio.run(graph.get_concepts(constructs))}
    embedder = OnnxEmbedder(DEFAULT_EMBEDDING_MODEL)
    embedder.load()
    encoders = {}
    for k in {0, *keep}:
        encoders[k] = OnnxEmbedder(str(fold_model_dir(args.tuned_folds, k)), graph=TUNED_GRAPH)
        encoders[k].load()
    # Folds without an encoder hold no question here: encoder 0 stands in, never asked.
    folds = FoldEncoders([encoders.get(k, encoders[0]) for k in range(5)])
    tuned = TunedEncoders(encoders[0], str(fold_model_dir(args.tuned_folds, 0)), folds)
    fit = cross_fit(
        RankerTrainingData(
            queries,
            [eedi_misconception_id(m) for m in ids],
            embedder.embed([texts[m] for m in ids]),
            embedder.embed,
            parents=parents,
            config=RankerTrainingConfig(tuned_examples=True),
            tuned=tuned.training([texts[m] for m in ids]),
            progress=print,
        )
    )
    without = [TrainingGroup([r[: len(WITHOUT)] for r in g.rows], g.labels) for g in fit.groups]
    split = [inner_fold(q.group, 3) for q in fit.queries]
    report: dict[str, object] = {
        "folds": sorted(keep),
        "answers": len(fit.queries),
        "pool_recall": round(float(np.mean([any(g.labels) for g in fit.groups])), 4),
    }
    for label, cfg in SETTINGS.items():
        before = inner_aps(without, split, WITHOUT, cfg)
        after = inner_aps(fit.groups, split, WITH, cfg)
        diffs = [b - a for a, b in zip(before, after, strict=True)]
        low, high = bootstrap_ci(diffs)
        report[label] = {
            "without": round(float(np.mean(before)), 4),
            "with": round(float(np.mean(after)), 4),
            "paired": [round(float(np.mean(diffs)), 4), round(low, 4), round(high, 4)],
        }
        print(label, report[label], flush=True)
    report["seconds"] = round(time.perf_counter() - started, 1)
    if args.out:
        args.out.write_text(json.dumps(report, indent=1) + "\n")


if __name__ == "__main__":
    main()

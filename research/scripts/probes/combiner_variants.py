"""Probe (issue 33): which LightGBM combiner variants could lift the learned ranker, judged
inside the training data only.

Builds the cross-fitted training rows of one outer fold's ranker (the questions with
`int(QuestionId) % 5 != FOLD`, the construct path, the fold encoders' tuned scores) exactly as
`train-ranker` does, then scores combiner variants by 3-fold CV over those rows (split by
question). The outer fold's test questions are never read, so a variant picked here can be
measured honestly by `bench eedi` afterwards. Fold 0 (issue 33): baseline 0.4066, pool ranks
0.4074, 600 trees at 0.03 0.4079, 15 leaves / 50 a leaf 0.4147, 7 / 100 0.4137, 15 / 100
0.4139, 31 / 100 0.4092, 15 / 50 at 600 trees 0.4130.

    python research/scripts/probes/combiner_variants.py --train ../shared/data/eedi/train.csv \
        --tuned-folds models/probe-e4 --rows /tmp/rows.pkl --out results/probe.json
"""

from __future__ import annotations

import argparse
import asyncio
import json
import pickle
from pathlib import Path
from typing import Any

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
from tutorgraph.ranking.tuned import TUNED_FEATURES
from tutorgraph.stores.embedded_graph import EmbeddedGraphStore
from tutorgraph.training.crossfit_encoders import TunedEncoders, fold_model_dir, load_fold_encoders
from tutorgraph.training.eedi import eedi_ranker_queries
from tutorgraph.training.ranker import RankerTrainingData, cross_fit, inner_fold

NAMES = FEATURES + TUNED_FEATURES
# Columns whose rank within the candidate pool the `pool-ranks` variant adds.
RANKED = ("example_vote", "example_max_sim", "adapter_sim", "cosine", "tuned_cosine")


def build_rows(args: argparse.Namespace) -> dict[str, Any]:
    questions = [
        q for q in read_eedi_questions(args.train) if eedi_fold(q.question_id, 5) != args.fold
    ]
    texts = read_misconceptions(args.train.parent / "misconception_mapping.csv")
    subjects = read_subjects(args.subjects)
    graph = EmbeddedGraphStore(eedi_records(questions, texts, subjects))
    queries = asyncio.run(eedi_ranker_queries(questions, graph))
    ids = sorted(texts)
    target_ids = [eedi_misconception_id(m) for m in ids]
    target_texts = [texts[m] for m in ids]
    constructs = sorted({c for q in queries for c in q.concept_ids})
    concepts = asyncio.run(graph.get_concepts(constructs))
    parents = {c.id: c.parent_ids for c in concepts}
    embedder = OnnxEmbedder(DEFAULT_EMBEDDING_MODEL)
    embedder.load()
    folds = load_fold_encoders(args.tuned_folds, 5)
    tuned = TunedEncoders(
        folds.encoders[args.fold], str(fold_model_dir(args.tuned_folds, args.fold)), folds
    )
    fit = cross_fit(
        RankerTrainingData(
            queries,
            target_ids,
            embedder.embed(target_texts),
            embedder.embed,
            parents=parents,
            tuned=tuned.training(target_texts),
            progress=print,
        )
    )
    return {
        "groups": [(g.rows, g.labels) for g in fit.groups],
        "query_groups": [q.group for q in fit.queries],
    }


def pool_ranks(rows: list[list[float]]) -> list[list[float]]:
    x = np.asarray(rows, dtype=np.float64)
    extra = []
    for name in RANKED:
        col = np.nan_to_num(x[:, NAMES.index(name)], nan=-np.inf)
        order = np.argsort(-col, kind="stable")
        rank = np.empty(len(col))
        rank[order] = np.arange(1, len(col) + 1)
        extra.append(rank)
    return np.column_stack([x, *extra]).tolist()


def evaluate(data: dict[str, Any], variant: dict[str, Any]) -> float:
    groups = data["groups"]
    if variant.get("pool_ranks"):
        groups = [(pool_ranks(r), y) for r, y in groups]
    names = NAMES + (tuple(f"pool_rank_{n}" for n in RANKED) if variant.get("pool_ranks") else ())
    split = [inner_fold(g, 3) for g in data["query_groups"]]
    aps = []
    for j in range(3):
        train = [TrainingGroup(r, y) for (r, y), s in zip(groups, split, strict=True) if s != j]
        model = Combiner.fit(train, names, CombinerConfig(**variant.get("config", {})))
        for (rows, labels), s in zip(groups, split, strict=True):
            if s != j:
                continue
            score = np.asarray(model.score(rows))
            order = np.argsort(-score, kind="stable")
            ids = [str(i) for i in order]
            relevant = {str(i) for i, v in enumerate(labels) if v}
            aps.append(average_precision_at_k(ids, relevant, 25) if relevant else 0.0)
    return float(np.mean(aps))


VARIANTS: dict[str, dict[str, Any]] = {
    "baseline": {},
    "pool-ranks": {"pool_ranks": True},
    "600 trees, lr 0.03": {"config": {"n_estimators": 600, "learning_rate": 0.03}},
    "15 leaves, 50 per leaf": {"config": {"num_leaves": 15, "min_child_samples": 50}},
    "7 leaves, 100 per leaf": {"config": {"num_leaves": 7, "min_child_samples": 100}},
    "15 leaves, 100 per leaf": {"config": {"num_leaves": 15, "min_child_samples": 100}},
    "31 leaves, 100 per leaf": {"config": {"num_leaves": 31, "min_child_samples": 100}},
    "15 leaves, 50 per leaf, 600 trees, lr 0.03": {
        "config": {
            "num_leaves": 15,
            "min_child_samples": 50,
            "n_estimators": 600,
            "learning_rate": 0.03,
        }
    },
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--train", type=Path, required=True)
    parser.add_argument("--subjects", type=Path, required=True)
    parser.add_argument("--tuned-folds", type=Path, required=True)
    parser.add_argument("--fold", type=int, default=0)
    parser.add_argument("--rows", type=Path, required=True, help="cache of the training rows")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    if args.rows.is_file():
        data = pickle.loads(args.rows.read_bytes())
    else:
        data = build_rows(args)
        args.rows.write_bytes(pickle.dumps(data))
    report = {}
    for name, variant in VARIANTS.items():
        report[name] = round(evaluate(data, variant), 4)
        print(name, report[name], flush=True)
    if args.out:
        args.out.write_text(json.dumps({"fold": args.fold, "inner_map@25": report}, indent=1))


if __name__ == "__main__":
    main()

"""5-fold CV of `training.ranker.fit_ranker` alone (no retrieval signals) on the Eedi
development file: the product code's version of proto3c.py. Prints MAP@25 per fold."""

import sys
import time
from pathlib import Path

import numpy as np

from tutorgraph.embedding.embedder import SentenceTransformerEmbedder
from tutorgraph.ranking.metrics import average_precision_at_k
from tutorgraph.ingest.eedi import (
    eedi_construct_id,
    eedi_misconception_id,
    eedi_query_text,
    read_eedi_questions,
    read_misconceptions,
)
from tutorgraph.ranking.model import CandidateSignals
from tutorgraph.training.ranker import LabelledQuery, fit_ranker

data = Path(sys.argv[1] if len(sys.argv) > 1 else "../shared/data/eedi")
questions = read_eedi_questions(data / "train.csv")
misconceptions = read_misconceptions(data / "misconception_mapping.csv")
ids = [eedi_misconception_id(m) for m in sorted(misconceptions)]
emb = SentenceTransformerEmbedder("sentence-transformers/all-MiniLM-L6-v2")
cache: dict[str, np.ndarray] = {}


def embed(texts: list[str]) -> np.ndarray:
    todo = [t for t in dict.fromkeys(texts) if t not in cache]
    if todo:
        cache.update(zip(todo, emb.embed(todo), strict=True))
    return np.stack([cache[t] for t in texts])


targets = embed([misconceptions[m] for m in sorted(misconceptions)])
queries = [
    (
        q.question_id,
        LabelledQuery(
            str(q.question_id),
            f"{q.construct_name}. {q.subject_name}.\n{eedi_query_text(q, letter)}",
            eedi_misconception_id(mid),
            (eedi_construct_id(q.construct_id),),
        ),
    )
    for q in questions
    for letter, mid in sorted(q.misconception_ids.items())
    if mid is not None and letter != q.correct_answer
]
parents = {eedi_construct_id(q.construct_id): [f"eedi:subject:{q.subject_id}"] for q in questions}
all_ap = []
for k in range(5):
    t = time.perf_counter()
    train = [lq for qid, lq in queries if qid % 5 != k]
    test = [lq for qid, lq in queries if qid % 5 == k]
    ranker = fit_ranker(train, ids, targets, embed, parents=parents)
    assert ranker.combiner is not None
    aps = []
    for lq in test:
        v = embed([lq.text])[0]
        pool = [CandidateSignals(m) for m in ranker.propose(v, lq.concept_ids, 40)]
        scores = ranker.combiner.score(ranker.features(v, lq.concept_ids, pool))
        ranked = [pool[i].target for i in np.argsort(-np.array(scores), kind="stable")]
        aps.append(average_precision_at_k(ranked, {lq.target}, 25))
    all_ap += aps
    print(k, round(float(np.mean(aps)), 4), ranker.info, round(time.perf_counter() - t), flush=True)
print("MAP@25", round(float(np.mean(all_ap)), 4), "n", len(all_ap))

import os
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, "" + str(__import__("pathlib").Path(__file__).resolve().parents[3] / "src") + "")
import torch
from datasets import Dataset
from sentence_transformers import (
    SentenceTransformer,
    SentenceTransformerTrainer,
    SentenceTransformerTrainingArguments,
    losses,
)
from sentence_transformers.training_args import BatchSamplers

from tutorgraph.embedding.embedder import resolve_model_path
from tutorgraph.ingest.eedi import *

torch.set_num_threads(2)
D = Path("../shared/data/eedi")
qs = read_eedi_questions(D / "train.csv")
ms = read_misconceptions(D / "misconception_mapping.csv")
pairs = [
    (q, l, m)
    for q in qs
    for l, m in sorted(q.misconception_ids.items())
    if m is not None and l != q.correct_answer
]
mids = sorted(ms)
midx = {m: i for i, m in enumerate(mids)}
rich = [f"{q.construct_name}. {q.subject_name}.\n" + eedi_query_text(q, l) for q, l, _ in pairs]
k = int(sys.argv[1])
epochs = float(sys.argv[2])
lr = float(sys.argv[3])
bs = int(sys.argv[4])
tr = [i for i, (q, _, _) in enumerate(pairs) if q.question_id % 5 != k]
te = [i for i, (q, _, _) in enumerate(pairs) if q.question_id % 5 == k]
model = SentenceTransformer(
    resolve_model_path("sentence-transformers/all-MiniLM-L6-v2"), device="cpu"
)
model.max_seq_length = int(os.environ.get("MSL", "128"))
ds = Dataset.from_dict({"anchor": [rich[i] for i in tr], "positive": [ms[pairs[i][2]] for i in tr]})
args = SentenceTransformerTrainingArguments(
    output_dir=f"/tmp/ft{k}",
    num_train_epochs=epochs,
    per_device_train_batch_size=bs,
    learning_rate=lr,
    warmup_ratio=0.1,
    batch_sampler=BatchSamplers.NO_DUPLICATES,
    save_strategy="no",
    logging_steps=20,
    report_to="none",
    seed=1,
    use_cpu=True,
)
t = time.time()
SentenceTransformerTrainer(
    model=model, args=args, train_dataset=ds, loss=losses.MultipleNegativesRankingLoss(model)
).train()
print("train s", time.time() - t)
E = lambda x: model.encode(x, batch_size=64, normalize_embeddings=True, show_progress_bar=False)
Em = E([ms[i] for i in mids])
Q = E([rich[i] for i in te])
S = Q @ Em.T
y = np.array([midx[pairs[i][2]] for i in te])
ranks = (S[np.arange(len(te)), y][:, None] < S).sum(1)
ap = np.where(ranks < 25, 1 / (ranks + 1), 0)
print("fold", k, "map@25 cos", ap.mean(), "r@25", (ranks < 25).mean())
np.save(f"ft_{k}_m.npy", Em)
np.save(f"ft_{k}_q.npy", E(rich))

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, "" + str(__import__("pathlib").Path(__file__).resolve().parents[3] / "src") + "")
from sentence_transformers import SentenceTransformer

from tutorgraph.embedding.embedder import resolve_model_path
from tutorgraph.ingest.eedi import *

D = Path("../shared/data/eedi")
qs = read_eedi_questions(D / "train.csv")
ms = read_misconceptions(D / "misconception_mapping.csv")
pairs = [
    (q, l, m)
    for q in qs
    for l, m in sorted(q.misconception_ids.items())
    if m is not None and l != q.correct_answer
]
model = SentenceTransformer(
    resolve_model_path("sentence-transformers/all-MiniLM-L6-v2"), device="cpu"
)
mids = sorted(ms)
base = [eedi_query_text(q, l) for q, l, _ in pairs]
rich = [f"{q.construct_name}. {q.subject_name}.\n" + eedi_query_text(q, l) for q, l, _ in pairs]
cons = sorted({q.construct_id: q.construct_name for q in qs}.items())


def E(t):
    return model.encode(t, batch_size=64, normalize_embeddings=True, show_progress_bar=False)


np.save("m.npy", E([ms[i] for i in mids]))
np.save("qb.npy", E(base))
np.save("qr.npy", E(rich))
np.save("c.npy", E([n for _, n in cons]))
print(model.max_seq_length)

"""Issue 31 probe, step 3 (CPU, minutes): a linear adapter on frozen MiniLM vectors instead of
a fine-tuned encoder. A matrix W (identity at the start) maps the query's vector (`q`) or both
the query's and the cards' (`sym`) and is trained with a softmax over every card of the pair's
taxonomy (scale 20) on the bundle's item -> construct/section pairs (`prep.py`); scored as
`train.py` scores (hit@1, hit@10 of the accepted standard, dense search only) on MathFish and
the dev messages (never the held-out ones). Results: results/linker_adapter.log.

    python research/scripts/linker_probe/prep.py .device/     # writes .device/data.json.gz
    WORK=/tmp/la python research/scripts/linker_probe/adapter.py
"""

import gzip
import json
import os
import time
from pathlib import Path

import numpy as np
import torch


def embed_all(work: Path) -> None:
    """Cache the base model's vectors of the cards, the evaluation texts and the pairs."""
    if (work / "pairs.npy").exists():
        return
    from tutorgraph.embedding.embedder import SentenceTransformerEmbedder
    from tutorgraph.ingest.bundle import load_trusted
    from tutorgraph.linking.cards import build_cards

    work.mkdir(parents=True, exist_ok=True)
    with gzip.open(os.environ.get("DATA", ".device/data.json.gz"), "rt") as fh:
        data = json.load(fh)
    emb = SentenceTransformerEmbedder("sentence-transformers/all-MiniLM-L6-v2")
    cards = build_cards(load_trusted(Path("data/curriculum")).concepts)
    np.save(work / "cards.npy", emb.embed([c.text for c in cards]))
    with open(work / "cards.json", "w") as fh:
        json.dump([[c.concept_id, c.taxonomy] for c in cards], fh)
    np.save(work / "evals.npy", emb.embed([e["text"] for e in data["evals"]]))
    np.save(work / "pairs.npy", emb.embed([p["q"] for p in data["pairs"]]))


WORK = Path(os.environ.get("WORK", "/tmp/la"))
embed_all(WORK)
torch.manual_seed(0)
np.random.seed(0)
with gzip.open(os.environ.get("DATA", ".device/data.json.gz"), "rt") as fh:
    d = json.load(fh)
C = np.load(WORK / "cards.npy")
with open(WORK / "cards.json") as fh:
    meta = json.load(fh)
E = np.load(WORK / "evals.npy")
P = np.load(WORK / "pairs.npy")
cid = [m[0] for m in meta]
tax = np.array([m[1] for m in meta])
row = {c: i for i, c in enumerate(cid)}
keep = [i for i, p in enumerate(d["pairs"]) if p["c"] in row]
P = P[keep]
tgt = np.array([row[d["pairs"][i]["c"]] for i in keep])
std_rows = np.where(tax == "common-core")[0]
print(len(keep), "pairs", len(std_rows), "standards")


def evaluate(Wq, Wc):
    q = E @ Wq.T
    q /= np.linalg.norm(q, axis=1, keepdims=True)
    c = C[std_rows] @ Wc.T
    c /= np.linalg.norm(c, axis=1, keepdims=True)
    s = q @ c.T
    out = {}
    for e, r in zip(d["evals"], s, strict=True):
        top = [cid[std_rows[j]] for j in np.argsort(-r)[:10]]
        out.setdefault(e["set"], []).append((top[0] in e["std"], bool(set(top) & set(e["std"]))))
        if e.get("kind") == "word_problem":
            out.setdefault(e["set"] + "/wp", []).append(
                (top[0] in e["std"], bool(set(top) & set(e["std"])))
            )
    return {
        k: (round(np.mean([a for a, _ in v]), 3), round(np.mean([b for _, b in v]), 3), len(v))
        for k, v in sorted(out.items())
        if "heldout" not in k
    }


def train(idx, sym, epochs, lr, reg, scale=20.0):
    dim = C.shape[1]
    W = torch.nn.Parameter(torch.eye(dim))
    opt = torch.optim.Adam([W], lr=lr)
    Pt = torch.tensor(P[idx])
    T = torch.tensor(tgt[idx])
    Ct = torch.tensor(C)
    taxes = sorted(set(tax))
    masks = {t: torch.tensor(tax == t) for t in taxes}
    ttax = tax[tgt[idx]]
    eye = torch.eye(dim)
    for _ in range(epochs):
        perm = torch.randperm(len(idx))
        for b in range(0, len(idx), 256):
            sel = perm[b : b + 256]
            q = torch.nn.functional.normalize(Pt[sel] @ W.T, dim=1)
            c = torch.nn.functional.normalize(Ct @ (W.T if sym else eye), dim=1)
            logits = scale * q @ c.T
            # only cards of the pair's own taxonomy compete
            tm = torch.stack([masks[t] for t in ttax[sel.numpy()]])
            logits = logits.masked_fill(~tm, -1e4)
            loss = torch.nn.functional.cross_entropy(logits, T[sel]) + reg * ((W - eye) ** 2).sum()
            opt.zero_grad()
            loss.backward()
            opt.step()
    Wn = W.detach().numpy()
    return Wn, (Wn if sym else np.eye(dim, dtype=np.float32))


def heldout_concepts(sym, epochs, lr, reg, folds=5):
    # folds over concepts: held-out pairs rank their card among all cards of their taxonomy
    conc = np.unique(tgt)
    rng = np.random.default_rng(0)
    rng.shuffle(conc)
    fold_of = {c: i % folds for i, c in enumerate(conc)}
    f = np.array([fold_of[t] for t in tgt])
    base = []
    new = []
    for k in range(folds):
        tr = np.where(f != k)[0]
        te = np.where(f == k)[0]
        Wq, Wc = train(tr, sym, epochs, lr, reg)
        for W1, W2, acc in ((np.eye(384), np.eye(384), base), (Wq, Wc, new)):
            q = P[te] @ W1.T
            q /= np.linalg.norm(q, axis=1, keepdims=True)
            c = C @ W2.T
            c /= np.linalg.norm(c, axis=1, keepdims=True)
            s = q @ c.T
            for i, r in zip(te, s, strict=True):
                m = tax == tax[tgt[i]]
                r = np.where(m, r, -9)
                acc.append(int((r > r[tgt[i]]).sum()) < 10)
    return round(np.mean(base), 3), round(np.mean(new), 3)


print("base", evaluate(np.eye(384), np.eye(384)), flush=True)
for sym in (False, True):
    for epochs, lr, reg in [(2, 1e-3, 0.0), (2, 1e-3, 1e-3), (5, 1e-3, 1e-3), (3, 3e-3, 1e-2)]:
        t = time.time()
        Wq, Wc = train(np.arange(len(tgt)), sym, epochs, lr, reg)
        print(
            "sym" if sym else "q",
            epochs,
            lr,
            reg,
            evaluate(Wq, Wc),
            round(time.time() - t, 1),
            flush=True,
        )

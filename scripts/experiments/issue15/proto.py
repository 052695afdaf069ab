import collections
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, "" + str(__import__("pathlib").Path(__file__).resolve().parents[3] / "src") + "")
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
mids = sorted(ms)
midx = {m: i for i, m in enumerate(mids)}
M = len(mids)
Em = np.load("m.npy")
Qb = np.load("qb.npy")
Qr = np.load("qr.npy")
Ec = np.load("c.npy")
cons = sorted({q.construct_id: q.construct_name for q in qs}.items())
cidx = {c: i for i, (c, _) in enumerate(cons)}
Csim = Ec @ Ec.T
P = len(pairs)
y = np.array([midx[m] for _, _, m in pairs])
qid = np.array([q.question_id for q, _, _ in pairs])
con = np.array([cidx[q.construct_id] for q, _, _ in pairs])
subj = np.array([q.subject_id for q, _, _ in pairs])
fold = qid % 5
QQ = Qb @ Qb.T
QQr = Qr @ Qr.T
cosb = Qb @ Em.T
cosr = Qr @ Em.T


def features(i, train_mask):
    # train_mask: pairs usable as knowledge (excluding own question)
    tm = train_mask & (qid != qid[i])
    f = {}
    idx = np.where(tm)[0]
    # construct prior
    cc = np.zeros(M)
    np.add.at(cc, y[idx[con[idx] == con[i]]], 1)
    f["c_cnt"] = cc
    f["c_p"] = cc / max(cc.sum(), 1)
    sc = np.zeros(M)
    np.add.at(sc, y[idx[subj[idx] == subj[i]]], 1)
    f["s_cnt"] = sc
    f["s_p"] = sc / max(sc.sum(), 1)
    g = np.zeros(M)
    np.add.at(g, y[idx], 1)
    f["g"] = np.log1p(g)
    # similar construct prior (exclude own construct)
    w = np.exp((Csim[con[i], con[idx]] - 1) / 0.05)
    w[con[idx] == con[i]] = 0
    sp = np.zeros(M)
    np.add.at(sp, y[idx], w)
    f["simc"] = sp / max(sp.sum(), 1e-9)
    # knn
    for nm, S in (("knnb", QQ), ("knnr", QQr)):
        s = S[i, idx]
        mx = np.full(M, -1.0)
        np.maximum.at(mx, y[idx], s)
        f[nm] = mx
        ks = np.zeros(M)
        np.add.at(ks, y[idx], np.exp((s - 1) / 0.05))
        f[nm + "_soft"] = ks / max(ks.sum(), 1e-9)
    f["cosb"] = cosb[i]
    f["cosr"] = cosr[i]
    return f


names = None


def build(rows, train_mask, ncand=100):
    global names
    X = []
    Y = []
    G = []
    C = []
    for i in rows:
        f = features(i, train_mask)
        if names is None:
            names = list(f)
        # candidates: union
        cand = (
            set(np.argsort(-f["cosr"])[:40])
            | set(np.argsort(-f["knnr"])[:40])
            | set(np.nonzero(f["c_cnt"])[0])
            | set(np.argsort(-f["s_p"])[:20])
            | set(np.argsort(-f["simc"])[:20])
        )
        cand = np.array(sorted(cand))
        F = np.stack([f[n][cand] for n in names], 1)
        # rank features
        X.append(F)
        Y.append((cand == y[i]).astype(int))
        G.append(len(cand))
        C.append(cand)
    return X, Y, G, C


def apk(ranked, t, k=25):
    for r, c in enumerate(ranked[:k]):
        if c == t:
            return 1 / (r + 1)
    return 0.0


import lightgbm as lgb

res = collections.defaultdict(list)
recall = []
t0 = time.time()
for k in range(5):
    tr = np.where(fold != k)[0]
    te = np.where(fold == k)[0]
    trm = fold != k
    Xtr, Ytr, Gtr, _ = build(tr, trm)
    Xte, Yte, Gte, Cte = build(te, trm)
    recall += [y.sum() for y in Yte]
    rk = lgb.LGBMRanker(
        n_estimators=300, learning_rate=0.05, num_leaves=31, min_child_samples=20, verbose=-1
    )
    rk.fit(np.vstack(Xtr), np.concatenate(Ytr), group=Gtr)
    for i, X, C in zip(te, Xte, Cte):
        p = rk.predict(X)
        res["lgb"].append(apk(list(C[np.argsort(-p)]), y[i]))
        for j, n in enumerate(names):
            res[n].append(apk(list(C[np.argsort(-X[:, j], kind="stable")]), y[i]))
    print(k, time.time() - t0, np.mean(res["lgb"]), flush=True)
print("cand recall", np.mean(recall))
for n, v in res.items():
    print(n, round(np.mean(v), 4))
print(dict(zip(names, rk.feature_importances_)))

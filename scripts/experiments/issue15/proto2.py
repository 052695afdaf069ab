import collections
import sys

import numpy as np

exec(open("proto.py").read().split("import lightgbm")[0])
import lightgbm as lgb

k = int(sys.argv[1])
mode = sys.argv[2]
Emf = np.load(f"ft_{k}_m.npy")
Qf = np.load(f"ft_{k}_q.npy")
cosf = Qf @ Emf.T
QQf = Qf @ Qf.T
_old = features


def features(i, train_mask):
    f = _old(i, train_mask)
    if mode != "base":
        f["cosf"] = cosf[i]
        tm = train_mask & (qid != qid[i])
        idx = np.where(tm)[0]
        s = QQf[i, idx]
        mx = np.full(M, -1.0)
        np.maximum.at(mx, y[idx], s)
        f["knnf"] = mx
        ks = np.zeros(M)
        np.add.at(ks, y[idx], np.exp((s - 1) / 0.05))
        f["knnf_soft"] = ks / max(ks.sum(), 1e-9)
    return f


tr = np.where(fold != k)[0]
te = np.where(fold == k)[0]
trm = fold != k
Xtr, Ytr, Gtr, _ = build(tr, trm)
Xte, Yte, Gte, Cte = build(te, trm)
print("cand recall", np.mean([y.sum() for y in Yte]))
res = collections.defaultdict(list)
rk = lgb.LGBMRanker(
    n_estimators=300, learning_rate=0.05, num_leaves=31, min_child_samples=20, verbose=-1
)
rk.fit(np.vstack(Xtr), np.concatenate(Ytr), group=Gtr)
for i, X, C in zip(te, Xte, Cte):
    p = rk.predict(X)
    res["lgb"].append(apk(list(C[np.argsort(-p)]), y[i]))
    for j, n in enumerate(names):
        res[n].append(apk(list(C[np.argsort(-X[:, j], kind="stable")]), y[i]))
for n, v in res.items():
    print(n, round(np.mean(v), 4))

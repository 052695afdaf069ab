import collections
import sys
import time

import numpy as np

exec(open("proto.py").read().split("import lightgbm")[0])
import lightgbm as lgb
from adapter import apply, train_adapter

l2 = float(sys.argv[1])
variants = sys.argv[2].split(",")
cand_extra = None
ADA = np.zeros((P, M), dtype=np.float32)  # adapter cos per pair, filled per fold
_old = features


def features(i, tm):
    f = _old(i, tm)
    f["ada"] = ADA[i]
    return f


res = collections.defaultdict(list)
t0 = time.time()
for k in range(5):
    tr = np.where(fold != k)[0]
    te = np.where(fold == k)[0]
    trm = fold != k
    W = train_adapter(Qr[tr], y[tr], Em, l2=l2)
    ADA[te] = apply(Qr[te], W) @ Em.T
    full_tr = apply(Qr[tr], W) @ Em.T
    if "xfit" in "".join(variants):
        inner = (qid[tr] // 5) % 3
        oof = np.zeros((len(tr), M), dtype=np.float32)
        for j in range(3):
            Wj = train_adapter(Qr[tr[inner != j]], y[tr[inner != j]], Em, l2=l2)
            oof[inner == j] = apply(Qr[tr[inner == j]], Wj) @ Em.T
    for v in variants:
        ADA[tr] = oof if v.startswith("xfit") else full_tr
        globals()["names"] = None

        def cands(f):
            return None

        Xtr, Ytr, Gtr, _ = build(tr, trm)
        Xte, Yte, Gte, Cte = build(te, trm)
        drop = {"knnb", "knnb_soft", "knnr", "knnr_soft"} if v.endswith("noknn") else set()
        keep = [j for j, n in enumerate(names) if n not in drop]
        rk = lgb.LGBMRanker(
            n_estimators=300, learning_rate=0.05, num_leaves=31, min_child_samples=20, verbose=-1
        )
        rk.fit(np.vstack([x[:, keep] for x in Xtr]), np.concatenate(Ytr), group=Gtr)
        for i, X, C in zip(te, Xte, Cte):
            p = rk.predict(X[:, keep])
            res[v].append(apk(list(C[np.argsort(-p)]), y[i]))
        res[v + "_candrec"].append(np.mean([yy.sum() for yy in Yte]))
    for i in te:
        res["ada_alone"].append(apk(list(np.argsort(-ADA[i])), y[i]))
    print(k, round(time.time() - t0), {a: round(np.mean(b), 4) for a, b in res.items()}, flush=True)

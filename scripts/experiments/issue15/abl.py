import sys

import numpy as np

exec(open("proto.py").read().split("import lightgbm")[0])
import lightgbm as lgb

drop = set(sys.argv[1].split(",")) if len(sys.argv) > 1 else set()
res = []
for k in range(5):
    tr = np.where(fold != k)[0]
    te = np.where(fold == k)[0]
    trm = fold != k
    globals()["names"] = None
    Xtr, Ytr, Gtr, _ = build(tr, trm)
    Xte, Yte, Gte, Cte = build(te, trm)
    rk = lgb.LGBMRanker(
        n_estimators=300, learning_rate=0.05, num_leaves=31, min_child_samples=20, verbose=-1
    )
    keep = [j for j, n in enumerate(names) if n not in drop]
    Xtr = [x[:, keep] for x in Xtr]
    Xte = [x[:, keep] for x in Xte]
    rk.fit(np.vstack(Xtr), np.concatenate(Ytr), group=Gtr)
    for i, X, C in zip(te, Xte, Cte):
        p = rk.predict(X)
        res.append(apk(list(C[np.argsort(-p)]), y[i]))
print(sys.argv[1:], round(np.mean(res), 4))

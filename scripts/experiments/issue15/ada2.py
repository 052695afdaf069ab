import sys
import time

import numpy as np
import torch

torch.set_num_threads(2)
exec(open("proto.py").read().split("QQ=Qb")[0])


def train(Q, Y, Em, tau=0.05, l2=1e-3, steps=300, lr=1e-3, bias=0.0, hidden=0, seed=0):
    torch.manual_seed(seed)
    Q = torch.tensor(Q)
    E = torch.tensor(Em)
    Y = torch.tensor(Y)
    d = Q.shape[1]
    W = torch.nn.Parameter(
        torch.eye(d, E.shape[1])
        if d == E.shape[1]
        else torch.cat([torch.eye(E.shape[1])] * (d // E.shape[1])) / (d // E.shape[1])
    )
    W0 = W.detach().clone()
    b = torch.nn.Parameter(torch.zeros(E.shape[0]))
    ps = [W, b]
    if hidden:
        mlp = torch.nn.Sequential(
            torch.nn.Linear(d, hidden), torch.nn.GELU(), torch.nn.Linear(hidden, E.shape[1])
        )
        torch.nn.init.zeros_(mlp[2].weight)
        torch.nn.init.zeros_(mlp[2].bias)
        ps += list(mlp.parameters())
    opt = torch.optim.Adam(ps, lr=lr)

    def fwd(Q):
        z = Q @ W
        if hidden:
            z = z + mlp(Q)
        return torch.nn.functional.normalize(z, dim=1)

    for s in range(steps):
        logits = fwd(Q) @ E.T / tau + (b if bias else 0)
        loss = (
            torch.nn.functional.cross_entropy(logits, Y)
            + l2 * ((W - W0) ** 2).sum()
            + bias * (b**2).sum()
        )
        if hidden:
            loss = loss + l2 * sum((p**2).sum() for p in mlp.parameters())
        opt.zero_grad()
        loss.backward()
        opt.step()

    def f(Qt):
        with torch.no_grad():
            return (fwd(torch.tensor(Qt)) @ E.T / tau + (b if bias else 0)).numpy()

    return f


configs = {
    "base": dict(),
    "l2_3e-4": dict(l2=3e-4),
    "l2_1e-4": dict(l2=1e-4),
    "tau.03": dict(tau=0.03),
    "bias": dict(bias=1e-3),
    "mlp": dict(hidden=512),
    "steps600": dict(steps=600),
}
sel = sys.argv[1].split(",")
for name in sel:
    kw = configs[name]
    res = []
    t = time.time()
    for k in (0, 1):
        tr = fold != k
        te = fold == k
        f = train(Qr[tr], y[tr], Em, **kw)
        S = f(Qr[te])
        yt = y[te]
        ranks = (S[np.arange(len(yt)), yt][:, None] < S).sum(1)
        res += list(np.where(ranks < 25, 1 / (ranks + 1), 0))
    print(name, round(np.mean(res), 4), round(time.time() - t), flush=True)

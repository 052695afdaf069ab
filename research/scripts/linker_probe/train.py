"""Issue 31 probe, step 2: fine-tune MiniLM as a linking bi-encoder and score Common Core
linking before and after (hit@1, hit@10 of the accepted standard).

Loss: in-batch softmax over cosine x 20 (MultipleNegativesRankingLoss, written out so that it
needs no `datasets`), batch 64 with one concept per batch, lr 2e-5, 10% warm-up then linear
decay, max 256 tokens; `_hn` configurations add one hard negative per pair (a random one of
the five nearest cards of the same taxonomy under the untrained model, never the gold).
Runs on a GPU (bf16 autocast) or, slowly, on the CPU.

    python research/scripts/linker_probe/prep.py work/
    DATA=work/data.json.gz MODEL=path/to/all-MiniLM-L6-v2 CONFIGS=e1_hn,e3_hn,e1_nohn \
        OUT=out/ python research/scripts/linker_probe/train.py
"""

from __future__ import annotations

import gzip
import json
import os
import random
import time
from pathlib import Path
from typing import Any

import numpy as np
import torch
from sentence_transformers import SentenceTransformer

OUT = Path(os.environ.get("OUT", "/tmp/linker-probe"))
DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
with gzip.open(os.environ.get("DATA", ".device/data.json.gz"), "rt") as _fh:
    DATA = json.load(_fh)
PAIRS: list[dict[str, str]] = DATA["pairs"][: int(os.environ.get("LIMIT", "0")) or None]
CARDS: dict[str, str] = DATA["cards"]
STD_CARDS: dict[str, str] = DATA["std_cards"]
EVALS: list[dict[str, Any]] = DATA["evals"]
STD_IDS = sorted(STD_CARDS)


def say(*parts: object) -> None:
    line = " ".join(str(p) for p in parts)
    print(line, flush=True)
    with (OUT / "log.txt").open("a") as fh:
        fh.write(line + "\n")


def load() -> SentenceTransformer:
    model = SentenceTransformer(os.environ.get("MODEL", ".device/minilm"), device=DEVICE)
    model.max_seq_length = 256
    return model.float()


def encode(model: SentenceTransformer, texts: list[str]) -> np.ndarray:
    return model.encode(texts, normalize_embeddings=True, batch_size=256, convert_to_numpy=True)


def _table(hits: dict[str, list[tuple[bool, bool]]]) -> str:
    return json.dumps(
        {
            k: [
                round(float(np.mean([a for a, _ in v])), 3),
                round(float(np.mean([b for _, b in v])), 3),
                len(v),
            ]
            for k, v in sorted(hits.items())
        }
    )


def evaluate(
    model: SentenceTransformer, tag: str, only: list[int] | None = None
) -> dict[str, list[tuple[bool, bool]]]:
    evals = [EVALS[i] for i in only] if only is not None else EVALS
    queries = encode(model, [e["text"] for e in evals])
    scores = queries @ encode(model, [STD_CARDS[i] for i in STD_IDS]).T
    hits: dict[str, list[tuple[bool, bool]]] = {}
    for item, row in zip(evals, scores, strict=True):
        top = [STD_IDS[i] for i in np.argsort(-row)[:10]]
        got = (top[0] in item["std"], bool(set(item["std"]) & set(top)))
        hits.setdefault(item["set"], []).append(got)
        if item.get("kind") == "word_problem":
            hits.setdefault(item["set"] + "/wp", []).append(got)
    say(tag, _table(hits))
    return hits


def hard_negatives(model: SentenceTransformer) -> list[str]:
    ids = sorted(CARDS)
    scores = encode(model, [p["q"] for p in PAIRS]) @ encode(model, [CARDS[i] for i in ids]).T
    rng = random.Random(0)
    out = []
    for pair, row in zip(PAIRS, scores, strict=True):
        taxonomy = pair["c"].split(":")[0]
        near = [
            ids[i]
            for i in np.argsort(-row)[:30]
            if ids[i] != pair["c"] and ids[i].split(":")[0] == taxonomy
        ]
        out.append(rng.choice(near[:5]) if near else rng.choice(ids))
    return out


def _embed(model: SentenceTransformer, texts: list[str]) -> torch.Tensor:
    features = {
        k: v.to(DEVICE) if hasattr(v, "to") else v for k, v in model.tokenize(texts).items()
    }
    with torch.autocast(device_type="cuda", dtype=torch.bfloat16, enabled=DEVICE == "cuda"):
        out = model(features)["sentence_embedding"]
    return torch.nn.functional.normalize(out.float(), dim=-1)


def train(
    negatives: list[str] | None, epochs: int, tag: str, extra: list[dict[str, str]] | None = None
) -> SentenceTransformer:
    """`extra`: more pairs (MathFish training folds), with their cards in `CARDS`."""
    model = load()
    pairs = PAIRS + (extra or [])
    if negatives is not None and extra:
        negatives = negatives + [_other_standard(p["c"]) for p in extra]
    batch, n = 64, len(pairs)
    steps = epochs * (n // batch)
    warm = int(0.1 * steps)
    optimizer = torch.optim.AdamW(model.parameters(), lr=2e-5)
    schedule = torch.optim.lr_scheduler.LambdaLR(
        optimizer,
        lambda s: (
            (s + 1) / max(1, warm) if s < warm else max(0.0, (steps - s) / max(1, steps - warm))
        ),
    )
    rng = random.Random(1)
    started, step = time.time(), 0
    model.train()
    for epoch in range(epochs):
        order = list(range(n))
        rng.shuffle(order)
        for b in range(n // batch):
            seen: set[str] = set()
            keep = []
            for i in order[b * batch : (b + 1) * batch]:
                if pairs[i]["c"] not in seen:  # a second pair of one concept: a false negative
                    seen.add(pairs[i]["c"])
                    keep.append(i)
            anchors = _embed(model, [pairs[i]["q"] for i in keep])
            docs = [CARDS[pairs[i]["c"]] for i in keep]
            if negatives:
                docs += [CARDS[negatives[i]] for i in keep]
            sim = anchors @ _embed(model, docs).T * 20.0
            loss = torch.nn.functional.cross_entropy(sim, torch.arange(len(keep), device=DEVICE))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            schedule.step()
            step += 1
            if step % 100 == 0:
                say(
                    tag,
                    "step",
                    step,
                    "/",
                    steps,
                    "loss",
                    round(loss.item(), 3),
                    f"{time.time() - started:.0f}s",
                )
        model.eval()
        evaluate(model, f"{tag} epoch {epoch + 1}")
        model.train()
    model.eval()
    return model


def _other_standard(gold: str) -> str:
    """A random other standard's card: the negative of a MathFish pair."""
    choice = "std:" + random.Random(gold).choice(STD_IDS)
    return choice if choice != gold else "std:" + STD_IDS[0]


def cross_validate(negatives: list[str], folds: int) -> None:
    """MathFish rows in `folds` folds (by row order): train one epoch on the bundle's pairs and
    the other folds' rows (problem -> its first standard's card), score the held-out fold;
    every fold's model also scores the messages (pooled: each message counted per fold)."""
    CARDS.update({f"std:{i}": STD_CARDS[i] for i in STD_IDS})
    rows = [i for i, e in enumerate(EVALS) if e["set"] == "mathfish"]
    others = [i for i, e in enumerate(EVALS) if e["set"] != "mathfish"]
    pooled: dict[str, list[tuple[bool, bool]]] = {}
    for fold in range(folds):
        test = [r for n, r in enumerate(rows) if n % folds == fold]
        extra = [
            {"q": EVALS[r]["text"], "c": "std:" + EVALS[r]["std"][0], "group": "mathfish"}
            for n, r in enumerate(rows)
            if n % folds != fold
        ]
        model = train(negatives, 1, f"cv{fold}", extra)
        for key, got in evaluate(model, f"cv{fold} held-out", test + others).items():
            pooled.setdefault(key, []).extend(got)
    say(f"cv{folds} pooled", _table(pooled))


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    base = load()
    evaluate(base, "base")
    negatives = hard_negatives(base)
    if os.environ.get("CV"):
        cross_validate(negatives, int(os.environ["CV"]))
    for config in filter(None, os.environ.get("CONFIGS", "e1_hn,e3_hn,e1_nohn").split(",")):
        model = train(negatives if config.endswith("_hn") else None, int(config[1]), config)
        if config == os.environ.get("SAVE"):
            model.half().save(str(OUT / "model"))
    say("done")


if __name__ == "__main__":
    main()

"""Probe (issue 47, item 1): recipes for the packet's `teach` slot, on the DEV messages only.

Runs every dev message of the whole-packet benchmark once through the pipeline up to the
lessons stage, keeps its state, then for each recipe fills `state.lessons` its way, runs the
real finish stage and scores the packet with the benchmark's own `score_packet`. Prints
teach@10 (and balanced, packet) per recipe, overall and for word problems, paired against
the shipped recipe (the plain cosine).

    .venv/bin/python research/scripts/probes/teach_slot.py --index-dir /tmp/t47/idx

Held-out messages are never loaded.
"""

from __future__ import annotations

import argparse
import asyncio
import copy
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from tutorgraph.cli.plugin import load_settings
from tutorgraph.embedding.reranker import CrossEncoderReranker
from tutorgraph.index.service import open_retriever
from tutorgraph.retrieval.hits import lesson_hit
from tutorgraph.retrieval.packet import build_packet
from tutorgraph.retrieval.pipeline import run_stages
from tutorgraph.retrieval.state import RequestState
from tutorgraph.stores.protocols import ScoredItem
from tutorgraph_research.tasks.packet_messages import load_packet_messages
from tutorgraph_research.tasks.tutoring import request_for, score_packet

POOL = 60
SLOTS = 4


@dataclass
class Cand:
    item: ScoredItem
    cos: float
    sec_rank: int | None  # rank of its section among the linked openstax sections
    std_rank: int | None  # best rank among the linked ccss standards its section aligns with
    bm25: float
    cross: float
    cos_problem: float
    vote_rrf: float  # the dense search's exercises and lessons of its subsection, 1/(10+rank)
    vote_cos: float  # the same, their cosines summed
    vote_top: float  # the best cosine among them
    vote_lex: float  # the lexical search's, 1/(10+rank)
    vote_fused: float  # the fused (or ranked) hits', 1/(10+rank)
    knn: dict[int, float]  # K -> the K nearest exercises and lessons of its subsection, summed


async def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--index-dir", type=Path, required=True)
    ap.add_argument("--cross", action="store_true")
    ap.add_argument("--all", action="store_true", help="also the first round's recipes")
    args = ap.parse_args()
    settings = load_settings(args.index_dir)
    served = open_retriever(settings)
    retriever = served.retriever
    stages = retriever.stages
    before, finish = stages[:-2], stages[-1]
    lessons = retriever._lessons
    lexical = retriever._lexical
    embedder = retriever.embedder
    assert lessons is not None
    aligned: dict[str, set[str]] = {}
    prerequisites = Path("data/curriculum/prerequisites.jsonl").read_text()  # noqa: ASYNC240
    for line in prerequisites.splitlines():
        row = json.loads(line)
        if row["relation"] == "aligned_with" and row["concept_id"].startswith("openstax:"):
            aligned.setdefault(row["concept_id"], set()).add(row["prerequisite_id"])
    cross = None
    if args.cross:
        cross = CrossEncoderReranker(
            "src/tutorgraph/_weights/eedi-minilm-reranker", backend="onnx-int8"
        )
        cross.load()
    msgs = [
        m
        for m in load_packet_messages(Path("data/benchmarks/packet_messages.jsonl"))
        if m.split == "dev" and m.kind != "off_topic"
    ]
    from tutorgraph.embedding.stored_vectors import StoredVectors

    gen = sorted((args.index_dir / "generations").iterdir())[-1]
    stored = StoredVectors.read(gen / "vectors")
    teach_items = [
        it for it in lexical.items if it.kind in ("exercise", "explanation", "worked_example")
    ]
    found = stored.lookup([it.search_text for it in teach_items], stored.fingerprint)
    teach_items = [it for i, it in enumerate(teach_items) if i in found]
    tv = np.stack([found[i] for i in sorted(found)])
    tv /= np.linalg.norm(tv, axis=1, keepdims=True)
    titles = np.array([it.title for it in teach_items])
    print(f"{len(teach_items)} teaching items with vectors")
    cached: list[tuple[object, RequestState, list[Cand]]] = []
    for m in msgs:
        state = await run_stages(before, RequestState(request_for(m)))
        if state.query_vector is None:
            continue
        vec = await state.query_embedding()
        pool = lessons.search(vec, POOL)
        secs = [c.id for c in state.linked if c.taxonomy == "openstax"]
        stds = [c.id for c in state.linked if c.taxonomy == "common-core"]
        text = state.refined.optimized_query if state.refined else state.request.query
        ids = {s.item.id for s in pool}
        bm = lexical.scores(text, ids)
        problem = state.refined.problem if state.refined and state.refined.problem else None
        pvec = embedder.embed([problem])[0] if problem else vec
        pn = pvec / np.linalg.norm(pvec)
        cr = (
            cross.score(state.request.query, [s.item.search_text for s in pool])
            if cross
            else [0.0] * len(pool)
        )
        dense = state.raw.get("vector", [])
        lex = state.raw.get("lexical", [])
        v_rrf: dict[str, float] = {}
        v_cos: dict[str, float] = {}
        v_top: dict[str, float] = {}
        v_lex: dict[str, float] = {}
        for rank, h in enumerate(dense, start=1):
            if h.item.kind in ("exercise", "explanation", "worked_example"):
                t = h.item.title
                v_rrf[t] = v_rrf.get(t, 0.0) + 1.0 / (10 + rank)
                v_cos[t] = v_cos.get(t, 0.0) + h.score
                v_top[t] = max(v_top.get(t, 0.0), h.score)
        for rank, h in enumerate(lex, start=1):
            if h.item.kind in ("exercise", "explanation", "worked_example"):
                t = h.item.title
                v_lex[t] = v_lex.get(t, 0.0) + 1.0 / (10 + rank)
        v_fused: dict[str, float] = {}
        for rank, hit in enumerate(state.hits, start=1):
            if hit.kind in ("exercise", "explanation", "worked_example"):
                v_fused[hit.title] = v_fused.get(hit.title, 0.0) + 1.0 / (10 + rank)
        sims = tv @ (vec / np.linalg.norm(vec))
        order = np.argsort(-sims)[:200]
        knn: dict[int, dict[str, float]] = {}
        for k in (10, 25, 50, 100, 200):
            d: dict[str, float] = {}
            for j in order[:k]:
                d[titles[j]] = d.get(titles[j], 0.0) + float(sims[j])
            knn[k] = d
        cands = []
        for i, s in enumerate(pool):
            t = s.item.title
            sec = s.item.concept_ids[0] if s.item.concept_ids else ""
            std_ranks = [stds.index(x) for x in aligned.get(sec, ()) if x in stds]
            lv = lessons._vectors[lessons._items.index(s.item)]
            cands.append(
                Cand(
                    s,
                    s.score,
                    secs.index(sec) if sec in secs else None,
                    min(std_ranks) if std_ranks else None,
                    bm.get(s.item.id, 0.0),
                    cr[i],
                    float(lv @ pn),
                    v_rrf.get(t, 0.0),
                    v_cos.get(t, 0.0),
                    v_top.get(t, 0.0),
                    v_lex.get(t, 0.0),
                    v_fused.get(t, 0.0),
                    {k: d.get(t, 0.0) for k, d in knn.items()},
                )
            )
        cached.append((m, state, cands))
    print(f"{len(cached)} dev math messages")

    async def evaluate(order: Callable[[list[Cand]], list[Cand]]) -> dict[str, list[float]]:
        out: dict[str, list[float]] = {"all": [], "word_problem": [], "stated_error": []}
        for m, state, cands in cached:
            st = copy.copy(state)
            st.hits = list(state.hits)
            st.timings = dict(state.timings)
            chosen = order(cands)[:SLOTS]
            st.lessons = [lesson_hit(c.item, r) for r, c in enumerate(chosen, start=1)]
            await finish.run(st)
            score = score_packet(m, build_packet(st))  # type: ignore[arg-type]
            t = score.parts.get("teach@10")
            if t is None:
                continue
            out["all"].append(t)
            if m.kind in out:  # type: ignore[attr-defined]
                out[m.kind].append(t)  # type: ignore[attr-defined]
        return out

    def by(key: Callable[[Cand], float]) -> Callable[[list[Cand]], list[Cand]]:
        return lambda cs: sorted(cs, key=lambda c: (-key(c), c.item.item.id))

    def cap2(order: Callable[[list[Cand]], list[Cand]]) -> Callable[[list[Cand]], list[Cand]]:
        def go(cs: list[Cand]) -> list[Cand]:
            seen: dict[str, int] = {}
            out = []
            for c in order(cs):
                t = c.item.item.title
                if seen.get(t, 0) < 2:
                    out.append(c)
                    seen[t] = seen.get(t, 0) + 1
            return out

        return go

    def z(vals: list[float]) -> list[float]:
        a = np.asarray(vals)
        return list((a - a.mean()) / (a.std() + 1e-9))

    recipes: dict[str, Callable[[list[Cand]], list[Cand]]] = {"cosine": by(lambda c: c.cos)}
    for b in (0.25, 0.35, 0.5, 0.75, 1.0):
        recipes[f"cos+{b}*vote_fused"] = by(lambda c, b=b: c.cos + b * c.vote_fused)
        recipes[f"cos+{b}*(vote_rrf+lex)"] = by(
            lambda c, b=b: c.cos + b * (c.vote_rrf + c.vote_lex)
        )
        recipes[f"cos+{b}*(vote_rrf+lex)/2per"] = cap2(
            by(lambda c, b=b: c.cos + b * (c.vote_rrf + c.vote_lex))
        )
    recipes["cos/2per"] = cap2(by(lambda c: c.cos))
    for k in (10, 25, 50, 100, 200) if args.all else ():
        for b in (0.02, 0.05, 0.1, 0.2):
            recipes[f"cos+{b}*knn{k}"] = by(lambda c, b=b, k=k: c.cos + b * c.knn[k])
        recipes[f"knn{k}"] = by(lambda c, k=k: c.knn[k] + 1e-3 * c.cos)
    for b in (0.25, 0.5, 1.0, 2.0, 4.0) if args.all else ():
        recipes[f"cos+{b}*vote_rrf"] = by(lambda c, b=b: c.cos + b * c.vote_rrf)
        recipes[f"cos+{b}*vote_lex"] = by(lambda c, b=b: c.cos + b * c.vote_lex)
        recipes[f"cos+{b}*(vote_rrf+lex)"] = by(
            lambda c, b=b: c.cos + b * (c.vote_rrf + c.vote_lex)
        )
    for b in (0.02, 0.05, 0.1, 0.2) if args.all else ():
        recipes[f"cos+{b}*vote_cos"] = by(lambda c, b=b: c.cos + b * c.vote_cos)
    for b in (0.5, 1.0) if args.all else ():
        recipes[f"cos+{b}*vote_top"] = by(lambda c, b=b: c.cos + b * c.vote_top)
    for b in (0.02, 0.05, 0.1, 0.2) if args.all else ():
        recipes[f"cos+{b}*sec"] = by(lambda c, b=b: c.cos + (b if c.sec_rank is not None else 0))
        recipes[f"cos+{b}*sec/rank"] = by(
            lambda c, b=b: c.cos + (b / (1 + c.sec_rank) if c.sec_rank is not None else 0)
        )
        recipes[f"cos+{b}*sec(top3)"] = by(
            lambda c, b=b: c.cos + (b if c.sec_rank is not None and c.sec_rank < 3 else 0)
        )
        recipes[f"cos+{b}*std"] = by(lambda c, b=b: c.cos + (b if c.std_rank is not None else 0))
    for w in (0.002, 0.005, 0.01, 0.02) if args.all else ():
        recipes[f"cos+{w}*bm25"] = by(lambda c, w=w: c.cos + w * c.bm25)
    for w in (0.3, 0.5, 0.7) if args.all else ():
        recipes[f"{w}cos+{1 - w}cos_problem"] = by(
            lambda c, w=w: w * c.cos + (1 - w) * c.cos_problem
        )
    if cross:
        recipes["cross"] = by(lambda c: c.cross)
        for w in (0.02, 0.05, 0.1):
            recipes[f"cos+{w}*cross"] = by(lambda c, w=w: c.cos + w * c.cross)
    base = await evaluate(recipes["cosine"])
    for name, order in recipes.items():
        got = await evaluate(order)
        cells = []
        for group, vals in got.items():
            d = np.mean(np.asarray(vals) - np.asarray(base[group]))
            cells.append(f"{group} {np.mean(vals):.3f} ({d:+.3f}, n={len(vals)})")
        print(f"{name:28s} " + "  ".join(cells), flush=True)
    await served.aclose()


if __name__ == "__main__":
    asyncio.run(main())

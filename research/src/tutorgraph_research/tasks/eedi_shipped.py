"""The shipped product on Eedi: the bundled models over an index, as a user gets them
(`tutorgraph bench eedi --shipped`, issue 59).

`bench eedi` cross-validates a recipe: it builds each fold's index and retrains the ranker,
so it cannot see a change that hurts the models that ship. This task sends each labelled
(question, wrong answer) pair of an Eedi file through `open_retriever(settings)` as it is
(the bundled ranker, linker and scope model over the settings' index), once with the
question's construct as `concept_ids` (when the index knows it) and once as text only, and
scores the misconception hits in packet order: MAP@25, hit@10 and the target's rank.

On the development file the bundled models saw the questions (the level is inflated), so
the measure is for comparing versions of the code, item by item: `--baseline` pairs a run
with an earlier one's per-item scores. A 60 s source timeout keeps load out of it.

>>> report = asyncio.run(run_shipped(settings, Path("eedi/train.csv")))  # doctest: +SKIP
>>> report["construct"]["map@25"], report["text"]["hit@10"]  # doctest: +SKIP
(0.8636, 0.9991)
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from tutorgraph import RetrievalRequest, Settings, open_retriever
from tutorgraph.ingest.eedi import eedi_construct_id, eedi_query_text, read_eedi_questions
from tutorgraph.ranking.metrics import average_precision_at_k
from tutorgraph_research.harness.folds import stable_sample
from tutorgraph_research.harness.results import bootstrap_ci
from tutorgraph_research.harness.runner import BENCH_SOURCE_TIMEOUT_S, N_RESULTS
from tutorgraph_research.tasks.eedi import K, eedi_pairs, misconception_ranking

__all__ = ["PATHS", "SHIPPED_METRICS", "paired_with", "run_shipped"]

# The two ways an app asks: with the question's construct, and with the text alone.
PATHS = ("construct", "text")
SHIPPED_METRICS = (f"map@{K}", "hit@10")


def _scores(ranking: list[str], target: str) -> dict[str, float]:
    return {
        SHIPPED_METRICS[0]: average_precision_at_k(ranking, {target}, K),
        SHIPPED_METRICS[1]: float(target in ranking[:10]),
        "rank": float(ranking.index(target) + 1 if target in ranking else 0),
    }


def _summary(items: Mapping[str, Mapping[str, Mapping[str, float]]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for path in PATHS:
        rows = [scores[path] for scores in items.values() if path in scores]
        if not rows:
            continue
        out[path] = {"n": len(rows)}
        for metric in SHIPPED_METRICS:
            values = [r[metric] for r in rows]
            out[path][metric] = round(statistics.fmean(values), 4)
            out[path][f"{metric}_ci95"] = list(bootstrap_ci(values))
    return out


def paired_with(
    base: Mapping[str, Mapping[str, Mapping[str, float]]],
    other: Mapping[str, Mapping[str, Mapping[str, float]]],
) -> dict[str, Any]:
    """Per path and metric, `other` - `base` over the items both scored: the mean difference,
    its 95% bootstrap interval and how many items changed.

    >>> a = {"1:A": {"text": {"map@25": 0.5, "hit@10": 1.0}}}
    >>> b = {"1:A": {"text": {"map@25": 1.0, "hit@10": 1.0}}}
    >>> paired_with(a, b)["text"]["map@25"]["diff"]
    0.5
    """
    out: dict[str, Any] = {}
    for path in PATHS:
        keys = sorted(k for k in base.keys() & other.keys() if path in base[k] and path in other[k])
        if not keys:
            continue
        out[path] = {"n": len(keys)}
        for metric in SHIPPED_METRICS:
            diff = [other[k][path][metric] - base[k][path][metric] for k in keys]
            out[path][metric] = {
                "diff": round(statistics.fmean(diff), 6),
                "diff_ci95": list(bootstrap_ci(diff)),
                "changed": sum(abs(d) > 1e-9 for d in diff),
            }
    return out


async def run_shipped(
    settings: Settings,
    eedi_file: Path,
    *,
    limit: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """Every labelled pair of `eedi_file` (or a stable sample of `limit`) through the
    settings' retriever, on both paths; the summary and each item's scores (`items`)."""
    pairs = eedi_pairs(read_eedi_questions(eedi_file))
    if limit is not None:
        pairs = stable_sample(pairs, limit, key=lambda p: p.item_id)
    settings = settings.model_copy(update={"source_timeout_s": BENCH_SOURCE_TIMEOUT_S})
    items: dict[str, dict[str, dict[str, float]]] = {}
    unknown = 0
    async with open_retriever(settings) as served:
        retriever, graph = served.retriever, served.index.graph
        for n, pair in enumerate(pairs, start=1):
            construct = eedi_construct_id(pair.question.construct_id)
            known = not await graph.unknown_concepts([construct])
            unknown += 0 if known else 1
            scores: dict[str, dict[str, float]] = {}
            for path in PATHS:
                if path == "construct" and not known:
                    continue
                packet = await retriever.retrieve(
                    RetrievalRequest(
                        query=eedi_query_text(pair.question, pair.letter),
                        n_results=N_RESULTS,
                        concept_ids=[construct] if path == "construct" else [],
                        max_context_tokens=0,
                    )
                )
                scores[path] = _scores(misconception_ranking(packet, pair.target), pair.target)
            items[pair.item_id] = scores
            if progress is not None:
                progress(n, len(pairs))
    return {
        **_summary(items),
        "_meta": {
            "file": str(eedi_file),
            "index_dir": str(settings.index_dir),
            "pairs": len(pairs),
            "construct_unknown_to_the_index": unknown,
            "source_timeout_s": BENCH_SOURCE_TIMEOUT_S,
        },
        "items": items,
    }

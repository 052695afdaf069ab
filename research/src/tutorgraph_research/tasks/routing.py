"""Routing accuracy on a labelled query set: profile and query-type accuracy, confusion matrices.

>>> report = evaluate_routing(Path("tests/data/routing_queries.jsonl"))  # doctest: +SKIP
>>> report["profile"]["accuracy"]  # doctest: +SKIP
1.0
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

from tutorgraph.errors import ConfigurationError
from tutorgraph.retrieval.router import analyse

__all__ = ["evaluate_routing"]


def _matrix(pairs: list[tuple[str, str]]) -> dict[str, Any]:
    labels = sorted({x for pair in pairs for x in pair})
    counts = Counter(pairs)
    return {
        "accuracy": round(sum(counts[(x, x)] for x in labels) / len(pairs), 4),
        "labels": labels,
        # rows: the label; columns: what the router chose
        "confusion": [[counts[(want, got)] for got in labels] for want in labels],
    }


def evaluate_routing(path: Path) -> dict[str, Any]:
    """Run the auto analyser over `path` (JSON Lines with `query`, `profile`, `query_type`)."""
    if not path.is_file():
        raise ConfigurationError(f"no labelled query file at {path}")
    profiles: list[tuple[str, str]] = []
    types: list[tuple[str, str]] = []
    misses: list[dict[str, Any]] = []
    for lineno, line in enumerate(path.open(encoding="utf-8"), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            query, want_profile, want_type = row["query"], row["profile"], row["query_type"]
        except (ValueError, KeyError) as exc:
            raise ConfigurationError(f"{path}:{lineno}: not a labelled query ({exc})") from exc
        got = analyse(query)
        profiles.append((want_profile, got.profile))
        types.append((want_type, got.query_type))
        if got.profile != want_profile or got.query_type != want_type:
            misses.append(
                {
                    "line": lineno,
                    "query": query,
                    "profile": [want_profile, got.profile],
                    "query_type": [want_type, got.query_type],
                    "signals": got.signals,
                }
            )
    if not profiles:
        raise ConfigurationError(f"{path} holds no labelled queries")
    return {
        "file": str(path),
        "n": len(profiles),
        "profile": _matrix(profiles),
        "query_type": _matrix(types),
        "misses": misses,
    }

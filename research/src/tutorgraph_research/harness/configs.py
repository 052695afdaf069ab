"""Retrieval configurations for the research benchmarks, and the one-factor-at-a-time grid.

`DEFAULT` is what a request runs with the shipped settings: hybrid sources, the request's
own profile and fusion (auto, RRF), the local refiner, the bundled learned final score
(trained per fold in the benchmarks), the diagnosis bug rules, no reranker and no
near-duplicate merge. `BEST` is the best configuration measured on Eedi MAP@25 before the
learned ranker existed (`results/eedi_rerank_cv.json`: semantic profile, weighted fusion,
no refiner). `ablation_grid()` changes one factor of `DEFAULT` at a time, so every row of
an ablation table differs from the shipped default in exactly one place.

>>> [c.name for c in ablation_grid() if c.factor == "fusion"]
['fusion=weighted']
>>> DEFAULT.request_fields()["fusion"]
'rrf'
"""

from __future__ import annotations

import fnmatch
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any, Literal

from tutorgraph.errors import ConfigurationError
from tutorgraph_client.models.request import RETRIEVAL_PROFILES, STORE_SOURCES, SourceName

__all__ = [
    "BEST",
    "DEFAULT",
    "FACTORS",
    "RefinerName",
    "RerankerName",
    "RunConfig",
    "ablation_grid",
    "matching",
]

RefinerName = Literal["none", "local", "openai"]
RerankerName = Literal["none", "domain", "domain-int8", "msmarco"]
FACTORS = (
    "best",
    "sources",
    "fusion",
    "profile",
    "graph_scope",
    "hops",
    "refiner",
    "reranker",
    "ranker",
    "diagnosis",
    "merge",
)
# The near-duplicate merge thresholds the grid tries (0.85 is `NEAR_DUPLICATE_THRESHOLD`).
MERGE_THRESHOLDS = (0.85, 0.95)


@dataclass(frozen=True)
class RunConfig:
    """One retrieval configuration. `factor` is the ablation factor it varies ("best" for
    the reference); `graph_scope` boosts candidates linked to the graph search's concepts
    (the request's concept ids, and the concepts the graph matched in the query text);
    `hops` fixes how many prerequisite hops the graph follows (None: the query type's plan,
    1 for a concept lookup and 2 for a prerequisite question). A None `profile` or
    `graph_scope` leaves the request's default. `context` passes the item's concept ids
    with the request; `ranker` adds the learned final score (a task trains it per fold);
    `diagnosis` the bug rules; `near_duplicate_threshold` turns the near-duplicate merge on."""

    name: str
    factor: str = "best"
    sources: tuple[SourceName, ...] = STORE_SOURCES
    profile: str | None = "semantic"
    fusion: Literal["rrf", "weighted"] = "weighted"
    graph_scope: bool | None = True
    hops: int | None = None
    refiner: RefinerName = "none"
    reranker: RerankerName = "none"
    context: bool = True
    ranker: bool = False
    diagnosis: bool = False
    near_duplicate_threshold: float | None = None

    def request_fields(self) -> dict[str, Any]:
        """`RetrievalRequest` keyword arguments for this configuration."""
        return {
            "sources": list(self.sources),
            "retrieval_profile": self.profile,
            "fusion": self.fusion,
            "graph_scope": self.graph_scope,
            "prerequisite_hops": self.hops,
            "use_refinement": self.refiner != "none",
            "rerank": self.reranker != "none",
        }

    def describe(self) -> dict[str, Any]:
        """The configuration as a JSON-ready mapping (for results rows). `hops` appears only
        when fixed."""
        out: dict[str, Any] = {
            "sources": list(self.sources),
            "profile": self.profile,
            "fusion": self.fusion,
            "graph_scope": self.graph_scope,
        }
        if self.hops is not None:
            out["hops"] = self.hops
        return out | {
            "refiner": self.refiner,
            "reranker": self.reranker,
            "ranker": self.ranker,
            "diagnosis": self.diagnosis,
            "near_duplicate_threshold": self.near_duplicate_threshold,
        }


BEST = RunConfig("best")
DEFAULT = RunConfig(
    "default",
    profile=None,
    fusion="rrf",
    graph_scope=None,
    refiner="local",
    ranker=True,
    diagnosis=True,
)


def ablation_grid(best: RunConfig = DEFAULT) -> list[RunConfig]:
    """`best` (the shipped default), then every one-factor change of it, in table order."""
    out = [best]

    def vary(factor: str, label: str, **change: Any) -> None:
        out.append(replace(best, name=f"{factor}={label}", factor=factor, **change))

    for s in STORE_SOURCES:
        vary("sources", f"{s}-only", sources=(s,))
    for s in STORE_SOURCES:
        vary("sources", f"no-{s}", sources=tuple(x for x in best.sources if x != s))
    vary(
        "fusion",
        "rrf" if best.fusion == "weighted" else "weighted",
        fusion="rrf" if best.fusion == "weighted" else "weighted",
    )
    for p in RETRIEVAL_PROFILES:
        if p != (best.profile or "auto"):
            vary("profile", p, profile=p)
    for scope in (False, True):
        if scope != best.graph_scope:
            vary("graph_scope", "on" if scope else "off", graph_scope=scope)
    # Min et al. (arXiv:2507.03226) evaluate 1-hop traversal only: is one hop enough?
    for h in (0, 1, 2):
        if h != best.hops:
            vary("hops", str(h), hops=h)
    for r in ("none", "local", "openai"):
        if r != best.refiner:
            vary("refiner", r, refiner=r)
    for m in ("none", "domain", "domain-int8", "msmarco"):
        if m != best.reranker:
            vary("reranker", m, reranker=m)
    vary("ranker", "off" if best.ranker else "on", ranker=not best.ranker)
    vary("diagnosis", "off" if best.diagnosis else "on", diagnosis=not best.diagnosis)
    for t in MERGE_THRESHOLDS:
        if t != best.near_duplicate_threshold:
            vary("merge", f"{t:.2f}", near_duplicate_threshold=t)
    if best.near_duplicate_threshold is not None:
        vary("merge", "off", near_duplicate_threshold=None)
    return out


def matching(configs: Iterable[RunConfig], pattern: str) -> list[RunConfig]:
    """The `configs` whose names match any of the comma-separated globs in `pattern`, in
    order (`--configs` of `bench eedi` and of `ablate`); none is a `ConfigurationError`.

    >>> [c.name for c in matching([BEST, DEFAULT], "def*")]
    ['default']
    """
    configs = list(configs)
    globs = [g.strip() for g in pattern.split(",") if g.strip()]
    chosen = [c for c in configs if any(fnmatch.fnmatchcase(c.name, g) for g in globs)]
    if not chosen:
        names = ", ".join(c.name for c in configs)
        raise ConfigurationError(f"--configs {pattern!r} matches none of {names}")
    return chosen

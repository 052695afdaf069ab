"""The graph prior: how often labelled examples link a target (a misconception) to a concept.

Built from labelled examples (an Eedi question's wrong answer and the misconception it shows,
under the question's construct). For a request about concepts `C`, a candidate target `m`
gets the share of `C`'s labelled examples that show `m`, the same share over `C`'s parents
(an Eedi construct's subjects), and `m`'s overall frequency.

Leave-one-group-out: a training row of the final-score model must not see its own label in
its features, or the model learns to trust counts that hold the answer. `exclude=` removes
every example of one group (one question, all its wrong answers) from the counts.

>>> prior = LinkPrior.build(
...     [LabelledExample("q1", "m1", ("c1",)), LabelledExample("q2", "m1", ("c1",)),
...      LabelledExample("q3", "m2", ("c1",))])
>>> prior.features(["c1"], ["m1", "m2"])["concept_share"]
[0.666667, 0.333333]
>>> prior.features(["c1"], ["m1", "m2"], exclude="q1")["concept_share"]
[0.5, 0.5]
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = ["PRIOR_FEATURES", "LabelledExample", "LinkPrior"]

PRIOR_FEATURES = ("concept_count", "concept_share", "parent_share", "global_log_count")


@dataclass(frozen=True)
class LabelledExample:
    """One labelled example: its group (a question id), its target and the concepts it is on."""

    group: str
    target: str
    concept_ids: tuple[str, ...]


@dataclass
class LinkPrior:
    """Counts of (concept, target) links, kept per group so that a group can be left out."""

    # concept -> target -> count; `parent_links` the same one level up (an Eedi subject)
    links: dict[str, Counter[str]] = field(default_factory=dict)
    parent_links: dict[str, Counter[str]] = field(default_factory=dict)
    parents: dict[str, tuple[str, ...]] = field(default_factory=dict)
    targets: Counter[str] = field(default_factory=Counter)
    # group -> its examples (training only; not saved)
    groups: dict[str, list[LabelledExample]] = field(default_factory=dict)

    @classmethod
    def build(
        cls,
        examples: Iterable[LabelledExample],
        parents: Mapping[str, Sequence[str]] | None = None,
    ) -> LinkPrior:
        """Count the links of `examples`; `parents` maps a concept to its parent concepts."""
        prior = cls(parents={c: tuple(sorted(set(p))) for c, p in (parents or {}).items()})
        links: dict[str, Counter[str]] = defaultdict(Counter)
        parent_links: dict[str, Counter[str]] = defaultdict(Counter)
        groups: dict[str, list[LabelledExample]] = defaultdict(list)
        for ex in examples:
            groups[ex.group].append(ex)
            prior.targets[ex.target] += 1
            for cid in ex.concept_ids:
                links[cid][ex.target] += 1
            for pid in prior._parents_of(ex.concept_ids):
                parent_links[pid][ex.target] += 1
        prior.links, prior.parent_links = dict(links), dict(parent_links)
        prior.groups = dict(groups)
        return prior

    def knows(self, concept_ids: Iterable[str]) -> bool:
        """Whether any labelled example links a target to one of `concept_ids`."""
        return any(self.links.get(c) for c in concept_ids)

    def _parents_of(self, concept_ids: Iterable[str]) -> list[str]:
        return sorted({p for c in concept_ids for p in self.parents.get(c, ())})

    @staticmethod
    def _shares(
        table: Mapping[str, Counter[str]],
        concepts: Sequence[str],
        left_out: Mapping[str, Counter[str]],
    ) -> tuple[dict[str, float], dict[str, float]]:
        """Per target: summed counts, and the mean share over the `concepts` that have links."""
        counts: dict[str, float] = defaultdict(float)
        shares: dict[str, float] = defaultdict(float)
        used = 0
        for cid in dict.fromkeys(concepts):
            row = table.get(cid, Counter()) - left_out.get(cid, Counter())
            total = sum(row.values())
            if total <= 0:
                continue
            used += 1
            for target, n in row.items():
                counts[target] += n
                shares[target] += n / total
        return counts, ({t: s / used for t, s in shares.items()} if used else {})

    def features(
        self,
        concept_ids: Sequence[str],
        candidates: Sequence[str],
        *,
        exclude: str | None = None,
    ) -> dict[str, list[float]]:
        """`PRIOR_FEATURES` for each candidate, without the examples of group `exclude`."""
        counts, shares, parent_shares, out_targets = self._features(concept_ids, exclude)
        return {
            "concept_count": [counts.get(m, 0.0) for m in candidates],
            "concept_share": [round(shares.get(m, 0.0), 6) for m in candidates],
            "parent_share": [round(parent_shares.get(m, 0.0), 6) for m in candidates],
            "global_log_count": [
                round(math.log1p(self.targets[m] - out_targets[m]), 6) for m in candidates
            ],
        }

    def shares(
        self, concept_ids: Sequence[str], *, exclude: str | None = None
    ) -> tuple[dict[str, float], dict[str, float]]:
        """The targets linked to the concepts and to their parents, each with its
        (rounded) `concept_share` and `parent_share`; the others' are 0."""
        _, shares, parent_shares, _ = self._features(concept_ids, exclude)
        return (
            {t: round(s, 6) for t, s in shares.items()},
            {t: round(s, 6) for t, s in parent_shares.items()},
        )

    def _features(
        self, concept_ids: Sequence[str], exclude: str | None
    ) -> tuple[dict[str, float], dict[str, float], dict[str, float], Counter[str]]:
        own = self.groups.get(exclude, []) if exclude is not None else []
        out_links: dict[str, Counter[str]] = defaultdict(Counter)
        out_parents: dict[str, Counter[str]] = defaultdict(Counter)
        out_targets: Counter[str] = Counter(ex.target for ex in own)
        for ex in own:
            for cid in ex.concept_ids:
                out_links[cid][ex.target] += 1
            for pid in self._parents_of(ex.concept_ids):
                out_parents[pid][ex.target] += 1
        counts, shares = self._shares(self.links, concept_ids, out_links)
        _, parent_shares = self._shares(
            self.parent_links, self._parents_of(concept_ids), out_parents
        )
        return counts, shares, parent_shares, out_targets

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready form, sorted so that the same counts give the same bytes."""

        def table(t: Mapping[str, Counter[str]]) -> dict[str, dict[str, int]]:
            return {c: dict(sorted(row.items())) for c, row in sorted(t.items())}

        return {
            "links": table(self.links),
            "parent_links": table(self.parent_links),
            "parents": {c: list(p) for c, p in sorted(self.parents.items())},
            "targets": dict(sorted(self.targets.items())),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> LinkPrior:
        """The prior saved by `to_json` (the per-group examples are a training-time matter)."""
        return cls(
            links={c: Counter(row) for c, row in data["links"].items()},
            parent_links={c: Counter(row) for c, row in data["parent_links"].items()},
            parents={c: tuple(p) for c, p in data["parents"].items()},
            targets=Counter(data["targets"]),
        )

"""Conflicts between hits: the same problem answered differently (factual), and the same
record at two versions in two stores (temporal).

**Factual.** An exercise states its answer after `Solution:`, an Eedi question after
`Correct answer:` (the text of that option). Two hits pose the same problem when their
problem texts agree after the refiner's math normalisation (`canonical_math`), case and
spacing (an Eedi question's options too). Exercise answers are compared on the values they
state (integers, decimals, fractions and mixed numbers, as exact fractions): they
conflict when neither set of values contains the other, so that `1 2/9` and `11/9` agree,
and a copy that answers one part of two does not conflict. A problem with no number in it,
or one that points at a figure, graph or table the text does not hold, is not compared
(identical words, different pictures); nor is an answer that "may vary". Both hits are
kept, each marked `conflicts_with` the other, and the conflict prefers the source first in
`SOURCE_PRIORITY` (then the better-ranked hit).

**Temporal.** Every record carries `updated_at` from the bundle into every store. When two
sources return the same id at different `updated_at` (a Chroma server not yet re-ingested
while the graph was), the latest wins; the stale copy leaves the results and the conflict
records it as superseded.

>>> stated_answer("exercise", "Simplify: (2/9 + 7/12) + 5/12.\\nSolution: 1 2/9")[1]
frozenset({Fraction(11, 9)})
"""

from __future__ import annotations

import functools
import re
from collections import defaultdict
from collections.abc import Sequence
from fractions import Fraction
from itertools import combinations

from tutorgraph.mathtext.spans import canonical_math
from tutorgraph.retrieval.candidates import Candidate
from tutorgraph.stores.items import TEXT_CACHE
from tutorgraph_client.models.packet import Conflict, Hit, SupersededCopy
from tutorgraph_client.models.request import ALL_SOURCES, SourceName

__all__ = ["SOURCE_PRIORITY", "factual_conflicts", "latest_versions", "stated_answer"]

# Which source a conflict prefers, by id prefix: the caller's own documents, then Eedi's
# (diagnostic questions whose answers teachers check), then the OpenStax textbooks.
SOURCE_PRIORITY = ("local:", "eedi:", "openstax:")

_CORRECT = re.compile(r"\nCorrect answer: ([A-Z])\s*$")
_OPTION = re.compile(r"^([A-Z]): (.*)$", re.M)
_SOLUTION = "\nSolution: "
_UNSEEN = re.compile(r"\b(figure|shown|graph|table|model|picture|diagram|image|below|above)", re.I)
_VARIES = re.compile(r"answers? (will|may) vary|sample answer", re.I)
_NUMBER = re.compile(r"(-?)(\d+(?:,\d{3})*(?:\.\d+)?)(?: (\d+)/(\d+)|/(\d+))?")


def _norm(text: str) -> str:
    return canonical_math(" ".join(text.split())).lower().strip().rstrip(".")


def _values(text: str) -> frozenset[Fraction]:
    out = set()
    for sign, whole, num, den, over in _NUMBER.findall(_norm(text).replace("−", "-")):
        value = Fraction(whole.replace(",", ""))
        if num:
            value += Fraction(int(num), int(den))
        if over and int(over):
            value /= int(over)
        out.add(-value if sign else value)
    return frozenset(out)


# The same stored texts come back request after request; reading one is pure.
@functools.lru_cache(maxsize=TEXT_CACHE)
def stated_answer(kind: str, text: str) -> tuple[str, frozenset[Fraction] | str] | None:
    """(the problem's key, the answer it states) of an exercise or an Eedi question, or
    None when the text states no comparable answer."""
    if kind == "question":
        m = _CORRECT.search(text)
        if m is None:
            return None
        body = text[: m.start()]
        options = dict(_OPTION.findall(body))
        answer = options.get(m.group(1))
        if answer is None:
            return None
        stem = re.split(r"\n[A-Z]: ", body)[0]
        key = " | ".join([_norm(stem), *sorted(_norm(o) for o in options.values())])
        return key, _norm(answer)
    if kind != "exercise" or _SOLUTION not in text:
        return None
    problem, answer = text.split(_SOLUTION, 1)
    if not re.search(r"\d", problem) or _UNSEEN.search(problem) or _VARIES.search(answer):
        return None
    values = _values(answer)
    return (_norm(problem), values) if values else None


def _clash(a: frozenset[Fraction] | str, b: frozenset[Fraction] | str) -> bool:
    if isinstance(a, str) or isinstance(b, str):
        return a != b
    return not (a <= b or b <= a)


def _priority(hit_id: str) -> int:
    return next((n for n, p in enumerate(SOURCE_PRIORITY) if hit_id.startswith(p)), 99)


def factual_conflicts(hits: Sequence[Hit]) -> list[Conflict]:
    """The factual conflicts among `hits` (best first); marks each hit's `conflicts_with`."""
    by_problem: dict[tuple[str, str], list[tuple[Hit, frozenset[Fraction] | str]]] = defaultdict(
        list
    )
    for hit in hits:
        stated = stated_answer(hit.kind, hit.text)
        if stated is not None:
            by_problem[(hit.kind, stated[0])].append((hit, stated[1]))
    shown = {h.id: v if isinstance(v, str) else "" for g in by_problem.values() for h, v in g}
    out = []
    for group in by_problem.values():
        clashing = [(a, b) for a, b in combinations(group, 2) if _clash(a[1], b[1])]
        if not clashing:
            continue
        involved = {h.id: h for pair in clashing for h, _ in pair}
        for (a, _), (b, _) in clashing:
            a.conflicts_with = sorted({*a.conflicts_with, b.id})
            b.conflicts_with = sorted({*b.conflicts_with, a.id})
        order = list(involved)  # best first, as the hits came
        preferred = min(order, key=lambda i: (_priority(i), order.index(i)))
        out.append(
            Conflict(
                kind="factual",
                ids=order,
                preferred=preferred,
                answers={i: shown[i] or _solution(h.text) for i, h in involved.items()},
                reason="the same problem with different answers; preferred by source "
                "priority (local, eedi, openstax), then rank",
            )
        )
    return out


def latest_versions(
    results: dict[SourceName, list[Candidate]],
) -> tuple[dict[SourceName, list[Candidate]], list[Conflict]]:
    """Each source's candidates without the copies of an id that another source returned
    at a later `updated_at` (a copy without one is the oldest); and a temporal conflict per
    id so resolved, naming the copies it superseded."""
    versions: dict[str, dict[SourceName, str | None]] = defaultdict(dict)
    for source in ALL_SOURCES:
        for cand in results.get(source, ()):
            versions[cand.item.id].setdefault(source, cand.item.updated_at)
    latest: dict[str, str] = {}
    conflicts = []
    for item_id, seen in versions.items():
        if len(set(seen.values())) < 2:
            continue
        winner = max(v for v in seen.values() if v is not None)
        latest[item_id] = winner
        conflicts.append(
            Conflict(
                kind="temporal",
                ids=[item_id],
                preferred=winner,
                reason="sources returned different versions of one record; the latest wins",
                superseded=[
                    SupersededCopy(source=s, updated_at=v, superseded_by=winner)
                    for s, v in seen.items()
                    if v != winner
                ],
            )
        )
    if not latest:
        return results, []
    kept = {
        source: [
            c for c in cands if c.item.id not in latest or c.item.updated_at == latest[c.item.id]
        ]
        for source, cands in results.items()
    }
    return kept, conflicts


def _solution(text: str) -> str:
    return text.split(_SOLUTION, 1)[1].strip()[:200]

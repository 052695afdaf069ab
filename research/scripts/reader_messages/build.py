"""The benchmark's rows: the split by phrasing, and `per_item` phrasings per item chosen
deterministically (sha256 of fixed keys).

The split is by phrasing, not by item: phrasing `p` is held out when
`int(sha256(("phrasing:" + p).encode()).hexdigest(), 16) % 3 == 0`.
"""

from __future__ import annotations

import hashlib
from collections import Counter

from .phrasings import PHRASINGS, Phrasing, problem_kind
from .problems import Item, Round, value
from .render import Style, answer_text, canonical, precision, render

__all__ = ["heldout", "message", "messages"]


def heldout(phrasing_id: str) -> bool:
    """The split rule: a phrasing is held out when its sha256 is 0 mod 3."""
    return int(hashlib.sha256(("phrasing:" + phrasing_id).encode()).hexdigest(), 16) % 3 == 0


def _hash(text: str) -> int:
    return int(hashlib.sha256(text.encode()).hexdigest()[:12], 16)


def _fits(p: Phrasing, item: Item) -> bool:
    if problem_kind(item.problem) not in p.kinds:
        return False
    if item.answer is None:
        return False
    right = item.correct is not None and value(item.answer) == value(item.correct)
    if p.right_only:
        return right
    if p.needs_wrong and right:
        return False
    if p.shows_claim and (item.correct is None or right):
        return False
    return not (p.shows_answer and not p.shows_problem and right)


def _answer_how(p: Phrasing, style: Style) -> str:
    if p.answer_how != "plain":
        return p.answer_how
    if style.neg == "−":
        return "unicode"
    if style.point == ".":
        return "point"
    return "plain"


def message(item: Item, p: Phrasing) -> dict[str, object]:
    """One benchmark row: `item` said in phrasing `p`."""
    style = p.styles[_hash(f"style:{item.key}:{p.id}") % len(p.styles)]
    how = _answer_how(p, style)
    assert item.answer is not None
    fields = {
        "p": render(item.problem, style),
        "a": answer_text(item.answer, how),
        "c": answer_text(item.correct, how) if item.correct is not None else "",
    }
    if isinstance(item.problem, Round):
        fields["n"] = render(item.problem.value, style)
        fields["r"] = precision(item.problem.kind, item.problem.k, style)
    text = p.frame.format(**fields)
    complete = p.shows_problem and p.shows_answer
    return {
        "claimed_right": canonical(item.correct) if p.shows_claim and item.correct else None,
        "id": f"{item.key}:{p.id}",
        "misconception_ids": list(item.misconceptions) if complete else [],
        "phrasing": p.id,
        "problem": canonical(item.problem) if p.shows_problem else None,
        "question_id": item.question_id,
        "request": p.request,
        "source": item.source,
        "split": "heldout" if heldout(p.id) else "dev",
        "student_answer": canonical(item.answer) if p.shows_answer else None,
        "text": text,
    }


def messages(items: list[Item], per_item: int = 2) -> list[dict[str, object]]:
    """`per_item` phrasings per item, balanced over phrasings by weight, deterministic."""
    used: Counter[str] = Counter()
    seen_texts: set[str] = set()
    rows: list[dict[str, object]] = []
    for item in sorted(items, key=lambda it: _hash(f"item:{it.key}")):
        fitting = [p for p in PHRASINGS if _fits(p, item)]
        fitting.sort(key=lambda p: (used[p.id] / p.weight, _hash(f"pick:{item.key}:{p.id}")))
        taken = 0
        for p in fitting:
            if taken == per_item:
                break
            row = message(item, p)
            if row["text"] in seen_texts:
                continue
            seen_texts.add(str(row["text"]))
            used[p.id] += 1
            rows.append(row)
            taken += 1
    rows.sort(key=lambda r: str(r["id"]))
    return rows

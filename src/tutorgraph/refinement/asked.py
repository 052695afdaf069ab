"""Numbers a message asks about, or reports, rather than gives as the student's answer.

"is 2/5 the same as 4/10?", "does 3/6 equal 1/2?", "is 3/4 bigger than 2/3" ask about two
numbers; "my teacher says 7 x 6 is 42 but how" reports someone else's. None states the
student's answer (issue 62: they were read as "the student answered 2/5, which is correct").
The message reader (`refinement.reader`) drops what these rules find from its answers:

* the **subject** of a yes/no question: the lone number right after a sentence's opening
  "is", "does", "are" ... ("is 17 prime?"), unless the question checks it ("is 15 right?",
  "is 15 the answer?"): a calculation there ("is 5 + 4 x 3 60?") is the problem, and what
  follows it its answer;
* both sides of an **equivalence** of two lone numbers, the first the question's subject
  ("is 2/5 the same as 4/10", "does 0.25 equal 25%", "is 1 km the same as 1000 m"); a task's
  answer is not one ("is 0.07 as a percentage equal to 0.7%");
* a **reported** claim: the numbers of a clause that another person or a book states ("my
  teacher says ... but", "the book says 3/4 = 0.75"), up to the clause's end: an authority's
  (`cues.OTHERS`) is the answer it says is right; anyone else's (a friend's) is nobody's.

>>> from tutorgraph.refinement.expressions import expressions, tokens
>>> toks = tokens("is 2/5 the same as 4/10?")
>>> sorted(asked_about(toks, expressions(toks), text="is 2/5 the same as 4/10?").dropped)
[1, 5]
"""

from __future__ import annotations

from dataclasses import dataclass

from tutorgraph.refinement.cues import OTHERS, RIGHT, WRONG
from tutorgraph.refinement.expressions import Expr, Tok

__all__ = ["Asked", "asked_about", "sentence_starts"]

_OPENINGS = frozenset(("is", "does", "do", "did", "are", "was", "can", "could", "would"))
_SUBJECT_AFTER = _OPENINGS | frozenset(("come",))
_ANSWER_WORDS = frozenset(("answer", "answers", "result", "solution"))
_EQUIVALENT = (
    ("the", "same", "thing", "as"),
    ("the", "same", "value", "as"),
    ("the", "same", "as"),
    ("same", "as"),
    ("equal", "to"),
    ("equivalent", "to"),
    ("equals",),
    ("equal",),
)
# The words a report's clause is said with, and where it ends.
_REPORTING = frozenset(("says", "said", "say", "told", "thinks", "reckons"))
_REPORTERS = OTHERS | frozenset(
    ("friend", "friends", "sister", "brother", "cousin", "partner", "classmate", "tutor",
     "he", "she", "they", "everyone", "app", "website", "google", "mom", "mother", "father",
     "grandma", "grandpa", "auntie", "uncle", "textbook", "worksheet", "answers")
)  # fmt: skip
_NOT_REPORTERS = frozenset(("i", "we", "you", "me"))
_CLAUSE_ENDS = frozenset(("but", "so", "though", "although", "because", "cuz", "i", "while"))
# A reported clause is read this far at most (a claim, not an essay; and linear).
_CLAUSE_TOKENS = 24
_NEGATED = WRONG | frozenset(("not", "isn't", "isnt", "aren't", "wasn't", "wasnt"))


@dataclass(frozen=True)
class Asked:
    """What the rules found: the first token of each lone number that is no answer
    (`dropped`), and of each that an authority states is right (`theirs`)."""

    dropped: frozenset[int]
    theirs: frozenset[int]


def sentence_starts(toks: list[Tok], text: str) -> frozenset[int]:
    """The token indices that start a sentence: the first, and any after ". ? !" or a line
    break."""
    out = {0} if toks else set()
    for k in range(1, len(toks)):
        prev = toks[k - 1]
        if (prev.kind == "punct" and prev.text in ".?!") or "\n" in text[prev.end : toks[k].start]:
            out.add(k)
    return frozenset(out)


def _phrase_at(toks: list[Tok], k: int) -> int:
    """The length of an equivalence phrase starting at `toks[k]` (0 if none)."""
    words = [t.text for t in toks[k : k + 4]]
    for phrase in _EQUIVALENT:
        if tuple(words[: len(phrase)]) == phrase:
            return len(phrase)
    return 0


def _equated(toks: list[Tok], lone: dict[int, Expr]) -> set[int]:
    """Both sides of each equivalence of two lone numbers whose first is what a question
    asks about (it follows the question's verb: "is 2/5 ...", "why does 2/4 ...", "how come
    3/6 ..."); one word may stand between it and the phrase (a unit, "mean"). A question's
    last number is not one ("is <the mean of 3, 4, 4> equal to 3?")."""
    out: set[int] = set()
    for first, expr in lone.items():
        if not first or toks[first - 1].text not in _SUBJECT_AFTER:
            continue
        for gap in (0, 1):
            k = expr.last + gap
            if gap and (k - 1 >= len(toks) or toks[k - 1].kind != "word"):
                continue
            n = _phrase_at(toks, k) if k < len(toks) else 0
            if n and k + n in lone:
                out |= {first, k + n}
                break
    return out


def _reported(toks: list[Tok], starts: frozenset[int]) -> tuple[set[int], set[int]]:
    """The token indices of reported clauses: an authority's, and anyone else's."""
    theirs: set[int] = set()
    others: set[int] = set()
    for k, tok in enumerate(toks):
        if tok.text not in _REPORTING or not k:
            continue
        who = [t.text for t in toks[max(k - 3, 0) : k] if t.kind == "word"]
        if not who or who[-1] in _NOT_REPORTERS or not set(who) & _REPORTERS:
            continue
        clause: set[int] = set()
        j = k + 1
        while j < min(len(toks), k + 1 + _CLAUSE_TOKENS) and j not in starts:
            t = toks[j]
            if (t.kind == "punct" and t.text in ",;") or t.text in _CLAUSE_ENDS:
                break
            clause.add(j)
            j += 1
        if any(toks[j].text in _NEGATED for j in clause):
            continue  # "my teacher said 3/4 + 1/8 isnt 4/12": the student's, as before
        (theirs if set(who) & OTHERS else others).update(clause)
    return theirs, others


def _checked(toks: list[Tok], k: int) -> bool:
    """The question checks the number before `toks[k]`: "is 15 right", "is 15 the answer"."""
    words = [t.text for t in toks[k : k + 2]]
    if words[:1] and words[0] in RIGHT | WRONG:
        return True
    return len(words) == 2 and words[0] in ("the", "my", "an") and words[1] in _ANSWER_WORDS


def asked_about(toks: list[Tok], exprs: list[Expr], *, text: str) -> Asked:
    """The lone numbers of `exprs` that are asked about or reported (see the module's
    docstring); `text` is the text `toks` were read from (for its line breaks)."""
    lone = {e.first: e for e in exprs if not e.ops}
    starts = sentence_starts(toks, text)
    dropped = _equated(toks, lone)
    for k in starts:
        first = k + 1
        if toks[k].text not in _OPENINGS or first not in lone:
            continue
        if _checked(toks, lone[first].last):
            continue
        dropped.add(first)
    theirs_clause, others_clause = _reported(toks, starts)
    theirs = {first for first in lone if first in theirs_clause}
    dropped |= {first for first in lone if first in others_clause}
    return Asked(frozenset(dropped - theirs), frozenset(theirs))

"""Context assembly: the packet's prompt-ready block for the tutor LLM.

First what the packet knows about the message (`## About this message`: the topic, the
grade, the answer check, the diagnosis; `context_header.py`), lines that cite nothing; then
the hits grouped by kind (explanations, worked examples, the concept and its prerequisites,
likely misconceptions, practice questions), each item led by its hit id in brackets (what
an answer cites), figure descriptions left out (`figure_text.py`). All of it within a token
budget counted with the embedder's tokenizer: the known lines first, in at most half of it
(on a short budget the answer check before the diagnosis, the grade and the topic), then
the items best first; a line that does not fit whole is cut at a word boundary if enough
room is left, otherwise skipped. A packet that matched nothing (`no_match`) gets one line saying
so and why, and no items (`no_match_context`).

>>> assemble_context(hits, count_tokens=len_in_words, max_tokens=50)  # doctest: +SKIP
'## Explanations\\n[openstax:m1:chunk:0] Dividing fractions: ...'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from tutorgraph.retrieval.context_header import CONTEXT_HEADER, Known
from tutorgraph.retrieval.figure_text import without_figure_text
from tutorgraph_client.models.packet import Hit

__all__ = ["CONTEXT_SECTIONS", "NO_MATCH_HEADER", "assemble_context", "no_match_context"]

# Teaching first: a model asked to explain the idea and give an example reads those first.
CONTEXT_SECTIONS: tuple[tuple[str, frozenset[str]], ...] = (
    ("Explanations", frozenset({"explanation"})),
    ("Worked examples", frozenset({"worked_example"})),
    ("Concept and prerequisites", frozenset({"concept"})),
    ("Likely misconceptions", frozenset({"misconception"})),
    ("Practice questions", frozenset({"exercise", "question"})),
)
# Below this many tokens of room, a cut item would be too short to be useful.
_MIN_PARTIAL_TOKENS = 24
# A cut known line (a long standard's statement) is still worth this little.
_MIN_PARTIAL_KNOWN = 8
NO_MATCH_HEADER = "No match"
_NO_MATCH = "Nothing in the curriculum matches this message, so there is nothing to answer from"


def _line(hit: Hit) -> str:
    text = " ".join(without_figure_text(hit.id, hit.text).split())
    if hit.kind == "concept" and hit.graph_path and len(hit.graph_path) > 1:
        text += f" (prerequisite of {hit.graph_path[-1]})"
    return f"[{hit.id}] {hit.title}: {text}" if hit.title else f"[{hit.id}] {text}"


def _cut(line: str, room: int, count_tokens: Callable[[str], int]) -> str | None:
    """The longest word-prefix of `line` (plus an ellipsis) that fits in `room` tokens."""
    words = line.split(" ")
    lo, hi = 0, len(words)
    while lo < hi:  # binary search: counting tokens is the expensive part
        mid = (lo + hi + 1) // 2
        if count_tokens(" ".join(words[:mid]) + " …") <= room:
            lo = mid
        else:
            hi = mid - 1
    return " ".join(words[:lo]) + " …" if lo >= 3 else None


def _fit(
    line: str, room: int, count_tokens: Callable[[str], int], least_room: int | None
) -> tuple[str, int] | None:
    """`line` (or its cut, when at least `least_room` tokens are left; None: never cut) and
    its cost."""
    cost = count_tokens(line) + 1
    if cost <= room:
        return line, cost
    if (
        least_room is not None
        and room - 1 >= least_room
        and (cut := _cut(line, room - 1, count_tokens)) is not None
    ):
        return cut, count_tokens(cut) + 1
    return None


def _known_block(
    known: Sequence[Known], count_tokens: Callable[[str], int], room: int
) -> tuple[list[str], int]:
    """The known lines that fit in `room` under their header, taken by `keep` (a long topic
    is cut, or left out, before the answer check is) and shown in their order; and their
    cost."""
    header = f"## {CONTEXT_HEADER}"
    used = count_tokens(header) + 1
    fitted: dict[int, str] = {}
    for i in sorted(range(len(known)), key=lambda i: known[i].keep):
        least = _MIN_PARTIAL_KNOWN if known[i].may_cut else None  # a fact stays whole
        fit = _fit(known[i].text, room - used, count_tokens, least)
        if fit is not None:
            fitted[i] = fit[0]
            used += fit[1]
    return ([header, *(fitted[i] for i in sorted(fitted))], used) if fitted else ([], 0)


def assemble_context(
    hits: Sequence[Hit],
    *,
    count_tokens: Callable[[str], int],
    max_tokens: int,
    known: Sequence[Known] = (),
) -> str:
    """`known` (what the packet knows about the message, `context_header.known_lines`) under
    `## About this message`, in at most half the budget when there are hits, then the hits in
    grouped sections, all within `max_tokens` (0 gives an empty context)."""
    if max_tokens <= 0 or not (hits or known):
        return ""
    first, used = _known_block(known, count_tokens, max_tokens // 2 if hits else max_tokens)
    chosen: dict[str, list[str]] = {title: [] for title, _ in CONTEXT_SECTIONS}
    section_of = {kind: title for title, kinds in CONTEXT_SECTIONS for kind in kinds}
    for hit in hits:  # best first, so the budget goes to the best evidence
        title = section_of[hit.kind]
        header_cost = count_tokens(f"## {title}") + 1 if not chosen[title] else 0
        fitted = _fit(
            _line(hit), max_tokens - used - header_cost, count_tokens, _MIN_PARTIAL_TOKENS
        )
        if fitted is not None:
            chosen[title].append(fitted[0])
            used += fitted[1] + header_cost
    blocks = ["\n".join(lines) for lines in [first] if lines]
    blocks += ["\n".join([f"## {title}", *lines]) for title, lines in chosen.items() if lines]
    return "\n\n".join(blocks)


def no_match_context(reason: str, *, count_tokens: Callable[[str], int], max_tokens: int) -> str:
    """The context of a packet that matched nothing (`no_match`): that, and why (the
    packet's `no_match_reason`), with no curriculum item to answer from; within
    `max_tokens` (0 gives an empty context)."""
    if max_tokens <= 0:
        return ""
    header = f"## {NO_MATCH_HEADER}"
    line = f"{_NO_MATCH} ({reason})."
    used = count_tokens(header) + 1
    fitted = _fit(line, max_tokens - used, count_tokens, 1)
    return f"{header}\n{fitted[0]}" if fitted is not None else ""

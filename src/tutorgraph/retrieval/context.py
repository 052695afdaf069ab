"""Context assembly: the packet's prompt-ready block for the tutor LLM.

Grouped by kind (explanations, worked examples, the concept and its prerequisites, likely
misconceptions, practice questions), each item tagged with its hit id in brackets, and
kept within a token budget counted with the embedder's tokenizer. Items are taken best
first; one that does not fit whole is cut at a word boundary if enough room is left,
otherwise skipped.

>>> assemble_context(hits, count_tokens=len_in_words, max_tokens=50)  # doctest: +SKIP
'## Explanations\\n[openstax:m1:chunk:0] Dividing fractions: ...'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from tutorgraph_client.models.packet import Hit

__all__ = ["CONTEXT_SECTIONS", "assemble_context"]

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


def _line(hit: Hit) -> str:
    text = " ".join(hit.text.split())
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


def assemble_context(
    hits: Sequence[Hit], *, count_tokens: Callable[[str], int], max_tokens: int
) -> str:
    """Pack the hits into grouped sections within `max_tokens` (0 gives an empty context)."""
    if max_tokens <= 0 or not hits:
        return ""
    chosen: dict[str, list[str]] = {title: [] for title, _ in CONTEXT_SECTIONS}
    section_of = {kind: title for title, kinds in CONTEXT_SECTIONS for kind in kinds}
    used = 0
    for hit in hits:  # best first, so the budget goes to the best evidence
        title = section_of[hit.kind]
        header_cost = count_tokens(f"## {title}") + 1 if not chosen[title] else 0
        line = _line(hit)
        cost = count_tokens(line) + 1 + header_cost
        if used + cost <= max_tokens:
            chosen[title].append(line)
            used += cost
            continue
        room = max_tokens - used - header_cost - 1
        if room >= _MIN_PARTIAL_TOKENS:
            cut = _cut(line, room, count_tokens)
            if cut is not None:
                chosen[title].append(cut)
                used += count_tokens(cut) + 1 + header_cost
    blocks = ["\n".join([f"## {title}", *lines]) for title, lines in chosen.items() if lines]
    return "\n\n".join(blocks)

"""Spelling correction against the index's own vocabulary (one edit, symmetric deletes).

Students misspell the words that matter most for search (``denominater``,
``perpindicular``). A word the index does not know is replaced by the most frequent
indexed word one edit away (an inserted, deleted or changed letter, or two adjacent
letters swapped). Words the index holds in two or more items are never touched, so correct
text passes through; a word it holds once may be the corpus's own typo and is corrected
when a common word is one edit away.

>>> speller = SpellingCorrector({"denominator": 40, "fractions": 90})
>>> speller.correct("denominater"), speller.correct("fractoins"), speller.correct("ratio")
('denominator', 'fractions', None)
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping

__all__ = ["SpellingCorrector"]

# Short words have too many neighbours one edit away to correct safely.
MIN_WORD_LENGTH = 5
# A word seen in a single document may itself be a typo.
MIN_FREQUENCY = 2


def _deletes(word: str) -> set[str]:
    return {word[:i] + word[i + 1 :] for i in range(len(word))}


class SpellingCorrector:
    """Maps unknown words to known ones; built once from word -> document frequency."""

    def __init__(self, frequencies: Mapping[str, int]) -> None:
        self._freq = {w: n for w, n in frequencies.items() if w.isalpha()}
        self._by_delete: dict[str, set[str]] = defaultdict(set)
        # A word longer than the longest indexed one by two or more is no single edit from
        # it (and its deletes, quadratic in its length, are not worth making).
        self._longest = 0
        for word, n in self._freq.items():
            if n >= MIN_FREQUENCY and len(word) >= MIN_WORD_LENGTH - 1:
                self._longest = max(self._longest, len(word))
                self._by_delete[word].add(word)
                for d in _deletes(word):
                    self._by_delete[d].add(word)

    def __len__(self) -> int:
        return len(self._freq)

    def correct(self, word: str) -> str | None:
        """The correction of a lower-case word, or None when it is known or has none."""
        if not MIN_WORD_LENGTH <= len(word) <= self._longest + 1 or not word.isalpha():
            return None
        if self._freq.get(word, 0) >= MIN_FREQUENCY:
            return None
        candidates: set[str] = set(self._by_delete.get(word, ()))
        for d in _deletes(word):
            candidates |= self._by_delete.get(d, set())
        # Symmetric deletes also pair words two edits apart (one delete on each side at
        # different places); keep only true single edits.
        candidates = {c for c in candidates if c != word and _one_edit(word, c)}
        if not candidates:
            return None
        return max(sorted(candidates), key=lambda c: self._freq[c])


def _one_edit(a: str, b: str) -> bool:
    """True when a and b differ by one insertion, deletion, substitution or adjacent swap."""
    if a == b:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        if len(diff) == 1:
            return True
        i = diff[0]
        return len(diff) == 2 and diff[1] == i + 1 and a[i] == b[i + 1] and a[i + 1] == b[i]
    if abs(len(a) - len(b)) != 1:
        return False
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    i = next((k for k in range(len(short)) if short[k] != long_[k]), len(short))
    return short[i:] == long_[i + 1 :]

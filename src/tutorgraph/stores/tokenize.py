"""One tokeniser for every BM25 index, tuned for math text.

Single characters matter in math (`x`, `3`, `+`), so unlike the usual BM25 pattern this one
keeps them, and it splits `3/4` into `3 / 4` so that fractions match in any spacing.

>>> tokenize("Why is 3/4 bigger than 2/3?")
['3', '/', '4', 'bigger', '2', '/', '3']
>>> tokenize("see 6.NS.A.1")
['see', '6.ns.a.1']
"""

from __future__ import annotations

import re
import unicodedata

from tutorgraph.models.curriculum import STANDARD_CODE_RE

__all__ = ["STOPWORDS", "tokenize"]

_TOKEN_RE = re.compile(r"[a-z]+|\d+(?:\.\d+)?|[^\sa-z\d.,;:!?'\"()\[\]{}]")

# fmt: off
STOPWORDS = frozenset(
    """
    a about above after again against all am an and any are as at be because been before
    being below between both but by can could did do does doing down during each few for
    from further had has have having he her here hers herself him himself his how i if in
    into is it its itself just me more most my myself no nor not now of off on once only
    or other our ours ourselves out over own same she should so some such than that the
    their theirs them themselves then there these they this those through to too under
    until up very was we were what when where which while who whom why will with would you
    your yours yourself yourselves
    """.split()  # noqa: SIM905 - a word list reads better as prose
)
# fmt: on


def tokenize(text: str) -> list[str]:
    """Lower-case, NFKC-normalised tokens without English stopwords."""
    norm = unicodedata.normalize("NFKC", text).casefold()
    # A standard code is one token, not its parts: `6.NS.A.1` must not match every text that
    # mentions a 6 and a 1.
    codes = STANDARD_CODE_RE.findall(norm)
    rest = STANDARD_CODE_RE.sub(" ", norm) if codes else norm
    return [t for t in _TOKEN_RE.findall(rest) if t not in STOPWORDS] + codes

"""An expression's shape: its operations and kinds of number, the numbers left out.

Two spellings meet here: the reader's (`tutorgraph.refinement.reader`: `52 - 38`, `3 × 4`,
`12 ÷ 3`, `9^2`, `1 2/3`) and the engine's (`_draw.literal`: Python syntax, a fraction or a
negative number in parentheses, `(1 + 2/3)` a mixed number). Both have one shape: a whole
number is `#`, a decimal `#.#`, a fraction `#/#` (written without spaces; `a / b` with spaces
is a division), a mixed number `#_#/#`, and spaces go. A phrasing's expression as drawn
(`drawn_shape`) keeps the numbers the expression itself writes: counting back one, `n - 1`,
is `#-1`, not the student's `52 - 38`.

>>> shape("52 - 38"), shape("71 - 38"), shape("3 × 4"), shape("(3) * (4)")
('#-#', '#-#', '#*#', '#*#')
>>> shape("1 2/3 + 3/4") == shape("(1 + 2/3) + (3/4)"), shape("-3 + 5") == shape("(-3) + 5")
(True, True)
>>> shape("12 ÷ 3"), shape("2.5 × 4"), shape("9^2"), shape("(3 + 4) × 2")
('#/#', '#.#*#', '#**#', '(#+#)*#')
>>> import random
>>> from tutorgraph.problems._draw import parse_draws
>>> scope = Scope.drawn(parse_draws("n=int(20,99); b=frac(4)"), random.Random(0))
>>> drawn_shape("n - 1", scope), drawn_shape("{n+1} - n", scope), drawn_shape("n * b", scope)
('#-1', '#-#', '#*#/#')
"""

from __future__ import annotations

import re

from tutorgraph.problems._draw import Scope, literal

__all__ = ["drawn_shape", "numbers", "shape"]

_SYMBOLS = str.maketrans({"×": "*", "÷": "/", "−": "-", "·": "*"})
# The engine writes a mixed number as a sum in parentheses, the reader as it is written.
_MIXED = re.compile(r"\(\d+ \+ \d+/\d+\)|(?<![\d.])\d+ \d+/\d+")
_FRACTION = re.compile(r"\d+/\d+")
_DECIMAL = re.compile(r"\d+\.\d+")
_WHOLE = re.compile(r"\d{1,3}(?:,\d{3})+(?!\d)|\d+")
# A lone number in parentheses is the engine's spelling of a fraction or negative number.
_LONE = re.compile(r"\((-?(?:#_#/#|#/#|#\.#|#))\)")
_NUMBER = re.compile(r"\d+(?:\.\d+)?")


def shape(expression: str) -> str:
    """The expression's shape (see the module's docstring)."""
    text = expression.translate(_SYMBOLS).replace("^", "**")
    text = _MIXED.sub("#_#/#", text)
    text = _FRACTION.sub("#/#", text)
    text = _DECIMAL.sub("#.#", text)
    text = _WHOLE.sub("#", text)
    text = _LONE.sub(r"\1", text)
    return re.sub(r"\s+", "", text)


# The parts of a phrasing's expression: a `{part}`, a quoted string, a name (each drawn), or a
# number the expression writes itself (group 1).
_PARTS = re.compile(r"\{[^{}]*\}|'[^']*'|\"[^\"]*\"|\b[A-Za-z_]\w*(?:\.\w+)?|(\d+(?:\.\d+)?)")
_KEPT = re.compile(r"¦(~+)¦")


def drawn_shape(expression: str, scope: Scope) -> str:
    """The shape of a phrasing's expression as `scope` draws it, its own numbers kept."""
    kept: list[str] = []

    def keep(m: re.Match[str]) -> str:
        if m[1] is None:
            return m[0]
        kept.append(m[1])
        return "¦" + "~" * len(kept) + "¦"  # no digit, letter or parenthesis: left alone

    marked = _PARTS.sub(keep, expression)
    return _KEPT.sub(lambda m: kept[len(m[1]) - 1], shape(literal(marked, scope)))


def numbers(expression: str) -> list[str]:
    """The numbers of an expression, sorted (digits only: `1,200` is `1200`).

    >>> numbers("52 - 38") == numbers("38 + 52")
    True
    """
    return sorted(_NUMBER.findall(expression.replace(",", "")))

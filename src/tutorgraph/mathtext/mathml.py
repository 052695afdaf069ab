"""Presentation MathML to readable plain text (`3/4`, `x^2 - 5x + 6`, `sqrt(x)`).

The OpenStax books write every formula as MathML. Search and embedding want plain text, so
each element becomes a *piece* (an atom, an operator, a bracket, a word) and a row of pieces
is joined with spacing that follows how the formula reads: binary operators and relations get
a space on each side (`3 + 4 = 7`), a leading or post-operator minus does not (`-5`,
`3 + -5`), implicit products stay tight (`5x`, `2(x + 1)`), and fractions, powers and roots
are written linearly with parentheses only where the linear form would otherwise misread.
Unknown elements fall back to their children's text, so nothing raises on odd markup.

>>> mathml_to_text('<math xmlns="http://www.w3.org/1998/Math/MathML">'
...                '<mfrac><mn>3</mn><mn>4</mn></mfrac></math>')
'3/4'
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, Literal

from lxml import etree

__all__ = ["MATHML_NS", "mathml_to_text", "normalize_math_chars"]

MATHML_NS = "http://www.w3.org/1998/Math/MathML"
_NS_PREFIX = "{" + MATHML_NS + "}"

_Kind = Literal[
    "atom",  # numbers, identifiers, built-up forms: no spacing of their own
    "frac",  # an atom written a/b: gets parentheses before an implicit product
    "bin",  # binary operator or relation: spaced on both sides
    "unary",  # a sign: hugs what follows
    "open",
    "close",
    "bar",  # `|`: opens or closes depending on position
    "punct",  # `,` `;`: hugs the left, space after
    "post",  # `.` `%` `!` `°`: hugs the left
    "script",  # x^2, a_1: an atom, kept apart from a following letter (x^2 y, not x^2y)
    "word",  # prose inside a formula (`and`, `when`, `log`): spaced on both sides
    "space",
]


@dataclass(frozen=True, slots=True)
class _Piece:
    text: str
    kind: _Kind


_SPACE = _Piece(" ", "space")

# Characters drawn differently but meaning the same thing; the targets are ones the MiniLM
# vocabulary knows (`⋅` and `∑` are not in it, `·` and `Σ` are).
_CHAR_MAP = str.maketrans(
    {
        "−": "-",
        "–": "-",
        "‐": "-",
        "⋅": "·",
        "∙": "·",
        "•": "·",
        "∗": "*",
        "│": "|",
        "∣": "|",
        "∑": "Σ",
        "≟": "=?",
        "\u00a0": " ",
        "\u2002": " ",
        "\u2003": " ",
        "\u2009": " ",
        "\u200a": " ",
        "\u205f": " ",
        # Invisible times / function application / separator / plus and zero width space.
        "\u2061": "",
        "\u2062": "",
        "\u2063": "",
        "\u2064": "",
        "\u200b": "",
        "\ufeff": "",
    }
)

_UNARY_OK = frozenset({"+", "-", "±", "∓"})
_BINARY = frozenset(
    {
        "+", "-", "±", "∓", "×", "÷", "·", "*", "∘", "∪", "∩", "=", "=?", "≠", "<", ">",
        "≤", "≥", "≈", "≅", "∼", "~", "≡", "→", "←", "↔", "⇒", "⇔", "∈", "∉", "⊂", "⊆",
        "∥", "⊥", ":", "<:", ">:",
    }
)  # fmt: skip
_OPEN = frozenset({"(", "[", "{", "⟨", "(-"})
_CLOSE = frozenset({")", "]", "}", "⟩", ").", "),"})
_PUNCT = frozenset({",", ";"})
_POST = frozenset({".", "%", "!", "′", "″", "'", "°", "?", "…."})
_BARS = frozenset({"|", "‖"})
# Over/under marks that only decorate (underlines, overbars): the base alone is the content.
_RULE_RE = re.compile(r"[_¯‾―\-—⎵]+")
_BAR_ACCENTS = frozenset({"¯", "-", "‾", "―", "_"})
_SPACE_BEFORE_PUNCT = re.compile(r"\s+([,;])")
_ORDINALS = frozenset({"st", "nd", "rd", "th"})

_SIMPLE_BASE = re.compile(r"-?[\w.,′°$%]+")
_SIMPLE_SCRIPT = re.compile(r"\d+(?:\.\d+)?|[^\W\d_]")
_SIMPLE_SUB = re.compile(r"[\w.,′]+")
_SIMPLE_NUM = re.compile(r"-?[\w.,′°$]+(?:\^(?:[\w.]+|\(.*\)))?")
_SIMPLE_COEF = re.compile(r"-?[\w.]+")
_SIMPLE_DEN = re.compile(r"(?:\d[\d,]*(?:\.\d+)?|[^\W\d_])(?:\^(?:[\w.]+|\(.*\)))?")


def normalize_math_chars(text: str) -> str:
    """Map look-alike math characters to one spelling (`−` to `-`, `⋅` to `·`, drop invisibles).

    >>> normalize_math_chars("7 − 2 ⋅ 3")
    '7 - 2 · 3'
    """
    return text.translate(_CHAR_MAP)


def mathml_to_text(node: Any) -> str:
    """Readable plain text for a MathML element (an lxml element or an XML string).

    >>> ns = 'xmlns="http://www.w3.org/1998/Math/MathML"'
    >>> mathml_to_text(f'<math {ns}><msup><mi>x</mi><mn>2</mn></msup><mo>−</mo>'
    ...                '<mn>5</mn><mi>x</mi><mo>+</mo><mn>6</mn></math>')
    'x^2 - 5x + 6'
    """
    if isinstance(node, str | bytes):
        node = etree.fromstring(node)
    return _render(node)


def _local(el: Any) -> str:
    tag = el.tag
    if not isinstance(tag, str):  # comments and processing instructions
        return ""
    return tag.rsplit("}", 1)[-1] if tag.startswith("{") else tag


def _children(el: Any) -> list[Any]:
    return [c for c in el if isinstance(c.tag, str)]


def _render(el: Any) -> str:
    return _join(_pieces(el))


def _pieces(el: Any) -> list[_Piece]:
    name = _local(el)
    if not name:
        return []
    handler = _HANDLERS.get(name)
    if handler is not None:
        return handler(el)
    kids = _children(el)
    if kids:
        return _flatten(kids)
    # An unknown leaf: its text as an atom.
    text = " ".join(normalize_math_chars(el.text or "").split())
    return [_Piece(text, "atom")] if text else []


def _flatten(kids: list[Any]) -> list[_Piece]:
    out: list[_Piece] = []
    for kid in kids:
        out.extend(_pieces(kid))
    return out


def _row(el: Any) -> list[_Piece]:
    return _flatten(_children(el))


def _nothing(_el: Any) -> list[_Piece]:
    return []


def _space(_el: Any) -> list[_Piece]:
    return [_SPACE]


def _token_text(el: Any) -> str:
    # Token elements may hold markup (mglyph, malignmark); their text is what is shown.
    return normalize_math_chars("".join(el.itertext()))


def _number(el: Any) -> list[_Piece]:
    text = "".join(_token_text(el).split())
    return [_Piece(text, "atom")] if text else []


def _identifier(el: Any) -> list[_Piece]:
    text = "".join(_token_text(el).split())
    if not text:
        return []
    # Multi-letter identifiers are function names (log, sin) and read as words.
    kind: _Kind = "word" if len(text) > 1 and text.isalpha() else "atom"
    return [_Piece(text, kind)]


def _classify_op(text: str) -> _Piece:
    if text in _OPEN:
        return _Piece(text, "open")
    if text in _CLOSE:
        return _Piece(text, "close")
    if text in _BARS:
        return _Piece(text, "bar")
    if text in _PUNCT:
        return _Piece(text, "punct")
    if text in _POST:
        return _Piece(text, "post")
    if text in _BINARY:
        return _Piece(text, "bin")
    if _RULE_RE.fullmatch(text) or text in {"✓", "—"}:
        # Fill-in blanks and check marks stand apart like words.
        return _Piece(text, "word")
    return _Piece(text, "atom")


def _operator(el: Any) -> list[_Piece]:
    raw = _token_text(el)
    text = raw.strip()
    if not text:
        return [_SPACE] if raw else []
    return [_classify_op(text)]


def _mtext(el: Any) -> list[_Piece]:
    raw = _token_text(el)
    text = " ".join(raw.split())
    if not text:
        return [_SPACE] if raw else []
    out: list[_Piece] = []
    if raw[:1].isspace():
        out.append(_SPACE)
    if len(text) <= 2 and (text in _OPEN | _CLOSE | _PUNCT | _POST | _BARS | _BINARY):
        # Tables often carry their operators as text.
        out.append(_classify_op(text))
    elif (text[0].isalpha() and len(text) > 1) or _RULE_RE.fullmatch(text):
        out.append(_Piece(text, "word"))  # prose, or a fill-in blank
    else:
        out.append(_Piece(text, "atom"))
    if raw[-1:].isspace():
        out.append(_SPACE)
    return out


def _is_enclosed(text: str) -> bool:
    """True if `text` is one bracketed group or a call such as `sqrt(x)`."""
    start = text.find("(")
    if start < 0 or not text.endswith(")"):
        return False
    if start > 0 and not re.fullmatch(r"[A-Za-z]+", text[:start]):
        return False
    depth = 0
    for i, ch in enumerate(text[start:], start):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth == 0 and i != len(text) - 1:
                return False
    return depth == 0


def _wrap(text: str, simple: re.Pattern[str]) -> str:
    if not text or simple.fullmatch(text) or _is_enclosed(text):
        return text
    return f"({text})"


def _wrap_numerator(text: str) -> str:
    # A coefficient times a group reads unambiguously on top: 2(x + 1)/3.
    start = text.find("(")
    if start > 0 and _SIMPLE_COEF.fullmatch(text[:start]) and _is_enclosed(text[start:]):
        return text
    return _wrap(text, _SIMPLE_NUM)


def _wrap_base(text: str) -> str:
    # Bases keep their own parentheses (the MathML carries them); add ones only if the base
    # would otherwise read as several terms.
    if " " not in text or _is_enclosed(text):
        return text
    return f"({text})"


def _parts(el: Any, n: int) -> list[str]:
    kids = _children(el)
    texts = [_render(k) for k in kids[:n]]
    return texts + [""] * (n - len(texts))


def _frac(el: Any) -> list[_Piece]:
    num, den = _parts(el, 2)
    if not num and not den:
        return []
    return [_Piece(f"{_wrap_numerator(num)}/{_wrap(den, _SIMPLE_DEN)}", "frac")]


def _sup(el: Any) -> list[_Piece]:
    base, sup = _parts(el, 2)
    if not sup:
        return [_Piece(base, "atom")] if base else []
    return [_Piece(f"{_wrap_base(base)}^{_wrap(sup, _SIMPLE_SCRIPT)}", "script")]


def _sub(el: Any) -> list[_Piece]:
    base, sub = _parts(el, 2)
    if not sub:
        return [_Piece(base, "atom")] if base else []
    return [_Piece(f"{_wrap_base(base)}_{_wrap(sub, _SIMPLE_SUB)}", "script")]


def _subsup(el: Any) -> list[_Piece]:
    base, sub, sup = _parts(el, 3)
    text = _wrap_base(base)
    if sub:
        text += f"_{_wrap(sub, _SIMPLE_SUB)}"
    if sup:
        text += f"^{_wrap(sup, _SIMPLE_SCRIPT)}"
    return [_Piece(text, "script")] if text else []


def _sqrt(el: Any) -> list[_Piece]:
    return [_Piece(f"sqrt({_join(_row(el))})", "atom")]


def _root(el: Any) -> list[_Piece]:
    base, index = _parts(el, 2)
    if not index:
        return [_Piece(f"sqrt({base})", "atom")]
    return [_Piece(f"root({index}, {base})", "atom")]


def _over(el: Any) -> list[_Piece]:
    kids = _children(el)
    if not kids:
        return []
    base_el = kids[0]
    base = _render(base_el)
    over = _render(kids[1]) if len(kids) > 1 else ""
    if _local(base_el) == "mo" and over:
        # A stacked operator such as `=` under `?` ("does it equal?").
        return [_Piece(base + over, "bin")]
    if not over or (_RULE_RE.fullmatch(over) and over not in _BAR_ACCENTS):
        return _pieces(base_el)
    if over in _BAR_ACCENTS:
        # An overbar (repeating decimals): mark each character with a combining overline.
        return [_Piece("".join(ch + "\u0305" for ch in base), "atom")]
    return [*_pieces(base_el), _SPACE, _Piece(over, "atom")]


def _under(el: Any) -> list[_Piece]:
    kids = _children(el)
    out: list[_Piece] = []
    for kid in kids:
        text = _render(kid)
        if not text or _RULE_RE.fullmatch(text):
            continue  # underlines
        if out:
            out.append(_SPACE)
        out.extend(_pieces(kid))
    return out


def _underover(el: Any) -> list[_Piece]:
    # Big operators (Σ with limits) read like a word before their operand.
    return [replace(p, kind="word") for p in _subsup(el)]


def _enclose(el: Any) -> list[_Piece]:
    inner = _row(el)
    if "longdiv" in (el.get("notation") or ""):
        # Long division: the divisor precedes this element; ⟌ is the usual symbol.
        return [_Piece("⟌", "atom"), *inner]
    return inner


def _fenced(el: Any) -> list[_Piece]:
    open_ = el.get("open", "(")
    close = el.get("close", ")")
    seps = "".join((el.get("separators", ",")).split())
    out: list[_Piece] = []
    if open_:
        out.append(_Piece(open_, "open"))
    for i, kid in enumerate(_children(el)):
        if i and seps:
            out.append(_Piece(seps[min(i - 1, len(seps) - 1)], "punct"))
        out.extend(_pieces(kid))
    if close:
        out.append(_Piece(close, "close"))
    return out


def _semantics(el: Any) -> list[_Piece]:
    kids = _children(el)
    return _pieces(kids[0]) if kids else []


def _table(el: Any) -> list[_Piece]:
    rows: list[str] = []
    for row in _children(el):
        if _local(row) not in {"mtr", "mlabeledtr"}:
            text = _render(row)
        else:
            cells = [_render(c) for c in _children(row)]
            text = " ".join(c for c in cells if c)
        if text:
            rows.append(text)
    text = "; ".join(rows)
    return [_Piece(text, "atom")] if text else []


_HANDLERS: dict[str, Callable[[Any], list[_Piece]]] = {
    "math": _row,
    "mrow": _row,
    "mstyle": _row,
    "mpadded": _row,
    "merror": _row,
    "semantics": _semantics,
    "mtd": _row,
    "mtr": _row,
    "mi": _identifier,
    "mn": _number,
    "mo": _operator,
    "mtext": _mtext,
    "ms": _mtext,
    "mspace": _space,
    "mphantom": _nothing,
    "annotation": _nothing,
    "annotation-xml": _nothing,
    "malignmark": _nothing,
    "maligngroup": _nothing,
    "mprescripts": _nothing,
    "none": _nothing,
    "mfrac": _frac,
    "msup": _sup,
    "msub": _sub,
    "msubsup": _subsup,
    "msqrt": _sqrt,
    "mroot": _root,
    "mover": _over,
    "munder": _under,
    "munderover": _underover,
    "menclose": _enclose,
    "mfenced": _fenced,
    "mtable": _table,
}


def _resolve(pieces: list[_Piece]) -> list[_Piece]:
    """Decide context-dependent kinds: bars, signs, ordinals, fractions before a product."""
    out: list[_Piece] = []
    bars = 0
    prev: _Piece | None = None  # previous non-space piece
    for piece in pieces:
        if piece.kind == "space":
            out.append(piece)
            continue
        if piece.kind == "bar":
            piece = replace(piece, kind="open" if bars % 2 == 0 else "close")
            bars += 1
        elif piece.kind == "bin" and piece.text in _UNARY_OK:
            if prev is None or prev.kind in {"bin", "unary", "open", "punct", "word"}:
                piece = replace(piece, kind="unary")
        elif (
            piece.kind == "word"
            and piece.text in _ORDINALS
            and prev is not None
            and prev.text[-1:].isdigit()
        ):
            piece = replace(piece, kind="post")
        out.append(piece)
        prev = piece
    # A fraction directly followed by a letter or bracket is a factor: (1/2)x, not 1/2x.
    for i, piece in enumerate(out):
        if piece.kind != "frac" or i + 1 >= len(out):
            continue
        nxt = out[i + 1]
        factor = nxt.kind in {"atom", "frac", "script"} and nxt.text[:1].isalpha()
        if factor or nxt.kind == "open":
            out[i] = replace(piece, text=f"({piece.text})", kind="atom")
    return out


def _glue(left: _Piece, right: _Piece, spaced: bool) -> str:
    if left.kind in {"open", "unary"} or right.kind in {"close", "punct", "post"}:
        return ""
    if spaced or left.kind in {"bin", "punct", "word"} or right.kind in {"bin", "word", "unary"}:
        if left.kind == "punct" and left.text == "," and re.fullmatch(r"0\d\d", right.text):
            return ""  # a thousands separator written as an operator: 1,024
        return " "
    if left.text[-1:].isdigit() and right.text[:1].isdigit() and "\u0305" not in right.text:
        return " "  # a whole number before a fraction: 2 1/2
    if left.text[-1:].isalpha() and right.text.startswith(("sqrt(", "root(")):
        return " "  # 2y root(3, y), not 2yroot(3, y)
    if left.kind == "script" and right.text[:1].isalnum() and not left.text.endswith(")"):
        return " "  # x^2 y, not x^2y
    return ""


def _join(pieces: list[_Piece]) -> str:
    parts: list[str] = []
    prev: _Piece | None = None
    spaced = False
    for piece in _resolve(pieces):
        if piece.kind == "space":
            spaced = True
            continue
        if not piece.text:
            continue
        if prev is not None:
            parts.append(_glue(prev, piece, spaced))
        parts.append(piece.text)
        prev = piece
        spaced = False
    text = " ".join("".join(parts).split())
    # Spaces before a comma can only come from text nodes such as `same ` + `,`.
    return _SPACE_BEFORE_PUNCT.sub(r"\1", text)

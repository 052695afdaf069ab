"""Eedi-style LaTeX to readable plain text.

Eedi questions (and some Learning Commons statements) mix prose with inline math in
``\\( ... \\)``, ``\\[ ... \\]`` or ``$ ... $``, tables in ``tabular``/``array`` and Markdown
images whose alt text describes the picture. The index and the embedder want readable
text (``3/4``, ``x^2``), so this module turns that mix into plain Unicode text.

The converter is a small recursive-descent reader over a token list, not a full TeX
engine. Rules worth knowing:

* In math, source spaces are dropped as TeX does (``\\mathbf{4 1 7 5}`` is ``4175``,
  ``3 x`` is ``3x``), except after ``, ; :`` and in runs of two or more spaces, which
  Mathpix uses to separate columns.
* Relations and ``× ÷ · ±`` get one space on each side; ``+ -`` stay tight.
* ``\\frac{a}{b}`` is ``a/b`` with compound parts in parentheses; a fraction after a
  digit gets a space (mixed numbers: ``1 \\frac{1}{3}`` is ``1 1/3``).
* Tables: cells joined by `` | ``, rows by ``; ``, ``\\hline`` dropped; a table in running
  text goes on its own line.
* ``![alt](url)`` becomes ``[image: alt]`` (the alt text is converted too).
* Unknown commands lose their backslash and keep their arguments (``\\foo{x}`` is
  ``foo x``).

The function is total: odd or unbalanced input gives best-effort text, never an error.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_left
from typing import Literal, NamedTuple

__all__ = ["latex_to_text"]

_Mode = Literal["text", "math"]

# Spaced in math mode; written as-is in text mode.
_SPACED_OPS = frozenset("=<>×÷·±∓≤≥≠≈≡≅∝→←⇒⇐⇔↔∈∉⊂⊆⊃⊇∪∩")


def _words(names: str) -> frozenset[str]:
    return frozenset(names.split())


_SYMBOLS: dict[str, str] = {
    "times": "×",
    "div": "÷",
    "cdot": "·",
    "pm": "±",
    "mp": "∓",
    "le": "≤",
    "leq": "≤",
    "leqslant": "≤",
    "ge": "≥",
    "geq": "≥",
    "geqslant": "≥",
    "neq": "≠",
    "ne": "≠",
    "approx": "≈",
    "equiv": "≡",
    "cong": "≅",
    "sim": "~",
    "simeq": "≃",
    "propto": "∝",
    "lt": "<",
    "gt": ">",
    "infty": "∞",
    "degree": "°",
    "textdegree": "°",
    "circ": "∘",
    "prime": "′",
    "rightarrow": "→",
    "to": "→",
    "longrightarrow": "→",
    "leftarrow": "←",
    "longleftarrow": "←",
    "Rightarrow": "⇒",
    "Longrightarrow": "⇒",
    "implies": "⇒",
    "Leftarrow": "⇐",
    "Leftrightarrow": "⇔",
    "iff": "⇔",
    "leftrightarrow": "↔",
    "cup": "∪",
    "cap": "∩",
    "in": "∈",
    "notin": "∉",
    "subset": "⊂",
    "subseteq": "⊆",
    "supset": "⊃",
    "supseteq": "⊇",
    "emptyset": "∅",
    "varnothing": "∅",
    "angle": "∠",
    "measuredangle": "∠",
    "triangle": "△",
    "square": "□",
    "Box": "□",
    "blacksquare": "■",
    "bigstar": "★",
    "star": "★",
    "bigcirc": "○",
    "bullet": "•",
    "diamond": "◇",
    "heartsuit": "♥",
    "clubsuit": "♣",
    "spadesuit": "♠",
    "diamondsuit": "♦",
    "checkmark": "✓",
    "pounds": "£",
    "textsterling": "£",
    "euro": "€",
    "texteuro": "€",
    "textdollar": "$",
    "yen": "¥",
    "ldots": "...",
    "dots": "...",
    "cdots": "...",
    "dotsc": "...",
    "dotsb": "...",
    "vdots": "...",
    "ddots": "...",
    "therefore": "∴",
    "because": "∵",
    "perp": "⊥",
    "parallel": "∥",
    "mid": "|",
    "vert": "|",
    "lvert": "|",
    "rvert": "|",
    "Vert": "‖",
    "lbrace": "{",
    "rbrace": "}",
    "langle": "⟨",
    "rangle": "⟩",
    "lfloor": "⌊",
    "rfloor": "⌋",
    "lceil": "⌈",
    "rceil": "⌉",
    "sum": "∑",
    "prod": "∏",
    "int": "∫",
    "partial": "∂",
    "nabla": "∇",
    "forall": "∀",
    "exists": "∃",
    "neg": "¬",
    "lnot": "¬",
    "land": "∧",
    "wedge": "∧",
    "lor": "∨",
    "vee": "∨",
    "ll": "≪",
    "gg": "≫",
    "ell": "ℓ",
    "hbar": "ℏ",
    "backslash": "\\",
    "textbackslash": "\\",
    "colon": ":",
}

_GREEK: dict[str, str] = {
    "alpha": "α",
    "beta": "β",
    "gamma": "γ",
    "delta": "δ",
    "epsilon": "ε",
    "varepsilon": "ε",
    "zeta": "ζ",
    "eta": "η",
    "theta": "θ",
    "vartheta": "ϑ",
    "iota": "ι",
    "kappa": "κ",
    "lambda": "λ",
    "mu": "μ",
    "nu": "ν",
    "xi": "ξ",
    "omicron": "ο",
    "pi": "π",
    "varpi": "ϖ",
    "rho": "ρ",
    "varrho": "ϱ",
    "sigma": "σ",
    "varsigma": "ς",
    "tau": "τ",
    "upsilon": "υ",
    "phi": "φ",
    "varphi": "φ",
    "chi": "χ",
    "psi": "ψ",
    "omega": "ω",
    "Gamma": "Γ",
    "Delta": "Δ",
    "Theta": "Θ",
    "Lambda": "Λ",
    "Xi": "Ξ",
    "Pi": "Π",
    "Sigma": "Σ",
    "Upsilon": "Υ",
    "Phi": "Φ",
    "Psi": "Ψ",
    "Omega": "Ω",
}

# Function names that print as words ("sin x").
_FUNCTIONS = _words(
    "sin cos tan sec csc cot arcsin arccos arctan sinh cosh tanh log ln lg exp max min lim "
    "sup inf det gcd lcm deg dim ker arg mod bmod Pr"
)

# Unwrapped in the current mode: styling that changes nothing readable.
_STYLE_SAME_MODE = _words(
    "mathbf boldsymbol bm pmb mathit mathsf mathtt mathcal mathbb mathfrak mathscr "
    "mathnormal underline boxed"
)
# Unwrapped as text: their argument is prose, so its spaces count.
_STYLE_TEXT_MODE = _words(
    "text textrm textnormal mathrm mbox hbox fbox textup textbf textit textsl textsf texttt "
    "emph textmd textsc"
)
# Dropped together with nothing else: layout switches.
_DROPPED = _words(
    "hline toprule midrule bottomrule noindent displaystyle textstyle scriptstyle "
    "scriptscriptstyle limits nolimits centering raggedright raggedleft small large Large "
    "LARGE normalsize footnotesize scriptsize tiny huge Huge left right middle big Big bigg "
    "Bigg bigl bigr Bigl Bigr biggl biggr Biggl Biggr strut relax protect nonumber notag bf "
    "it rm sf tt"
)
_SPACES = _words("quad qquad space enspace thinspace medspace thickspace nobreakspace")
# Commands whose (single) argument is dropped.
_DROP_ARG = _words("phantom hphantom vphantom label hspace vspace cline color")

# Combining marks for accents; applied after each character of the argument.
_ACCENTS: dict[str, str] = {
    "overline": "\u0305",
    "bar": "\u0305",
    "dot": "\u0307",
    "ddot": "\u0308",
    "hat": "\u0302",
    "widehat": "\u0302",
    "tilde": "\u0303",
    "widetilde": "\u0303",
    "vec": "\u20d7",
    "overrightarrow": "\u20d7",
}

_FRACTIONS = _words("frac dfrac tfrac cfrac")
_BINOMS = _words("binom dbinom tbinom")
_TABLE_ENVS: dict[str, str] = {
    # environment -> how cells in a row are joined
    "tabular": " | ",
    "tabular*": " | ",
    "tabularx": " | ",
    "array": " | ",
    "matrix": " | ",
    "pmatrix": " | ",
    "bmatrix": " | ",
    "vmatrix": " | ",
    "Bmatrix": " | ",
    "smallmatrix": " | ",
    "cases": " | ",
    # in these, & only aligns: no visible separator
    "aligned": " ",
    "align": " ",
    "align*": " ",
    "alignat": " ",
    "alignat*": " ",
    "gather": " ",
    "gather*": " ",
    "gathered": " ",
    "split": " ",
    "eqnarray": " ",
    "eqnarray*": " ",
}
# Environments whose opening takes a column spec argument.
_ENVS_WITH_SPEC = frozenset({"tabular", "array", "alignat", "alignat*"})

_TOKEN_RE = re.compile(
    r"(?P<cmd>\\[A-Za-z]+)|(?P<sym>\\.)|(?P<ws>\s+)|(?P<dd>\$\$)|(?P<ch>.)",
    re.DOTALL,
)
_LENGTH_RE = re.compile(r"^-?[\d.]+\s*[a-z]*$")
_SIMPLE_NUM_RE = re.compile(r"^-?[A-Za-z0-9.,]+(\^[A-Za-z0-9.]+)?$")
_SIMPLE_DEN_RE = re.compile(r"^([0-9.,]+|[A-Za-z](\^[A-Za-z0-9.]+)?)$")
_CALL_RE = re.compile(r"^([A-Za-z]+)\(.*\)$", re.DOTALL)
_MAX_DEPTH = 40


class _Tok(NamedTuple):
    kind: str  # cmd | sym | ws | dd | ch | img | close$
    text: str  # source text; for img the raw alt text


def _bracket_pairs(s: str, open_ch: str, close_ch: str) -> dict[int, int]:
    """Each ``open_ch`` and the bracket closing it (unclosed ones are left out); escapes
    don't count. One pass for the whole text: a scan from each opener to its closer is
    quadratic on "![![![...". A bracket after "!" or "]" is never escaped, so the pass from
    the start sees it as a scan from it would."""
    pairs: dict[int, int] = {}
    opened: list[int] = []
    j = 0
    while j < len(s):
        c = s[j]
        if c == "\\":
            j += 2
            continue
        if c == open_ch:
            opened.append(j)
        elif c == close_ch and opened:
            pairs[opened.pop()] = j
        j += 1
    return pairs


def _tokenize(s: str) -> list[_Tok]:
    toks: list[_Tok] = []
    i = 0
    n = len(s)
    pairs: tuple[dict[int, int], dict[int, int]] | None = None
    while i < n:
        if s.startswith("![", i):
            # Markdown image ![alt](url); alt may itself hold LaTeX with brackets.
            if pairs is None:
                pairs = _bracket_pairs(s, "[", "]"), _bracket_pairs(s, "(", ")")
            close = pairs[0].get(i + 1, -1)
            if close != -1 and close + 1 < n and s[close + 1] == "(":
                end = pairs[1].get(close + 1, -1)
                if end != -1:
                    toks.append(_Tok("img", s[i + 2 : close]))
                    i = end + 1
                    continue
        m = _TOKEN_RE.match(s, i)
        if m is None:  # unreachable: the last alternative matches any character
            toks.append(_Tok("ch", s[i]))
            i += 1
            continue
        kind = m.lastgroup or "ch"
        toks.append(_Tok(kind, m.group()))
        i = m.end()
    return toks


def _stop_key(tok: _Tok) -> str | None:
    """The closer a token can act as, if any."""
    if tok.kind == "ch" and tok.text in "}&":
        return tok.text
    if tok.kind == "sym" and tok.text in ("\\)", "\\]", "\\\\"):
        return tok.text
    if tok.kind == "cmd" and tok.text == "\\end":
        return "end"
    if tok.kind in ("dd", "close$"):
        return tok.kind
    return None


class _Buf:
    """Output under construction; knows when a word needs a separating space."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self._sep_if_alnum = False

    def last_char(self) -> str:
        for part in reversed(self.parts):
            if part:
                return part[-1]
        return ""

    def add(self, s: str) -> None:
        if not s:
            return
        if self._sep_if_alnum and s[0].isalnum():
            self.parts.append(" ")
        self._sep_if_alnum = False
        self.parts.append(s)

    def add_word(self, s: str, *, space_before: bool = True) -> None:
        """A word-like atom (function name, fraction): keep it apart from letters and digits."""
        if not s:
            return
        if space_before and s[0].isalnum() and self.last_char().isalnum():
            self.parts.append(" ")
        self.add(s)
        self._sep_if_alnum = True

    def wrap_last_fraction(self) -> None:
        """Parenthesise the last part when it is a bare fraction about to take a script."""
        for k in range(len(self.parts) - 1, -1, -1):
            part = self.parts[k]
            if not part:
                continue
            if "/" in part and " " not in part.strip() and not _balanced_wrap(part.strip()):
                self.parts[k] = f"({part.strip()})"
            return

    def add_space(self) -> None:
        self.parts.append(" ")
        self._sep_if_alnum = False

    def text(self) -> str:
        return "".join(self.parts)


def _collapse(s: str) -> str:
    return re.sub(r"\s+", " ", s).strip()


def _balanced_wrap(s: str) -> bool:
    """True when ``s`` is ``(...)`` whose first parenthesis closes at the end."""
    if not (s.startswith("(") and s.endswith(")")):
        return False
    depth = 0
    for k, c in enumerate(s):
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0 and k != len(s) - 1:
                return False
    return depth == 0


def _atomic(s: str, pattern: re.Pattern[str]) -> bool:
    """Whether ``s`` can stand next to ``/`` without parentheses."""
    if len(s) == 1 or pattern.match(s) or _balanced_wrap(s):
        return True
    call = _CALL_RE.match(s)  # sqrt(...), f(...)
    return call is not None and _balanced_wrap(s[call.end(1) :])


def _fraction(num: str, den: str) -> str:
    num, den = _collapse(num), _collapse(den)
    if not num and not den:
        return ""
    if not _atomic(num, _SIMPLE_NUM_RE):
        num = f"({num})"
    if not _atomic(den, _SIMPLE_DEN_RE):
        den = f"({den})"
    return f"{num}/{den}"


def _script(marker: str, s: str) -> str:
    s = _collapse(s)
    if not s:
        return ""
    if marker == "^" and s in ("∘", "°"):
        return "°"
    if marker == "^" and set(s) == {"′"}:
        return s
    # x^2, x^12, x_n, x_max; anything else gets parentheses: x^(2n), x^(-1)
    simple = r"[0-9.]+" if marker == "^" else r"[A-Za-z0-9.]+"
    if len(s) == 1 or re.fullmatch(simple, s) or _balanced_wrap(s):
        return marker + s
    return f"{marker}({s})"


def _accent(s: str, mark: str) -> str:
    """The mark after each character that has none yet: the innermost of nested accents
    wins (marking marks, or marked characters, grows the text with each level)."""
    text = _collapse(s)
    out: list[str] = []
    for i, c in enumerate(text):
        out.append(c)
        marked = i + 1 < len(text) and unicodedata.combining(text[i + 1])
        if not (c.isspace() or unicodedata.combining(c) or marked):
            out.append(mark)
    return "".join(out)


class _Parser:
    def __init__(self, toks: list[_Tok], depth: int) -> None:
        self.toks = toks
        self.i = 0
        self.depth = depth
        # Tokens from which no ``$`` closes (a scan found none up to the blank line or the
        # end): a later ``$`` among them need not scan again ("$1$1$1..." is quadratic).
        self._no_close = range(0)
        # Brace depth before each token, and the ``]`` tokens at each depth (when asked).
        self._depths: list[int] = []
        self._brackets: dict[int, list[int]] | None = None

    # -- token access ----------------------------------------------------------------
    def _peek(self, k: int = 0) -> _Tok | None:
        j = self.i + k
        return self.toks[j] if j < len(self.toks) else None

    def _skip_ws(self) -> None:
        while (t := self._peek()) is not None and t.kind == "ws":
            self.i += 1

    def _at_stop(self, stops: frozenset[str]) -> bool:
        t = self._peek()
        return t is not None and _stop_key(t) in stops

    def _raw_group(self) -> str:
        """Source text of a ``{...}`` group (or ``[...]`` when asked), unparsed; "" if none."""
        self._skip_ws()
        t = self._peek()
        if t is None or t.kind != "ch" or t.text != "{":
            return ""
        self.i += 1
        depth = 1
        out: list[str] = []
        while (t := self._peek()) is not None:
            self.i += 1
            if t.kind == "ch" and t.text == "{":
                depth += 1
            elif t.kind == "ch" and t.text == "}":
                depth -= 1
                if depth == 0:
                    break
            out.append(t.text)
        return "".join(out)

    def _optional(self, mode: _Mode) -> str | None:
        """A ``[...]`` optional argument, rendered; None when there is none."""
        save = self.i
        self._skip_ws()
        t = self._peek()
        if t is None or t.kind != "ch" or t.text != "[":
            self.i = save
            return None
        # the matching ] among tokens at brace depth 0
        j = self._closing_bracket(self.i + 1)
        if j is None:
            self.i = save
            return None
        sub = _Parser(self.toks[self.i + 1 : j], self.depth)
        self.i = j + 1
        return sub.seq(mode, frozenset())

    def _closing_bracket(self, start: int) -> int | None:
        """The first ``]`` from `start` on at the brace depth of `start`. Found from each
        ``]``'s depth, counted once: a scan from every ``[`` is quadratic on "[[[...]"."""
        if self._brackets is None:
            self._depths, self._brackets = [0], {}
            for k, t in enumerate(self.toks):
                depth = self._depths[-1]
                if t.kind == "ch" and t.text == "]":
                    self._brackets.setdefault(depth, []).append(k)
                brace = t.kind == "ch" and t.text in "{}"
                self._depths.append(depth + (0 if not brace else 1 if t.text == "{" else -1))
        at = self._brackets.get(self._depths[start], [])
        k = bisect_left(at, start)
        return at[k] if k < len(at) else None

    def _skip_length(self) -> None:
        """Drop a ``[2pt]`` after a row break."""
        save = self.i
        t = self._peek()
        if t is None or t.kind != "ch" or t.text != "[":
            return
        raw: list[str] = []
        j = self.i + 1
        while j < len(self.toks) and j - self.i < 12:
            if self.toks[j].kind == "ch" and self.toks[j].text == "]":
                if _LENGTH_RE.match("".join(raw).strip()):
                    self.i = j + 1
                    return
                break
            raw.append(self.toks[j].text)
            j += 1
        self.i = save

    def _arg(self, mode: _Mode, stops: frozenset[str]) -> str:
        """One macro argument: a group, a command, or a single character."""
        self._skip_ws()
        t = self._peek()
        if t is None or _stop_key(t) in stops:
            return ""
        if t.kind == "ch" and t.text == "{":
            self.i += 1
            inner = self.seq(mode, stops | {"}"})
            if self._at_stop(frozenset({"}"})):
                self.i += 1
            return inner
        sub = _Buf()
        self._one(mode, stops, sub)
        return sub.text()

    # -- the reader -------------------------------------------------------------------
    def seq(self, mode: _Mode, stops: frozenset[str]) -> str:
        """Render tokens until one of ``stops`` (left unconsumed) or the end."""
        buf = _Buf()
        while (t := self._peek()) is not None:
            if _stop_key(t) in stops:
                break
            self._one(mode, stops, buf)
        return buf.text()

    def _one(self, mode: _Mode, stops: frozenset[str], buf: _Buf) -> None:
        """Render the next token (and what it consumes) into ``buf``."""
        t = self._peek()
        if t is None:
            return
        self.i += 1
        kind, text = t
        if kind == "ws":
            if mode == "text":
                if "\n" in text:
                    buf.add("\n")
                else:
                    buf.add_space()
            elif buf.last_char() in (",", ";", ":") or ("\n" not in text and len(text) >= 2):
                buf.add_space()
        elif kind == "img":
            alt = _convert(text, self.depth + 1).replace("\n", " ")
            buf.add_word(f"[image: {alt}]" if alt else "[image]")
        elif kind == "dd":
            if mode == "text":
                self._math(buf, stops, "dd")
        elif kind == "close$":
            pass  # a closer met outside its math (unbalanced input)
        elif kind == "sym":
            self._symbol(text[1:], mode, stops, buf)
        elif kind == "cmd":
            self._command(text[1:], mode, stops, buf)
        else:
            self._char(text, mode, stops, buf)

    def _math(self, buf: _Buf, stops: frozenset[str], closer: str) -> None:
        inner = self.seq("math", stops | {closer})
        if self._at_stop(frozenset({closer})):
            self.i += 1
        buf.add(inner)

    def _char(self, c: str, mode: _Mode, stops: frozenset[str], buf: _Buf) -> None:
        if c == "{":
            inner = self.seq(mode, stops | {"}"})
            if self._at_stop(frozenset({"}"})):
                self.i += 1
            buf.add(inner)
        elif c == "}":
            pass  # stray closing brace
        elif c == "~":
            buf.add_space()
        elif c == "$" and mode == "text" and self._open_dollar():
            self._math(buf, stops, "close$")
        elif c in "^_" and mode == "math":
            buf.wrap_last_fraction()  # {\frac{1}{3}}^3 is (1/3)^3, not 1/3^3
            # a following letter or digit is not part of the script: "x^2 y", "log_2 8"
            buf.add_word(_script(c, self._arg(mode, stops)), space_before=False)
        elif c == "&":
            buf.add("&" if mode == "text" else " ")
        elif mode == "math" and c in _SPACED_OPS:
            buf.add(f" {c} ")
        elif mode == "math" and c == "'":
            buf.add("′")
        else:
            buf.add(c)

    def _open_dollar(self) -> bool:
        """Pandoc's rule for ``$...$``: no space inside either end, no digit right after the close.

        Marks the closing token so that currency ("$5 and $6") stays text.
        """
        nxt = self._peek()
        if nxt is None or nxt.kind == "ws" or self.i in self._no_close:
            return False
        for j in range(self.i, len(self.toks)):
            tj = self.toks[j]
            if tj.kind == "ws" and tj.text.count("\n") >= 2:
                self._no_close = range(self.i, j)
                return False  # math never spans a blank line
            if tj.kind == "ch" and tj.text == "$" and j > self.i:
                before = self.toks[j - 1]
                after = self.toks[j + 1] if j + 1 < len(self.toks) else None
                if before.kind != "ws" and not (
                    after is not None and after.kind == "ch" and after.text.isdigit()
                ):
                    self.toks[j] = _Tok("close$", "$")
                    return True
        self._no_close = range(self.i, len(self.toks))
        return False

    def _symbol(self, c: str, mode: _Mode, stops: frozenset[str], buf: _Buf) -> None:
        if c in "([":
            if mode == "text":
                self._math(buf, stops, "\\)" if c == "(" else "\\]")
        elif c in ")]":
            pass  # closer without an opener
        elif c == "\\":
            if mode == "text":
                buf.add("\n")
            else:
                buf.add("; ")
            self._skip_length()
        elif c in ",;: >" or c.isspace():
            buf.add_space()
        elif c in "!/":
            pass  # negative or italic-correction spacing
        else:
            buf.add(c)  # \% \$ \{ \} \_ \& \# \' ...

    def _command(self, name: str, mode: _Mode, stops: frozenset[str], buf: _Buf) -> None:
        if name in _GREEK:
            buf.add(_GREEK[name])
        elif name in _SYMBOLS:
            sym = _SYMBOLS[name]
            if mode == "math" and sym in _SPACED_OPS:
                buf.add(f" {sym} ")
            else:
                buf.add(sym)
        elif name in _FRACTIONS:
            num = self._arg(mode, stops)
            den = self._arg(mode, stops)
            buf.add_word(_fraction(num, den))
        elif name in _BINOMS:
            n = _collapse(self._arg(mode, stops))
            k = _collapse(self._arg(mode, stops))
            buf.add_word(f"C({n}, {k})")
        elif name == "sqrt":
            index = self._optional(mode)
            body = _collapse(self._arg(mode, stops))
            index = _collapse(index) if index is not None else ""
            if not index:
                buf.add_word(f"sqrt({body})")
            elif index == "3":
                buf.add_word(f"cbrt({body})")
            else:
                buf.add_word(f"root[{index}]({body})")
        elif name in _FUNCTIONS:
            buf.add_word(name)
        elif name == "operatorname":
            buf.add_word(_collapse(self._arg("text", stops)))
        elif name in _STYLE_TEXT_MODE:
            buf.add(self._arg("text", stops))
        elif name in _STYLE_SAME_MODE:
            buf.add(self._arg(mode, stops))
        elif name in _ACCENTS:
            buf.add(_accent(self._arg(mode, stops), _ACCENTS[name]))
        elif name in _SPACES:
            buf.add_space()
        elif name in _DROPPED:
            if name in ("left", "right", "middle") or name.startswith(("big", "Big")):
                nxt = self._peek()
                if nxt is not None and nxt.kind == "ch" and nxt.text == ".":
                    self.i += 1  # \left. and \right. print nothing
        elif name in _DROP_ARG:
            if name == "color":
                self._optional("text")
            if name in ("hspace", "vspace"):
                t = self._peek()
                if t is not None and t.kind == "ch" and t.text == "*":
                    self.i += 1
                buf.add_space()
            self._raw_group()
        elif name in ("textcolor", "colorbox"):
            self._optional("text")
            self._raw_group()
            buf.add(self._arg(mode, stops))
        elif name in ("multicolumn", "multirow"):
            self._raw_group()
            self._optional("text")
            self._raw_group()
            buf.add(self._arg(mode, stops))
        elif name in ("underset", "overset", "stackrel"):
            annotation = _collapse(self._arg(mode, stops))
            base = _collapse(self._arg(mode, stops))
            # Eedi marks a blank with a star under it: keep both, apart from their neighbours
            buf.add(" " + " ".join(x for x in (base, annotation) if x) + " ")
        elif name == "not":
            target = self._arg(mode, stops).strip()
            negated = {"=": "≠", "∈": "∉", "<": "≮", ">": "≯", "≡": "≢", "⊂": "⊄"}
            buf.add(f" {negated[target]} " if target in negated else f"not {target}")
        elif name in ("newline", "linebreak", "par"):
            buf.add("\n" if mode == "text" else "; ")
        elif name == "pmod":
            buf.add(f" (mod {_collapse(self._arg(mode, stops))})")
        elif name == "begin":
            self._environment(mode, stops, buf)
        elif name == "end":
            self._raw_group()  # an \end without its \begin
        else:
            buf.add_word(name)  # unknown: keep the name, its arguments follow as groups

    def _environment(self, mode: _Mode, stops: frozenset[str], buf: _Buf) -> None:
        env = self._raw_group().strip()
        joiner = _TABLE_ENVS.get(env)
        if joiner is None:
            inner = self.seq(mode, stops | {"end"})
            if self._at_stop(frozenset({"end"})):
                self.i += 1
                self._raw_group()
            buf.add(inner)
            return
        self._optional("text")
        if env == "tabularx" or env == "tabular*":
            self._raw_group()  # width
        if env in _ENVS_WITH_SPEC or env in ("tabularx", "tabular*"):
            self._raw_group()  # column spec
        cell_mode: _Mode = "text" if env.startswith("tabular") else "math"
        cell_stops = stops | {"&", "\\\\", "end"}
        rows: list[list[str]] = []
        row: list[str] = []
        while True:
            row.append(_collapse(self.seq(cell_mode, cell_stops)))
            t = self._peek()
            key = _stop_key(t) if t is not None else None
            if key not in ("&", "\\\\", "end"):
                break  # end of input or an outer closer: unbalanced, stop here
            self.i += 1
            if key == "&":
                continue
            if key == "\\\\":
                self._skip_length()
                rows.append(row)
                row = []
                continue
            self._raw_group()
            break
        rows.append(row)
        rendered: list[str] = []
        for cells in rows:
            while cells and not cells[-1]:
                cells.pop()
            if cells:
                rendered.append(joiner.join(cells).strip())
        table = "; ".join(rendered)
        if mode == "text":
            buf.add(f"\n{table}\n")
        else:
            buf.add(table)


def _normalise_ws(s: str) -> str:
    s = s.replace("\r\n", "\n").replace("\r", "\n")
    lines = (re.sub(r"[^\S\n]+", " ", line).strip() for line in s.split("\n"))
    return "\n".join(line for line in lines if line)


def _convert(s: str, depth: int) -> str:
    if depth > _MAX_DEPTH:
        return _normalise_ws(s)
    try:
        return _normalise_ws(_Parser(_tokenize(s), depth).seq("text", frozenset()))
    except RecursionError:
        # Pathologically deep nesting: fall back to the source without backslashes.
        return _normalise_ws(re.sub(r"\\([A-Za-z]+|.)", r"\1", s))


def latex_to_text(s: str) -> str:
    """Turn text with inline LaTeX (Eedi style) into readable plain text.

    >>> latex_to_text(r"Simplify \\( \\frac{x+1}{2} \\times 4 \\)")
    'Simplify (x+1)/2 × 4'
    >>> latex_to_text(r"\\( 24 \\mathrm{~cm}, 17 \\mathrm{~cm} \\) and \\( x^{n+1} \\)")
    '24 cm, 17 cm and x^(n+1)'
    >>> latex_to_text("![A bar chart](https://x/y.png) How many?")
    '[image: A bar chart] How many?'
    """
    if not s:
        return ""
    return _convert(s, 0)

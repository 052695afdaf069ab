"""Grade 5 problem generators: Operations and Algebraic Thinking.

The standards 5.OA.A.1 to 5.OA.B.3; `GENERATORS` lists their generators in the registry's order.
"""

from __future__ import annotations

import random

from tutorgraph.training.problems._legacy import Made, table
from tutorgraph.training.problems._registry import Generator
from tutorgraph.training.problems._words import pick
from tutorgraph.training.problems.grade_56._shared import _ask, _d, _div, _two_names, _x

__all__ = ["GENERATORS"]


def _oa_grouping(rng: random.Random) -> Made:
    a, b, c, d = (rng.randint(2, 12) for _ in range(4))
    t = _x(rng)
    shape = rng.randrange(6)
    if shape == 0:
        text, expr, ans = f"{a}{t}({b} + {c})", f"{a} * ({b} + {c})", a * (b + c)
    elif shape == 1:
        d = rng.randint(1, (a + b) * c - 1)
        text, expr, ans = f"({a} + {b}){t}{c} - {d}", f"({a} + {b}) * {c} - {d}", (a + b) * c - d
    elif shape == 2:
        b, c = max(b, c) + 1, min(b, c)
        text = f"[{a} + ({b} - {c})]{t}{d}"
        expr, ans = f"({a} + ({b} - {c})) * {d}", (a + b - c) * d
    elif shape == 3:
        c, d = max(c, d) + 1, min(c, d)
        text = f"{{{a}{t}[{b} + ({c} - {d})]}}{_div(rng)}{a}"
        expr, ans = f"({a} * ({b} + ({c} - {d}))) / {a}", b + c - d
    elif shape == 4:
        c, d = max(c, d) + 1, min(c, d)
        text, expr, ans = f"{a} + {b}{t}({c} - {d})", f"{a} + {b} * ({c} - {d})", a + b * (c - d)
    else:
        k = rng.randint(2, 9)
        a = rng.randint(1, c * k - 1)
        b = c * k - a
        text = f"[({a} + {b}){_div(rng)}{c}]{t}{d}"
        expr, ans = f"(({a} + {b}) / {c}) * {d}", k * d
    q = pick(
        rng,
        (
            f"Evaluate {text}.",
            f"What is the value of {text}?",
            f"Find the value of the expression {text}.",
            f"{text} = ?",
            f"simplify {text}",
            f"Work out {text}. Do the grouping symbols first.",
            f"what does {text} equal",
        ),
    )
    return _ask(rng, q), expr, str(ans)


def _oa_nested(rng: random.Random) -> Made:
    a, b, c, d, e = (rng.randint(2, 9) for _ in range(5))
    t = _x(rng)
    if rng.random() < 0.5:
        text = f"{a}{t}{{{b} + [{c}{t}({d} + {e})]}}"
        expr, ans = f"{a} * ({b} + ({c} * ({d} + {e})))", a * (b + c * (d + e))
    else:
        big = (c + d) * e + rng.randint(1, 30)
        text = f"{{{big} - [({c} + {d}){t}{e}]}} + {a}"
        expr, ans = f"({big} - (({c} + {d}) * {e})) + {a}", big - (c + d) * e + a
    q = pick(
        rng,
        (
            f"Evaluate the expression {text}.",
            f"Find {text}.",
            f"What number is {text}?",
            f"Use the order of operations: {text}",
            f"{text}, what do i do first with the braces and brackets",
            f"Simplify: {text}",
        ),
    )
    return _ask(rng, q), expr, str(ans)


def _oa_write(rng: random.Random) -> Made:
    a, b, c = rng.randint(2, 20), rng.randint(2, 20), rng.randint(2, 9)
    kind = rng.randrange(6)
    if kind == 0:
        phrase, expr, ans = (
            f"add {a} and {b}, then multiply by {c}",
            f"({a} + {b}) * {c}",
            (a + b) * c,
        )
    elif kind == 1:
        phrase, expr, ans = f"multiply {a} by {b}, then subtract {c}", f"{a} * {b} - {c}", a * b - c
    elif kind == 2:
        k = rng.randint(2, 12)
        a = b + c * k
        phrase, expr, ans = f"subtract {b} from {a}, then divide by {c}", f"({a} - {b}) / {c}", k
    elif kind == 3:
        a, b = max(a, b) + 1, min(a, b)
        phrase = f"{c} times the difference of {a} and {b}"
        expr, ans = f"{c} * ({a} - {b})", c * (a - b)
    elif kind == 4:
        b = b if (a + b) % 2 == 0 else b + 1
        phrase, expr, ans = f"half of the sum of {a} and {b}", f"({a} + {b}) / 2", (a + b) // 2
    else:
        phrase = f"add {c} to the product of {a} and {b}"
        expr, ans = f"{a} * {b} + {c}", a * b + c
    q = pick(
        rng,
        (
            f'Write an expression for "{phrase}" and evaluate it.',
            f'What is the value of the expression that records "{phrase}"?',
            f"Write the calculation {phrase} as an expression. What is its value?",
            f"how do i write {phrase} as an expression and what does it come out to",
            f'The teacher says: "{phrase}." Write this with parentheses and find the answer.',
            f"Write a numerical expression: {phrase}. Then find its value.",
        ),
    )
    return _ask(rng, q), expr, str(ans)


def _oa_interpret(rng: random.Random) -> Made:
    a, b = rng.randint(1000, 99999), rng.randint(100, 9999)
    k = rng.randint(2, 12)
    kind = rng.randrange(3)
    if kind == 0:
        text_big, text_small = f"{k} × ({_d(a)} + {_d(b)})", f"{_d(a)} + {_d(b)}"
        expr, ans = f"{k} * ({a} + {b}) / ({a} + {b})", str(k)
    elif kind == 1:
        text_big, text_small = f"({_d(a)} - {_d(b)}) × {k}", f"{_d(a)} - {_d(b)}"
        expr, ans = f"({a} - {b}) * {k} / ({a} - {b})", str(k)
    else:
        j = k * rng.randint(2, 4)
        text_big, text_small = f"{_d(a)} × {j}", f"{_d(a)} × {k}"
        expr, ans = f"{a} * {j} / ({a} * {k})", str(j // k)
    q = pick(
        rng,
        (
            f"Without calculating, how many times as large is {text_big} as {text_small}?",
            f"{text_big} is how many times as large as {text_small}? Do not compute the values.",
            f"Compare {text_big} and {text_small} without evaluating. The first is how many "
            "times the second?",
            f"how many times bigger is {text_big} than {text_small}, we arent allowed to "
            "work them out",
            f"Interpret the expressions: {text_big} is ___ times as large as {text_small}.",
        ),
    )
    return _ask(rng, q), expr, ans


def _oa_patterns(rng: random.Random) -> Made:
    a = rng.randint(1, 6)
    m = rng.randint(2, 4)
    b = a * m
    n = rng.randint(4, 8)
    kind = rng.randrange(3)
    rules = (
        f'Pattern A starts at 0 and uses the rule "add {a}". '
        f'Pattern B starts at 0 and uses the rule "add {b}".'
    )
    if kind == 0:
        q, expr, ans = (
            f"What is term {n} of pattern B (counting the 0 as term 1)?",
            f"{b} * ({n} - 1)",
            b * (n - 1),
        )
    elif kind == 1:
        q, expr, ans = (
            "Each term of pattern B is how many times the matching term of pattern A?",
            f"{b} / {a}",
            m,
        )
    else:
        v = a * n
        q, expr, ans = (
            f"When pattern A's term is {v}, what is the matching term in pattern B?",
            f"{v} / {a} * {b}",
            b * n,
        )
    lead = pick(
        rng,
        (
            "",
            "Generate both patterns. ",
            "Make a table of the two patterns. ",
            "ordered pairs question. ",
        ),
    )
    return _ask(rng, f"{lead}{rules} {q}"), expr, str(ans)


def _oa_patterns_story(rng: random.Random) -> Made:
    p, r = _two_names(rng)
    a = rng.randint(2, 6)
    m = rng.randint(2, 3)
    b = a * m
    unit, verb = pick(
        rng,
        (
            ("dollars", "saves"),
            ("pages", "reads"),
            ("laps", "swims"),
            ("stamps", "collects"),
            ("miles", "bikes"),
        ),
    )
    w = rng.randint(3, 9)
    setup = (
        f"{p} {verb} {a} {unit} each week and {r} {verb} {b} {unit} each week. Both start with 0."
    )
    kind = rng.randrange(3)
    if kind == 0:
        q, expr, ans = f"How many {unit} will {r} have after {w} weeks?", f"{b} * {w}", b * w
    elif kind == 1:
        q = f"When {p} has {a * w} {unit}, how many does {r} have?"
        expr, ans = f"{a * w} / {a} * {b}", b * w
    else:
        q = f"After {w} weeks, how many more {unit} does {r} have than {p}?"
        expr, ans = f"{b} * {w} - {a} * {w}", (b - a) * w
    tail = pick(
        rng, ("", " Make a table of the two patterns.", " Use ordered pairs (weeks, amount).")
    )
    return _ask(rng, f"{setup} {q}{tail}"), expr, str(ans)


GENERATORS: tuple[Generator, ...] = table(
    ("5.OA.A.1/grouping-symbols", "bare", _oa_grouping),
    ("5.OA.A.1/nested-brackets", "bare", _oa_nested),
    ("5.OA.A.2/write-and-evaluate", "bare", _oa_write),
    ("5.OA.A.2/times-as-large", "bare", _oa_interpret),
    ("5.OA.B.3/two-rules", "bare", _oa_patterns),
    ("5.OA.B.3/two-rules-story", "word", _oa_patterns_story),
)

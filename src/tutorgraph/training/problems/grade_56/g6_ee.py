"""Grade 6 problem generators: Expressions and Equations.

The standards 6.EE.A.1 to 6.EE.C.9; `GENERATORS` lists their generators in the registry's order.
"""

from __future__ import annotations

import random

from tutorgraph.training.problems._legacy import Made, table
from tutorgraph.training.problems._registry import Generator
from tutorgraph.training.problems._words import pick
from tutorgraph.training.problems.grade_56._shared import (
    F,
    _ask,
    _d,
    _dec,
    _f,
    _fa,
    _fe,
    _frac,
    _money,
    _name,
)

__all__ = ["GENERATORS"]


def _ee_exponent_bare(rng: random.Random) -> Made:
    b, e = rng.randint(2, 9), rng.randint(2, 4)
    if b > 5:
        e = 2
    kind = rng.randrange(4)
    if kind == 0:
        q = pick(rng, (f"Evaluate {b}^{e}.", f"What is {b} to the power of {e}?", f"{b}^{e} = ?"))
        return _ask(rng, q), f"{b} ** {e}", str(b**e)
    if kind == 1:
        rep = " × ".join([str(b)] * e)
        q = f"Write {rep} using an exponent, then evaluate it."
        return _ask(rng, q), f"{b} ** {e}", str(b**e)
    c, d = rng.randint(2, 9), rng.randint(2, 9)
    if kind == 2:
        q = f"Evaluate {b}^{e} + {c} × {d}."
        return _ask(rng, q), f"{b} ** {e} + {c} * {d}", str(b**e + c * d)
    q = f"Evaluate ({c} + {d})^2 - {b}."
    return _ask(rng, q), f"({c} + {d}) ** 2 - {b}", str((c + d) ** 2 - b)


def _ee_exponent_story(rng: random.Random) -> Made:
    who = _name(rng)
    b, e = rng.randint(2, 4), rng.randint(2, 5)
    kind = rng.randrange(3)
    if kind == 0:
        q = (
            f"{who} sends a message to {b} friends. Each of them sends it to {b} more, and so on. "
            f"How many people get it in round {e}? Write it as a power."
        )
        return _ask(rng, q), f"{b} ** {e}", str(b**e)
    s = rng.randint(2, 12)
    if kind == 1:
        q = f"A square tile has sides of {s} inches. Write its area as a power and find it."
        return _ask(rng, q), f"{s} ** 2", str(s * s)
    q = f"A cube-shaped box has edges of {s} cm. Find its volume using an exponent."
    return _ask(rng, q), f"{s} ** 3", str(s**3)


def _ee_write_expr(rng: random.Random) -> Made:
    v = pick(rng, ("x", "y", "n", "m", "p"))
    a, val = rng.randint(2, 20), rng.randint(1, 12)
    kind = rng.randrange(5)
    if kind == 0:
        phrase, expr, ans = f"subtract {v} from {a + val}", f"{a + val} - {val}", a
    elif kind == 1:
        phrase, expr, ans = f"the product of {a} and {v}", f"{a} * {val}", a * val
    elif kind == 2:
        val = val * 4
        phrase, expr, ans = f"{v} divided by 4", f"{val} / 4", val // 4
    elif kind == 3:
        phrase, expr, ans = f"{a} more than twice {v}", f"2 * {val} + {a}", 2 * val + a
    else:
        phrase, expr, ans = f"{a} less than {v} squared", f"{val} ** 2 - {a}", val * val - a
    q = pick(
        rng,
        (
            f'Write an expression for "{phrase}". Then find its value when {v} = {val}.',
            f"Write {phrase} as an expression and evaluate it for {v} = {val}.",
            f"how do you write {phrase}, and what is it if {v} is {val}",
            f"Expression: {phrase}. What is its value if {v} = {val}?",
        ),
    )
    return _ask(rng, q), expr, str(ans)


def _ee_parts(rng: random.Random) -> Made:
    a, b, c = rng.randint(2, 12), rng.randint(2, 12), rng.randint(1, 20)
    v, w = pick(rng, (("x", "y"), ("a", "b"), ("m", "n")))
    expr_text = f"{a}{v} + {b}{w} + {c}"
    kind = rng.randrange(4)
    if kind == 0:
        q = pick(
            rng,
            (
                f"What is the coefficient of {w} in {expr_text}?",
                f"In {expr_text}, what number is multiplied by {w}?",
            ),
        )
        return _ask(rng, q), str(b), str(b)
    if kind == 1:
        q = pick(
            rng,
            (
                f"What is the constant term in {expr_text}?",
                f"which part of {expr_text} is the constant",
            ),
        )
        return _ask(rng, q), str(c), str(c)
    if kind == 2:
        q = f"How many terms are in the expression {a}{v} + {b}{w} + {c} - {v}?"
        return _ask(rng, q), "4", "4"
    q = (
        f"The expression {a}({b} + {c}) is a product of two factors. What is the value of the "
        "second factor, the sum?"
    )
    return _ask(rng, q), f"{b} + {c}", str(b + c)


def _ee_evaluate_bare(rng: random.Random) -> Made:
    x, y = rng.randint(1, 10), rng.randint(1, 10)
    a, b = rng.randint(2, 9), rng.randint(1, 20)
    kind = rng.randrange(4)
    if kind == 0:
        text, expr, ans = f"{a}x + {b}", f"{a} * {x} + {b}", a * x + b
        at = f"x = {x}"
    elif kind == 1:
        text, expr, ans = f"{a}x^2 - {b}", f"{a} * {x} ** 2 - {b}", a * x * x - b
        at = f"x = {x}"
    elif kind == 2:
        text, expr, ans = f"{a}(x + y)", f"{a} * ({x} + {y})", a * (x + y)
        at = f"x = {x} and y = {y}"
    else:
        text, expr, ans = f"x^2 + {a}y", f"{x} ** 2 + {a} * {y}", x * x + a * y
        at = f"x = {x} and y = {y}"
    q = pick(
        rng,
        (
            f"Evaluate {text} when {at}.",
            f"Find the value of {text} for {at}.",
            f"if {at} what is {text}",
            f"Substitute {at} into {text}.",
        ),
    )
    return _ask(rng, q), expr, str(ans)


def _ee_formula_story(rng: random.Random) -> Made:
    kind = rng.randrange(4)
    if kind == 0:
        s = pick(rng, (F(1, 2), F(1, 3), F(2, 3), F(3, 2), F(rng.randint(2, 9))))
        q = f"Use V = s^3 to find the volume of a cube with side length s = {_f(s)} unit."
        return _ask(rng, q), f"{_fe(s)} ** 3", _f(s**3)
    if kind == 1:
        s = pick(rng, (F(1, 2), F(1, 3), F(rng.randint(2, 9))))
        q = f"Use A = 6s^2 to find the surface area of a cube with sides of length s = {_f(s)}."
        return _ask(rng, q), f"6 * {_fe(s)} ** 2", _fa(rng, 6 * s * s)
    ln, w = rng.randint(3, 30), rng.randint(2, 20)
    if kind == 2:
        q = f"The perimeter of a rectangle is P = 2l + 2w. Find P when l = {ln} and w = {w}."
        return _ask(rng, q), f"2 * {ln} + 2 * {w}", str(2 * ln + 2 * w)
    q = (
        f"Distance is d = rt. {_name(rng)} rides at r = {w} miles per hour for t = {ln % 6 + 1} "
        "hours. Find d."
    )
    return _ask(rng, q), f"{w} * {ln % 6 + 1}", str(w * (ln % 6 + 1))


def _ee_equivalent(rng: random.Random) -> Made:
    a, b = rng.randint(2, 9), rng.randint(1, 12)
    kind = rng.randrange(4)
    if kind == 0:
        q = pick(
            rng,
            (
                f"Use the distributive property: {a}({b} + x) = ? + {a}x. What is the missing "
                "number?",
                f"{a}({b} + x) = __ + {a}x",
            ),
        )
        return _ask(rng, q), f"{a} * {b}", str(a * b)
    if kind == 1:
        c, d = rng.randint(2, 9), rng.randint(2, 9)
        q = f"Factor: {a * c}x + {a * d}y = {a}({c}x + ?y). What is the missing number?"
        return _ask(rng, q), f"{a * d} / {a}", str(d)
    if kind == 2:
        n = rng.randint(2, 7)
        q = (
            f"Write {' + '.join(['y'] * n)} as an equivalent expression ?y. What is the "
            "coefficient?"
        )
        return _ask(rng, q), str(n), str(n)
    c = rng.randint(2, 9)
    q = f"Combine like terms: {a}x + {b} + {c}x. What is the coefficient of x?"
    return _ask(rng, q), f"{a} + {c}", str(a + c)


def _ee_equivalent_check(rng: random.Random) -> Made:
    a, b, x = rng.randint(2, 9), rng.randint(1, 9), rng.randint(1, 10)
    if rng.random() < 0.5:
        q = f"The expressions {a}(x + {b}) and {a}x + k are equivalent for every x. What is k?"
        return _ask(rng, q), f"{a} * {b}", str(a * b)
    q = (
        f"Check that {a}(x + {b}) and {a}x + {a * b} are equivalent: what value do both give when "
        f"x = {x}?"
    )
    return _ask(rng, q), f"{a} * ({x} + {b})", str(a * (x + b))


def _ee_substitute(rng: random.Random) -> Made:
    a, x = rng.randint(2, 9), rng.randint(1, 10)
    b = rng.randint(1, 20)
    c = a * x + b
    options = sorted({x, x + 1, x + 2, max(0, x - 1), x + 3})
    rng.shuffle(options)
    if rng.random() < 0.6:
        q = pick(
            rng,
            (
                f"Which value from {{{', '.join(map(str, options))}}} makes {a}x + {b} = {c} true?",
                f"Use substitution: which of {', '.join(map(str, options))} is a solution of {a}x "
                f"+ {b} = {c}?",
                f"which number makes {a}x + {b} = {c} true: {', '.join(map(str, options))}",
            ),
        )
        return _ask(rng, q), f"({c} - {b}) / {a}", str(x)
    t = pick(rng, options)
    q = f"Is x = {t} a solution of {a}x + {b} = {c}? Substitute and give the value of {a}x + {b}."
    return _ask(rng, q), f"{a} * {t} + {b}", str(a * t + b)


def _ee_variable_story(rng: random.Random) -> Made:
    who = _name(rng)
    kind = rng.randrange(4)
    n, a, b = rng.randint(2, 15), rng.randint(2, 9), rng.randint(2, 30)
    if kind == 0:
        q = (
            f"{who} has n stickers. {who}'s brother has {a} more than 3 times as many. Write an "
            f"expression. How many does the brother have if n = {n}?"
        )
        return _ask(rng, q), f"3 * {n} + {a}", str(3 * n + a)
    if kind == 1:
        q = (
            f"A gym costs ${b} to join and ${a} per month. Write an expression for m months. What "
            f"is the cost for m = {n}?"
        )
        return _ask(rng, q), f"{b} + {a} * {n}", str(b + a * n)
    if kind == 2:
        q = (
            f"{who} shares c cookies equally among {a} friends. Write an expression. How many does "
            f"each friend get when c = {a * n}?"
        )
        return _ask(rng, q), f"{a * n} / {a}", str(n)
    q = (
        f"A movie ticket costs t dollars and popcorn costs ${a}. Write an expression for the "
        f"total. What is the total when t = {n}?"
    )
    return _ask(rng, q), f"{n} + {a}", str(n + a)


def _ee_solve_bare(rng: random.Random) -> Made:
    kind = rng.randrange(4)
    v = pick(rng, ("x", "n", "y", "a"))
    if kind == 0:
        p, x = rng.randint(1, 50), rng.randint(1, 80)
        eq, expr, ans = f"{v} + {p} = {p + x}", f"{p + x} - {p}", str(x)
    elif kind == 1:
        pd, xd = _dec(rng, 1, 20, 1), _dec(rng, 1, 20, 2)
        eq, expr, ans = f"{v} + {_d(pd)} = {_d(pd + xd)}", f"{_d(pd + xd)} - {_d(pd)}", _d(xd)
    elif kind == 2:
        p, x = rng.randint(2, 12), rng.randint(2, 30)
        eq, expr, ans = f"{p}{v} = {p * x}", f"{p * x} / {p}", str(x)
    else:
        pf, x = _frac(rng, (2, 3, 4, 5)), rng.randint(1, 20)
        eq, expr, ans = f"({_f(pf)}){v} = {_f(pf * x)}", f"{_fe(pf * x)} / {_fe(pf)}", str(x)
    q = pick(
        rng,
        (
            f"Solve {eq}.",
            f"{eq}. What is {v}?",
            f"Find {v}: {eq}",
            f"how do i solve {eq}",
            f"Solve for {v}. {eq}",
        ),
    )
    return _ask(rng, q), expr, ans


def _ee_solve_story(rng: random.Random) -> Made:
    who = _name(rng)
    kind = rng.randrange(4)
    if kind == 0:
        n, each = rng.randint(2, 9), _dec(rng, 1, 9, 2)
        q = (
            f"{who} bought {n} notebooks for {_money(n * each)} in all. Write and solve {n}x = "
            f"{_d(n * each)} to find the cost of one, in dollars."
        )
        return _ask(rng, q), f"{_d(n * each)} / {n}", _d(each)
    if kind == 1:
        have, need = _dec(rng, 5, 40, 2), _dec(rng, 1, 20, 2)
        q = (
            f"{who} has {_money(have)} and needs {_money(have + need)} for a game. How much more "
            f"does {who} need, in dollars? (x + {_d(have)} = {_d(have + need)})"
        )
        return _ask(rng, q), f"{_d(have + need)} - {_d(have)}", _d(need)
    if kind == 2:
        x, p = rng.randint(20, 120), rng.randint(5, 60)
        q = (
            f"After {who} read {p} more pages, the total was {x + p} pages. How many pages had "
            f"{who} read before? Write an equation and solve."
        )
        return _ask(rng, q), f"{x + p} - {p}", str(x)
    f, x = _frac(rng, (2, 3, 4)), rng.randint(2, 12) * 4
    q = (
        f"{_f(f)} of the class is {_f(f * x)} students. How many students are in the class? Solve "
        f"{_f(f)}n = {_f(f * x)}."
    )
    if (f * x).denominator != 1:
        x = x * f.denominator
        q = (
            f"{_f(f)} of the class is {_f(f * x)} students. How many students are in the class? "
            f"Solve {_f(f)}n = {_f(f * x)}."
        )
    return _ask(rng, q), f"{_fe(f * x)} / {_fe(f)}", str(x)


def _ee_inequality(rng: random.Random) -> Made:
    c = rng.randint(5, 100)
    kind = rng.randrange(4)
    if kind == 0:
        q = pick(
            rng,
            (
                f"What is the smallest whole number that makes x > {c} true?",
                f"x > {c}. least whole number solution?",
            ),
        )
        return _ask(rng, q), f"{c} + 1", str(c + 1)
    if kind == 1:
        q = pick(
            rng,
            (
                f"What is the greatest whole number that makes x < {c} true?",
                f"biggest whole number for x < {c}",
            ),
        )
        return _ask(rng, q), f"{c} - 1", str(c - 1)
    d = _dec(rng, 1, 50, 1)
    if kind == 2:
        q = f"What is the least whole number that is a solution of x > {_d(d)}?"
        return _ask(rng, q), f"floor({_d(d)}) + 1", str(int(d) + 1)
    q = f"What is the greatest whole number that is a solution of x < {_d(d)}?"
    return _ask(rng, q), f"floor({_d(d)})", str(int(d))


def _ee_inequality_story(rng: random.Random) -> Made:
    who = _name(rng)
    c = rng.randint(30, 60)
    kind = rng.randrange(3)
    if kind == 0:
        q = (
            f"Riders must be taller than {c} inches (h > {c}). {who} measures in whole inches. "
            "What is the shortest height that is allowed?"
        )
        return _ask(rng, q), f"{c} + 1", str(c + 1)
    if kind == 1:
        q = (
            f"A elevator can carry fewer than {c} people (p < {c}). What is the greatest number of "
            "people allowed?"
        )
        return _ask(rng, q).replace("A elevator", "An elevator"), f"{c} - 1", str(c - 1)
    q = (
        f"A team needs more than {c} points to win (x > {c}). Points are whole numbers. What is "
        "the fewest points that wins?"
    )
    return _ask(rng, q), f"{c} + 1", str(c + 1)


def _ee_dependent_story(rng: random.Random) -> Made:
    who = _name(rng)
    r, t = rng.randint(5, 70), rng.randint(2, 9)
    kind = rng.randrange(3)
    if kind == 0:
        q = (
            f"A car travels at a constant speed: d = {r}t, where t is hours. How far does it go in "
            f"{t} hours?"
        )
        return _ask(rng, q), f"{r} * {t}", str(r * t)
    if kind == 1:
        q = (
            f"{who} earns ${r % 20 + 5} per hour. Write an equation for earnings e after h hours. "
            f"How much does {who} earn in {t} hours?"
        )
        return _ask(rng, q), f"{r % 20 + 5} * {t}", str((r % 20 + 5) * t)
    q = (
        f"The cost c of n tickets is c = {r % 15 + 3}n. If {who} spends ${(r % 15 + 3) * t}, how "
        f"many tickets did {who} buy?"
    )
    return _ask(rng, q), f"{(r % 15 + 3) * t} / {r % 15 + 3}", str(t)


def _ee_dependent_table(rng: random.Random) -> Made:
    k = rng.randint(2, 15)
    xs = sorted(rng.sample(range(1, 10), 3))
    table = "; ".join(f"x = {x}, y = {k * x}" for x in xs)
    if rng.random() < 0.5:
        q = f"The table shows y in terms of x: {table}. Write an equation y = kx. What is k?"
        return _ask(rng, q), f"{k * xs[0]} / {xs[0]}", str(k)
    n = rng.randint(10, 20)
    q = f"The table shows y in terms of x: {table}. What is y when x = {n}?"
    return _ask(rng, q), f"{k * xs[0]} / {xs[0]} * {n}", str(k * n)


GENERATORS: tuple[Generator, ...] = table(
    ("6.EE.A.1/exponents", "bare", _ee_exponent_bare),
    ("6.EE.A.1/exponents-story", "word", _ee_exponent_story),
    ("6.EE.A.2.a/write-expression", "bare", _ee_write_expr),
    ("6.EE.A.2.b/parts-of-expression", "bare", _ee_parts),
    ("6.EE.A.2.c/evaluate", "bare", _ee_evaluate_bare),
    ("6.EE.A.2.c/formula-story", "word", _ee_formula_story),
    ("6.EE.A.3/equivalent-expression", "bare", _ee_equivalent),
    ("6.EE.A.4/equivalent-check", "bare", _ee_equivalent_check),
    ("6.EE.B.5/which-value", "bare", _ee_substitute),
    ("6.EE.B.6/variable-story", "word", _ee_variable_story),
    ("6.EE.B.7/one-step-equation", "bare", _ee_solve_bare),
    ("6.EE.B.7/one-step-story", "word", _ee_solve_story),
    ("6.EE.B.8/inequality", "bare", _ee_inequality),
    ("6.EE.B.8/inequality-story", "word", _ee_inequality_story),
    ("6.EE.C.9/dependent-story", "word", _ee_dependent_story),
    ("6.EE.C.9/table-equation", "bare", _ee_dependent_table),
)

"""Grade 7 problem generators: Statistics and Probability, cluster C.

The standards 7.SP.C.5 to 7.SP.C.8; `GENERATORS` lists their generators in the registry's order.
"""

from __future__ import annotations

import random
from fractions import Fraction

from tutorgraph.training.problems._legacy import Made, table
from tutorgraph.training.problems._registry import Generator
from tutorgraph.training.problems._words import pick
from tutorgraph.training.problems.grade_78._shared import _ans, _e, _fr, _name, _num, _say, _voice

__all__ = ["GENERATORS"]


def _spc5(rng: random.Random) -> Made:
    p = Fraction(rng.randint(1, 19), 20)
    as_dec = rng.random() < 0.6
    text = _say(
        rng,
        (
            "The probability of rain tomorrow is {p}. What is the probability that it does not "
            "rain?",
            "A spinner lands on blue with probability {p}. What is the probability it does not "
            "land on blue?",
            "The chance {n} wins a game is {p}. What is the chance {n} does not win?",
            "if the probability is {p} what is the probability it doesnt happen",
            "A probability is a number from 0 to 1. P(event) = {p}. What is P(not the event)?",
        ),
        p=_num(p) if as_dec else _fr(p),
        n=_name(rng),
    )
    return text, f"1 - {_e(p)}", _ans(1 - p)


def _spc6(rng: random.Random) -> Made:
    kind = rng.randrange(3)
    if kind == 0:
        rolls = rng.randint(2, 20) * 60
        faces = sorted(rng.sample(range(1, 7), rng.randint(1, 3)))
        text = _say(
            rng,
            (
                "A number cube is rolled {r} times. About how many times would you expect to "
                "roll {f}?",
                "If you roll a fair die {r} times, predict how many times it lands on {f}.",
                "rolling a die {r} times, how many times should i get {f}",
            ),
            r=rolls,
            f=" or ".join(map(str, faces)),
        )
        return text, f"{rolls} * {len(faces)}/6", str(rolls * len(faces) // 6)
    if kind == 1:
        parts = pick(rng, (4, 5, 8, 10))
        hit = rng.randint(1, parts - 1)
        spins = parts * rng.randint(5, 40)
        text = _say(
            rng,
            (
                "A spinner has {p} equal sections and {h} of them are red. If it is spun {s} "
                "times, about how many times will it land on red?",
                "The probability of landing on red is {h}/{p}. Predict the number of reds in "
                "{s} spins.",
            ),
            p=parts,
            h=hit,
            s=spins,
        )
        return text, f"{spins} * {hit}/{parts}", str(spins * hit // parts)
    trials = rng.randint(20, 200)
    hits = rng.randint(1, trials - 1)
    text = _say(
        rng,
        (
            "{n} flipped a coin {t} times and got heads {h} times. What is the relative "
            "frequency of heads?",
            "In {t} tries, a paper cup landed on its side {h} times. What is the experimental "
            "probability of landing on its side?",
        ),
        n=_name(rng),
        t=trials,
        h=hits,
    )
    return text, f"{hits} / {trials}", _ans(Fraction(hits, trials))


def _spc7a(rng: random.Random) -> Made:
    kind = rng.randrange(4)
    if kind == 0:
        girls, boys = rng.randint(5, 18), rng.randint(5, 18)
        text = _say(
            rng,
            (
                "A class has {g} girls and {b} boys. A student is chosen at random. What is "
                "the probability that a girl is chosen?",
                "The teacher picks one name at random from {g} girls and {b} boys. Find P(girl).",
                "there are {g} girls and {b} boys in my class, whats the chance a girl gets picked",
            ),
            g=girls,
            b=boys,
        )
        return text, f"{girls} / ({girls} + {boys})", _ans(Fraction(girls, girls + boys))
    if kind == 1:
        cols = [rng.randint(1, 9) for _ in range(3)]
        which = rng.randrange(3)
        names = ("red", "blue", "green")
        text = _say(
            rng,
            (
                "A bag has {r} red, {b} blue and {g} green marbles. One is drawn at random. "
                "What is P({c})?",
                "You pick one marble without looking from {r} red, {b} blue and {g} green. "
                "What is the probability it is {c}?",
            ),
            r=cols[0],
            b=cols[1],
            g=cols[2],
            c=names[which],
        )
        return (
            text,
            f"{cols[which]} / ({cols[0]} + {cols[1]} + {cols[2]})",
            _ans(Fraction(cols[which], sum(cols))),
        )
    if kind == 2:
        word = pick(rng, ("MISSISSIPPI", "BANANA", "PROBABILITY", "STATISTICS", "TENNESSEE"))
        letter = pick(rng, sorted(set(word)))
        text = _say(
            rng,
            (
                "Each letter of the word {w} is written on a card. One card is picked at "
                "random. What is the probability it shows {l}?",
                "The letters of {w} are put in a hat. Find P({l}).",
            ),
            w=word,
            l=letter,
        )
        return (
            text,
            f"{word.count(letter)} / {len(word)}",
            _ans(Fraction(word.count(letter), len(word))),
        )
    sides = pick(rng, (6, 8, 10, 12))
    event = pick(rng, ("an even number", "a number greater than 2", "a multiple of 3"))
    count = {
        "an even number": sides // 2,
        "a number greater than 2": sides - 2,
        "a multiple of 3": sides // 3,
    }[event]
    text = _say(
        rng,
        (
            "A fair {s}-sided number cube is numbered 1 to {s}. What is the probability of "
            "rolling {e}?",
            "You roll a fair {s}-sided die labeled 1-{s}. Find P({e}).",
        ),
        s=sides,
        e=event,
    )
    return text, f"{count} / {sides}", _ans(Fraction(count, sides))


def _spc7b(rng: random.Random) -> Made:
    trials = pick(rng, (20, 25, 40, 50, 80, 100, 200))
    hits = rng.randint(1, trials - 1)
    thing = pick(
        rng,
        (
            ("a spinning penny", "landed heads up"),
            ("a paper cup", "landed open-end down"),
            ("a thumbtack", "landed point up"),
            ("a bottle flip", "landed upright"),
            ("a plastic spoon", "landed face up"),
        ),
    )
    if rng.random() < 0.5:
        text = _say(
            rng,
            (
                "{n} tested {t} {k} times. It {w} {h} times. Based on this, what is the "
                "approximate probability it {w}?",
                "In {k} trials with {t}, it {w} {h} times. Estimate the probability.",
                "we did {t} {k} times and it {w} {h} times. whats the probability",
            ),
            n=_name(rng),
            t=thing[0],
            k=trials,
            w=thing[1],
            h=hits,
        )
        return text, f"{hits} / {trials}", _ans(Fraction(hits, trials))
    more = trials * rng.randint(2, 10)
    text = _say(
        rng,
        (
            "With {t}, it {w} {h} times out of {k} trials. Using this, predict how many times "
            "it would do so in {m} trials.",
            "{n} found that {t} {w} {h} out of {k} times. How many times would you expect in "
            "{m} tries?",
        ),
        n=_name(rng),
        t=thing[0],
        w=thing[1],
        h=hits,
        k=trials,
        m=more,
    )
    return text, f"{hits} / {trials} * {more}", _ans(Fraction(hits * more, trials))


def _spc8a(rng: random.Random) -> Made:
    kind = rng.randrange(4)
    if kind == 0:
        s = rng.randint(2, 12)
        ways = min(s - 1, 13 - s)
        text = _say(
            rng,
            (
                "Two fair number cubes are rolled. What is the probability that the sum is {s}?",
                "You roll two dice. Find P(sum = {s}).",
                "whats the probability of getting a sum of {s} with 2 dice",
            ),
            s=s,
        )
        return text, f"min({s} - 1, 13 - {s}) / (6 * 6)", _ans(Fraction(ways, 36))
    if kind == 1:
        face = rng.randint(1, 6)
        side = pick(rng, ("heads", "tails"))
        text = _say(
            rng,
            (
                "A coin is tossed and a number cube is rolled. What is the probability of "
                "{c} and a {f}?",
                "Flip a coin and roll a die. Find P({c}, {f}).",
            ),
            c=side,
            f=face,
        )
        return text, "1 / (2 * 6)", _ans(Fraction(1, 12))
    if kind == 2:
        n = rng.randint(2, 4)
        text = _say(
            rng,
            (
                "A fair coin is flipped {n} times. What is the probability of getting heads "
                "every time?",
                "What is the probability of {n} tails in a row with a fair coin?",
            ),
            n=n,
        )
        return text, f"1 / 2**{n}", _ans(Fraction(1, 2**n))
    a, b = rng.randint(2, 6), rng.randint(2, 6)
    text = _say(
        rng,
        (
            "A spinner has {a} equal parts numbered 1 to {a} and another has {b} equal parts "
            "numbered 1 to {b}. Both are spun. What is the probability both land on 1?",
            "Spin a {a}-part spinner and a {b}-part spinner (equal parts). What is P(1 and 1)?",
        ),
        a=a,
        b=b,
    )
    return text, f"1 / ({a} * {b})", _ans(Fraction(1, a * b))


def _spc8b(rng: random.Random) -> Made:
    kind = rng.randrange(3)
    n = _name(rng)
    if kind == 0:
        a, b, c = rng.randint(2, 6), rng.randint(2, 6), rng.randint(1, 4)
        text = _say(
            rng,
            (
                "{n} has {a} shirts, {b} pairs of pants and {c} hats. How many different "
                "outfits of one shirt, one pair of pants and one hat are there?",
                "A sandwich shop offers {a} breads, {b} meats and {c} cheeses. How many "
                "sandwiches with one of each can be made? Use a tree diagram or list.",
                "how many outcomes: {a} choices then {b} choices then {c} choices",
            ),
            n=n,
            a=a,
            b=b,
            c=c,
        )
        return text, f"{a} * {b} * {c}", str(a * b * c)
    if kind == 1:
        s = rng.randint(3, 11)
        text = _say(
            rng,
            (
                "List the sample space for rolling two number cubes. How many outcomes have a "
                "sum of {s}?",
                "Two dice are rolled. How many of the 36 outcomes give a sum of {s}?",
            ),
            s=s,
        )
        return text, f"min({s} - 1, 13 - {s})", str(min(s - 1, 13 - s))
    flips = rng.randint(2, 5)
    text = _say(
        rng,
        (
            "How many outcomes are in the sample space when a coin is flipped {f} times?",
            "Draw a tree diagram for flipping a coin {f} times. How many outcomes are there?",
            "A coin is tossed {f} times. How many different sequences of heads and tails are "
            "possible?",
        ),
        f=flips,
    )
    return text, f"2**{flips}", str(2**flips)


def _spc8c(rng: random.Random) -> Made:
    trials = pick(rng, (20, 25, 40, 50, 100))
    hits = rng.randint(1, trials - 1)
    setting = pick(
        rng,
        (
            "If 40% of donors have type A blood, a simulation uses random digits 0-3 for "
            "type A. In {t} simulated trials it took at least 4 donors to find type A in {h} "
            "trials",
            "A cereal box holds one of 6 prizes. {n} simulates buying boxes with a number "
            "cube. In {t} trials, getting all 6 prizes took more than 10 boxes {h} times",
            "A player makes 70% of free throws. A simulation with random digits (0-6 = make) "
            "ran {t} trials of two shots; both shots were made in {h} trials",
            "{n} uses a spinner to simulate a quiz guess. Out of {t} simulated quizzes, "
            "{h} had at least 3 correct",
        ),
    ).format(t=trials, h=hits, n=_name(rng))
    text = _voice(
        rng,
        pick(
            rng,
            (
                f"{setting}. What is the estimated probability?",
                f"{setting}. Use the simulation to estimate the probability of the event.",
                f"{setting}. Based on the results, what is the experimental probability?",
            ),
        ),
    )
    return text, f"{hits} / {trials}", _ans(Fraction(hits, trials))


GENERATORS: tuple[Generator, ...] = table(
    ("7.SP.C.5/complement-likelihood", "word", _spc5),
    ("7.SP.C.6/predict-frequency", "word", _spc6),
    ("7.SP.C.7.a/uniform-model-story", "word", _spc7a),
    ("7.SP.C.7.b/observed-frequency-model", "word", _spc7b),
    ("7.SP.C.8.a/compound-probability", "word", _spc8a),
    ("7.SP.C.8.b/sample-space-count", "word", _spc8b),
    ("7.SP.C.8.c/simulation-estimate", "word", _spc8c),
)

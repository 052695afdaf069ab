"""The hand-written generators' shape, while their bands wait to become rows (issue 61)."""

from __future__ import annotations

import random
from collections.abc import Callable

from tutorgraph.training.problems._registry import Generator, Kind
from tutorgraph.training.problems._steps import work

__all__ = ["Made", "table"]

Made = tuple[str, str, str]


def _with_steps(make: Callable[[random.Random], Made]) -> Callable[..., tuple]:  # type: ignore[type-arg]
    def made(rng: random.Random) -> tuple[str, str, str, tuple[str, ...]]:
        text, expression, answer = make(rng)
        steps = tuple(work(expression, answer)) or ("Read it from the problem.",)
        if len(steps) < 2 or answer not in steps[-1]:
            steps += (f"So the answer is {answer}.",)
        return text, expression, answer, steps

    return made


def table(*rows: tuple[str, Kind, Callable[[random.Random], Made]]) -> tuple[Generator, ...]:
    return tuple(
        Generator(name, "ccss:" + name.split("/", 1)[0], kind, _with_steps(make))
        for name, kind, make in rows
    )

"""Generators for the standards of grades k2 (filled in by issue 48)."""

from __future__ import annotations

from tutorgraph.training.problems._registry import Generator

__all__ = ["GENERATORS"]

GENERATORS: tuple[Generator, ...] = ()

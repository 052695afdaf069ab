"""The protocol every refiner implements."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from tutorgraph_client.models.refined_query import RefinedQuery

__all__ = ["Refiner"]


@runtime_checkable
class Refiner(Protocol):
    """Turns a student's text into a `RefinedQuery`; never raises for bad text."""

    @property
    def name(self) -> str: ...

    async def refine(self, query: str, *, student_answer: str | None = None) -> RefinedQuery:
        """`student_answer` (from the request) wins over an answer read from the text."""
        ...

    async def aclose(self) -> None: ...

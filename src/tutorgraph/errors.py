"""The one exception tree of tutorgraph.

Every error the library raises on purpose derives from `TutorGraphError`; the HTTP layer
maps these classes (and its own, in `tutorgraph.api.errors`) to status codes in one handler.

    TutorGraphError
    ├── ConfigurationError          settings, models or files that cannot be used
    ├── InvalidRequestError         a request the library refuses (422)
    │   └── UnknownConceptError     concept ids the graph does not hold
    ├── BundleError                 bad records in a curriculum bundle
    └── StoreError                  a store failed; adapters chain the driver's error
        ├── IndexNotFoundError      no index in the folder
        ├── EmbedderMismatchError   an index built with another embedder
        └── SourceUnavailableError  no retrieval source could answer

>>> try:
...     raise UnknownConceptError(["ccss:9.ZZ.Z.9"])
... except TutorGraphError as exc:
...     print(exc.code)
unknown_concept
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = [
    "BundleError",
    "BundleRecordError",
    "ConfigurationError",
    "EmbedderMismatchError",
    "IndexNotFoundError",
    "InvalidRequestError",
    "SourceUnavailableError",
    "StoreError",
    "TutorGraphError",
    "UnknownConceptError",
]


class TutorGraphError(Exception):
    """Base class of every error tutorgraph raises on purpose."""

    code = "tutorgraph_error"

    def __init__(self, message: str, *, details: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.details: dict[str, Any] = details or {}


class ConfigurationError(TutorGraphError):
    """Settings or arguments that cannot work together."""

    code = "configuration_error"


class InvalidRequestError(TutorGraphError):
    """A retrieval request that breaks the contract (design section 8a)."""

    code = "invalid_request"


class UnknownConceptError(InvalidRequestError):
    """A request named concept ids that the index does not hold."""

    code = "unknown_concept"

    def __init__(self, concept_ids: list[str]) -> None:
        super().__init__(
            f"unknown concept id(s): {', '.join(concept_ids)}",
            details={"unknown_concept_ids": concept_ids},
        )
        self.concept_ids = concept_ids


@dataclass(frozen=True)
class BundleRecordError:
    """One bad record of a bundle: where it is and why it was rejected."""

    file: str
    line: int
    reason: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.reason}"


class BundleError(TutorGraphError):
    """A curriculum bundle that is missing, unreadable or holds invalid records."""

    code = "invalid_bundle"

    def __init__(self, message: str, *, errors: list[BundleRecordError] | None = None) -> None:
        errs = errors or []
        super().__init__(message, details={"errors": [str(e) for e in errs[:100]]})
        self.errors = errs


class StoreError(TutorGraphError):
    """A store failed to read or write."""

    code = "store_error"


class IndexNotFoundError(StoreError):
    """No index exists at the configured location."""

    code = "index_not_found"

    def __init__(self, index_dir: Path) -> None:
        super().__init__(
            f"no tutorgraph index at {index_dir}; run `tutorgraph ingest data/curriculum` first",
            details={"index_dir": str(index_dir)},
        )


class EmbedderMismatchError(StoreError):
    """The index was built with another embedder than the one configured."""

    code = "embedder_mismatch"


class SourceUnavailableError(StoreError):
    """No retrieval source could answer at all."""

    code = "source_unavailable"

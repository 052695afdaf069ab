"""The error tree drawn in `tutorgraph_client.errors`' docstring is the real one, the HTTP
category holds the status codes the API answers with, and `tutorgraph.errors` re-exports
every name of it."""

from __future__ import annotations

import doctest
import re

import pytest

import tutorgraph.errors
import tutorgraph_client.errors as tree
from tutorgraph.api.errors import status_for

pytestmark = pytest.mark.unit

# A line of the drawing: the tree's prefix (`│   ├── `), then a class name.
_LINE = re.compile(r"^(?P<prefix>(?:[│ ]   )*(?:[├└]── )?)(?P<name>[A-Z]\w*Error)\b")


def drawn_parents(doc: str) -> dict[str, str | None]:
    """Each class of the drawing and its parent (None for the root), from the indentation."""
    lines = doc.splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip() == "TutorGraphError")
    indent = len(lines[start]) - len(lines[start].lstrip())
    parents: dict[str, str | None] = {}
    stack: list[str] = []
    for line in lines[start:]:
        if not line.strip():
            break
        match = _LINE.match(line[indent:])
        assert match is not None, f"not a line of the tree: {line!r}"
        depth = len(match["prefix"]) // 4
        del stack[depth:]
        assert len(stack) == depth, f"a line deeper than its parent: {line!r}"
        parents[match["name"]] = stack[-1] if stack else None
        stack.append(match["name"])
    return parents


def real_parents() -> dict[str, str | None]:
    """Each exception class the module defines and its base (None for the root)."""
    out: dict[str, str | None] = {}
    todo = [tree.TutorGraphError]
    while todo:
        cls = todo.pop()
        if cls.__module__ != tree.__name__:
            continue  # a subclass defined elsewhere (the engine's training refusals)
        base = cls.__bases__[0]
        out[cls.__name__] = None if cls is tree.TutorGraphError else base.__name__
        todo.extend(cls.__subclasses__())
    return out


def test_the_drawn_tree_is_the_class_hierarchy() -> None:
    assert tree.__doc__ is not None
    assert drawn_parents(tree.__doc__) == real_parents()


def test_the_parser_sees_a_misplaced_class() -> None:
    doc = "\n".join(
        ["    TutorGraphError", "    ├── StoreError", "    │   └── APIError", "    └── BundleError"]
    )
    assert drawn_parents(doc) == {
        "TutorGraphError": None,
        "StoreError": "TutorGraphError",
        "APIError": "StoreError",
        "BundleError": "TutorGraphError",
    }


@pytest.mark.parametrize(
    ("cls", "status"),
    [
        (tree.AuthenticationError, 401),
        (tree.PermissionDeniedError, 403),
        (tree.CrossSiteRequestError, 403),
        (tree.NotFoundError, 404),
        (tree.RequestTimeoutError, 408),
        (tree.ConflictError, 409),
        (tree.PayloadTooLargeError, 413),
        (tree.MisdirectedRequestError, 421),
        (tree.RateLimitedError, 429),
        (tree.ServerError, 500),
    ],
)
def test_the_http_category_holds_the_status_the_api_answers_with(
    cls: type[tree.HTTPStatusError], status: int
) -> None:
    assert issubclass(cls, tree.HTTPStatusError)
    assert issubclass(cls, tree.APIError)
    assert cls.status_code == status
    exc = cls.__new__(cls)
    tree.TutorGraphError.__init__(exc, "x")
    assert status_for(exc) == status


def test_the_engine_errors_keep_their_status() -> None:
    assert status_for(tree.UnknownConceptError(["x"])) == 422
    assert status_for(tree.BundleError("x")) == 422
    assert status_for(tree.IndexBusyError("x")) == 409
    assert status_for(tree.DiskFullError("x")) == 507
    assert status_for(tree.IndexDamagedError("x")) == 503
    assert status_for(tree.SourceUnavailableError("x")) == 503
    assert status_for(tree.StageFailedError("rank", ValueError())) == 500
    assert tree.UnknownConceptError(["x"]).status_code is None  # not an HTTP answer


@pytest.mark.parametrize(
    ("status", "code", "expected"),
    [
        (404, "concept_not_found", tree.ConceptNotFoundError),
        (422, "unknown_concept", tree.UnknownConceptError),
        (408, "http_error", tree.HTTPStatusError),
        (418, "no_such_code", tree.HTTPStatusError),
        (502, "http_error", tree.ServerError),
        (503, "no_such_code", tree.ServerError),
        (500, "stage_failed", tree.StageFailedError),
        (400, "api_error", tree.HTTPStatusError),
    ],
)
def test_an_error_body_becomes_its_class_with_the_answers_status(
    status: int, code: str, expected: type[tree.TutorGraphError]
) -> None:
    exc = tree.error_from_wire(status, code, "m", {})
    assert type(exc) is expected
    assert exc.status_code == status


def test_the_client_connection_errors_are_api_errors_without_a_status() -> None:
    assert issubclass(tree.APITimeoutError, tree.APIConnectionError)
    assert issubclass(tree.APIConnectionError, tree.APIError)
    assert not issubclass(tree.APIConnectionError, tree.HTTPStatusError)
    assert tree.APIConnectionError("down").status_code is None


def test_the_engine_re_exports_every_name_of_the_tree() -> None:
    assert tutorgraph.errors.__all__ == tree.__all__
    for name in tree.__all__:
        assert getattr(tutorgraph.errors, name) is getattr(tree, name)


def test_a_failure_reason_is_one_line_in_one_format_and_names_no_host() -> None:
    assert doctest.testmod(tree, verbose=False).failed == 0
    down = tree.StoreError(
        "bolt://neo4j:s3cret@db.internal:7687 refused\nretry later",
        details={"cause": "ServiceUnavailable", "database": "neo4j"},
    )
    reasons = [
        tree.failure_reason("graph", down),
        tree.failure_reason("link", RuntimeError("http://10.0.0.7:8000 said no")),
        tree.failure_reason("vector", TimeoutError("db.internal"), timeout_s=0.25),
        tree.failure_reason("graph", "circuit breaker open after 3 failures in a row"),
    ]
    assert reasons == [
        "graph failed: StoreError (ServiceUnavailable)",
        "link failed: RuntimeError",
        "vector failed: no answer within 0.25 s",
        "graph failed: circuit breaker open after 3 failures in a row",
    ]
    # A required stage's error says the same thing in the same words.
    stage = tree.StageFailedError("fuse", KeyError("x"))
    assert stage.message == tree.failure_reason("the fuse stage", KeyError("x"))
    assert stage.message == "the fuse stage failed: KeyError"

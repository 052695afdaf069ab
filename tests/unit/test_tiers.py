"""A test's tier is its folder (the root `conftest.py` marks it): this file says nothing of
its tier, and is in the unit tier all the same, so CI's fast job (`-m "unit and not slow"`)
runs it."""

from __future__ import annotations

import pytest


def test_a_file_under_unit_is_in_the_unit_tier_without_saying_so(
    request: pytest.FixtureRequest,
) -> None:
    assert request.node.get_closest_marker("unit") is not None
    assert request.node.get_closest_marker("integration") is None

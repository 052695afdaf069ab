"""The root conftest: the shared fixtures of `tests/fixtures.py`, for every test tree, and the
tiers marked by folder.

The engine's tests live in `tests/` and the research package's in `research/tests/`; both
use the same session fixtures (the slice bundle, the real index, the CLI runners). Loaded
here, as a plugin, they exist once per session whichever trees run.

A test's tier is its folder: every test under a `unit/` folder is marked `unit`, under
`integration/` `integration` (CI's fast job runs `-m "unit and not slow"`, so a file that
forgot its mark would never run there). Any other test (`tests/contract/` holds both tiers)
must mark its own tier, or collection stops naming it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytest_plugins = ["tests.fixtures"]

TIERS = ("unit", "integration")


def _folders(item: pytest.Item, root: Path) -> set[str]:
    """The folders of the item's file below the repository (a checkout that itself lies
    under an `integration/` folder marks nothing)."""
    path = item.path
    return set(path.relative_to(root).parts[:-1]) if path.is_relative_to(root) else set()


# First: `-m` deselects by these marks in pytest's own hook.
@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    unmarked = []
    for item in items:
        folders = _folders(item, config.rootpath)
        for tier in TIERS:
            if tier in folders:
                item.add_marker(tier)
        # A test under tests/ carries a tier; a doctest run over src/ needs none.
        if "tests" in folders and not any(item.get_closest_marker(t) for t in TIERS):
            unmarked.append(item.nodeid)
    if unmarked:
        more = f" and {len(unmarked) - 5} more" if len(unmarked) > 5 else ""
        raise pytest.UsageError(
            "a test outside a unit/ or integration/ folder must mark its tier "
            f"(pytest.mark.unit or pytest.mark.integration): {', '.join(unmarked[:5])}{more}"
        )

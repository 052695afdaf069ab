"""The root conftest: the shared fixtures of `tests/fixtures.py`, for every test tree.

The engine's tests live in `tests/` and the research package's in `research/tests/`; both
use the same session fixtures (the slice bundle, the real index, the CLI runners). Loaded
here, as a plugin, they exist once per session whichever trees run.
"""

pytest_plugins = ["tests.fixtures"]

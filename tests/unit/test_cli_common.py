"""The CLI's consoles print curriculum ids as they are."""

from __future__ import annotations

import pytest

from tutorgraph.cli.plugin import console, err_console

pytestmark = pytest.mark.unit


@pytest.mark.parametrize("out", [console, err_console])
def test_ids_are_not_read_as_emoji_codes(out) -> None:  # type: ignore[no-untyped-def]
    # `:question:` is a rich emoji code; an Eedi question id must not become a symbol.
    with out.capture() as captured:
        out.print("eedi:question:529 and eedi:misconception:1667")
    assert captured.get().strip() == "eedi:question:529 and eedi:misconception:1667"

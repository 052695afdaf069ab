"""What every OpenStax record names: its source, its license, and a section concept's id."""

from __future__ import annotations

__all__ = ["OPENSTAX_LICENSE", "OPENSTAX_SOURCE", "section_id"]

OPENSTAX_SOURCE = "openstax"
OPENSTAX_LICENSE = "CC-BY-4.0"


def section_id(module_id: str) -> str:
    """The concept id of an OpenStax section module.

    >>> section_id("m81244")
    'openstax:section:m81244'
    """
    return f"openstax:section:{module_id}"

"""The CNXML vocabulary: namespaces, the tags and classes the reader acts on, local tag names."""

from __future__ import annotations

from typing import Any

from tutorgraph.mathtext.mathml import MATHML_NS

__all__ = [
    "_C",
    "_COL",
    "_DROPPED_NOTES",
    "_EXERCISE_SECTIONS",
    "_INLINE",
    "_MATH_TAG",
    "_MD",
    "_NON_SECTION_CLASSES",
    "_NOT_RENDERED",
    "_local",
]

_CNXML_NS = "http://cnx.rice.edu/cnxml"
_COLLXML_NS = "http://cnx.rice.edu/collxml"
_MDML_NS = "http://cnx.rice.edu/mdml"
_C = "{" + _CNXML_NS + "}"
_COL = "{" + _COLLXML_NS + "}"
_MD = "{" + _MDML_NS + "}"
_MATH_TAG = "{" + MATHML_NS + "}math"

# Module classes that are not sections of a chapter.
_NON_SECTION_CLASSES = frozenset({"introduction", "preface", "appendix"})
# Notes that carry no subject matter: pointers to videos, manipulatives, reading activities;
# "be-prepared" holds the readiness quiz, which becomes edges instead of text.
_DROPPED_NOTES = frozenset(
    {
        "be-prepared",
        "media",
        "media-2",
        "manipulative-math",
        "links-to-literacy",
        "links-to-learning",
    }
)
_EXERCISE_SECTIONS = frozenset({"section-exercises", "review-exercises", "practice-test"})
_NOT_RENDERED = frozenset({"media", "image", "label", "title", "metadata", "colspec", "glossary"})
_INLINE = frozenset(
    {"emphasis", "term", "span", "foreign", "cite", "cite-title", "code", "quote", "sup", "sub"}
)


def _local(el: Any) -> str:
    tag = el.tag
    if not isinstance(tag, str):
        return ""
    return tag.rsplit("}", 1)[-1]

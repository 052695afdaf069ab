"""Regenerate the tables of docs/RESULTS.md from the JSON files in results/.

    python research/scripts/results_md.py          # rewrite the generated blocks in place
    python research/scripts/results_md.py --check  # exit 1 (and show the diff) if out of date

A generated block sits between two markers; everything outside them is hand-written prose
and is kept as it is:

    <!-- generated:NAME -->
    ...the table BLOCKS[NAME] renders from results/*.json...
    <!-- /generated -->

Every block the script knows must appear in the document once, and every marker must name a
block it knows. Figures in the prose around the blocks are not checked: `BLOCKS` in the
package beside this script (`results_blocks/`, one module per section of the document) lists
what is generated.
"""

from __future__ import annotations

import argparse
import difflib
import re
import sys
from collections.abc import Sequence
from pathlib import Path

# `python research/scripts/results_md.py` puts research/scripts/ first on sys.path: the
# blocks are the package beside it.
from results_blocks import BLOCKS, Results

REPO = Path(__file__).resolve().parents[2]
DOC = REPO / "docs" / "RESULTS.md"
RESULTS = REPO / "results"

MARKER = re.compile(
    r"<!-- generated:(?P<name>[a-z0-9-]+) -->\n(?P<body>.*?)<!-- /generated -->", re.DOTALL
)


# -- the document ------------------------------------------------------------------------


def render(text: str, results: Results) -> str:
    """TEXT with every generated block rewritten; prose outside the markers unchanged."""
    seen = [m.group("name") for m in MARKER.finditer(text)]
    unknown = sorted(set(seen) - set(BLOCKS))
    missing = [name for name in BLOCKS if name not in seen]
    twice = sorted({name for name in seen if seen.count(name) > 1})
    problems = [
        *(f"unknown block {n!r}" for n in unknown),
        *(f"block {n!r} is not in the document" for n in missing),
        *(f"block {n!r} appears more than once" for n in twice),
    ]
    if problems:
        raise SystemExit("docs/RESULTS.md markers: " + "; ".join(problems))

    def body(match: re.Match[str]) -> str:
        name = match.group("name")
        return (
            f"<!-- generated:{name} -->\n\n{BLOCKS[name](results).strip()}\n\n<!-- /generated -->"
        )

    return MARKER.sub(body, text)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="fail if the document is stale")
    parser.add_argument("--doc", type=Path, default=DOC, help="the document (docs/RESULTS.md)")
    parser.add_argument("--results", type=Path, default=RESULTS, help="the results folder")
    args = parser.parse_args(argv)
    text = args.doc.read_text(encoding="utf-8")
    new = render(text, Results(args.results))
    if new == text:
        return 0
    if args.check:
        sys.stdout.writelines(
            difflib.unified_diff(
                text.splitlines(keepends=True),
                new.splitlines(keepends=True),
                f"{args.doc} (as committed)",
                f"{args.doc} (from {args.results})",
            )
        )
        rerun = "python research/scripts/results_md.py"
        print(f"\n{args.doc} is out of date: run {rerun}", file=sys.stderr)
        return 1
    args.doc.write_text(new, encoding="utf-8")
    print(f"{args.doc}: generated blocks rewritten", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

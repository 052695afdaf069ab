"""The stages' declarations as DESIGN section 2's table, in pipeline order
(`retrieval.stages.STAGES`): whether each is required (a required stage's failure fails the
request; an optional one's degrades it), the `timings_ms` key its time adds to, and which
`RequestState` fields it reads and writes.

The table lives in docs/DESIGN.md between the lines `STAGE_TABLE_START` and
`STAGE_TABLE_END`; a unit test checks that it matches the code. Regenerate it with

    python -m tutorgraph.retrieval.stage_table --write docs/DESIGN.md

>>> print(stage_table().splitlines()[2])
| check | yes | — | — | — |
"""

from __future__ import annotations

import argparse
from collections.abc import Iterable
from pathlib import Path

from tutorgraph.retrieval.pipeline import Stage, declared
from tutorgraph.retrieval.stages import STAGES

__all__ = ["STAGE_TABLE_END", "STAGE_TABLE_START", "stage_table", "with_stage_table"]

STAGE_TABLE_START = "<!-- stage-table:start -->"
STAGE_TABLE_END = "<!-- stage-table:end -->"
REGENERATE = "python -m tutorgraph.retrieval.stage_table --write docs/DESIGN.md"


def _names(fields: frozenset[str]) -> str:
    return ", ".join(f"`{f}`" for f in sorted(fields)) or "—"


def stage_table(stages: Iterable[Stage | type[Stage]] = STAGES) -> str:
    """`stages`' declarations as a markdown table (stage | required | timing | reads |
    writes), in order; the request and the bookkeeping fields (`state.INITIAL`) are left
    out. `timing` is the `timings_ms` key the runner adds the stage's time to (—: none; a
    stage may time its own parts: route the `embed`, link's task `link`, search each
    source)."""
    rows = ["| stage | required | timing | reads | writes |", "|---|---|---|---|---|"]
    rows += [
        f"| {s.name} | {'yes' if s.required else 'no'} | "
        f"{f'`{s.timing}`' if s.timing else '—'} | "
        f"{_names(declared(s, 'reads'))} | {_names(declared(s, 'writes'))} |"
        for s in stages
    ]
    return "\n".join(rows) + "\n"


def with_stage_table(doc: str, table: str | None = None) -> str:
    """`doc` with `table` (by default the stages' own) between its marker lines; a
    `ValueError` when the markers are missing or out of order."""
    lines = doc.splitlines(keepends=True)
    marks = [line.rstrip("\n") for line in lines]
    if STAGE_TABLE_START not in marks or STAGE_TABLE_END not in marks:
        raise ValueError(
            f"the document has no {STAGE_TABLE_START} ... {STAGE_TABLE_END} lines "
            "(DESIGN section 2 holds them)"
        )
    start, end = marks.index(STAGE_TABLE_START), marks.index(STAGE_TABLE_END)
    if end < start:
        raise ValueError(f"{STAGE_TABLE_END} comes before {STAGE_TABLE_START}")
    block = table if table is not None else stage_table()
    return "".join([*lines[: start + 1], block, *lines[end:]])


def main(argv: list[str] | None = None) -> int:
    """Print the table, or with `--write DOC` put it between DOC's markers (`--check`: exit
    1 when DOC's table is not the stages' own)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--write", type=Path, help="the document to rewrite (docs/DESIGN.md)")
    parser.add_argument("--check", type=Path, help="the document to check")
    args = parser.parse_args(argv)
    if args.write is None and args.check is None:
        print(stage_table(), end="")
        return 0
    path: Path = args.write or args.check
    text = path.read_text(encoding="utf-8")
    new = with_stage_table(text)
    if args.check is not None:
        if new != text:
            print(f"{path}: the stage table is stale; run {REGENERATE}")
            return 1
        return 0
    if new != text:
        path.write_text(new, encoding="utf-8")
        print(f"{path}: stage table written")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

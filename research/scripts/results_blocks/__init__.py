"""The generated blocks of docs/RESULTS.md, one function per block, grouped by the
document's sections (`research/scripts/results_md.py` writes them between the markers).

Each block reads its files from `results/` through `Results` and returns a Markdown table.
"""

from __future__ import annotations

from collections.abc import Callable

from .common import Results
from .dialogue import dialogue_63, dialogue_63_batches
from .eedi import eedi_rankers
from .front_door import cold_start, cold_start_breakdown, coverage, coverage_61
from .linking import alignment, alignment_61, linker_attempts, linker_cv, linker_cv5, linking_packet
from .packets import latency_47, slots_62, teach_61, tutoring_bars, tutoring_fields, tutoring_typed

__all__ = ["BLOCKS", "Results"]

# The blocks, in the order the document holds them.
BLOCKS: dict[str, Callable[[Results], str]] = {
    "dialogue-63": dialogue_63,
    "dialogue-63-batches": dialogue_63_batches,
    "coverage-61": coverage_61,
    "teach-61": teach_61,
    "alignment-61": alignment_61,
    "slots-62": slots_62,
    "linking-packet": linking_packet,
    "linker-cv": linker_cv,
    "linker-cv5": linker_cv5,
    "linker-attempts": linker_attempts,
    "tutoring-typed": tutoring_typed,
    "tutoring-fields": tutoring_fields,
    "tutoring-bars": tutoring_bars,
    "latency-47": latency_47,
    "eedi-rankers": eedi_rankers,
    "cold-start": cold_start,
    "cold-start-breakdown": cold_start_breakdown,
    "coverage": coverage,
    "alignment": alignment,
}

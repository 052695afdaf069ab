"""Problem generators for the Common Core standards of grades 3 and 4 (issue 48).

Covers the standards whose skill can be computed: multiplication and division within 100 and
two-step problems (3.OA), multiplicative comparison, multistep problems, factors and patterns
(4.OA), rounding and multi-digit arithmetic (3.NBT, 4.NBT), fractions on the number line,
equivalence, comparison, addition and multiplication by a whole number, and decimal notation
(3.NF, 4.NF), time, mass, liquid volume, graphs, line plots, area, perimeter, conversions and
angles (3.MD, 4.MD), and counted attributes of shapes and unit-fraction parts (3.G, 4.G).
Each generator returns the problem's text, an expression that computes its answer from the
problem's numbers, and the answer.
"""

from __future__ import annotations

from tutorgraph.training.problems._registry import Generator
from tutorgraph.training.problems.grade_34 import (
    g3_g,
    g3_md_ab,
    g3_md_cd,
    g3_nbt,
    g3_nf,
    g3_oa_a,
    g3_oa_bcd,
    g4_g,
    g4_md,
    g4_nbt,
    g4_nf,
    g4_oa,
)

__all__ = ["GENERATORS"]

# The registry's order: grade 3's domains, then grade 4's.
GENERATORS: tuple[Generator, ...] = (
    g3_oa_a.GENERATORS
    + g3_oa_bcd.GENERATORS
    + g3_nbt.GENERATORS
    + g3_nf.GENERATORS
    + g3_md_ab.GENERATORS
    + g3_md_cd.GENERATORS
    + g3_g.GENERATORS
    + g4_oa.GENERATORS
    + g4_nbt.GENERATORS
    + g4_nf.GENERATORS
    + g4_md.GENERATORS
    + g4_g.GENERATORS
)

"""Generators for the computable standards of grades 5 and 6 (issue 48).

Grade 5: expressions with grouping symbols and patterns (OA), place value, decimals and
multi-digit arithmetic (NBT), fraction sums, products and unit-fraction quotients (NF),
conversions, line plots and volume (MD), the first-quadrant coordinate plane and the
attributes shared down the quadrilateral hierarchy (G). Grade 6: ratios, rates and percents
(RP), fraction division, GCF/LCM, decimals and the rational number line (NS), exponents,
expressions, equations and inequalities (EE), area, volume, coordinates and nets (G), and
summaries of data sets (SP). Each standard has word and bare generators where it has both.
"""

from __future__ import annotations

from tutorgraph.training.problems._registry import Generator
from tutorgraph.training.problems.grade_56 import (
    g5_g,
    g5_md,
    g5_nbt_a,
    g5_nbt_b,
    g5_nf_a,
    g5_nf_b,
    g5_oa,
    g6_ee,
    g6_g,
    g6_ns_ab,
    g6_ns_c,
    g6_rp,
    g6_sp,
)

__all__ = ["GENERATORS"]

# The registry's order: grade 5's domains, then grade 6's.
GENERATORS: tuple[Generator, ...] = (
    g5_oa.GENERATORS
    + g5_nbt_a.GENERATORS
    + g5_nbt_b.GENERATORS
    + g5_nf_a.GENERATORS
    + g5_nf_b.GENERATORS
    + g5_md.GENERATORS
    + g5_g.GENERATORS
    + g6_rp.GENERATORS
    + g6_ns_ab.GENERATORS
    + g6_ns_c.GENERATORS
    + g6_ee.GENERATORS
    + g6_g.GENERATORS
    + g6_sp.GENERATORS
)

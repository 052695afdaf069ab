"""Generators for the computable standards of kindergarten, grade 1 and grade 2.

Counting and cardinality (K.CC), operations and algebraic thinking (K-2 OA: add and subtract
within 5, 10, 20 and 100 with the unknown in every position, three addends, properties, the
equal sign, odd and even, arrays), place value (K-2 NBT: teens, tens and ones, hundreds, skip
counting, number names and expanded form, comparing, adding and subtracting within 100 and
1000), measurement and data (length in units and standard units, time to the hour, half hour
and five minutes, coins and dollar bills, picture and bar graphs, line plots) and geometry
(sides, corners, faces, composing shapes, equal shares, rows and columns of squares). Each
generator makes word problems ("word") or bare exercises ("bare") in worksheet wording and in
students' own words; every answer is computed and comes with the expression that computes it.
"""

from __future__ import annotations

from tutorgraph.training.problems._registry import Generator
from tutorgraph.training.problems.grade_k2 import (
    g1_g,
    g1_md,
    g1_nbt,
    g1_oa_ab,
    g1_oa_cd,
    g2_g,
    g2_md_ab,
    g2_md_cd,
    g2_nbt_a,
    g2_nbt_b,
    g2_oa,
    gk_cc_ab,
    gk_cc_c,
    gk_g,
    gk_md,
    gk_nbt,
    gk_oa,
)

__all__ = ["GENERATORS"]

# The registry's order: kindergarten's domains, then grade 1's, then grade 2's.
GENERATORS: tuple[Generator, ...] = (
    gk_cc_ab.GENERATORS
    + gk_cc_c.GENERATORS
    + gk_nbt.GENERATORS
    + gk_oa.GENERATORS
    + gk_md.GENERATORS
    + gk_g.GENERATORS
    + g1_oa_ab.GENERATORS
    + g1_oa_cd.GENERATORS
    + g1_nbt.GENERATORS
    + g1_md.GENERATORS
    + g1_g.GENERATORS
    + g2_oa.GENERATORS
    + g2_nbt_a.GENERATORS
    + g2_nbt_b.GENERATORS
    + g2_md_ab.GENERATORS
    + g2_md_cd.GENERATORS
    + g2_g.GENERATORS
)

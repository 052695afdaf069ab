"""Generators for the computable standards of grades 7 and 8 (issue 48).

Grade 7: rational-number arithmetic (7.NS), expressions, equations and inequalities (7.EE),
proportional relationships and percent (7.RP), scale drawings, circles, angles, area, surface
area and volume (7.G), sampling and probability (7.SP). Grade 8: exponents, roots and scientific
notation, slope, linear equations and systems (8.EE), functions (8.F), transformations, angle
facts, the Pythagorean Theorem and volumes (8.G), repeating decimals and estimates of irrational
numbers (8.NS), linear models and two-way tables (8.SP). Each problem comes as worksheet wording
or a student's own words, with the expression that computes its answer.
"""

from __future__ import annotations

from tutorgraph.training.problems._registry import Generator
from tutorgraph.training.problems.grade_78 import (
    g7_ee_a,
    g7_ee_b,
    g7_g_a,
    g7_g_b,
    g7_ns_1,
    g7_ns_2_3,
    g7_rp,
    g7_sp_ab,
    g7_sp_c,
    g8_ee_a,
    g8_ee_bc,
    g8_f,
    g8_g_a,
    g8_g_bc,
    g8_ns,
    g8_sp,
)

__all__ = ["GENERATORS"]

# The registry's order: grade 7's domains, then grade 8's.
GENERATORS: tuple[Generator, ...] = (
    g7_ns_1.GENERATORS
    + g7_ns_2_3.GENERATORS
    + g7_rp.GENERATORS
    + g7_ee_a.GENERATORS
    + g7_ee_b.GENERATORS
    + g7_g_a.GENERATORS
    + g7_g_b.GENERATORS
    + g7_sp_ab.GENERATORS
    + g7_sp_c.GENERATORS
    + g8_ee_a.GENERATORS
    + g8_ee_bc.GENERATORS
    + g8_f.GENERATORS
    + g8_g_a.GENERATORS
    + g8_g_bc.GENERATORS
    + g8_ns.GENERATORS
    + g8_sp.GENERATORS
)

"""The math-message reader benchmark's generator (`data/benchmarks/reader_messages.jsonl`).

Written by `research/scripts/build_reader_messages.py`; the modules, in the order the data
flows:

* `problems`: the canonical problem grammar (`7 - 2 * 3`, `2 1/2 * 3`, `sqrt(16)`,
  `40% of 120`, `round 2.45 to 1 dp`, ...) as trees, its parser and exact values, and `Item`,
  one (problem, student answer) pair with its labels;
* `render`: how a student writes a tree (`Style`), and the canonical ASCII form;
* `eedi`: the Eedi pairs, extracted from `train.csv`'s LaTeX and checked against Eedi's key;
* `own`: the project's own problems, each misconception id given only where the wrong
  answer is exactly what that misconception produces;
* `phrasings`: the 35 message templates and their styles;
* `build`: the split by phrasing and the deterministic choice of phrasings per item.

The grammar is the benchmark's own on purpose: its labels (the problem, the answers) must
not come from the engine's reader (`tutorgraph.refinement.expressions`) or the diagnosis's
parser (`tutorgraph.diagnosis.expression`), the code the benchmark scores.
"""

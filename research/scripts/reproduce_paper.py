"""Regenerate every result, table, figure and number of the paper from the raw data; see
`tutorgraph_research.reproduce` for the phases and the flags (`--help`).

    .venv/bin/python research/scripts/reproduce_paper.py          # the full run (about 2 h here)
    .venv/bin/python research/scripts/reproduce_paper.py --quick  # small samples (minutes)
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from tutorgraph_research.reproduce import main

if __name__ == "__main__":
    os.chdir(Path(__file__).resolve().parents[2])  # paths are relative to the checkout
    sys.exit(main())

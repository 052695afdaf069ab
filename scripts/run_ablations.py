"""Run (or resume) the ablations: a thin wrapper of `tutorgraph ablate` (same options).

    python scripts/run_ablations.py --data ../shared/data --out results/ablations.jsonl \\
        --work .ablation-work [--tasks ...] [--configs ...] [--quick] [--seed N]
"""

from __future__ import annotations

import typer

from tutorgraph.cli.ablate import ablate_cmd

if __name__ == "__main__":
    typer.run(ablate_cmd)

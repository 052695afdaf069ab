"""Thin wrapper: `python scripts/train_reranker.py --train ../shared/data/eedi/train.csv`.

Same as `tutorgraph train-reranker`; see `--help`.
"""

import typer

from tutorgraph.cli.train import train_reranker_cmd

if __name__ == "__main__":
    typer.run(train_reranker_cmd)

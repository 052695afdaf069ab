#!/usr/bin/env bash
# Fresh-machine install: a virtual environment in .venv with the CPU build of torch first,
# so that sentence-transformers does not pull several GB of CUDA packages.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
  "$PYTHON" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet "torch==2.13.0"
# The client distribution (clients/python: the API's models, errors and clients, which the
# engine depends on), the engine with its dev extras, and the research package (research/: the
# benchmarks, the ablation, the paper; it adds `tutorgraph bench` and `tutorgraph ablate`).
.venv/bin/python -m pip install --quiet -e "clients/python[langchain,llamaindex]" -e ".[dev]" -e research/
echo "tutorgraph installed in .venv ($(.venv/bin/tutorgraph --help >/dev/null && echo ok))"

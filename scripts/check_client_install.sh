#!/usr/bin/env bash
# Install the client distribution (clients/python) into a fresh venv and check that none of
# the engine's heavy dependencies arrive with it, and that a client and a packet load.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python3}"
VENV="$(mktemp -d)/client-venv"
trap 'rm -rf "$(dirname "$VENV")"' EXIT
"$PYTHON" -m venv "$VENV"
"$VENV/bin/python" -m pip install --quiet --upgrade pip
"$VENV/bin/python" -m pip install --quiet ./clients/python
installed="$("$VENV/bin/python" -m pip list --format=freeze)"
heavy="$(echo "$installed" | grep -iE '^(numpy|torch|onnx|onnxruntime|lightgbm|tutorgraph)==' || true)"
if [ -n "$heavy" ]; then
  echo "tutorgraph-client pulled engine dependencies:" >&2
  echo "$heavy" >&2
  exit 1
fi
"$VENV/bin/python" - <<'PY'
from tutorgraph_client import ReasoningPacket, TutorGraph
from tutorgraph_client.models.packet import TIMING_KEYS

packet = ReasoningPacket(query="I got 3 + 4 x 2 = 14", timings_ms=dict.fromkeys(TIMING_KEYS, 0.0))
assert packet.slots.teach.hits == [] and TutorGraph.__name__ == "TutorGraph"
PY
echo "tutorgraph-client: $(echo "$installed" | wc -l) packages, none of numpy, torch, onnx, onnxruntime, lightgbm"

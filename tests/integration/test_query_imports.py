"""What a one-shot query loads: the real models, in a fresh interpreter each."""

from __future__ import annotations

import subprocess
import sys

import pytest

pytestmark = pytest.mark.integration


def test_loading_models_for_a_query_imports_neither_torch_nor_lightgbm() -> None:
    """The one-shot `tutorgraph query` path: the ONNX embedder tokenizes without transformers,
    and the learned ranker reads its LightGBM booster only when it first scores (without
    scikit-learn or pandas)."""
    code = (
        "import sys\n"
        "from tutorgraph.config import Settings\n"
        "from tutorgraph.retrieval.factory import load_models\n"
        "models = load_models(Settings())\n"
        "assert models.embedder.embed(['what is 3/4 of 12?']).shape == (1, 384)\n"
        "print(sorted(m for m in ('torch', 'transformers', 'lightgbm', 'sklearn') "
        "if m in sys.modules))\n"
        "models.ranker.value.combiner.warm()\n"
        "print('lightgbm' in sys.modules, 'sklearn' in sys.modules, 'pandas' in sys.modules)\n"
    )
    # The first load on a machine exports the model to ONNX (with torch), once.
    export = "from tutorgraph.config import Settings; from tutorgraph.retrieval.factory import "
    export += "make_embedder; make_embedder(Settings()).load()"
    subprocess.run([sys.executable, "-c", export], capture_output=True, check=True, timeout=300)
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=300
    )
    # LightGBM without its scikit-learn and pandas integrations (seconds of a first score).
    assert out.stdout.split("\n")[:2] == ["[]", "True False False"]

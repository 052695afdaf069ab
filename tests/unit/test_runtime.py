"""The CPU settings of inference: ONNX sessions that sleep between calls, BLAS capped."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper
from threadpoolctl import threadpool_info, threadpool_limits

from tutorgraph.embedding.runtime import limit_blas_threads, onnx_session

pytestmark = pytest.mark.unit


def _blas_threads() -> set[int]:
    return {p["num_threads"] for p in threadpool_info() if p["user_api"] == "blas"}


def test_onnx_session_runs_and_does_not_spin(tmp_path: Path) -> None:
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [None, 2])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [None, 2])
    graph = helper.make_graph([helper.make_node("Relu", ["x"], ["y"])], "relu", [x], [y])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.save(model, tmp_path / "relu.onnx")

    session = onnx_session(tmp_path / "relu.onnx", threads=1)

    out = session.run(None, {"x": np.array([[-1.0, 2.0]], dtype=np.float32)})[0]
    assert out.tolist() == [[0.0, 2.0]]
    opts = session.get_session_options()
    assert opts.get_session_config_entry("session.intra_op.allow_spinning") == "0"
    assert opts.intra_op_num_threads == 1


def test_limit_blas_threads_caps_numpy_and_zero_leaves_it() -> None:
    with threadpool_limits():  # restores whatever the test changed
        before = _blas_threads()
        limit_blas_threads(0)
        assert _blas_threads() == before
        limit_blas_threads(1)
        assert _blas_threads() == {1}

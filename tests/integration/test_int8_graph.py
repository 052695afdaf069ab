"""The fine-tuned encoder's int8 graph: its weights are stored signed, which ONNX Runtime's
fast x86 kernels multiply, signing an unsigned graph leaves every output bit-identical, and a
session stores them as its CPU multiplies them exactly (signed with VNNI, else unsigned)."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from tests.conftest import minilm_int8_graph

from tutorgraph.embedding.int8_weights import graph_for_this_cpu
from tutorgraph.embedding.runtime import onnx_session
from tutorgraph.ranking.tuned import TUNED_GRAPH
from tutorgraph.training.onnx_export import sign_int8_weights

pytestmark = pytest.mark.integration

BUNDLED = Path(__file__).parents[2] / "src/tutorgraph/_weights/eedi-ranker/tuned/model"


def _weight_types(graph: Path) -> set[int]:
    model = onnx.load(str(graph))
    inits = {t.name: t.data_type for t in model.graph.initializer}
    return {
        inits[node.input[1]]
        for node in model.graph.node
        if node.op_type == "MatMulInteger" and node.input[1] in inits
    }


def _unsigned(graph: Path, out: Path) -> Path:
    """`graph` with its signed weights and zero points stored unsigned (as ONNX Runtime's
    per-channel quantiser writes them): the graph the signing undoes."""
    model = onnx.load(str(graph))
    inits = {t.name: t for t in model.graph.initializer}
    names = {
        n
        for node in model.graph.node
        if node.op_type == "MatMulInteger"
        for n in node.input[1::2]
        if n in inits
    }
    for n in names:
        shifted = onnx.numpy_helper.to_array(inits[n]).astype(np.int16) + 128
        inits[n].CopyFrom(onnx.numpy_helper.from_array(shifted.astype(np.uint8), n))
    onnx.save(model, str(out))
    return out


def _run(graph: Path | bytes, ids: np.ndarray) -> np.ndarray:
    source = graph if isinstance(graph, bytes) else str(graph)
    session = ort.InferenceSession(source, providers=["CPUExecutionProvider"])
    names = {i.name for i in session.get_inputs()}
    feed = {
        "input_ids": ids,
        "attention_mask": np.ones_like(ids),
        "token_type_ids": np.zeros_like(ids),
    }
    out: np.ndarray = session.run(None, {k: v for k, v in feed.items() if k in names})[0]
    return out


def test_the_quantiser_stores_signed_weights() -> None:
    assert _weight_types(minilm_int8_graph()) == {onnx.TensorProto.INT8}


def test_the_bundled_encoder_ships_signed_weights() -> None:
    assert _weight_types(BUNDLED / TUNED_GRAPH) == {onnx.TensorProto.INT8}


def test_signing_leaves_every_output_bit_identical(tmp_path: Path) -> None:
    unsigned = _unsigned(minilm_int8_graph(), tmp_path / "unsigned.onnx")
    assert _weight_types(unsigned) == {onnx.TensorProto.UINT8}
    signed = tmp_path / "signed.onnx"
    shutil.copy(unsigned, signed)
    assert sign_int8_weights(signed) == 72  # 36 products: a weight and a zero point each
    assert _weight_types(signed) == {onnx.TensorProto.INT8}
    assert sign_int8_weights(signed) == 0  # already signed: left as it is
    rng = np.random.default_rng(0)
    for length in (3, 17, 64):
        ids = np.array([[101, *rng.integers(1000, 29000, length).tolist(), 102]], dtype=np.int64)
        assert np.array_equal(_run(signed, ids), _run(unsigned, ids))


def test_a_session_stores_the_weights_as_its_cpu_multiplies_them(tmp_path: Path) -> None:
    signed = BUNDLED / TUNED_GRAPH
    as_avx2 = graph_for_this_cpu(signed, vnni=False)
    assert as_avx2 is not None  # signed in the file: unsigned for a CPU without VNNI
    unsigned = tmp_path / "unsigned.onnx"
    unsigned.write_bytes(as_avx2)
    assert _weight_types(unsigned) == {onnx.TensorProto.UINT8}
    assert graph_for_this_cpu(unsigned, vnni=False) is None  # already so: opened as it is
    as_vnni = graph_for_this_cpu(unsigned, vnni=True)
    assert as_vnni is not None
    ids = np.array([[101, 2054, 2003, 1017, 1009, 1018, 102]], dtype=np.int64)
    expected = _run(signed, ids)
    # Either way the same integers: bit-identical here, whatever this CPU has.
    assert np.array_equal(_run(as_vnni, ids), expected)
    assert np.array_equal(_run(as_avx2, ids), expected)
    session = onnx_session(unsigned, int8=True)
    kept = {i.name: i for i in session.get_inputs()}
    assert "input_ids" in kept
    feed = {"input_ids": ids, "attention_mask": np.ones_like(ids)}
    feed |= {"token_type_ids": np.zeros_like(ids)} if "token_type_ids" in kept else {}
    assert np.array_equal(session.run(None, feed)[0], expected)

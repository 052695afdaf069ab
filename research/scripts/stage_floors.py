"""Each warm retrieval stage against its floor on this machine.

- embedding: MiniLM-L6's multiply-adds for the median query length, at the fp32 and int8
  matrix-multiply throughput measured here (numpy's BLAS for fp32, ONNX Runtime's
  MatMulInteger for int8), against the measured `embed` stage; and each encoder a request
  runs, alone, one pass per query at the threads it is served with and at one thread (wall
  and CPU time): the index's MiniLM and the learned ranker's fine-tuned int8 encoder (and
  that encoder with its weights stored unsigned, as ONNX Runtime's quantiser writes them);
- vector search: an exact brute-force numpy search (one matrix-vector product and a
  partial sort) over the index's own vectors, and the Chroma query alone (ids and
  distances, as the embedded store asks), against the measured `vector` stage;
- the request: the CPU time it takes (every thread) over the machine's cores, the least wall
  time it could take (`bench latency`'s `cpu_floor_ms`), against the measured `total`.

A benchmark, not a test; it reads a `tutorgraph bench latency --out` file for the stages.

    .venv/bin/python research/scripts/stage_floors.py --latency results/latency_51.json \\
        --questions ../shared/data/eedi/train.csv --index-dir DIR --out results/stage_floors_51.json
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

import tutorgraph
from tutorgraph.config import DEFAULT_EMBEDDING_MODEL
from tutorgraph.embedding.onnx_embedder import OnnxEmbedder
from tutorgraph.index.layout import IndexLayout
from tutorgraph.ingest.eedi import eedi_query_text, read_eedi_questions
from tutorgraph.ranking.tuned import TUNED_GRAPH
from tutorgraph.stores.chroma import COLLECTION_NAME, chroma_persistent_client
from tutorgraph_research.harness.provenance import git_commit, hardware

# MiniLM-L6-H384: 6 layers, hidden 384, feed-forward 1536.
LAYERS, HIDDEN, FFN = 6, 384, 1536


def minilm_macs(tokens: int) -> int:
    """Multiply-adds of one forward pass over `tokens` tokens (projections, attention, FFN)."""
    projections = 4 * HIDDEN * HIDDEN * tokens
    attention = 2 * tokens * tokens * HIDDEN
    ffn = 2 * HIDDEN * FFN * tokens
    return LAYERS * (projections + attention + ffn)


def _best_of(fn: Any, repeat: int = 20) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        fn()
        times.append(time.perf_counter() - started)
    return min(times)


def fp32_gmacs() -> float:
    """numpy fp32 matmul throughput at MiniLM's shapes (40 tokens x 384 by 384 x 1536)."""
    a = np.random.default_rng(0).standard_normal((40, HIDDEN)).astype(np.float32)
    b = np.random.default_rng(1).standard_normal((HIDDEN, FFN)).astype(np.float32)
    return 40 * HIDDEN * FFN / _best_of(lambda: a @ b, 200) / 1e9


def int8_gmacs() -> float:
    """ONNX Runtime MatMulInteger (uint8 x int8) throughput at the same shapes."""
    import onnx
    import onnxruntime as ort
    from onnx import TensorProto, helper

    graph = helper.make_graph(
        [helper.make_node("MatMulInteger", ["a", "b"], ["y"])],
        "mm",
        [
            helper.make_tensor_value_info("a", TensorProto.UINT8, [40, HIDDEN]),
            helper.make_tensor_value_info("b", TensorProto.INT8, [HIDDEN, FFN]),
        ],
        [helper.make_tensor_value_info("y", TensorProto.INT32, [40, FFN])],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    feed = {
        "a": np.random.default_rng(0).integers(0, 255, (40, HIDDEN), dtype=np.uint8),
        "b": np.random.default_rng(1).integers(-127, 127, (HIDDEN, FFN), dtype=np.int8),
    }
    del onnx
    return 40 * HIDDEN * FFN / _best_of(lambda: session.run(None, feed), 200) / 1e9


def unsign_int8_weights(graph: Path) -> None:
    """Undo `sign_int8_weights` in place: the integer products' weights and zero points
    stored unsigned (the same integers less their zero points, so the same vectors)."""
    import onnx
    from onnx import numpy_helper

    model = onnx.load(str(graph))
    inits = {t.name: t for t in model.graph.initializer}
    for node in model.graph.node:
        if node.op_type == "MatMulInteger" and len(node.input) > 3:
            for name in node.input[1::2]:
                if inits[name].data_type == onnx.TensorProto.INT8:
                    shifted = numpy_helper.to_array(inits[name]).astype(np.int16) + 128
                    inits[name].CopyFrom(numpy_helper.from_array(shifted.astype(np.uint8), name))
    onnx.save(model, str(graph))


def encoder_passes(
    path: str, graph: str | None, texts: list[str], threads: int
) -> dict[str, float]:
    """p50 wall and CPU ms of one pass per text, alone, with `threads` intra-op threads."""
    encoder = OnnxEmbedder(path, graph=graph, threads=threads)
    for text in texts[:10]:
        encoder.embed([text + " warm-up"])
    walls, cpus = [], []
    for text in texts:
        wall, cpu = time.perf_counter(), time.process_time()
        encoder.embed([text])  # each text once: it remembers the texts it ran lately
        walls.append((time.perf_counter() - wall) * 1000)
        cpus.append((time.process_time() - cpu) * 1000)
    return {
        "threads": threads,
        "wall_p50_ms": round(statistics.median(walls), 2),
        "cpu_p50_ms": round(statistics.median(cpus), 2),
    }


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--latency", type=Path, required=True, help="a bench latency --out file")
    p.add_argument("--questions", type=Path, required=True, help="Eedi train.csv")
    p.add_argument("--index-dir", type=Path, default=Path(".tutorgraph"))
    p.add_argument("--n", type=int, default=100)
    p.add_argument("--out", type=Path, default=None)
    args = p.parse_args()
    latency = json.loads(args.latency.read_text())
    stages = latency["stages_ms"]

    embedder = OnnxEmbedder(DEFAULT_EMBEDDING_MODEL)
    embedder.load()
    # The latency benchmark's queries: one per wrong answer, evenly spaced.
    qs = read_eedi_questions(args.questions)
    wrong = [(q, x) for q in qs for x in sorted(q.answers) if x != q.correct_answer]
    texts = [eedi_query_text(q, x) for q, x in wrong[:: max(1, len(wrong) // args.n)][: args.n]]
    tokens = int(statistics.median(embedder.count_tokens(t) + 2 for t in texts))
    macs = minilm_macs(tokens)
    f32, i8 = fp32_gmacs(), int8_gmacs()
    tuned = Path(tutorgraph.__file__).parent / "_weights" / "eedi-ranker" / "tuned" / "model"
    encoders = {
        "minilm_fp32": [encoder_passes(DEFAULT_EMBEDDING_MODEL, None, texts, t) for t in (0, 1)],
        "tuned_int8": [encoder_passes(str(tuned), TUNED_GRAPH, texts, t) for t in (0, 1)],
    }
    with tempfile.TemporaryDirectory() as tmp:
        # The same graph with its weights stored unsigned, as the quantiser wrote it.
        unsigned = Path(tmp) / "model"
        shutil.copytree(tuned, unsigned)
        unsign_int8_weights(unsigned / TUNED_GRAPH)
        encoders["tuned_int8_unsigned"] = [encoder_passes(str(unsigned), TUNED_GRAPH, texts, 1)]

    collection = chroma_persistent_client(IndexLayout.live(args.index_dir).chroma).get_collection(
        COLLECTION_NAME
    )
    got = collection.get(include=["embeddings"], limit=collection.count())
    matrix = np.asarray(got["embeddings"], dtype=np.float32)
    queries = embedder.embed(texts)
    chroma = []
    for q in queries:
        started = time.perf_counter()
        collection.query(query_embeddings=[q], n_results=60, include=["distances"])
        chroma.append((time.perf_counter() - started) * 1000)
    brute = []
    for q in queries:
        started = time.perf_counter()
        scores = matrix @ q
        top = np.argpartition(-scores, 50)[:50]
        top[np.argsort(-scores[top])]
        brute.append((time.perf_counter() - started) * 1000)

    report = {
        "latency_file": str(args.latency),
        "embed": {
            "median_tokens": tokens,
            "gmacs": round(macs / 1e9, 4),
            "fp32_gmacs_per_s": round(f32, 1),
            "int8_gmacs_per_s": round(i8, 1),
            "floor_fp32_ms": round(macs / f32 / 1e6, 2),
            "floor_int8_ms": round(macs / i8 / 1e6, 2),
            "measured_p50_ms": stages["embed"]["p50"],
        },
        "vector": {
            "vectors": int(matrix.shape[0]),
            "brute_force_numpy_p50_ms": round(statistics.median(brute), 2),
            "brute_force_numpy_p95_ms": round(float(np.percentile(brute, 95)), 2),
            "chroma_query_p50_ms": round(statistics.median(chroma), 2),
            "measured_p50_ms": stages["vector"]["p50"],
        },
        "encoders": encoders,
        "request": {
            "cpu_ms_per_request": latency.get("cpu_ms_per_request"),
            "cpu_floor_ms": latency.get("cpu_floor_ms"),
            "measured_total_p50_ms": stages["total"]["p50"],
        },
        "hardware": hardware(),
        "git_commit": git_commit(),
    }
    print(json.dumps(report, indent=2))
    if args.out:
        args.out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()

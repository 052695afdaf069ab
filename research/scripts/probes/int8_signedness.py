"""The fine-tuned encoder's int8 weights on a CPU without VNNI (issue 59).

Issue 51 stored the encoder's int8 weights signed, which AVX-512 VNNI multiplies exactly and
fast; the issue's Eedi figures dropped on a 2-core AMD EPYC with AVX2 alone. ONNX Runtime's
AVX2 kernel for unsigned x signed bytes (`vpmaddubsw`) saturates pairs of products at 16
bits. This probe embeds the first `--n` Eedi query texts with the bundled tuned encoder's
graph stored signed and unsigned, natively and under `qemu-x86_64 -cpu Haswell` (user-mode
emulation of an AVX2-only CPU; Debian's `qemu-user`), and prints each variant's cosine with
the native vectors (exact on this VNNI machine either way).

Run of 2026-12-07 (2-core Xeon with AVX-512 VNNI; qemu 7.2; 40 texts):
Haswell signed: mean cosine 0.913, worst 0.601; Haswell unsigned: 0.9998, worst 0.9974.
So `embedding.int8_weights` opens an int8 graph signed only on a VNNI CPU.

    .venv/bin/python research/scripts/probes/int8_signedness.py \\
        --train ../shared/data/eedi/train.csv --out results/int8_signedness.json
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import numpy as np
import onnx

from tutorgraph.embedding.int8_weights import set_weight_signedness
from tutorgraph.embedding.onnx_embedder import OnnxEmbedder
from tutorgraph.ingest.eedi import eedi_query_text, read_eedi_questions
from tutorgraph.ranking.tuned import TUNED_GRAPH

BUNDLED = Path(__file__).parents[3] / "src/tutorgraph/_weights/eedi-ranker/tuned/model"


def _model_with(graph: onnx.ModelProto, signed: bool, root: Path) -> Path:
    """A model folder beside the bundled one whose int8 graph stores its weights so."""
    folder = root / ("signed" if signed else "unsigned")
    shutil.copytree(BUNDLED, folder, ignore=shutil.ignore_patterns("*.onnx"))
    model = onnx.ModelProto()
    model.CopyFrom(graph)
    set_weight_signedness(model, signed=signed)
    onnx.save(model, str(folder / TUNED_GRAPH))
    return folder


def _texts(train: Path, n: int) -> list[str]:
    return [
        eedi_query_text(q, letter)
        for q in read_eedi_questions(train)
        for letter, mid in sorted(q.misconception_ids.items())
        if mid is not None and letter != q.correct_answer
    ][:n]


def _embed(folder: Path, texts: list[str]) -> np.ndarray:
    # The session opens the graph as the file stores it (`OnnxEmbedder` would convert it).
    from tutorgraph.embedding import onnx_embedder, runtime

    def as_stored(onnx_file: Path, *, threads: int = 0, **_: bool) -> Any:
        return runtime.onnx_session(onnx_file, threads=threads)

    onnx_embedder.onnx_session = as_stored  # type: ignore[assignment]
    encoder = OnnxEmbedder(str(folder), graph=TUNED_GRAPH, threads=1)
    return np.stack([encoder.embed([t])[0] for t in texts])


def _worker(args: argparse.Namespace) -> None:
    np.save(args.save, _embed(args.folder, _texts(args.train, args.n)))


def _cosines(a: np.ndarray, b: np.ndarray) -> dict[str, float]:
    c = (a * b).sum(1) / np.linalg.norm(a, axis=1) / np.linalg.norm(b, axis=1)
    return {"mean": round(float(c.mean()), 4), "min": round(float(c.min()), 4)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--train", type=Path, required=True)
    parser.add_argument("--n", type=int, default=40)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--folder", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--save", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.save:
        _worker(args)
        return
    qemu = shutil.which("qemu-x86_64")
    if qemu is None:
        sys.exit("needs qemu-x86_64 (Debian: apt-get install qemu-user)")
    graph = onnx.load(str(BUNDLED / TUNED_GRAPH))
    out: dict[str, object] = {"n": args.n, "texts": "first Eedi query texts"}
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        native = _embed(_model_with(graph, True, root), _texts(args.train, args.n))
        python = os.path.realpath(sys.executable)
        for signed in (True, False):
            folder = root / ("signed" if signed else "unsigned")
            if not folder.exists():
                _model_with(graph, signed, root)
            save = root / f"haswell_{folder.name}.npy"
            env = os.environ | {"PYTHONPATH": os.pathsep.join(sys.path)}
            subprocess.run(
                [qemu, "-cpu", "Haswell", python, __file__, "--train", str(args.train),
                 "--n", str(args.n), "--folder", str(folder), "--save", str(save)],
                check=True, env=env, stderr=subprocess.DEVNULL,
            )  # fmt: skip
            out[f"haswell_{folder.name}"] = _cosines(native, np.load(save))
            print(f"Haswell {folder.name}: cosine with exact {out[f'haswell_{folder.name}']}")
    if args.out:
        args.out.write_text(json.dumps(out, indent=2) + "\n")


if __name__ == "__main__":
    main()

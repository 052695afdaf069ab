"""How much the fine-tuned encoder's int8 graph loses against its fp32 export (issue 33).

For each fold encoder (`train-embedder --leave-out K/N --out DIR/foldK`): the cosine's
MAP@25 over all misconceptions on the questions of fold K (which it never saw), asked as the
text-only ranker asks them, with the fp32 graph, a per-tensor int8 quantisation and the
per-channel one `train-embedder` writes (`TUNED_GRAPH`). `--requantize` first rewrites each
fold's `TUNED_GRAPH` from its fp32 graph with the current quantisation (for encoders
trained before it changed); `--fold K` measures only fold K (a recipe probed on one fold).

    python research/scripts/int8_encoder.py --train ../shared/data/eedi/train.csv \
        --folds models/eedi-embedder-folds --requantize --out results/int8_encoder.json
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

from tutorgraph.embedding.onnx_embedder import OnnxEmbedder
from tutorgraph.ingest.eedi import (
    eedi_fold,
    eedi_misconception_id,
    read_eedi_questions,
    read_misconceptions,
)
from tutorgraph.ranking.metrics import cosine_map_at_k
from tutorgraph.ranking.tuned import TUNED_GRAPH
from tutorgraph.training.crossfit_encoders import fold_model_dir
from tutorgraph.training.eedi import eedi_text_queries
from tutorgraph.training.onnx_export import quantize_int8

FP32_GRAPH = "onnx/model.onnx"


def held_out_map(model: Path, graph: str, queries: list, ids: list[str], texts: list[str]) -> float:
    encoder = OnnxEmbedder(str(model), graph=graph)
    vectors = encoder.embed([q.text for q in queries])
    return cosine_map_at_k(vectors, encoder.embed(texts), ids, [q.target for q in queries])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--train", type=Path, required=True)
    ap.add_argument("--folds", type=Path, required=True)
    ap.add_argument("--n-folds", type=int, default=5)
    ap.add_argument("--fold", type=int, action="append", help="only these folds (repeatable)")
    ap.add_argument("--requantize", action="store_true")
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()
    mis = read_misconceptions(args.train.parent / "misconception_mapping.csv")
    ids = [eedi_misconception_id(m) for m in sorted(mis)]
    texts = [mis[m] for m in sorted(mis)]
    questions = read_eedi_questions(args.train)
    rows = []
    for k in args.fold or range(args.n_folds):
        model = fold_model_dir(args.folds, k)
        if args.requantize:
            quantize_int8(model / FP32_GRAPH, model / TUNED_GRAPH, per_channel=True)
        queries = eedi_text_queries(
            [q for q in questions if eedi_fold(q.question_id, args.n_folds) == k]
        )
        row: dict[str, object] = {"fold": k, "queries": len(queries)}
        with tempfile.TemporaryDirectory(dir=model / "onnx") as tmp:
            per_tensor = Path(tmp) / "per_tensor.onnx"
            quantize_int8(model / FP32_GRAPH, per_tensor)
            graphs = {
                "fp32": FP32_GRAPH,
                "int8_per_tensor": str(per_tensor.relative_to(model)),
                "int8_per_channel": TUNED_GRAPH,
            }
            for name, graph in graphs.items():
                t = time.perf_counter()
                row[name] = round(held_out_map(model, graph, queries, ids, texts), 4)
                row[f"{name}_s"] = round(time.perf_counter() - t, 1)
        print(json.dumps(row), flush=True)
        rows.append(row)
    if args.out:
        args.out.write_text(json.dumps({"folds": rows}, indent=2) + "\n")


if __name__ == "__main__":
    main()

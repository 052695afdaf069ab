"""Fit the bundled scope model (`src/tutorgraph/_weights/scope/scope.json`).

    python research/scripts/train_scope.py --index-dir IDX [--out PATH]

IDX is an index of the shipped bundle (`tutorgraph ingest data/curriculum`). The rows and
the choices are described in `tutorgraph_research.tasks.scope_fit`; the held-out packet
messages are never read. Takes about two minutes on two cores.
"""

from __future__ import annotations

import argparse
import asyncio
import json
from pathlib import Path

from rich.progress import Progress

from tutorgraph.config import Settings
from tutorgraph.index.service import open_retriever
from tutorgraph.retrieval.factory import bundled_scope_path
from tutorgraph_research.tasks.packet_messages import load_packet_messages
from tutorgraph_research.tasks.scope_fit import fit_scope, load_calibration, sample_documents

ROOT = Path(__file__).resolve().parents[2]
BUNDLE_DOCUMENTS = 400


async def main(index_dir: Path, out: Path) -> None:
    settings = Settings(index_dir=index_dir, scope_model="")
    examples = [
        *load_calibration(ROOT / "data/calibration/scope_messages.jsonl"),
        *sample_documents(ROOT / "data/curriculum/documents.jsonl", BUNDLE_DOCUMENTS),
    ]
    messages = load_packet_messages(ROOT / "data/benchmarks/packet_messages.jsonl")
    opened = open_retriever(settings)
    try:
        with Progress() as bar:
            task = bar.add_task("scope rows", total=None)
            model, report = await fit_scope(
                opened.retriever,
                settings.embedding_model,
                examples,
                messages,
                progress=lambda done, total: bar.update(task, completed=done, total=total),
            )
    finally:
        await opened.aclose()
    out.parent.mkdir(parents=True, exist_ok=True)
    model.save(out)
    print(json.dumps(report, indent=1))
    print(f"wrote {out}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--index-dir", type=Path, required=True)
    parser.add_argument("--out", type=Path, default=bundled_scope_path())
    args = parser.parse_args()
    asyncio.run(main(args.index_dir, args.out))

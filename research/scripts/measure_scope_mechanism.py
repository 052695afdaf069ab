"""Measure the two ways graph scoping could work, on a built index (issue: graph-scoped search).

Restricting dense search to the matched concepts needs a Chroma metadata filter; boosting
re-ranks the unfiltered candidates in Python. This times an unfiltered top-50 query, the same
query with a `where` filter, and the boost itself, warm, over real Eedi question texts.

    python research/scripts/measure_scope_mechanism.py --index-dir .tutorgraph --n 100
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from tutorgraph.embedding.embedder import SentenceTransformerEmbedder
from tutorgraph.index.layout import IndexLayout, load_catalogue
from tutorgraph.retrieval.graph_scope import scoped
from tutorgraph.stores.chroma import COLLECTION_NAME, ChromaVectorStore, chroma_persistent_client
from tutorgraph_research.harness.provenance import hardware
from tutorgraph_research.tasks.latency import percentiles


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--index-dir", type=Path, default=Path(".tutorgraph"))
    parser.add_argument("--n", type=int, default=100)
    args = parser.parse_args()

    catalogue = load_catalogue(IndexLayout.live(args.index_dir))
    questions = [d for d in catalogue.documents if d.kind == "question"][: args.n]
    embedder = SentenceTransformerEmbedder("sentence-transformers/all-MiniLM-L6-v2")
    vectors = embedder.embed([q.text for q in questions])
    client = chroma_persistent_client(IndexLayout.live(args.index_dir).chroma)
    coll = client.get_collection(COLLECTION_NAME)
    store = ChromaVectorStore(client)

    def timed(fn) -> list[float]:  # type: ignore[no-untyped-def]
        for v in vectors[:5]:
            fn(v)
        out = []
        for v in vectors:
            t = time.perf_counter()
            fn(v)
            out.append((time.perf_counter() - t) * 1000)
        return out

    plain = timed(lambda v: coll.query(query_embeddings=[v], n_results=50))
    kinds = timed(
        lambda v: coll.query(query_embeddings=[v], n_results=50, where={"kind": "misconception"})
    )
    scope = {q.concept_ids[0] for q in questions}
    results = [store._search(v, 50) for v in vectors]
    boost = []
    for r in results:
        t = time.perf_counter()
        scoped(r, scope)
        boost.append((time.perf_counter() - t) * 1000)
    print(f"{coll.count()} vectors, {len(vectors)} queries, {hardware()['cpu']}")
    print("unfiltered top-50     ", percentiles(plain))
    print("where kind filter     ", percentiles(kinds))
    print("boost + re-rank (py)  ", percentiles(boost))


if __name__ == "__main__":
    main()

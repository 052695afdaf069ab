"""The request pipeline's stages, one module each, in pipeline order: check, refine, facts,
route, search, link, merge, fuse, dedupe, rerank, rank, diagnose, finish (`retrieval.pipeline`
runs them; `HybridRetriever` builds the list)."""

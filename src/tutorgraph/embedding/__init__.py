"""Text embedders (sentence-transformers, ONNX, cached), below ingest and retrieval."""

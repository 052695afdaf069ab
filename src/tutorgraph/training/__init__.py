"""Training of domain models: the cross-encoder reranker (mining, fitting, ONNX export)."""

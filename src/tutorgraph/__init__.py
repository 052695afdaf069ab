"""tutorgraph: a GraphRAG retrieval backend for math tutoring."""

__version__ = "0.1.0"

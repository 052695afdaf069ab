"""The API's routers, one module per group of endpoints."""

from tutorgraph.api.routes import concepts, health, ingest, retrieve

__all__ = ["concepts", "health", "ingest", "retrieve"]

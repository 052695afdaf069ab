"""Pydantic models: curriculum records, the retrieval request, hits and the ReasoningPacket."""

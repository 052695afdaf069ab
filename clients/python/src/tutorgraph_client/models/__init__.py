"""The API's pydantic models: curriculum records, the retrieval request, hits and the
ReasoningPacket. The engine (`tutorgraph`) uses these same classes."""

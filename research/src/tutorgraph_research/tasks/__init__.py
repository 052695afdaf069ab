"""The benchmark tasks, one module each: Eedi misconceptions (and `bench eedi` over it),
concept linking, prerequisites, MaE, student messages, diagnosis, routing, refinement,
latency and scale."""

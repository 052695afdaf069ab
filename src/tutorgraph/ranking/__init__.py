"""The learned final score: features of each hit, the graph prior, and the trained combiner."""

"""TutorGraph's research code, outside the `tutorgraph` wheel: the benchmark harness
(`harness`), one module per benchmark (`tasks`), the one-factor-at-a-time ablation
(`ablation`), the paper's tables and figures (`report`) and its reproduction (`reproduce`),
and the `tutorgraph bench` and `tutorgraph ablate` commands (`cli`, registered through the
`tutorgraph.cli` entry-point group)."""

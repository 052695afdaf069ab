"""The reliability plot of a `tutorgraph bench tutoring` report: the packet's `confidence`
(that its first Common Core concept is right) against how often it was right, per bin, for
the development and the held-out messages.

    python research/scripts/reliability_plot.py results/tutoring_bench_issue47.json \\
        docs/reliability.png
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt


def main(report: Path, out: Path) -> None:
    data = json.loads(report.read_text(encoding="utf-8"))
    fig, ax = plt.subplots(figsize=(4.5, 4.5), dpi=120)
    ax.plot([0, 1], [0, 1], color="#999", linestyle="--", linewidth=1, label="calibrated")
    for split, colour in (("dev", "#3b6fd1"), ("heldout", "#c4552b")):
        rel = data[split]["reliability"]
        xs = [b["predicted"] for b in rel["bins"]]
        ys = [b["observed"] for b in rel["bins"]]
        ax.plot(xs, ys, marker="o", color=colour, label=f"{split} (n={rel['n']}, ECE {rel['ece']})")
        for b in rel["bins"]:
            ax.annotate(str(b["n"]), (b["predicted"], b["observed"]), fontsize=7,
                        textcoords="offset points", xytext=(4, -8), color=colour)  # fmt: skip
    ax.set_xlabel("packet confidence (predicted)")
    ax.set_ylabel("first Common Core concept right (observed)")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.legend(loc="upper left", fontsize=8)
    ax.set_title("Reliability of the packet's confidence", fontsize=10)
    fig.tight_layout()
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out)
    print(f"wrote {out}")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(Path(sys.argv[1]), Path(sys.argv[2]))

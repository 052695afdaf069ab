"""The block of "Misconception ranking on Eedi" (issues 32-33): every 5-fold CV step of
the Eedi rankers with its paired change."""

from __future__ import annotations

from collections.abc import Sequence

from .common import Results, change, table

__all__ = ["eedi_rankers"]

# (step, 5-fold CV run, paired runs of MAP@25, paired runs of hit@10): each paired file pairs
# the run before (named by its commit) with this one, item by item
# (research/scripts/paired_runs.py).
EEDI_RANKERS = (
    ("the reader (issues 31-32)", "eedi_reader_cv.json", (), ()),
    (
        "the text-only ranker (issue 32)",
        "eedi_text_ranker_cv.json",
        ("eedi_text_ranker_paired.json",),
        ("eedi_text_ranker_paired_hit10.json",),
    ),
    (
        "rankers reading a fine-tuned encoder, fp32, 2 epochs",
        "eedi_tuned_cv.json",
        ("eedi_tuned_paired.json",),
        ("eedi_tuned_paired_hit10.json",),
    ),
    (
        "the same encoders as int8 graphs",
        "eedi_tuned_int8_cv.json",
        ("eedi_tuned_int8_paired.json",),
        (),
    ),
    (
        "int8 encoders of 4 epochs (bundled)",
        "eedi_tuned_e4_cv.json",
        ("eedi_tuned_e4_paired.json", "eedi_tuned_e4_vs_e2_paired.json"),
        ("eedi_tuned_e4_paired_hit10.json",),
    ),
    (
        "each ranker picks its combiner's settings",
        "eedi_combiner_cv.json",
        ("eedi_combiner_paired.json",),
        ("eedi_combiner_paired_hit10.json",),
    ),
    (
        "a tuned example memory (shipped)",
        "eedi_tuned_memory_cv.json",
        ("eedi_tuned_memory_paired.json", "eedi_tuned_memory_vs_issue_start.json"),
        ("eedi_tuned_memory_paired_hit10.json",),
    ),
)
EEDI_CONTEXTS = (("default/construct", "with the construct"), ("default/text", "from the text"))


def eedi_rankers(results: Results) -> str:
    """Eedi MAP@25 (5-fold CV, all 3,486 labelled wrong answers) of each step of issues 32-33,
    each paired with the run before it on the same folds."""

    def paired(names: Sequence[str], config: str) -> str:
        cells = []
        for name in names:
            p = results(name)[config]
            diff = p["paired_diff"]
            cells.append(
                f"vs {p['commits'][0][:7]}: "
                + change(p["before"], p["after"], diff["mean"], diff["ci95"])
            )
        return "; ".join(cells) or "–"

    rows = []
    for step, run, maps, hits in EEDI_RANKERS:
        data = results(run)
        for config, context in EEDI_CONTEXTS:
            row = data[config]
            lo, hi = row["map@25_ci95"]
            rows.append(
                (
                    step,
                    data["_meta"]["git_commit"][:7],
                    context,
                    f"{row['map@25']:.3f} [{lo:.3f}, {hi:.3f}]",
                    f"{row['hit@10']:.3f}",
                    paired(maps, config),
                    paired(hits, config),
                )
            )
    header = (
        "step",
        "commit",
        "context",
        "MAP@25 [95% CI]",
        "hit@10",
        "MAP@25, paired",
        "hit@10, paired",
    )
    return table(header, rows)

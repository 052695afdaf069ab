"""The blocks of "Naming the standard" (issue 48) and "Aligned standards" (issue 31)."""

from __future__ import annotations

from tutorgraph_research.harness.results import bootstrap_ci
from tutorgraph_research.tasks.standards_linking import hit_scores

from .common import HITS, Json, Results, cell, change, table

__all__ = [
    "alignment",
    "alignment_61",
    "linker_attempts",
    "linker_cv",
    "linker_cv5",
    "linking_packet",
]

# (label, data set, split, system after): BEFORE is always the packet with the standards
# model off; AFTER the served packet without and with the item's grade.
LINKING_PACKET_ROWS = (
    ("hand-written word problems, held out", "word-problems", "heldout", "packet"),
    ("the same, grade given", "word-problems", "heldout", "packet+grade"),
    ("tutoring messages, held out", "tutoring_messages", "heldout", "packet"),
    ("the same, grade given", "tutoring_messages", "heldout", "packet+grade"),
    ("MathFish aligned rows (never trained on)", "mathfish", "all", "packet"),
    ("the same, grade given", "mathfish", "all", "packet+grade"),
    ("word problems, dev", "word-problems", "dev", "packet"),
    ("tutoring messages, dev", "tutoring_messages", "dev", "packet"),
)


def linking_packet(results: Results) -> str:
    """`packet.concepts` before (the standards model off) and after, paired item by item as
    research/scripts/linking_paired.py pairs them (bootstrap of 1,000 resamples, seed 0)."""
    before = results("linking_bench_issue48_model_off.json")["items"]
    after = results("linking_bench_issue48.json")["items"]
    rows = []
    for label, name, split, system in LINKING_PACKET_ROWS:
        first = {it["id"]: it for it in before[name]}
        pairs = [
            (first[it["id"]], it)
            for it in after[name]
            if it["id"] in first and split in ("all", it["split"])
        ]
        cells = []
        for metric in HITS:
            x = [hit_scores(b["packet"], b["standards"])[metric] for b, _ in pairs]
            y = [hit_scores(a[system], a["standards"])[metric] for _, a in pairs]
            d = [v - u for u, v in zip(x, y, strict=True)]
            cells.append(change(sum(x) / len(x), sum(y) / len(y), sum(d) / len(d), bootstrap_ci(d)))
        rows.append((label, len(pairs), *cells))
    return table(("set", "n", *HITS), rows)


LINKER_CELLS = (
    ("held-out generators", "generated/heldout-generators"),
    ("MathFish (out of fold)", "mathfish/all"),
    ("word problems, held out", "word-problems/heldout"),
    ("tutoring messages, held out", "tutoring/heldout"),
)
LINKER_SYSTEMS = ("model", "cards+grade", "model+grade")


def linker_cv(results: Results) -> str:
    """The standards model against the card search alone, per set (`cells`)."""
    cells = results("linker_cv.json")["cells"]
    rows = []
    for label, key in LINKER_CELLS:
        for system in LINKER_SYSTEMS:
            stats = cells[key][system]
            rows.append((label, system, stats["hit@1"]["n"], *(cell(stats[m]) for m in HITS)))
    return table(("set", "system", "n", *HITS), rows)


LINKER_CV5 = (
    ("all", "all"),
    ("held-out generators", "generated"),
    ("MathFish", "mathfish"),
    ("tutoring messages", "tutoring"),
    ("hand-written word problems", "word-problems"),
)


def linker_cv5(results: Results) -> str:
    """The 5-fold CV of the whole recipe (`cv5`), hit@1, both comparisons."""
    cv5 = results("linker_cv.json")["cv5"]
    rows = []
    for label, key in LINKER_CV5:
        a, b = cv5[key]["model vs cards"]["hit@1"], cv5[key]["model+grade vs cards+grade"]["hit@1"]
        rows.append((f"{label} ({a['n']:,})", cell(a), cell(b)))
    return table(("set", "model vs cards", "model + grade vs cards + grade"), rows)


LINKER_ATTEMPTS = (
    (
        "model alone, log-probability only, L2 1e-4, MathFish not in the tuning "
        "(`results/linker_cv_attempt_log_only.json`, the script at b15f2ed)",
        "linker_cv_attempt_log_only.json",
    ),
    (
        "L2 1e-3, cluster term and floor (`..._attempt_l2_1e-3.json`, `--l2 1e-3`)",
        "linker_cv_attempt_l2_1e-3.json",
    ),
    (
        "L2 1e-4, cluster term and floor, MathFish out of fold (shipped; grade weight ≤ 0.16; "
        "`results/linker_cv.json`)",
        "linker_cv.json",
    ),
    (
        "L2 1e-5, the same, grade weight ≤ 0.08 (`..._attempt_l2_1e-5.json`, `--l2 1e-5`)",
        "linker_cv_attempt_l2_1e-5.json",
    ),
)


def linker_attempts(results: Results) -> str:
    """hit@1 of each attempt's model without / with the grade."""
    rows = []
    for label, name in LINKER_ATTEMPTS:
        cells = results(name)["cells"]

        def pair(key: str, cells: Json = cells) -> str:
            model, graded = cells[key]["model"]["hit@1"], cells[key]["model+grade"]["hit@1"]
            return f"{model['after']:.3f} / {graded['after']:.3f}"

        rows.append(
            (
                label,
                pair("word-problems/heldout"),
                pair("tutoring/heldout"),
                pair("mathfish/all"),
                pair("generated/heldout-generators"),
            )
        )
    header = (
        "attempt",
        "word held out, no grade / grade",
        "tutoring held out",
        "MathFish",
        "new generators",
    )
    return table(header, rows)


def alignment(results: Results) -> str:
    """`align-bundle`'s edges judged by hand, per method (research/scripts/alignment_sample.py)."""
    data = results("alignment_precision.json")
    rows = []
    for method, stat in data.items():
        lo, hi = stat["ci95_wilson"]
        rows.append(
            (method, stat["n"], stat["correct"], f"{stat['precision']:.3f} [{lo:.3f}, {hi:.3f}]")
        )
    return table(("method", "judged", "right", "precision [95% Wilson]"), rows)


def alignment_61(results: Results) -> str:
    """Issue 61's judged alignment, each blind reading of a fresh sample: precision (accepted
    pairs judged right, stratum-weighted) and recall (right pairs that were accepted)."""
    rounds = (
        ("alignment_judged.json", "first judging"),
        ("alignment_judged_2.json", "after a precision pass over the weak accepted pairs"),
        ("alignment_judged_3.json", "after a strict second opinion on every accepted pair"),
    )
    rows = []
    for name, what in rounds:
        data = results(name)
        lo, hi = data["precision_ci95_wilson_unweighted"]
        accepted = sum(s["pairs"] for k, s in data["strata"].items() if k.endswith("/accepted"))
        rows.append(
            (
                data.get("seed", 61),
                what,
                accepted,
                data["judged"],
                f"{data['precision']:.3f} [{lo:.2f}, {hi:.2f}]",
                f"{data['recall']:.3f}",
            )
        )
    header = (
        "reading (seed)",
        "alignment read",
        "accepted pairs",
        "pairs read blind",
        "precision [95%]",
        "recall",
    )
    return table(header, rows)

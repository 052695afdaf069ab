"""Section "Tutoring is a conversation (issue 63)": `bench dialogue`'s held-out third against
the issue's bars, at the issue's second session's start and end, with the dev figures."""

from __future__ import annotations

from tutorgraph_research.tasks.dialogue_set import BATCH_STARTS, batch

from .common import Json, Results, signed, table

__all__ = ["dialogue_63", "dialogue_63_batches"]

# (part, what the row says, bar, at least): parts of `summarise`'s "all" row.
_PARTS = (
    ("problem_answer_read", "problem and answer read, turns answering a tutor", 0.90, True),
    ("tutor_answer", "an answer read from a tutor turn", 0.0, False),
    ("topic_kept", "topic kept on a `kept` turn", 0.95, True),
    ("topic_moved", "topic moved on a change", 0.90, True),
    ("answer_read", "answer read (turns stating one)", None, True),
    ("answer_check", "answer check right", None, True),
    ("standard@3", "standard@3 (maths turns)", None, True),
)
BEFORE, AFTER = "dialogue_bench_63a.json", "dialogue_bench_63b.json"


def _mark(value: float, bar: float | None, at_least: bool) -> str:
    if bar is None:
        return ""
    return "" if (value >= bar if at_least else value <= bar) else " (missed)"


def _bar(bar: float | None, at_least: bool) -> str:
    if bar is None:
        return "—"
    return f"≥ {bar:.2f}" if at_least else f"≤ {bar:.2f}" if bar else "0"


def _flag(report: Json, positives: bool) -> tuple[float, str]:
    """The chit-chat flag's recall (`positives`) or share of maths turns flagged."""
    flag = report["chit_chat_flag"]
    if positives:
        return flag["recall"], f"{flag['flagged_right']}/{flag['positives']}"
    return flag["flagged_wrong"] / flag["negatives"], f"{flag['flagged_wrong']}/{flag['negatives']}"


def dialogue_63(results: Results) -> str:
    """Held out: before → after (the paired change's 95% interval, n) and the bar; dev after."""
    before, after = results(BEFORE), results(AFTER)
    rows: list[tuple[object, ...]] = []
    for part, label, bar, at_least in _PARTS:
        old, new = before["heldout"]["all"][part], after["heldout"]["all"][part]
        change = after["paired"]["heldout"].get(part)
        paired = f" ({signed(change['ci95'][0])}, {signed(change['ci95'][1])})" if change else ""
        held = f"{old['mean']:.3f} → {new['mean']:.3f}{paired} n={new['n']}"
        dev = after["dev"]["all"][part]
        rows.append(
            (
                label,
                _bar(bar, at_least),
                held + _mark(new["mean"], bar, at_least),
                f"{dev['mean']:.3f} n={dev['n']}",
            )
        )
    for positives, label, bar in ((True, "chit-chat flagged (recall)", 0.90),
                                  (False, "maths turns flagged as chit-chat", 0.02)):  # fmt: skip
        was, _ = _flag(before["heldout"], positives)
        now, count = _flag(after["heldout"], positives)
        _, dev = _flag(after["dev"], positives)
        mark = _mark(now, bar, positives)
        rows.append((label, _bar(bar, positives), f"{was:.3f} → {now:.3f} ({count}){mark}", dev))
    short = after["heldout"]["short_vs_full"]
    dev_short = after["dev"]["short_vs_full"]
    lo, hi = short["ci95"]
    missed = "" if abs(short["mean"]) <= 0.05 else " (missed)"
    rows.append(
        (
            "short turn minus the same problem sent whole, standard@3",
            "within 0.05",
            f"{signed(short['mean'])} [{signed(lo)}, {signed(hi)}] n={short['n']}{missed}",
            f"{signed(dev_short['mean'])} n={dev_short['n']}",
        )
    )
    header = ("measure", "bar", "held out: before → after (paired 95%)", "dev, after")
    return table(header, rows)


def _by_batch(report: Json, part: str, batch_of: int) -> tuple[float, int]:
    """A part's mean over the held-out turns of one batch (a chit-chat turn's flag for
    `chit_chat_flagged`)."""
    values = [
        t["parts"][part]
        for t in report["turns"]
        if t["split"] == "heldout"
        and batch(t["dialogue"]) == batch_of
        and part in t["parts"]
        and (part != "chit_chat_flagged" or t["chit_chat"])
    ]
    return (sum(values) / len(values) if values else float("nan")), len(values)


def dialogue_63_batches(results: Results) -> str:
    """Held out, per batch (batch 1 written with the benchmark, 2 and 3 each after the
    reader had been fixed against the batches before): before → after."""
    before, after = results(BEFORE), results(AFTER)
    rows = []
    for part, label in (
        ("problem_answer_read", "problem and answer read"),
        ("chit_chat_flagged", "chit-chat flagged (recall)"),
        ("topic_moved", "topic moved on a change"),
    ):
        row: list[object] = [label]
        for number in range(len(BATCH_STARTS) + 1):
            was, _ = _by_batch(before, part, number)
            now, n = _by_batch(after, part, number)
            row.append(f"{was:.3f} → {now:.3f} n={n}")
        rows.append(row)
    names = [f"batch {k + 1}" for k in range(len(BATCH_STARTS) + 1)]
    return table(("held out", *names), rows)

"""The judged alignment (issue 61): a blind second reading of a sample of its pairs, and the
precision and recall that reading gives.

    python research/scripts/alignment_judged.py draw [SEED]    # a sample, blind
    python research/scripts/alignment_judged.py report [SEED]  # precision and recall

`draw` takes a seeded sample of the judged candidate pairs of `data/teaching/alignment_*.jsonl`,
stratified by file and by the first judge's verdict (accepted or rejected), with both sides'
texts, into `data/teaching/reviews/alignment_judged.jsonl`. The verdict is kept in a separate
key file (`reviews/alignment_judged_key.jsonl`), so that the second reader, who did not make
the alignment, sets each row's `correct` (does the concept teach or directly assess the
standard, at its level?) without seeing it. `report` joins the two: precision is the share of
accepted pairs the reader judged right; recall is the estimated share of right pairs that
were accepted, each stratum weighted by its size in the files (the sample is not
proportional). Recall is of the candidate pool (the linker's candidates and the pairs the
first judge added): a right standard neither proposed is not counted.
Writes `results/alignment_judged.json`.
"""

from __future__ import annotations

import json
import random
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

# research/scripts/ is first on sys.path when this runs: one Wilson interval for both samples.
from alignment_sample import wilson

ROOT = Path(__file__).resolve().parents[2]
TEACHING = ROOT / "data" / "teaching"
BUNDLE = ROOT / "data" / "curriculum"
# Each reading: its seed and its files, each drawn from pairs no earlier reading read. The
# first (61) led to a precision pass over the weak accepted pairs, the second (62) to a strict
# second opinion on every accepted pair; the third (63), drawn after both, is the one the
# alignment is reported by.
ROUNDS = {61: "alignment_judged", 62: "alignment_judged_2", 63: "alignment_judged_3"}
REPORTED = 63
# Pairs drawn per (file, verdict) stratum.
PER_STRATUM = {"accepted": 45, "rejected": 40}


def _files(seed: int) -> tuple[Path, Path, Path]:
    name = ROUNDS[seed]
    reviews = TEACHING / "reviews"
    out = ROOT / "results" / f"{name}.json"
    return reviews / f"{name}.jsonl", reviews / f"{name}_key.jsonl", out


def _jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def _strata() -> dict[tuple[str, str], list[dict[str, Any]]]:
    strata: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for path in sorted(TEACHING.glob("alignment_*.jsonl")):
        for row in _jsonl(path):
            verdict = "accepted" if row["accepted"] else "rejected"
            strata[(path.stem.removeprefix("alignment_"), verdict)].append(row)
    return strata


def draw(seed: int) -> None:
    sample_path, key_path, _ = _files(seed)
    seen: set[tuple[str, str]] = set()
    for earlier in ROUNDS:
        path = _files(earlier)[0]
        if earlier != seed and path.exists():
            seen |= {(r["concept_id"], r["standard"]) for r in _jsonl(path)}
    concepts = {r["id"]: r for r in _jsonl(BUNDLE / "concepts.jsonl")}
    texts: dict[str, list[str]] = defaultdict(list)
    for doc in _jsonl(BUNDLE / "documents.jsonl"):
        for cid in doc.get("concept_ids", []):
            if len(texts[cid]) < 2 and doc["kind"] != "explanation":
                texts[cid].append(doc["text"][:300])
    children: dict[str, list[str]] = defaultdict(list)
    for c in concepts.values():
        for parent in c.get("parent_ids", []):
            children[parent].append(c["name"])

    def about(cid: str) -> str:
        c = concepts[cid]
        parents = " > ".join(concepts[p]["name"] for p in c.get("parent_ids", []) if p in concepts)
        under = f" (under {parents})" if parents else ""
        return f"{c['name']}{under}: {c.get('description', '')}"[:400]

    rng = random.Random(seed)
    sample, key = [], []
    for (what, verdict), rows in sorted(_strata().items()):
        fresh = [r for r in rows if (r["concept_id"], r["standard"]) not in seen]
        chosen = rng.sample(fresh, min(PER_STRATUM[verdict], len(fresh)))
        for row in chosen:
            standard = concepts[row["standard"]]
            sample.append(
                {
                    "concept_id": row["concept_id"],
                    "standard": row["standard"],
                    "concept": about(row["concept_id"]),
                    "concept_items": texts.get(row["concept_id"])
                    or children.get(row["concept_id"], [])[:6],
                    "standard_text": f"grade {standard.get('grade')}: {standard['description']}",
                    "correct": None,
                    "note": "",
                }
            )
            key.append(
                {
                    "concept_id": row["concept_id"],
                    "standard": row["standard"],
                    "stratum": f"{what}/{verdict}",
                    "stratum_pairs": len(rows),
                    "accepted": row["accepted"],
                }
            )
    # Shuffled together so that the order gives the verdict away no more than the texts do.
    order = list(range(len(sample)))
    rng.shuffle(order)
    sample_path.write_text("".join(json.dumps(sample[i], ensure_ascii=False) + "\n" for i in order))
    key_path.write_text("".join(json.dumps(key[i]) + "\n" for i in order))
    print(f"{len(sample)} pairs to judge in {sample_path}")


def estimate(sample: list[dict[str, Any]], key: list[dict[str, Any]]) -> dict[str, Any]:
    """Precision (accepted pairs judged right) and stratum-weighted recall.

    >>> s = [{"correct": True}, {"correct": False}, {"correct": True}, {"correct": False}]
    >>> k = [{"stratum": "a/accepted", "stratum_pairs": 10, "accepted": True}] * 2 + [
    ...     {"stratum": "a/rejected", "stratum_pairs": 40, "accepted": False}] * 2
    >>> e = estimate(s, k); e["precision"], e["recall"]
    (0.5, 0.2)
    """
    by: dict[str, list[bool]] = defaultdict(list)
    size: dict[str, int] = {}
    for row, truth in zip(sample, key, strict=True):
        if row["correct"] is None:
            continue
        by[truth["stratum"]].append(bool(row["correct"]))
        size[truth["stratum"]] = truth["stratum_pairs"]
    accepted = [v for s, vs in by.items() if s.endswith("/accepted") for v in vs]
    right_accepted = sum(size[s] * sum(vs) / len(vs) for s, vs in by.items() if "/acc" in s)
    right_rejected = sum(size[s] * sum(vs) / len(vs) for s, vs in by.items() if "/rej" in s)
    # Precision weighted by stratum too, so that each file counts by its size.
    accepted_pairs = sum(size[s] for s in by if s.endswith("/accepted"))
    precision = right_accepted / accepted_pairs if accepted_pairs else None
    recall = right_accepted / (right_accepted + right_rejected) if right_accepted else None
    return {
        "judged": sum(len(vs) for vs in by.values()),
        "precision": round(precision, 3) if precision is not None else None,
        "precision_ci95_wilson_unweighted": wilson(sum(accepted), len(accepted)),
        "recall": round(recall, 3) if recall is not None else None,
        "strata": {
            s: {"n": len(vs), "right": sum(vs), "pairs": size[s]} for s, vs in sorted(by.items())
        },
    }


def report(seed: int) -> None:
    sample_path, key_path, out = _files(seed)
    result = {"seed": seed, **estimate(_jsonl(sample_path), _jsonl(key_path))}
    out.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    command = sys.argv[1]
    chosen = int(sys.argv[2]) if len(sys.argv) > 2 else REPORTED
    {"draw": draw, "report": report}[command](chosen)

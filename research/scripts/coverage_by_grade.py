"""Which grades and topics of the Common Core the bundled curriculum can teach.

A standard has teaching content when an `aligned_with` edge reaches a construct or section
that holds explanations or worked examples (its lessons), practice (exercises and Eedi
questions) or misconceptions. Counted from the bundle itself, per grade and per domain:

    python research/scripts/coverage_by_grade.py [--curriculum DIR] [--out FILE.json]

This is structural reach, not relevance: the serving pipeline also searches lessons near the
message, so a standard without aligned content can still get (often off-grade) lessons. So
the script also reads every lesson and practice item with the linker's standards model (its
bundled weights, over the bundle's stored MiniLM vectors) and counts them by the grade the
model gives the most probability: an estimate of which grades the content is written for.
"""

from __future__ import annotations

import argparse
import json
import re
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np

from tutorgraph.retrieval.concepts import PRACTICE_KINDS
from tutorgraph.stores.lessons import LESSON_KINDS

ROOT = Path(__file__).resolve().parents[2]
GRADES = ("K", "1", "2", "3", "4", "5", "6", "7", "8", "HS")


def _jsonl(path: Path) -> list[dict[str, Any]]:
    with path.open(encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def _grade_domain(concept: dict[str, Any]) -> tuple[str, str] | None:
    """(grade, domain) of a Common Core standard (not a grouping or cluster), else None."""
    code = concept["id"].removeprefix("ccss:")
    if not concept["id"].startswith("ccss:") or concept.get("kind") != "standard":
        return None
    if code.startswith("HS"):
        m = re.match(r"HS([A-Z])-([A-Z]+)", code)
        return ("HS", f"{m.group(1)}-{m.group(2)}") if m else None
    m = re.match(r"(K|\d)\.([A-Z]+)\.", code)
    return (m.group(1), m.group(2)) if m else None


def coverage(curriculum: Path) -> dict[str, Any]:
    concepts = _jsonl(curriculum / "concepts.jsonl")
    docs_by_concept: dict[str, set[str]] = defaultdict(set)
    for doc in _jsonl(curriculum / "documents.jsonl"):
        for cid in doc.get("concept_ids", []):
            docs_by_concept[cid].add(doc["kind"])
    misconceptions: dict[str, int] = defaultdict(int)
    for mis in _jsonl(curriculum / "misconceptions.jsonl"):
        for cid in mis.get("concept_ids", []):
            misconceptions[cid] += 1
    aligned: dict[str, list[str]] = defaultdict(list)
    for edge in _jsonl(curriculum / "prerequisites.jsonl"):
        if edge["relation"] == "aligned_with":
            aligned[edge["prerequisite_id"]].append(edge["concept_id"])

    rows: dict[str, dict[str, Any]] = {}
    for concept in concepts:
        where = _grade_domain(concept)
        if where is None:
            continue
        kinds: set[str] = set()
        n_mis = 0
        for target in aligned.get(concept["id"], []):
            kinds |= docs_by_concept.get(target, set())
            n_mis += misconceptions.get(target, 0)
        rows[concept["id"]] = {
            "grade": where[0],
            "domain": where[1],
            "lessons": bool(kinds & LESSON_KINDS),
            "practice": bool(kinds & PRACTICE_KINDS),
            "misconceptions": n_mis > 0,
        }

    def tally(keys: list[str]) -> dict[str, Any]:
        n = len(keys)
        out: dict[str, Any] = {"standards": n}
        for what in ("lessons", "practice", "misconceptions"):
            hit = sum(rows[k][what] for k in keys)
            out[what] = hit
            out[f"{what}_share"] = round(hit / n, 3) if n else 0.0
        return out

    by_grade = {g: tally([k for k, r in rows.items() if r["grade"] == g]) for g in GRADES}
    by_domain: dict[str, dict[str, Any]] = {}
    for g in GRADES:
        for d in sorted({r["domain"] for r in rows.values() if r["grade"] == g}):
            keys = [k for k, r in rows.items() if r["grade"] == g and r["domain"] == d]
            by_domain[f"{g}.{d}"] = tally(keys)
    return {
        "curriculum": curriculum.name,
        "definition": "a standard counts when an aligned_with edge reaches content of that kind",
        "by_grade": by_grade,
        "by_domain": by_domain,
        "total": tally(list(rows)),
    }


def model_grades(curriculum: Path) -> dict[str, dict[str, int]]:
    """Lessons and practice items by the grade the bundled standards model reads them as."""
    from tutorgraph.embedding.stored_vectors import StoredVectors
    from tutorgraph.ingest.bundle import read_bundle
    from tutorgraph.linking.standards_model import StandardModel
    from tutorgraph.retrieval.factory import bundled_standards_path
    from tutorgraph.stores.items import document_item

    model = StandardModel.load(bundled_standards_path())
    stored = StoredVectors.read(curriculum / "embeddings")
    if stored is None:
        raise SystemExit(f"{curriculum} has no stored vectors (embeddings/)")
    items = [document_item(d) for d in read_bundle(curriculum).documents]
    found = stored.lookup([it.search_text for it in items], stored.fingerprint)
    out: dict[str, dict[str, int]] = {
        "lessons": dict.fromkeys(GRADES, 0),
        "practice": dict.fromkeys(GRADES, 0),
    }
    order = sorted(found)
    for start in range(0, len(order), 2048):
        rows = order[start : start + 2048]
        vectors = np.stack([found[i] for i in rows])
        texts = [items[i].text for i in rows]
        log_proba = model.log_proba_batch(vectors, texts, [None] * len(rows))
        for i, lp in zip(rows, log_proba, strict=True):
            grades = model.grade_distribution(lp)
            best = max(grades, key=lambda g: grades[g])
            what = "lessons" if items[i].kind in LESSON_KINDS else "practice"
            out[what][best] += 1
    out["unread"] = {"items": len(items) - len(found)}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--curriculum", type=Path, default=ROOT / "data" / "curriculum")
    parser.add_argument("--out", type=Path, default=ROOT / "results" / "coverage_by_grade.json")
    args = parser.parse_args()
    result = coverage(args.curriculum.resolve())
    result["by_model_grade"] = model_grades(args.curriculum.resolve())
    args.out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    print(f"{'grade':<6}{'standards':>10}{'lessons':>9}{'practice':>9}{'misconc.':>9}")
    for g, row in result["by_grade"].items():
        print(
            f"{g:<6}{row['standards']:>10}{row['lessons']:>9}{row['practice']:>9}"
            f"{row['misconceptions']:>9}"
        )
    read = result["by_model_grade"]
    print("items by the grade the standards model reads them as:")
    for what in ("lessons", "practice"):
        print(f"  {what:<9}" + " ".join(f"{g}:{n}" for g, n in read[what].items()))
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()

"""Which grades and topics of the Common Core the bundled curriculum can teach (issue 61).

A standard's content is what is aligned to it by id (a record whose `concept_ids` name it:
the project's own lessons, `ingest/teaching.py`) plus what an `aligned_with` edge reaches (a
construct's or section's lessons, practice and misconceptions). Counted from the bundle, per
grade and per domain, for the issue's bar: a standard with an explanation, two worked
examples, five practice items and a misconception; own content is also checked for its grade
(a record's `grade` is its standard's):

    python research/scripts/coverage_by_grade.py [--curriculum DIR] [--out FILE.json]

It also counts lessons by the grade they carry, reads every lesson and practice item with the
linker's standards model (its bundled weights, over the bundle's stored MiniLM vectors) to
count them by the grade the model gives the most probability (an estimate of which grades
content without a `grade` is written for), and the alignment's judged precision and recall
(`research/scripts/alignment_judged.py report`, when it has run).
"""

from __future__ import annotations

import argparse
import json
import re
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import numpy as np

from tutorgraph.retrieval.concepts import PRACTICE_KINDS
from tutorgraph.stores.lessons import LESSON_KINDS

ROOT = Path(__file__).resolve().parents[2]
GRADES = ("K", "1", "2", "3", "4", "5", "6", "7", "8", "HS")
# The bar per standard: one explanation, two worked examples, five practice items,
# one misconception.
NEEDED = {"explanation": 1, "worked_example": 2, "practice": 5, "misconception": 1}


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
    m = re.match(r"(K|\d)\.([A-Z]+)\.", code) or re.match(r"(K|\d)\.(MP)\d", code)
    return (m.group(1), m.group(2)) if m else None


def _what(kind: str) -> str:
    return "practice" if kind in PRACTICE_KINDS else kind


def coverage(curriculum: Path) -> dict[str, Any]:
    concepts = _jsonl(curriculum / "concepts.jsonl")
    grade_of = {c["id"]: c.get("grade") for c in concepts}
    # Per concept: how many documents of each kind (practice = exercises and questions), and
    # how many of them are the standard's own and at its grade.
    counts: dict[str, Counter[str]] = defaultdict(Counter)
    own_at_grade: dict[str, Counter[str]] = defaultdict(Counter)
    lessons_by_grade: Counter[str] = Counter()
    for doc in _jsonl(curriculum / "documents.jsonl"):
        what = _what(doc["kind"])
        if doc.get("grade") and doc["kind"] in LESSON_KINDS:
            lessons_by_grade[doc["grade"]] += 1
        for cid in doc.get("concept_ids", []):
            counts[cid][what] += 1
            if doc.get("grade") and doc["grade"] == grade_of.get(cid):
                own_at_grade[cid][what] += 1
    for mis in _jsonl(curriculum / "misconceptions.jsonl"):
        for cid in mis.get("concept_ids", []):
            counts[cid]["misconception"] += 1
            own_at_grade[cid]["misconception"] += 1
    aligned: dict[str, list[str]] = defaultdict(list)
    for edge in _jsonl(curriculum / "prerequisites.jsonl"):
        if edge["relation"] == "aligned_with":
            aligned[edge["prerequisite_id"]].append(edge["concept_id"])

    rows: dict[str, dict[str, Any]] = {}
    for concept in concepts:
        where = _grade_domain(concept)
        if where is None:
            continue
        reach = Counter(counts.get(concept["id"], Counter()))
        for target in aligned.get(concept["id"], []):
            reach.update(counts.get(target, Counter()))
        own = own_at_grade.get(concept["id"], Counter())
        rows[concept["id"]] = {
            "grade": where[0],
            "domain": where[1],
            **{k: reach[k] >= n for k, n in NEEDED.items()},
            "own_at_grade": all(own[k] >= n for k, n in NEEDED.items() if k != "misconception"),
            "aligned": len(aligned.get(concept["id"], [])),
        }
    columns = (*NEEDED, "own_at_grade", "all")
    for row in rows.values():
        row["all"] = all(row[k] for k in NEEDED)

    def tally(keys: list[str]) -> dict[str, Any]:
        n = len(keys)
        out: dict[str, Any] = {"standards": n}
        for what in columns:
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
    k8 = [k for k, r in rows.items() if r["grade"] != "HS"]
    k5 = [k for k, r in rows.items() if r["grade"] in {"K", "1", "2", "3", "4", "5"}]
    return {
        "curriculum": curriculum.name,
        "definition": "a standard counts when records aligned to it by id, or reached by an "
        "aligned_with edge, hold content of that kind; own_at_grade: its own explanation, two "
        "worked examples and five practice items, all at its grade",
        "needed": NEEDED,
        "by_grade": by_grade,
        "by_domain": by_domain,
        "k8": tally(k8),
        "k5": tally(k5),
        "total": tally(list(rows)),
        "lessons_by_grade": {g: lessons_by_grade.get(g, 0) for g in GRADES},
        "missing_k8": sorted(k for k in k8 if not rows[k]["all"]),
    }


def judged_alignment(path: Path) -> dict[str, Any] | None:
    """The alignment's precision and recall on the second reader's blind sample, as
    `research/scripts/alignment_judged.py report` wrote them (None before it has run)."""
    if not path.exists():
        return None
    judged: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return {k: judged[k] for k in ("judged", "precision", "recall")}


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
    parser.add_argument("--judged", type=Path, default=ROOT / "results" / "alignment_judged_3.json")
    parser.add_argument("--out", type=Path, default=ROOT / "results" / "coverage_by_grade.json")
    parser.add_argument(
        "--no-model", action="store_true", help="Skip reading the items with the standards model."
    )
    args = parser.parse_args()
    result = coverage(args.curriculum.resolve())
    result["alignment_judged"] = judged_alignment(args.judged)
    if not args.no_model:
        result["by_model_grade"] = model_grades(args.curriculum.resolve())
    args.out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    heads = ("standards", "explanation", "worked_example", "practice", "misconception", "all")
    print(f"{'grade':<6}" + "".join(f"{h[:9]:>10}" for h in heads) + f"{'lessons':>9}")
    for g, row in result["by_grade"].items():
        print(
            f"{g:<6}"
            + "".join(f"{row[h]:>10}" for h in heads)
            + f"{result['lessons_by_grade'][g]:>9}"
        )
    for band in ("k8", "k5"):
        row = result[band]
        print(f"{band}: all {row['all']}/{row['standards']}, misconception {row['misconception']}")
    print(f"judged alignment: {result['alignment_judged']}")
    if "by_model_grade" in result:
        read = result["by_model_grade"]
        print("items by the grade the standards model reads them as:")
        for what in ("lessons", "practice"):
            print(f"  {what:<9}" + " ".join(f"{g}:{n}" for g, n in read[what].items()))
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()

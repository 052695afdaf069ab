"""Does the language detector leave English alone, and does it catch other languages?

    python research/scripts/language_check.py [--out results/language_check.json] [--index-dir DIR]

Runs `tutorgraph.refinement.language.detect_language` over every English message in the
repository's benchmarks and test data (tutoring, packet, reader and student messages, word
problems, refiner and routing queries), the Eedi question texts, construct names and
misconceptions (tests/data/eedi, and ../shared/data/eedi when present), MathFish problems
and MaE questions (../shared/data, when present), and, as a large stress set, every title
and text of the curriculum bundle (data/curriculum/documents.jsonl): each text read as not
English is a false positive, listed with its source. The packet messages tagged
`other_language` are not English: they are scored with the non-English set.

The non-English set is tests/data/non_english_questions.jsonl (written for this check;
see tests/data/NON_ENGLISH_QUESTIONS.md): `dev` rows were written first and the detector's
word lists were tuned on them; `heldout` rows were written after the tuning and not looked
at before this measurement. Recall is the share read as not English; `code_right` the
share read as the row's own language.

With `--index-dir` (an index of `tutorgraph ingest data/curriculum`), each non-English
question and its English version (the row's `english`, written with it) are also retrieved
with the default local setup, and the script reports how often the packet of the
non-English one is already flagged (`no_match`), how often it names the English version's
first Common Core concept, and how much the two top-10 results overlap: whether a
non-English message still retrieves what its English version does (the evidence for
setting `no_match` on it or not). It then does the same with every message spell-corrected
as before the detector (`pipeline_corrected`), to show what skipping the corrector changed.

The curriculum's document frequencies also chose which foreign words count half (those
that are English words too), so its figure is not independent of the tuning; the messages'
are, except that the word lists were checked against nothing but the bundle.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from unittest.mock import patch

from tutorgraph.refinement.language import detect_language

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared" / "data"
NON_ENGLISH = ROOT / "tests" / "data" / "non_english_questions.jsonl"
OUT = ROOT / "results" / "language_check.json"
# The languages of the packet messages tagged `other_language` (their `reason` says which).
_PACKET_LANGUAGES = {"pm-295": "de", "pm-296": "es", "pm-297": "fr", "pm-298": "es", "pm-299": "de"}


def _jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def _csv(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8-sig", newline="") as f:
        return list(csv.DictReader(f))


def english_sets() -> Iterator[tuple[str, list[tuple[str, str]]]]:
    """(set name, [(id, text)]) for every English set found."""
    bench = ROOT / "data" / "benchmarks"
    packet = _jsonl(bench / "packet_messages.jsonl")
    yield (
        "packet_messages",
        [(r["id"], r["text"]) for r in packet if "other_language" not in r["tags"]],
    )
    for name, key in (
        ("tutoring_messages", "text"),
        ("word_problems", "text"),
        ("reader_messages", "text"),
        ("student_messages", "message"),
    ):
        yield name, [(r["id"], r[key]) for r in _jsonl(bench / f"{name}.jsonl")]
    data = ROOT / "tests" / "data"
    yield "refiner_queries", [(r["id"], r["query"]) for r in _jsonl(data / "refiner_queries.jsonl")]
    routing = [
        *_jsonl(data / "routing_queries.jsonl"),
        *_jsonl(data / "routing_queries_holdout.jsonl"),
    ]
    yield "routing_queries", [(f"routing:{i}", r["query"]) for i, r in enumerate(routing)]
    for label, folder in (("tests", data / "eedi"), ("shared", SHARED / "eedi")):
        train = folder / "train.csv"
        if not train.exists():
            continue
        rows = _csv(train)
        yield (
            f"eedi_questions_{label}",
            [(f"eedi:{r['QuestionId']}", r["QuestionText"]) for r in rows],
        )
        answers = [
            (f"eedi:{r['QuestionId']}:{x}", r[f"Answer{x}Text"]) for r in rows for x in "ABCD"
        ]
        yield f"eedi_answers_{label}", answers
        constructs = {r["ConstructId"]: r["ConstructName"] for r in rows}
        yield f"eedi_constructs_{label}", sorted(constructs.items())
        mapping = folder / "misconception_mapping.csv"
        if mapping.exists():
            yield (
                f"eedi_misconceptions_{label}",
                [(r["MisconceptionId"], r["MisconceptionName"]) for r in _csv(mapping)],
            )
    mathfish = SHARED / "mathfish" / "generated_problems_teacher_annotations.csv"
    if mathfish.exists():
        rows = _csv(mathfish)
        yield (
            "mathfish_problems",
            [(f"mathfish:{i}", r["Problem/Activity Text"]) for i, r in enumerate(rows)],
        )
    mae = SHARED / "mae" / "data.json"
    if mae.exists():
        rows = json.loads(mae.read_text(encoding="utf-8"))
        yield "mae_questions", [(f"mae:{i}", r["Question"]) for i, r in enumerate(rows)]
    documents = _jsonl(ROOT / "data" / "curriculum" / "documents.jsonl")
    yield (
        "curriculum_documents",
        [(r["id"], f"{r.get('title') or ''}\n{r['text']}") for r in documents],
    )


def pipeline_check(
    index_dir: Path, rows: list[dict[str, Any]], *, correct_all: bool = False
) -> dict[str, Any]:
    """Each non-English row and its English version through the retriever (see above);
    with `correct_all`, the local refiner spell-corrects every message, as before."""
    import asyncio

    import tutorgraph.refinement.local as local
    from tutorgraph.config import Settings
    from tutorgraph.index.service import open_retriever
    from tutorgraph.refinement.language import Language
    from tutorgraph_client.models.packet import ReasoningPacket
    from tutorgraph_client.models.request import RetrievalRequest

    def first_ccss(packet: ReasoningPacket) -> str | None:
        return next((c.id for c in packet.concepts if c.id.startswith("ccss:")), None)

    async def run() -> list[dict[str, Any]]:
        served = open_retriever(Settings(index_dir=index_dir))
        out = []
        try:
            for r in rows:
                foreign = await served.retriever.retrieve(RetrievalRequest(query=r["text"]))
                english = await served.retriever.retrieve(RetrievalRequest(query=r["english"]))
                top_f = {h.id for h in foreign.results[:10]}
                top_e = {h.id for h in english.results[:10]}
                out.append(
                    {
                        "id": r["id"],
                        "language": r["language"],
                        "detected": foreign.language.detected,
                        "no_match": foreign.no_match_reason,
                        "english_no_match": english.no_match_reason,
                        "first_concept": first_ccss(foreign),
                        "english_first_concept": first_ccss(english),
                        "overlap10": round(len(top_f & top_e) / max(1, len(top_f | top_e)), 4),
                    }
                )
        finally:
            await served.aclose()
        return out

    if correct_all:
        with patch.object(local, "detect_language", lambda _q: Language(english=True, code="en")):
            per_row = asyncio.run(run())
    else:
        per_row = asyncio.run(run())

    def same(rows: list[dict[str, Any]]) -> int:
        return sum(
            r["first_concept"] is not None and r["first_concept"] == r["english_first_concept"]
            for r in rows
        )

    def overlap(rows: list[dict[str, Any]]) -> float:
        return round(float(sum(r["overlap10"] for r in rows)) / max(1, len(rows)), 4)

    flagged = [r for r in per_row if r["no_match"] is not None]
    passed = [r for r in per_row if r["no_match"] is None]
    return {
        "questions": len(per_row),
        "english_flagged": sum(r["english_no_match"] is not None for r in per_row),
        "same_first_concept": same(per_row),
        "mean_overlap10": overlap(per_row),
        "flagged": {
            "n": len(flagged),
            "same_first_concept": same(flagged),
            "mean_overlap10": overlap(flagged),
        },
        "not_flagged": {
            "n": len(passed),
            "same_first_concept": same(passed),
            "mean_overlap10": overlap(passed),
        },
        "rows": per_row,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--index-dir", type=Path, help="also retrieve the non-English set")
    args = parser.parse_args()
    started = time.perf_counter()
    english: dict[str, dict[str, Any]] = {}
    n_texts = 0
    for name, texts in english_sets():
        flagged = []
        for id_, text in texts:
            language = detect_language(text)
            if not language.english:
                flagged.append({"id": id_, "code": language.code, "text": text[:300]})
        english[name] = {"texts": len(texts), "flagged": len(flagged), "false_positives": flagged}
        n_texts += len(texts)
        print(f"{name}: {len(flagged)} of {len(texts)} read as not English", file=sys.stderr)

    rows = [{**r, "split": r.get("split", "dev")} for r in _jsonl(NON_ENGLISH)] + [
        {
            "id": r["id"],
            "language": _PACKET_LANGUAGES.get(r["id"]),
            "text": r["text"],
            "split": "packet_messages",
        }
        for r in _jsonl(ROOT / "data" / "benchmarks" / "packet_messages.jsonl")
        if "other_language" in r["tags"]
    ]
    per_split: dict[str, Counter[str]] = {}
    misses = []
    for r in rows:
        language = detect_language(r["text"])
        c = per_split.setdefault(r["split"], Counter())
        c["texts"] += 1
        c["caught"] += not language.english
        c["code_right"] += language.code == r["language"]
        if language.english or (r["language"] and language.code != r["language"]):
            misses.append({**r, "read_as": language.code})
    recall = {
        split: {
            "texts": c["texts"],
            "caught": c["caught"],
            "recall": round(c["caught"] / c["texts"], 4),
            "code_right": c["code_right"],
        }
        for split, c in sorted(per_split.items())
    }
    english_flagged = sum(v["flagged"] for v in english.values())
    out = {
        "command": "python research/scripts/language_check.py"
        + (" --index-dir DIR" if args.index_dir else ""),
        "index": "DIR is `tutorgraph ingest data/curriculum --index-dir DIR`"
        if args.index_dir
        else None,
        "english": {
            "texts": n_texts,
            "flagged": english_flagged,
            "messages_flagged": sum(
                v["flagged"] for k, v in english.items() if k != "curriculum_documents"
            ),
            "sets": english,
        },
        "non_english": {"recall": recall, "misses": misses},
        "seconds": round(time.perf_counter() - started, 2),
    }
    if args.index_dir is not None:
        translated = [r for r in rows if r.get("english")]
        for key, correct_all in (("pipeline", False), ("pipeline_corrected", True)):
            check = pipeline_check(args.index_dir, translated, correct_all=correct_all)
            out[key] = check
            summary = {k: v for k, v in check.items() if k != "rows"}
            print(json.dumps({key: summary}), file=sys.stderr)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(json.dumps({"english_flagged": english_flagged, "recall": recall}), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

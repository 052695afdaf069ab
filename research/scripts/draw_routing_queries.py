"""Draw the mechanical part of tests/data/routing_queries.jsonl from the real data.

Prints candidate queries (Eedi question stems, standard codes, OpenStax section titles and
exercises) with a fixed seed; a person then labels each with a profile and a query type
following tests/data/ROUTING_LABELS.md. Run: python research/scripts/draw_routing_queries.py
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from tutorgraph.ingest.eedi import read_eedi_questions
from tutorgraph.mathtext.latex import latex_to_text

BUNDLE = Path("data/curriculum")
SHARED = Path("../shared/data")


def main() -> None:
    rng = random.Random(20261121)
    questions = read_eedi_questions(SHARED / "eedi" / "train.csv")
    for q in rng.sample(questions, 10):
        stem = " ".join(latex_to_text(q.question_text).split())
        print(json.dumps({"query": stem, "origin": "eedi-stem"}, ensure_ascii=False))
    concepts = [json.loads(line) for line in (BUNDLE / "concepts.jsonl").open()]
    codes = [c["id"].removeprefix("ccss:") for c in concepts if c["kind"] == "standard"]
    for code in rng.sample(sorted(codes), 8):
        print(json.dumps({"query": code, "origin": "ccss-code"}))
    sections = [c["name"] for c in concepts if c["kind"] == "section"]
    for title in rng.sample(sorted(sections), 8):
        print(json.dumps({"query": title, "origin": "openstax-title"}))
    docs = (json.loads(line) for line in (BUNDLE / "documents.jsonl").open())
    exercises = [d["text"] for d in docs if d["kind"] == "exercise"]
    for text in rng.sample(exercises, 8):
        first = text.split("\n")[-1] if "Solution:" not in text else text.split("\nSolution:")[0]
        print(json.dumps({"query": " ".join(first.split())[:300], "origin": "openstax-exercise"}))


if __name__ == "__main__":
    main()

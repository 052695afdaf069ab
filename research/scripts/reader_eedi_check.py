"""Does the math-message reader change what the Eedi benchmark's texts are read as?

For every labelled (question, wrong answer) pair of the development file, the benchmark's
query text is read twice: by the readers before the reader (`stated_answer`,
`find_problem`) and by the product's path now (`answer_in`, `read_and_diagnose`). Prints and
writes how many answers differ, how many diagnoses fire, and how often the fired rules name
the pair's labelled misconception.

    python research/scripts/reader_eedi_check.py ../shared/data/eedi/train.csv \\
        results/reader_eedi_check.json
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from tutorgraph.diagnosis.diagnose import Diagnoser
from tutorgraph.diagnosis.problem import find_problem
from tutorgraph.ingest.eedi import eedi_query_text, read_eedi_questions
from tutorgraph.mathtext.spans import plain_text
from tutorgraph.refinement.answer import stated_answer
from tutorgraph.refinement.local import answer_in
from tutorgraph.retrieval.request_diagnosis import read_and_diagnose


def main(train: Path, out: Path) -> None:
    diagnoser = Diagnoser.bundled()
    counts = dict.fromkeys(
        ("pairs", "answers_differ", "fired_before", "fired_now", "target_before", "target_now"),
        0,
    )
    for q in read_eedi_questions(train):
        for letter, mid in sorted(q.misconception_ids.items()):
            if mid is None:
                continue
            counts["pairs"] += 1
            target = f"eedi:misconception:{mid}"
            text = eedi_query_text(q, letter)
            before_answer = stated_answer(plain_text(text))
            now_answer = answer_in(text)
            counts["answers_differ"] += before_answer != now_answer
            problem = find_problem(text, student_answer=before_answer) if before_answer else None
            before = (
                diagnoser.diagnose(problem, before_answer) if problem and before_answer else None
            )
            now = (
                read_and_diagnose(diagnoser, text, now_answer, None, message=True)
                if now_answer
                else None
            )
            for name, found in (("before", before), ("now", now[1] if now else None)):
                ids = {m for f in (found.findings if found else []) for m in f.misconception_ids}
                counts[f"fired_{name}"] += bool(ids)
                counts[f"target_{name}"] += target in ids
    print(json.dumps(counts, indent=1))
    out.write_text(json.dumps(counts, indent=1) + "\n")


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))

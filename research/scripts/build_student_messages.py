"""Write the free-text student-message set (`tutorgraph_research.tasks.messages`) from Eedi
train.csv.

    .venv/bin/python research/scripts/build_student_messages.py ../shared/data/eedi/train.csv \
        data/benchmarks/student_messages.jsonl
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

from tutorgraph.ingest.eedi import read_eedi_questions
from tutorgraph_research.tasks.messages import student_messages, write_student_messages


def main(train: str, out: str) -> None:
    messages = student_messages(read_eedi_questions(Path(train)))
    write_student_messages(messages, Path(out))
    splits = Counter(m.split for m in messages)
    templates = Counter(m.template for m in messages)
    print(f"{len(messages)} messages -> {out}; {dict(splits)}; {dict(sorted(templates.items()))}")


if __name__ == "__main__":
    main(*sys.argv[1:3])

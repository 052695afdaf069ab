"""`build-curriculum`: the real source datasets -> one deterministic curriculum bundle.

>>> records = build_curriculum(Path("../shared/data"))  # doctest: +SKIP
>>> write_bundle(records, Path("data/curriculum"))  # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from tutorgraph.config import DEFAULT_EMBEDDING_MODEL
from tutorgraph.errors import ConfigurationError
from tutorgraph.ingest.teaching import TEACHING_NOTICE, load_teaching
from tutorgraph.models.records import SourceRecords
from tutorgraph_client.models.curriculum import is_noncommercial

__all__ = ["SOURCES", "SourceInfo", "build_curriculum", "minilm_token_counter", "notice_text"]


@dataclass(frozen=True)
class SourceInfo:
    """Where a dataset lives under `--source`, and how it must be attributed."""

    folder: str
    title: str
    license: str
    attribution: str
    noncommercial: bool = False


SOURCES = (
    SourceInfo(
        "learning-commons",
        "Learning Commons Knowledge Graph (export v1.11.0): Common Core math standards, "
        "hierarchy and learning progressions",
        "CC BY 4.0 (learning progressions: CC0 1.0)",
        "Knowledge Graph is provided by Learning Commons under the CC BY-4.0 license. Common "
        "Core Mathematics standards provided by Common Good Learning Tools. Learning Commons "
        "received learning progressions under CC0 from Student Achievement Partners. The "
        "Common Core State Standards text is also (c) 2010 National Governors Association "
        "Center for Best Practices and Council of Chief State School Officers, under their "
        "public license.",
    ),
    SourceInfo(
        "openstax",
        "OpenStax Prealgebra 2e, Elementary Algebra 2e and Intermediate Algebra 2e (CNXML "
        "snapshot of 2025-10-02)",
        "CC BY 4.0",
        "Content from OpenStax (openstax.org), Rice University, licensed under CC BY 4.0. "
        "Text was converted from CNXML/MathML to plain text and split into chunks; images "
        "were omitted.",
    ),
    SourceInfo(
        "eedi",
        "Eedi - Mining Misconceptions in Mathematics (Kaggle, 2024): misconceptions, "
        "constructs and diagnostic questions",
        "CC BY-NC 4.0 (NON-COMMERCIAL)",
        "Data from Eedi, published for the Kaggle competition 'Eedi - Mining Misconceptions "
        "in Mathematics' (2024). LaTeX was converted to plain text.",
        noncommercial=True,
    ),
    SourceInfo(
        "eedi-subjects",
        "Eedi NeurIPS 2020 Education Challenge subject metadata (topic tree)",
        "license unverified: treated as NON-COMMERCIAL",
        "Subject tree from the Eedi NeurIPS 2020 Education Challenge data.",
        noncommercial=True,
    ),
)


def notice_text(*, exclude_noncommercial: bool, teaching: bool = False) -> str:
    """The NOTICE that travels with a bundle: each source's license and attribution (and
    the project's own teaching content's, when the bundle holds it)."""
    lines = [
        "tutorgraph curriculum bundle: sources, licenses and attribution",
        "",
        "Built by `tutorgraph build-curriculum` from the public datasets below. Each record",
        "carries its own `source` and `license` fields.",
        "",
    ]
    for src in SOURCES:
        if exclude_noncommercial and src.noncommercial:
            continue
        lines += [f"* {src.title}", f"  License: {src.license}", f"  {src.attribution}", ""]
    if teaching:
        lines += [TEACHING_NOTICE]
    if exclude_noncommercial:
        lines.append("Built with --exclude-noncommercial: no Eedi-derived records are included.")
    else:
        lines += [
            "NON-COMMERCIAL: the Eedi-derived records (ids starting with `eedi:`) may be used",
            "for non-commercial purposes only. Build with `--exclude-noncommercial` for a bundle",
            "without them.",
        ]
    lines += [
        "",
        "`embeddings/` (written by `tutorgraph embed-bundle`, when present) holds the vectors",
        "of these records' texts computed with sentence-transformers/all-MiniLM-L6-v2",
        "(Apache 2.0): derived from the records, under the records' own licenses.",
    ]
    return "\n".join(lines) + "\n"


def minilm_token_counter(model: str = DEFAULT_EMBEDDING_MODEL) -> Callable[[str], int]:
    """Count tokens as the embedder sees them, so chunks fit its window."""
    from tutorgraph.embedding.embedder import resolve_model_path
    from tutorgraph.embedding.fast_tokenizer import FastTokenizer

    # The model's own tokenizer.json, untruncated: counting long texts is the point here.
    tokenizer = FastTokenizer.load(Path(resolve_model_path(model)))

    def count(text: str) -> int:
        return len(tokenizer.encode(text, add_special_tokens=False))

    return count


def build_curriculum(
    source: Path,
    *,
    exclude_noncommercial: bool = False,
    count_tokens: Callable[[str], int] | None = None,
    teaching: Path | None = None,
) -> SourceRecords:
    """Load every source dataset under `source` into one set of records, and the project's
    own teaching content from `teaching` (`ingest.teaching`) when given."""
    from tutorgraph.ingest.eedi import (
        eedi_records,
        read_eedi_questions,
        read_misconceptions,
        read_subjects,
    )
    from tutorgraph.ingest.learning_commons import load_learning_commons
    from tutorgraph.ingest.openstax import load_openstax

    needed = [s.folder for s in SOURCES if not (exclude_noncommercial and s.noncommercial)]
    missing = [f for f in needed if not (source / f).is_dir()]
    if missing:
        raise ConfigurationError(
            f"{source} lacks the source folder(s) {', '.join(missing)}; point --source at the "
            "shared data folder (see its README)"
        )
    out = SourceRecords()
    out.extend(load_learning_commons(source / "learning-commons"))
    out.extend(
        load_openstax(source / "openstax", count_tokens=count_tokens or minilm_token_counter())
    )
    if not exclude_noncommercial:
        eedi = source / "eedi"
        out.extend(
            eedi_records(
                read_eedi_questions(eedi / "train.csv"),
                read_misconceptions(eedi / "misconception_mapping.csv"),
                read_subjects(source / "eedi-subjects" / "subject_metadata.csv"),
            )
        )
    else:
        # Belt and braces: nothing non-commercial may slip in through another loader.
        out.concepts = [r for r in out.concepts if not is_noncommercial(r)]
        out.documents = [r for r in out.documents if not is_noncommercial(r)]
        out.misconceptions = [r for r in out.misconceptions if not is_noncommercial(r)]
    if teaching is not None:
        out.extend(_within(load_teaching(teaching), {c.id for c in out.concepts}))
    return out


def _within(own: SourceRecords, known: set[str]) -> SourceRecords:
    """The teaching records whose concepts the built sources hold: a judged alignment of a
    construct `--exclude-noncommercial` leaves out, or a lesson of a standard a partial
    source lacks, has nothing to join."""
    own.prerequisites = [p for p in own.prerequisites if {p.prerequisite_id, p.concept_id} <= known]
    own.documents = [d for d in own.documents if set(d.concept_ids) <= known]
    own.misconceptions = [
        m.model_copy(update={"concept_ids": [c for c in m.concept_ids if c in known]})
        for m in own.misconceptions
        if set(m.concept_ids) & known
    ]
    return own

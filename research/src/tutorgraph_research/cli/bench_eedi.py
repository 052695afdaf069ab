"""`tutorgraph bench eedi` (misconception retrieval, MAP@25), `tutorgraph bench diagnosis`
(the bug rules' coverage and precision), both on an Eedi train file, and `tutorgraph bench
cross-encoder` (a cross-encoder over `bench eedi --rankings`' out-of-fold lists).

e.g. `tutorgraph bench diagnosis --train train.csv --out diagnosis.json`
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from tutorgraph import Settings
from tutorgraph.cli.plugin import (
    EediSubjectsOption,
    IndexDirOption,
    console,
    default_subjects,
    fail_on_errors,
    load_settings,
    progress_bars,
)
from tutorgraph.config import DEFAULT_EMBEDDING_MODEL
from tutorgraph.ingest.eedi import eedi_misconception_id, read_eedi_questions, read_misconceptions
from tutorgraph.retrieval.factory import make_embedder
from tutorgraph.training.cross_encoder import TrainingConfig
from tutorgraph.training.crossfit_encoders import fold_model_dir, load_fold_encoders
from tutorgraph.training.ranker import RankerTrainingConfig
from tutorgraph_research.cli.options import FoldsOption, JsonReportOption, MisconceptionListOption
from tutorgraph_research.tasks.eedi_bench import EediBenchmarkSpec, run_eedi_benchmark
from tutorgraph_research.tasks.eedi_shipped import PATHS, SHIPPED_METRICS, paired_with, run_shipped
from tutorgraph_research.tasks.second_stage import (
    cross_encoder_row,
    read_rankings,
    tuned_negatives,
)

__all__ = ["cross_encoder_cmd", "diagnosis_cmd", "eedi_cmd"]


def _question_ids(path: Path | None) -> frozenset[int]:
    """The question ids of an Eedi-format CSV (`--exclude`); none without one."""
    return frozenset(q.question_id for q in read_eedi_questions(path)) if path else frozenset()


def _fold_keys(text: str | None) -> frozenset[int] | None:
    """`--only-folds 0,2` as fold keys (None: every fold)."""
    if text is None:
        return None
    try:
        keys = frozenset(int(k) for k in text.split(",") if k.strip())
    except ValueError:
        raise typer.BadParameter(f"--only-folds takes fold numbers, not {text!r}") from None
    if not keys:
        raise typer.BadParameter("--only-folds names no fold")
    return keys


def eedi_cmd(
    train: Annotated[Path, typer.Option(help="Eedi train.csv (the development file).")],
    misconceptions: Annotated[
        Path | None,
        typer.Option(help="misconception_mapping.csv (needed unless --shipped)."),
    ] = None,
    out: Annotated[Path, typer.Option(help="Where to write results.json.")] = Path("results.json"),
    test: Annotated[
        Path | None, typer.Option(help="Held-out test file; without it, k-fold CV on --train.")
    ] = None,
    subjects: EediSubjectsOption = None,
    folds: FoldsOption = 5,
    configs: Annotated[str, typer.Option(help="Comma-separated globs over config names.")] = "*",
    limit: Annotated[int | None, typer.Option(help="At most this many pairs (quick runs).")] = None,
    rerank_depth: Annotated[
        int, typer.Option(help="Fused candidates the reranker scores.", min=1, max=100)
    ] = 30,
    messages: Annotated[
        Path | None,
        typer.Option(
            help="Score these free-text student messages (data/benchmarks/student_messages"
            ".jsonl) instead of the Eedi query texts, each in the fold that holds it out."
        ),
    ] = None,
    exclude: Annotated[
        Path | None,
        typer.Option(
            exists=True,
            dir_okay=False,
            help="CSV with a QuestionId column: the questions read while writing the bug "
            "rules; `/diagnosis` rows add their paired difference over the other questions.",
        ),
    ] = None,
    per_item: Annotated[
        bool,
        typer.Option(
            help="Keep each item's MAP@25 in the results, to compare two runs pair by pair "
            "(research/scripts/paired_runs.py)."
        ),
    ] = False,
    tuned_folds: Annotated[
        Path | None,
        typer.Option(
            file_okay=False,
            help="Folder of fold encoders (`train-embedder --leave-out K/N --out DIR/foldK`, "
            "one per fold): the learned rankers read their scores, cross-fitted.",
        ),
    ] = None,
    rankings: Annotated[
        Path | None,
        typer.Option(
            dir_okay=False,
            help="Also write each scored packet's first 30 misconception hits (ids, final "
            "scores) to this JSON Lines file, for second-stage experiments.",
        ),
    ] = None,
    tuned_examples: Annotated[
        bool,
        typer.Option(
            help="With --tuned-folds: the rankers also vote with the labelled examples "
            "under the fine-tuned encoder (off by default, as in train-ranker)."
        ),
    ] = False,
    only_folds: Annotated[
        str | None,
        typer.Option(
            help="Comma-separated folds (int(QuestionId) % folds) to score, each trained as "
            "in the full run: a part of a CV whose items pair with a full run's."
        ),
    ] = None,
    shipped: Annotated[
        bool,
        typer.Option(
            help="Measure the product as it ships instead of a recipe: the bundled models over "
            "--index-dir's index, each pair with its construct and as text only (MAP@25, "
            "hit@10); nothing is trained. Run it before and after a change to the ranker, the "
            "reader, the facts or the stores, and pair the two with --baseline."
        ),
    ] = False,
    index_dir: IndexDirOption = None,
    baseline: Annotated[
        Path | None,
        typer.Option(
            exists=True,
            dir_okay=False,
            help="With --shipped: an earlier --shipped report; adds the paired difference "
            "per path and metric over the items both scored.",
        ),
    ] = None,
) -> None:
    """Eedi misconception retrieval: MAP@25 and Recall@25 per configuration, with 95%
    intervals and the paired difference from the first stage; or, with --shipped, the
    shipped product's MAP@25 and hit@10."""
    settings = load_settings(index_dir)
    if shipped:
        _shipped_cmd(settings, train, out, limit, baseline)
        return
    if misconceptions is None:
        raise typer.BadParameter("--misconceptions is needed (unless --shipped)")
    if subjects is None:
        subjects = default_subjects(misconceptions)
    spec = EediBenchmarkSpec(
        train=train,
        misconceptions=misconceptions,
        test=test,
        subjects=subjects,
        folds=folds,
        configs=configs,
        limit=limit,
        rerank_depth=rerank_depth,
        messages=messages,
        read_questions=_question_ids(exclude),
        per_item=per_item,
        tuned_folds=tuned_folds,
        rankings=rankings,
        ranker_training=RankerTrainingConfig(tuned_examples=tuned_examples),
        only_folds=_fold_keys(only_folds),
    )
    embedder = make_embedder(settings)
    with fail_on_errors(), progress_bars() as bars:
        task = bars.add_task("eedi retrievals", total=None)
        results = asyncio.run(
            run_eedi_benchmark(
                spec,
                embedder,
                progress=lambda done, total: bars.update(task, completed=done, total=total),
                status=lambda line: bars.update(task, description=line),
            )
        )
    out.write_text(json.dumps(results, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    table = Table(title=f"eedi -> {out}")
    table.add_column("config", no_wrap=True)
    for column in ("MAP@25 [95%]", "Recall@25", "vs first stage [95%]", "n"):
        table.add_column(column)
    for name, row in results.items():
        if name.startswith("_"):
            continue
        if row["map@25"] is None:
            table.add_row(name, row["status"], "", "", "0")
            continue
        ci = row.get("map@25_ci95")
        diff = row.get("paired_diff")
        table.add_row(
            name,
            f"{row['map@25']:.4f}" + (f" [{ci[0]:.3f}, {ci[1]:.3f}]" if ci else ""),
            f"{row['recall@25']:.4f}",
            f"{diff['mean']:+.4f} [{diff['ci95'][0]:+.3f}, {diff['ci95'][1]:+.3f}]" if diff else "",
            str(row["n"]),
        )
    console.print(table)


def _shipped_cmd(
    settings: Settings, train: Path, out: Path, limit: int | None, baseline: Path | None
) -> None:
    """`bench eedi --shipped`: run, write the report (with each item's scores), print it."""
    with fail_on_errors(), progress_bars() as bars:
        task = bars.add_task("shipped-product retrievals", total=None)
        report = asyncio.run(
            run_shipped(
                settings,
                train,
                limit=limit,
                progress=lambda done, total: bars.update(task, completed=done, total=total),
            )
        )
    if baseline is not None:
        earlier = json.loads(baseline.read_text(encoding="utf-8"))
        report["paired_with_baseline"] = {
            "baseline": str(baseline),
            **paired_with(earlier.get("items", {}), report["items"]),
        }
    out.write_text(json.dumps(report, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    table = Table(title=f"eedi, shipped product -> {out}")
    for column in ("path", "n", *SHIPPED_METRICS, "vs baseline [95%]"):
        table.add_column(column)
    paired = report.get("paired_with_baseline", {})
    for path in PATHS:
        row = report.get(path)
        if row is None:
            continue
        versus = [
            f"{m} {d['diff']:+.4f} [{d['diff_ci95'][0]:+.4f}, {d['diff_ci95'][1]:+.4f}]"
            for m, d in paired.get(path, {}).items()
            if m in SHIPPED_METRICS
        ]
        table.add_row(
            path,
            str(row["n"]),
            *(f"{row[m]:.4f}" for m in SHIPPED_METRICS),
            "; ".join(versus),
        )
    console.print(table)


def diagnosis_cmd(
    train: Annotated[
        Path,
        typer.Option(
            exists=True, dir_okay=False, help="Eedi train.csv: every labelled wrong answer."
        ),
    ],
    folds: Annotated[int, typer.Option(help="Report per fold: int(QuestionId) % folds.")] = 5,
    exclude: Annotated[
        Path | None,
        typer.Option(
            exists=True,
            dir_okay=False,
            help="CSV with a QuestionId column: the questions read while writing the rules; "
            "the `held out` row scores the others.",
        ),
    ] = None,
    out: JsonReportOption = None,
) -> None:
    """Coverage (pairs where a bug rule fires) and precision (firing rules whose
    misconception is the labelled one) of the diagnosis, overall, per fold and per rule.
    Its effect on MAP@25 is `bench eedi` with the `/diagnosis` configurations."""
    from tutorgraph.ingest.eedi import read_eedi_questions
    from tutorgraph_research.tasks.diagnosis import diagnosis_report

    with fail_on_errors():
        report = diagnosis_report(
            read_eedi_questions(train), folds=folds, read=_question_ids(exclude)
        )
    table = Table(
        "part", "pairs", "problem read", "fired", "coverage", "precision", title="diagnosis"
    )
    parts = [("all", report), ("held out", report["held_out"])]
    for name, row in [*parts, *((f"fold {k}", r) for k, r in report["by_fold"].items())]:
        table.add_row(
            name,
            str(row["pairs"]),
            str(row["problem_read"]),
            str(row["fired"]),
            f"{row['coverage'] or 0:.3f}",
            "-" if row["precision"] is None else f"{row['precision']:.3f}",
        )
    console.print(table)
    rules = Table("rule", "fired", "right", title="per rule")
    for rule, row in report["by_rule"].items():
        rules.add_row(rule, str(row["fired"]), str(row["right"]))
    console.print(rules)
    ms = report["ms_per_pair"]
    console.print(
        f"read and diagnose per pair: p50 {ms['p50']} ms, p95 {ms['p95']} ms, max {ms['max']} ms",
        highlight=False,
    )
    if out:
        out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")


def cross_encoder_cmd(
    rankings: Annotated[
        Path,
        typer.Option(exists=True, dir_okay=False, help="`bench eedi --rankings` output."),
    ],
    misconceptions: MisconceptionListOption,
    work: Annotated[
        Path,
        typer.Option(
            file_okay=False, help="Where the fold cross-encoders go (finished ones are reused)."
        ),
    ],
    out: Annotated[Path, typer.Option(help="Where to write the report.")] = Path(
        "cross_encoder_row.json"
    ),
    config: Annotated[str, typer.Option(help="Which configuration's lists.")] = (
        "default/construct"
    ),
    folds: FoldsOption = 5,
    depth: Annotated[int, typer.Option(help="Hits per list the cross-encoder scores.")] = 20,
    base_folds: Annotated[
        Path | None,
        typer.Option(
            file_okay=False,
            help="Start fold K's cross-encoder from the fold encoder in DIR/foldK/model "
            "(`train-embedder --leave-out K/N`) instead of --base-model.",
        ),
    ] = None,
    base_model: Annotated[str, typer.Option(help="Weights to start from.")] = (
        DEFAULT_EMBEDDING_MODEL
    ),
    negatives_from: Annotated[
        Path | None,
        typer.Option(
            file_okay=False,
            help="Draw each training pair's hard negatives from the fold encoders in "
            "DIR/foldK (each pair's by the encoder that left its question out) instead of "
            "its own list.",
        ),
    ] = None,
    epochs: Annotated[float, typer.Option(help="Passes over the training pairs.")] = 1.0,
    layers: Annotated[int, typer.Option(help="Transformer layers kept.")] = 3,
) -> None:
    """The cross-encoder's row: fold cross-encoders trained on the shipped pipeline's
    out-of-fold lists, their score as a second-stage feature, paired with the ranker alone."""
    with fail_on_errors():
        pairs = read_rankings(rankings, config)
        texts = read_misconceptions(misconceptions)
        names = {eedi_misconception_id(k): v for k, v in texts.items()}
        folder = base_folds
        base = (lambda k: str(fold_model_dir(folder, k))) if folder is not None else base_model
        hard = None
        if negatives_from is not None:
            console.print(f"hard negatives from the fold encoders in {negatives_from}")
            encoders = load_fold_encoders(negatives_from, folds)
            hard = tuned_negatives(pairs, encoders, names)
        report = asyncio.run(
            cross_encoder_row(
                pairs,
                names,
                work=work,
                folds=folds,
                depth=depth,
                training=TrainingConfig(epochs=epochs, layers=layers),
                base_model=base,
                negatives=hard,
                say=lambda line: console.print(line, highlight=False),
            )
        )
    report["_meta"] |= {"rankings": str(rankings), "config": config}
    table = Table("row", "MAP@25", "95% interval", title=f"second stage over {config}")
    for name, row in report["rows"].items():
        table.add_row(name, f"{row['map@25']:.4f}", f"[{row['ci95'][0]:.4f}, {row['ci95'][1]:.4f}]")
    console.print(table)
    for name, row in report["paired"].items():
        console.print(f"{name}: {row['mean']:+.4f} {row['ci95']}", highlight=False)
    out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")

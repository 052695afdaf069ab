"""`tutorgraph bench load`: the HTTP load test of `tutorgraph serve --workers N` (issue 51):
req/s and p50/p95/p99 at 1, 8 and 32 clients, each p95 against the 1-client p95, and the
memory of each server process.

e.g. `tutorgraph bench load --questions train.csv --workers 2 --clients 1,8,32 --out load.json`
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from tutorgraph.cli.plugin import IndexDirOption, console, err_console, load_settings
from tutorgraph_research.cli.options import JsonReportOption

__all__ = ["BAR", "load_cmd"]

# Issue 51: under load, the p95 within this multiple of the single-client p95 (printed, not
# asserted: the benchmark reports, the reader judges).
BAR = 3.0


def load_cmd(
    questions: Annotated[
        Path, typer.Option(help="Eedi train.csv whose (question, wrong answer) pairs are sent.")
    ],
    workers: Annotated[int, typer.Option(help="`tutorgraph serve --workers`.", min=1)] = 1,
    clients: Annotated[
        str, typer.Option(help="Clients of each scenario, comma-separated, run in this order.")
    ] = "1,8,32",
    rerank: Annotated[
        bool, typer.Option(help='Send `"rerank": true` (the configured reranker).')
    ] = False,
    requests: Annotated[
        int, typer.Option(help="Timed requests per scenario, at most.", min=1)
    ] = 500,
    seconds: Annotated[
        float, typer.Option(help="Seconds per scenario, at most (then in-flight requests end).")
    ] = 60.0,
    warmup: Annotated[
        int, typer.Option(help="Untimed requests before each scenario (at least one a client).")
    ] = 20,
    timeout: Annotated[float, typer.Option(help="Per-request timeout (s).")] = 120.0,
    start_timeout: Annotated[
        float, typer.Option(help="How long to wait for the server to be ready (s).")
    ] = 300.0,
    out: JsonReportOption = None,
    index_dir: IndexDirOption = None,
) -> None:
    """Load `tutorgraph serve` over the index with locust: each scenario's clients send Eedi
    queries back to back; req/s, p50/p95/p99, errors, the p95 as a multiple of the 1-client
    p95, and each server process's RSS at rest and at its peak under load."""
    from tutorgraph_research.tasks.load_test import (
        LoadTestError,
        LoadTestSpec,
        Scenario,
        parse_clients,
        run_load_test,
    )

    try:
        counts = parse_clients(clients)
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--clients") from None
    if seconds <= 0 or warmup < 0:
        raise typer.BadParameter("--seconds must be > 0 and --warmup >= 0")
    settings = load_settings(index_dir)
    spec = LoadTestSpec(
        index_dir=settings.index_dir,
        questions=questions,
        workers=workers,
        scenarios=tuple(Scenario(n, rerank) for n in counts),
        requests=requests,
        seconds=seconds,
        warmup=warmup,
        timeout=timeout,
        start_timeout=start_timeout,
    )
    try:
        report = run_load_test(spec, say=lambda line: err_console.print(line, highlight=False))
    except LoadTestError as exc:
        err_console.print(f"[bold red]error[/]: {exc}", highlight=False)
        raise typer.Exit(2) from None
    print_report(report)
    if out:
        out.parent.mkdir(parents=True, exist_ok=True)
        report = {"command": " ".join([Path(sys.argv[0]).name, *sys.argv[1:]]), **report}
        out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")


def print_report(report: dict[str, Any]) -> None:
    """The scenarios' table, the hardware line (as `bench latency` prints it) and the
    memory of each server process."""
    server = report["server"]
    table = Table(
        "clients",
        "requests",
        "req/s",
        "p50 ms",
        "p95 ms",
        "p99 ms",
        "errors",
        "p95 ratio",
        title=f"load, {server['workers']} worker(s), {server['inference_threads']} "
        "inference threads each",
        caption=f"p95 ratio: the p95 over the 1-client p95 (issue 51's bar: within {BAR:g}x)",
    )
    for row in report["scenarios"]:
        lat = row["latency_ms"]
        ms = [f"{lat[k]:.1f}" if lat else "-" for k in ("p50", "p95", "p99")]
        ratio = row["p95_vs_1_client"]
        table.add_row(
            f"{row['clients']}{' (rerank)' if row['rerank'] else ''}",
            str(row["requests"]),
            f"{row['req_per_s']:.2f}",
            *ms,
            str(row["errors"]),
            "-" if ratio is None else f"{ratio:.2f}x",
        )
    console.print(table)
    hw = report["hardware"]
    console.print(f"{hw['cpu']}, {hw['cores']} cores, torch {hw['torch']}", highlight=False)
    memory = Table("pid", "process", "RSS at rest MiB", "peak under load MiB", title="memory")
    for row in report["memory"]:
        peak = row["peak_rss_mib"]
        rest = row["rss_at_rest_mib"]
        memory.add_row(
            str(row["pid"]),
            row["role"],
            "-" if rest is None else f"{rest:.0f}",
            "-" if peak is None else f"{peak:.0f}",
        )
    peak_total = max((r["server_peak_rss_mib"] for r in report["scenarios"]), default=0.0)
    memory.add_row(
        "", "all together", f"{server['rss_at_rest_mib']:.0f}", f"{peak_total:.0f}", style="bold"
    )
    console.print(memory)

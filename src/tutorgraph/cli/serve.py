"""`tutorgraph serve` (the HTTP API under uvicorn) and `tutorgraph keys hash` (an API key's
`TUTORGRAPH_API_KEYS` entry)."""

from __future__ import annotations

import os
import secrets
import sys
import tempfile
from pathlib import Path
from typing import Annotated

import typer

from tutorgraph.cli._common import err_console, fail_on_errors, load_settings
from tutorgraph.extras import require

__all__ = ["register"]


def serve_cmd(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.", min=0, max=65535)] = 8000,
    workers: Annotated[
        int,
        typer.Option(
            help="Worker processes. More than one turns HTTP ingest off (each worker would "
            "swap only its own index); /metrics sums every worker, and the rate limits are "
            "shared through a SQLite file unless TUTORGRAPH_RATE_LIMIT_STORAGE names one.",
            min=1,
        ),
    ] = 1,
    index_dir: Annotated[
        Path | None, typer.Option(help="Index folder (default: TUTORGRAPH_INDEX_DIR).")
    ] = None,
    log_level: Annotated[str, typer.Option(help="uvicorn's log level.")] = "info",
) -> None:
    """Serve the HTTP API (`/v1/retrieve`, `/v1/concepts`, `/v1/ingest`, `/healthz`, ...).

    Settings come from `TUTORGRAPH_*` variables: API_KEYS, RATE_LIMIT_PER_MINUTE,
    MAX_BODY_BYTES, MAX_INGEST_BYTES, CORS_ORIGINS, INFERENCE_THREADS and the index settings.
    """
    with fail_on_errors():
        require("fastapi", "server", "tutorgraph serve")
        require("uvicorn", "server", "tutorgraph serve")
    import uvicorn

    from tutorgraph.api.app import create_app
    from tutorgraph.api.auth import ApiKeys
    from tutorgraph.api.live_index import resolve_active_dir
    from tutorgraph.api.metrics import MULTIPROCESS_ENV
    from tutorgraph.stores.manifest import require_manifest

    settings = load_settings(index_dir)
    with fail_on_errors():
        # The checks that would otherwise fail start-up with a traceback, as one clear line.
        ApiKeys.parse(settings.api_keys)
        active = resolve_active_dir(settings.index_dir)
        require_manifest(active, settings.embedding_model)
    if workers == 1:
        uvicorn.run(
            create_app(settings), host=host, port=port, log_level=log_level, server_header=False
        )
        return
    # Each worker process builds its own app from the environment.
    if index_dir is not None:
        os.environ["TUTORGRAPH_INDEX_DIR"] = str(index_dir)
    os.environ["TUTORGRAPH_HTTP_INGEST"] = "false"
    # The workers' metrics and rate limits meet in one folder, fresh for this run.
    shared = Path(tempfile.mkdtemp(prefix="tutorgraph-workers-"))
    if not os.environ.get(MULTIPROCESS_ENV):
        os.environ[MULTIPROCESS_ENV] = str(shared)
    if not settings.rate_limit_storage:
        os.environ["TUTORGRAPH_RATE_LIMIT_STORAGE"] = f"async+sqlite://{shared / 'limits.db'}"
    uvicorn.run(
        "tutorgraph.api.app:app_from_environment",
        factory=True,
        workers=workers,
        host=host,
        port=port,
        log_level=log_level,
        server_header=False,
    )


def keys_hash_cmd(
    key: Annotated[
        str | None,
        typer.Argument(
            help="The key to hash. Default: read from stdin when piped, else a new random key "
            "is made (and shown on stderr)."
        ),
    ] = None,
    role: Annotated[str, typer.Option(help="read or admin.")] = "read",
) -> None:
    """Print the `sha256:<hex>:<role>` entry of an API key for TUTORGRAPH_API_KEYS."""
    from tutorgraph.api.auth import ROLES, key_entry

    if role not in ROLES:
        err_console.print(f"[bold red]error[/]: --role must be read or admin, not {role!r}")
        raise typer.Exit(2)
    if key is None and not sys.stdin.isatty():
        key = sys.stdin.readline().strip()
    if key is None:
        key = secrets.token_urlsafe(32)
        err_console.print(f"new API key (keep it secret; only its hash is configured): {key}")
    with fail_on_errors():
        typer.echo(key_entry(key, "admin" if role == "admin" else "read"))


def register(app: typer.Typer) -> None:
    app.command("serve")(serve_cmd)
    keys = typer.Typer(name="keys", help="API keys for `tutorgraph serve`.", no_args_is_help=True)
    keys.command("hash")(keys_hash_cmd)
    app.add_typer(keys, name="keys")

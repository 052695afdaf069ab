"""`tutorgraph serve` (the HTTP API under uvicorn) and `tutorgraph keys hash` (an API key's
`TUTORGRAPH_API_KEYS` entry)."""

from __future__ import annotations

import ipaddress
import os
import secrets
import sys
import tempfile
from pathlib import Path
from typing import Annotated, Any

import typer

from tutorgraph.cli._common import err_console, fail_on_errors, load_settings
from tutorgraph.cli.options import IndexDirEnvOption
from tutorgraph.errors import ConfigurationError
from tutorgraph.extras import require

__all__ = [
    "FD_RESERVE",
    "KEEP_ALIVE_S",
    "anonymous_bind_error",
    "fit_open_files",
    "is_loopback_host",
    "register",
]

# Seconds an idle kept-alive connection stays open (uvicorn's default, said here).
KEEP_ALIVE_S = 5
# Descriptors the server opens besides its connections: the index's stores, the models, an
# ingest job's new generation (generous: serving the Learning Commons slice held 34, and 39
# while an HTTP ingest job ran).
FD_RESERVE = 256


def is_loopback_host(host: str) -> bool:
    """Whether `--host` binds the loopback interface only (127.0.0.0/8, ::1, localhost).

    Any other name counts as reachable from elsewhere: it may resolve to any interface.

    >>> [is_loopback_host(h) for h in ("127.0.0.2", "::1", "localhost", "0.0.0.0", "::")]
    [True, True, True, False, False]
    """
    name = host.strip().removeprefix("[").removesuffix("]").lower()
    if name.rstrip(".") == "localhost":
        return True
    try:
        address = ipaddress.ip_address(name)
    except ValueError:
        return False
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped.is_loopback  # ::ffff:127.0.0.1
    return address.is_loopback


def fit_open_files(max_connections: int) -> tuple[int, str | None]:
    """Raise this process's soft open-file limit (`ulimit -n`) to what `max_connections`
    needs, as far as the hard limit allows; return the connections that fit, and a warning
    when that is fewer than asked.

    Each connection holds a descriptor (a refused one briefly, up to as many again), beside
    the `FD_RESERVE` the server opens itself; a process out of descriptors cannot even
    accept a health check.

    >>> fit_open_files(1000)  # doctest: +SKIP
    (1000, None)
    """
    try:
        import resource
    except ImportError:  # Windows has no `resource`: its limits are left as they are
        return max_connections, None
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = 2 * max_connections + FD_RESERVE
    if soft != resource.RLIM_INFINITY and soft < wanted:
        raised = wanted if hard == resource.RLIM_INFINITY else min(hard, wanted)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (raised, hard))
            soft = raised
        except (ValueError, OSError):
            pass
    if soft == resource.RLIM_INFINITY or soft >= wanted:
        return max_connections, None
    fitted = max(1, (soft - FD_RESERVE) // 2)
    return fitted, (
        f"the open-file limit is {soft} (ulimit -n): serving at most {fitted} connections, "
        f"not TUTORGRAPH_MAX_CONNECTIONS={max_connections}; raise the limit to {wanted}"
    )


def anonymous_bind_error(host: str, *, keys_enabled: bool, allow_anonymous: bool) -> str | None:
    """Why serving on `host` must be refused, or None: with no API keys every caller is an
    admin (and may replace the index), so only the loopback may be served anonymously unless
    TUTORGRAPH_ALLOW_ANONYMOUS says otherwise."""
    if keys_enabled or allow_anonymous or is_loopback_host(host):
        return None
    return (
        f"refusing to serve on {host} (not a loopback address) with TUTORGRAPH_API_KEYS "
        "empty: every caller would be an admin. Set TUTORGRAPH_API_KEYS (`tutorgraph keys "
        "hash` makes an entry), serve on 127.0.0.1, or set TUTORGRAPH_ALLOW_ANONYMOUS=1"
    )


def serve_cmd(
    host: Annotated[
        str,
        typer.Option(
            help="Address to listen on. Any but the loopback needs TUTORGRAPH_API_KEYS (or "
            "TUTORGRAPH_ALLOW_ANONYMOUS=1)."
        ),
    ] = "127.0.0.1",
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
    index_dir: IndexDirEnvOption = None,
    log_level: Annotated[str, typer.Option(help="uvicorn's log level.")] = "info",
) -> None:
    """Serve the HTTP API (`/v1/retrieve`, `/v1/concepts`, `/v1/ingest`, `/healthz`, ...).

    Settings come from `TUTORGRAPH_*` variables: API_KEYS, ALLOW_ANONYMOUS,
    RATE_LIMIT_PER_MINUTE, AUTH_FAILURES_PER_MINUTE, MAX_BODY_BYTES, MAX_INGEST_BYTES,
    MAX_HEADER_BYTES, HEADER_TIMEOUT_S, BODY_TIMEOUT_S, MAX_CONNECTIONS, ALLOWED_HOSTS,
    FORWARDED_ALLOW_IPS, CORS_ORIGINS, INFERENCE_THREADS and the index settings. HTTP/1.1 is
    parsed by h11 (not httptools): a request head over MAX_HEADER_BYTES is a 431, a
    connection whose head takes longer than HEADER_TIMEOUT_S is closed, a body that stalls
    for BODY_TIMEOUT_S is a 408, and a connection past MAX_CONNECTIONS is a 503. A `Host`
    other than the loopback's, the bound address or ALLOWED_HOSTS is a 421 (DNS rebinding);
    X-Forwarded-For is believed only from FORWARDED_ALLOW_IPS.
    """
    with fail_on_errors():
        require("fastapi", "server", "tutorgraph serve")
        require("uvicorn", "server", "tutorgraph serve")
        # A malformed TUTORGRAPH_* variable: one line, not pydantic's traceback.
        settings = load_settings(index_dir)
    from tutorgraph.api.auth import ApiKeys

    with fail_on_errors():
        # The checks that would otherwise fail start-up with a traceback, as one clear line
        # (the bind check first, before the app and its libraries are even imported).
        keys = ApiKeys.parse(settings.api_keys)
        refusal = anonymous_bind_error(
            host, keys_enabled=keys.enabled, allow_anonymous=settings.allow_anonymous
        )
        if refusal is not None:
            raise ConfigurationError(refusal)
        if not keys.enabled and not is_loopback_host(host):
            err_console.print(
                f"[bold yellow]warning[/]: serving on {host} with no API keys "
                "(TUTORGRAPH_ALLOW_ANONYMOUS): every caller may read and ingest",
                highlight=False,
            )
    import uvicorn

    from tutorgraph.api.app import create_app
    from tutorgraph.api.h11_protocol import GuardedH11Protocol, configure
    from tutorgraph.api.metrics import MULTIPROCESS_ENV
    from tutorgraph.index.generations import require_live_manifest

    with fail_on_errors():
        require_live_manifest(settings.index_dir, settings.embedding_model)
    max_connections, lowered = fit_open_files(settings.max_connections)
    if lowered is not None:
        err_console.print(f"[bold yellow]warning[/]: {lowered}", highlight=False)
    # h11, not httptools: a bounded request head, deadlines for it and the body, and a bound
    # on open connections (worker processes read them from the environment).
    configure(
        head_timeout_s=settings.header_timeout_s,
        body_timeout_s=settings.body_timeout_s,
        max_connections=max_connections,
    )
    # The address bound is a name the server answers to (workers read the variable).
    allowed_hosts = f"{settings.allowed_hosts},{host}"
    settings = settings.model_copy(update={"allowed_hosts": allowed_hosts})
    os.environ["TUTORGRAPH_ALLOWED_HOSTS"] = allowed_hosts
    proxies = [p.strip() for p in settings.forwarded_allow_ips.split(",") if p.strip()]
    server_options: dict[str, Any] = {
        "host": host,
        "port": port,
        "log_level": log_level,
        "server_header": False,
        "http": GuardedH11Protocol,
        "h11_max_incomplete_event_size": settings.max_header_bytes,
        "timeout_keep_alive": KEEP_ALIVE_S,
        # uvicorn believes X-Forwarded-For from the loopback by default, so any local client
        # could name itself anyone (and dodge the failed-key limit): only listed proxies.
        "proxy_headers": bool(proxies),
        "forwarded_allow_ips": proxies or None,
    }
    if workers == 1:
        uvicorn.run(create_app(settings), **server_options)
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
        **server_options,
    )


def keys_hash_cmd(
    key: Annotated[
        str | None,
        typer.Argument(
            help="The key to hash. Default: the first line piped to stdin; with no input (a "
            "terminal, or none at all) a new random key is made (and shown on stderr)."
        ),
    ] = None,
    role: Annotated[str, typer.Option(help="read or admin.")] = "read",
) -> None:
    """Print the `sha256:<hex>:<role>` entry of an API key for TUTORGRAPH_API_KEYS."""
    from tutorgraph.api.auth import ROLES, key_entry

    if role not in ROLES:
        err_console.print(f"[bold red]error[/]: --role must be read or admin, not {role!r}")
        raise typer.Exit(2)
    if key is None and sys.stdin is not None and not sys.stdin.isatty():
        # A pipe: its first line is the key. Nothing at all (`</dev/null`, a script or CI
        # without a terminal) makes a new key, as at a terminal; a blank line stays an error,
        # as it is more likely an unset variable (`echo "$KEY" |`) than a wish for a new key.
        piped = sys.stdin.readline()
        key = piped.strip() if piped else None
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

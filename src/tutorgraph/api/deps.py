"""FastAPI dependencies: the app's state, the caller's key and role, the live index generation.

Auth runs first (`X-API-Key`), then the caller's rate limit; `require_read` and
`require_admin` are attached to routers, so each route states the role it needs once.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Annotated, cast

from fastapi import Depends, Request, Security
from fastapi.security import APIKeyHeader

from tutorgraph.api.auth import API_KEY_HEADER, ApiKeys, Principal
from tutorgraph.api.ingest_jobs import IngestJobs
from tutorgraph.api.live_index import Generation, LiveIndex
from tutorgraph.api.metrics import ApiMetrics
from tutorgraph.api.rate_limit import RateLimiter
from tutorgraph.config import Settings
from tutorgraph.synthesis.answerer import Answerer

__all__ = [
    "AppState",
    "GenerationDep",
    "StateDep",
    "authenticate",
    "current_generation",
    "get_state",
    "require_admin",
    "require_read",
]


@dataclass(frozen=True)
class AppState:
    """Everything the routes share, built by `create_app` (no I/O) and opened by its lifespan."""

    settings: Settings
    keys: ApiKeys
    limiter: RateLimiter
    metrics: ApiMetrics
    live: LiveIndex
    jobs: IngestJobs
    # The answer model (`POST /v1/answer`), or None and why there is none.
    answerer: Answerer | None = None
    answerer_unavailable: str = "no answer model configured"


async def get_state(request: Request) -> AppState:
    # Async on purpose: FastAPI would run a plain function in a worker thread.
    return cast(AppState, request.app.state.tutorgraph)


StateDep = Annotated[AppState, Depends(get_state)]

# Declares the scheme in the OpenAPI schema; the check itself is `ApiKeys.authenticate`.
_api_key_header = APIKeyHeader(
    name=API_KEY_HEADER,
    auto_error=False,
    description="An API key; its sha256 is configured in TUTORGRAPH_API_KEYS with a role.",
)


async def authenticate(
    request: Request,
    state: StateDep,
    api_key: Annotated[str | None, Security(_api_key_header)],
) -> Principal:
    """The caller, after its key is checked and one request is taken from its rate limit.

    With auth off, the rate limit is per client address instead of per key.
    """
    principal = state.keys.authenticate(api_key)
    if principal.authenticated:
        bucket = principal.key_id
    else:
        bucket = f"client:{request.client.host if request.client else 'unknown'}"
    await state.limiter.check(bucket)
    return principal


async def require_read(principal: Annotated[Principal, Depends(authenticate)]) -> Principal:
    principal.require("read")
    return principal


async def require_admin(principal: Annotated[Principal, Depends(authenticate)]) -> Principal:
    principal.require("admin")
    return principal


async def current_generation(state: StateDep) -> AsyncIterator[Generation]:
    """The live index generation, held for the whole request (a swap waits for it)."""
    async with state.live.use() as generation:
        yield generation


GenerationDep = Annotated[Generation, Depends(current_generation)]

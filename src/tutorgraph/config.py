"""Typed settings, read from `TUTORGRAPH_*` environment variables.

Built once by the CLI or the app factory and passed down; the library never reads a
global settings object.

>>> Settings(index_dir="/tmp/idx").index_dir.name
'idx'
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import (
    AliasChoices,
    Field,
    SecretStr,
    ValidationError,
    ValidatorFunctionWrapHandler,
    model_validator,
)
from pydantic_settings import BaseSettings, SettingsConfigDict

from tutorgraph.errors import ConfigurationError

__all__ = [
    "BREAKER_COOLDOWN_S",
    "BREAKER_FAILURES",
    "BUNDLED_LINKER",
    "BUNDLED_RANKER",
    "BUNDLED_RERANKER",
    "BUNDLED_SCOPE",
    "CHAT_MODEL",
    "DEFAULT_EMBEDDING_MODEL",
    "DIAGNOSIS",
    "GRAPH_DEPTH",
    "LESSON_SLOTS",
    "MSMARCO_RERANKER",
    "NEAR_DUPLICATE_THRESHOLD",
    "RANKER_PROPOSALS",
    "REFINER_CACHE_SIZE",
    "REFINER_TIMEOUT_S",
    "RERANK_DEPTH",
    "SOURCE_TIMEOUT_S",
    "Settings",
    "settings_error_line",
]

DEFAULT_EMBEDDING_MODEL = "sentence-transformers/all-MiniLM-L6-v2"
# The int8 domain reranker shipped inside the package (trained on the Eedi development file).
# Off by default: its scores collapsed to a constant and it lowers MAP@25 (README).
BUNDLED_RERANKER = "tutorgraph/eedi-minilm-reranker"
# The learned final score shipped inside the package (`tutorgraph train-ranker` on the Eedi
# development file; design section 6).
BUNDLED_SCOPE = "tutorgraph/scope"
BUNDLED_LINKER = "tutorgraph/standards"
BUNDLED_RANKER = "tutorgraph/eedi-ranker"
MSMARCO_RERANKER = "cross-encoder/ms-marco-MiniLM-L-6-v2"
# The cosine at which two hits of a content kind merge when the merge is turned on (per
# index or request; off by default: it did not improve Eedi MAP@25, results/
# eedi_near_duplicates_cv.json); research/scripts/near_duplicates.py measures the choice.
NEAR_DUPLICATE_THRESHOLD = 0.85
# Retrieval defaults, used by `Settings` and by `RetrieverConfig` (one place for each value).
RERANK_DEPTH = 30
SOURCE_TIMEOUT_S = 2.0
# Candidates the graph search returns.
GRAPH_DEPTH = 50
# How many misconceptions each of the learned ranker's proposal lists adds to the pool, when
# it ranks and when it is trained (`training/ranker.py`).
RANKER_PROPOSALS = 40
# Bug rules that reproduce a student's wrong answer: on for the server, the CLI and the
# library alike.
DIAGNOSIS = True
# The OpenAI chat model (the refiner's and the answerer's), the refiner's deadline and cache.
CHAT_MODEL = "gpt-4o-mini"
REFINER_TIMEOUT_S = 1.5
REFINER_CACHE_SIZE = 1024
# Circuit breakers (`stores/breaker.py`): a source, the refiner or the answer model that
# failed or timed out this many times in a row is skipped at once for the cool-down, then
# one call probes it. 3 and 10 s: a dependency that is down costs one timeout every 10 s, not
# one a request, and is used again within 10 s of coming back. 0 failures: never skipped.
BREAKER_FAILURES = 3
BREAKER_COOLDOWN_S = 10.0
# Lessons a packet carries (`stores/lessons.py`); chosen with the teaching benchmark's
# development sections (README, `bench teaching --dev`).
LESSON_SLOTS = 4


_ENV_PREFIX = "TUTORGRAPH_"


def settings_error_line(exc: ValidationError) -> str:
    """One line for settings that failed validation: the first variable and why, never its
    value (it may be a secret).

    >>> try:
    ...     Settings(rerank_depth="many")
    ... except ConfigurationError as err:
    ...     print(err.message)
    TUTORGRAPH_RERANK_DEPTH: Input should be a valid integer, unable to parse string as an integer
    """
    errors = exc.errors(include_url=False, include_input=False)
    if not errors:
        return "invalid settings"
    first = errors[0]
    loc = first.get("loc", ())
    name = str(loc[0]) if loc else ""
    if name in Settings.model_fields:
        name = f"{_ENV_PREFIX}{name.upper()}"
    where = name or "settings"
    more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
    return f"{where}: {first.get('msg', 'invalid value')}{more}"


class Settings(BaseSettings):
    """Runtime settings (design section 8a). A malformed value (a `TUTORGRAPH_*` variable or
    an argument) is a `ConfigurationError` with one line that names the variable."""

    model_config = SettingsConfigDict(env_prefix=_ENV_PREFIX, extra="ignore")

    @model_validator(mode="wrap")
    @classmethod
    def _one_line_errors(cls, data: Any, handler: ValidatorFunctionWrapHandler) -> Any:
        # Not a ValueError, so pydantic lets it through as it is.
        try:
            return handler(data)
        except ValidationError as exc:
            raise ConfigurationError(settings_error_line(exc)) from None

    index_dir: Path = Path(".tutorgraph")
    neo4j_uri: str | None = None
    neo4j_user: str = "neo4j"
    neo4j_password: SecretStr | None = None
    neo4j_database: str = "neo4j"
    # An ArcadeDB Bolt server's HTTP API (e.g. http://localhost:2480): ArcadeDB's Cypher makes
    # no full-text index, so `ensure_schema` makes them with its SQL there (same credentials).
    arcadedb_http_url: str | None = None
    chroma_host: str | None = None
    chroma_port: int = 8000
    embedding_model: str = DEFAULT_EMBEDDING_MODEL
    # A hub name, a local directory, or "" (the default) for no reranking.
    reranker_model: str = ""
    reranker_backend: Literal["auto", "torch", "onnx", "onnx-int8"] = "auto"
    rerank_depth: int = Field(default=RERANK_DEPTH, ge=1, le=100)
    # Explanations and worked examples a packet carries as `lessons` (a request's
    # `lessons` replaces it; 0 turns them off).
    lesson_slots: int = Field(default=LESSON_SLOTS, ge=0, le=10)
    reranker_max_length: int = Field(default=128, ge=16, le=512)
    reranker_batch_size: int = Field(default=8, ge=1, le=512)
    # The learned ranker's directory (`tutorgraph train-ranker`), the bundled one, or "" off.
    ranker_model: str = BUNDLED_RANKER
    # The scope model (`confidence/scope.py`: off-topic flag and calibrated confidences):
    # the bundled one, a `scope.json` path, or "" off.
    scope_model: str = BUNDLED_SCOPE
    # The concept linker's standards model (`tutorgraph train-linker`, issue 48): the
    # bundled one, a `standards.npz` path, or "" off (the card search alone).
    linker_model: str = BUNDLED_LINKER
    # Bug rules that reproduce a student's wrong answer (`tutorgraph.diagnosis`).
    diagnosis: bool = DIAGNOSIS
    openai_api_key: SecretStr | None = Field(
        default=None,
        validation_alias=AliasChoices("TUTORGRAPH_OPENAI_API_KEY", "OPENAI_API_KEY"),
    )
    openai_base_url: str | None = None
    # The OpenAI refiner is used only when a key or a base URL is set; otherwise the local one.
    refiner_model: str = CHAT_MODEL
    refiner_timeout_s: float = Field(default=REFINER_TIMEOUT_S, gt=0, le=30)
    refiner_cache_size: int = Field(default=REFINER_CACHE_SIZE, ge=0, le=1_000_000)
    # `POST /v1/answer` and `tutorgraph answer`: the same OpenAI key or base URL.
    answer_model: str = CHAT_MODEL
    answer_timeout_s: float = Field(default=20.0, gt=0, le=300)
    api_keys: str = ""
    # `tutorgraph serve` on a non-loopback address with no API keys (every caller an admin):
    # refused unless this is set, then only warned about.
    allow_anonymous: bool = False
    source_timeout_s: float = Field(default=SOURCE_TIMEOUT_S, gt=0, le=60)
    # Each source's, the refiner's and the answer model's circuit breaker (`BREAKER_*` above).
    breaker_failures: int = Field(default=BREAKER_FAILURES, ge=0, le=1000)
    breaker_cooldown_s: float = Field(default=BREAKER_COOLDOWN_S, gt=0, le=3600)
    # Texts per PyTorch forward pass (the ONNX embedder runs batches of 2, measured fastest).
    embed_batch_size: int = Field(default=64, ge=1, le=4096)
    # How texts are embedded: the model exported to ONNX Runtime (the default: the same
    # vectors as PyTorch within float16 rounding, 3x faster for a query, 1.2x in bulk;
    # exported once into ~/.cache/tutorgraph/onnx, about 5 s), or PyTorch.
    embedder_backend: Literal["torch", "onnx"] = "onnx"
    # -- HTTP API (issue 7) ------------------------------------------------------------------
    # Requests a minute per API key (per client address when auth is off); 0 turns it off.
    rate_limit_per_minute: int = Field(default=600, ge=0, le=1_000_000)
    # Where the limits live (a `limits` async URI); empty: in this process. `serve --workers
    # N` sets a SQLite file all its workers share; `async+redis://...` spans machines.
    rate_limit_storage: str = ""
    # Largest JSON body; `POST /v1/ingest` has its own limit for the compressed upload and
    # `max_bundle_bytes` caps what the archive may unpack to (a gzip bomb stops there).
    max_body_bytes: int = Field(default=1 << 20, ge=1024)
    max_ingest_bytes: int = Field(default=256 << 20, ge=1024)
    max_bundle_bytes: int = Field(default=2 << 30, ge=1024)
    # Comma-separated origins allowed by CORS ("*" for any); empty: no CORS headers at all.
    # Writes (`POST /v1/ingest`) from another site's page are refused unless its origin is
    # listed here by name ("*" lets any page read, never write).
    cors_origins: str = ""
    # Failed API key checks a minute per client address; past it, every `/v1/` request with
    # a key from that address is answered 429 until the oldest failure is a minute old. 0 (or
    # RATE_LIMIT_PER_MINUTE=0): no limit.
    auth_failures_per_minute: int = Field(default=20, ge=0, le=1_000_000)
    # `tutorgraph serve` (uvicorn's h11 parser): the largest request head (request line and
    # headers; larger is refused with a 431), and the seconds a connection has to send a
    # whole head (then it is closed; uvicorn alone waits forever for a slow one).
    max_header_bytes: int = Field(default=32 * 1024, ge=1024, le=1 << 20)
    header_timeout_s: float = Field(default=10.0, gt=0, le=600)
    # The seconds a request body may go without a byte arriving (then 408 and the connection
    # is closed); a body must also be whole within this plus a second per KiB received, so a
    # trickle of bytes cannot hold a connection (or the index's writer lock) for long.
    body_timeout_s: float = Field(default=10.0, gt=0, le=600)
    # Open connections per server process; past it a new one is answered 503 and closed
    # (`serve` raises the open-file limit to fit, or lowers this to fit it, with a warning).
    max_connections: int = Field(default=1000, ge=1, le=1_000_000)
    # Host names (comma-separated; `*.example.org` for its subdomains, `*` for any) that the
    # server answers to besides localhost, 127.0.0.1, [::1] and the address `serve` binds; any
    # other `Host` is a 421 (a page that rebinds its DNS name to this server sends its own).
    allowed_hosts: str = ""
    # The proxies (comma-separated addresses or networks, `*` for any) whose X-Forwarded-For
    # and X-Forwarded-Proto are believed; empty: none, every client is its socket's address
    # (the failed-key limit counts it).
    forwarded_allow_ips: str = ""
    # Threads for blocking work (embedding, reranking, Chroma, BM25) inside the server.
    inference_threads: int = Field(default=4, ge=1, le=256)
    # numpy's BLAS threads in a serving process (`embedding.runtime.limit_blas_threads`; 0:
    # leave them): per-request products are small, and idle BLAS threads spin against the
    # models' own (with ONNX sessions that do not spin: 27.7 ms p50 with the construct, not
    # 58.9; `results/latency_threads.json`).
    blas_threads: int = Field(default=1, ge=0, le=256)
    # `POST /v1/ingest`; `serve --workers N` (N > 1) turns it off, as each worker process
    # would swap only its own index.
    http_ingest: bool = True
    # How often the server checks for a newer index generation (a CLI ingest); 0: never.
    index_reload_s: float = Field(default=2.0, ge=0, le=3600)

"""Typed settings, read from `TUTORGRAPH_*` environment variables.

Built once by the CLI or the app factory and passed down; the library never reads a
global settings object.

>>> Settings(index_dir="/tmp/idx").index_dir.name
'idx'
"""

from __future__ import annotations

from pathlib import Path

from pydantic import AliasChoices, Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict

__all__ = ["DEFAULT_EMBEDDING_MODEL", "DEFAULT_RERANKER_MODEL", "Settings"]

DEFAULT_EMBEDDING_MODEL = "sentence-transformers/all-MiniLM-L6-v2"
DEFAULT_RERANKER_MODEL = "cross-encoder/ms-marco-MiniLM-L-6-v2"


class Settings(BaseSettings):
    """Runtime settings (design section 8a)."""

    model_config = SettingsConfigDict(env_prefix="TUTORGRAPH_", extra="ignore")

    index_dir: Path = Path(".tutorgraph")
    neo4j_uri: str | None = None
    neo4j_user: str = "neo4j"
    neo4j_password: SecretStr | None = None
    neo4j_database: str = "neo4j"
    chroma_host: str | None = None
    chroma_port: int = 8000
    embedding_model: str = DEFAULT_EMBEDDING_MODEL
    reranker_model: str = DEFAULT_RERANKER_MODEL
    openai_api_key: SecretStr | None = Field(
        default=None,
        validation_alias=AliasChoices("TUTORGRAPH_OPENAI_API_KEY", "OPENAI_API_KEY"),
    )
    openai_base_url: str | None = None
    refiner_model: str = "gpt-4o-mini"
    api_keys: str = ""
    source_timeout_s: float = Field(default=2.0, gt=0, le=60)
    embed_batch_size: int = Field(default=64, ge=1, le=4096)

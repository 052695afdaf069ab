"""API keys: the `sha256:<hex>:<read|admin>` entries of `TUTORGRAPH_API_KEYS`, and checking one.

Only the sha256 of a key is configured, never the key. A presented key is hashed and compared
with every configured digest by `hmac.compare_digest`, without stopping at a match, so the
time taken says nothing about which entry (if any) matched.

>>> entry = key_entry("s3cret-key-for-the-docs", "read")
>>> keys = ApiKeys.parse(entry)
>>> keys.authenticate("s3cret-key-for-the-docs").role
'read'
>>> keys.authenticate(None)
Traceback (most recent call last):
...
tutorgraph.errors.AuthenticationError: missing API key: send it in the X-API-Key header
"""

from __future__ import annotations

import hashlib
import hmac
import re
from dataclasses import dataclass
from typing import Literal

from tutorgraph.api.errors import AuthenticationError, PermissionDeniedError
from tutorgraph.errors import ConfigurationError

__all__ = [
    "API_KEY_HEADER",
    "ROLES",
    "ApiKeys",
    "KeyEntry",
    "Principal",
    "Role",
    "hash_key",
    "key_entry",
]

API_KEY_HEADER = "X-API-Key"
Role = Literal["read", "admin"]
ROLES: tuple[Role, ...] = ("read", "admin")
_ENTRY_RE = re.compile(r"^sha256:([0-9a-fA-F]{64}):(read|admin)$")
# A key longer than this is refused before hashing (the header is bounded by the server too).
_MAX_KEY_CHARS = 512


def hash_key(key: str) -> str:
    """The lower-case hex sha256 of a key, as configured in `TUTORGRAPH_API_KEYS`.

    >>> hash_key("abc")[:16]
    'ba7816bf8f01cfea'
    """
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def key_entry(key: str, role: Role) -> str:
    """The configuration entry for a key: `sha256:<hex>:<role>`."""
    if not key:
        raise ConfigurationError("an API key must not be empty")
    if role not in ROLES:
        raise ConfigurationError(f"unknown role {role!r}; use read or admin")
    return f"sha256:{hash_key(key)}:{role}"


@dataclass(frozen=True)
class KeyEntry:
    """One configured key: its digest and role."""

    digest: str
    role: Role

    @property
    def key_id(self) -> str:
        """A short, non-secret name for logs and rate-limit buckets (a digest prefix)."""
        return f"key:{self.digest[:12]}"


@dataclass(frozen=True)
class Principal:
    """Who is calling: a configured key, or anyone at all when auth is off."""

    key_id: str
    role: Role
    authenticated: bool = True

    def require(self, role: Role) -> None:
        """Raise `PermissionDeniedError` unless this principal may use `role`'s routes."""
        if role == "admin" and self.role != "admin":
            raise PermissionDeniedError(
                "this API key has the read role; the route needs an admin key",
                details={"required_role": role, "key_role": self.role},
            )


class ApiKeys:
    """The configured keys. With none, auth is off (`enabled` is False) and every caller is
    treated as admin: the server warns about that once at start-up."""

    def __init__(self, entries: list[KeyEntry]) -> None:
        self._entries = list(entries)

    @classmethod
    def parse(cls, config: str) -> ApiKeys:
        """Parse comma-separated `sha256:<hex>:<read|admin>` entries.

        A bad entry is a `ConfigurationError` naming its position, never its text (a raw key
        pasted by mistake must not land in a log).
        """
        entries: list[KeyEntry] = []
        seen: dict[str, Role] = {}
        parts = [p.strip() for p in config.split(",")]
        for n, part in enumerate(parts, start=1):
            if not part:
                continue
            m = _ENTRY_RE.match(part)
            if m is None:
                raise ConfigurationError(
                    f"TUTORGRAPH_API_KEYS entry {n} is not `sha256:<64 hex digits>:<read|admin>`;"
                    " make one with `tutorgraph keys hash`"
                )
            digest = m[1].lower()
            role: Role = "admin" if m[2] == "admin" else "read"
            if digest in seen and seen[digest] != role:
                raise ConfigurationError(
                    f"TUTORGRAPH_API_KEYS entry {n} repeats a key with another role"
                )
            if digest not in seen:
                seen[digest] = role
                entries.append(KeyEntry(digest, role))
        return cls(entries)

    @property
    def enabled(self) -> bool:
        return bool(self._entries)

    def __len__(self) -> int:
        return len(self._entries)

    def match(self, presented: str) -> KeyEntry | None:
        """The entry whose digest equals the presented key's, checked against every entry."""
        digest = hash_key(presented)
        found: KeyEntry | None = None
        for entry in self._entries:
            # No early exit: every entry is compared, whatever matched before.
            if hmac.compare_digest(digest, entry.digest):
                found = entry
        return found

    def authenticate(self, presented: str | None) -> Principal:
        """The principal for an `X-API-Key` header value; raises `AuthenticationError`."""
        if not self.enabled:
            return Principal(key_id="anonymous", role="admin", authenticated=False)
        if not presented:
            raise AuthenticationError(f"missing API key: send it in the {API_KEY_HEADER} header")
        entry = self.match(presented) if len(presented) <= _MAX_KEY_CHARS else None
        if entry is None:
            raise AuthenticationError("invalid API key")
        return Principal(key_id=entry.key_id, role=entry.role)

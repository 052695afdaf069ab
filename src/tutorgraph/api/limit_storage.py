"""A `limits` storage in one SQLite file, so that the workers of `serve --workers N` on one
machine share their rate limits without a Redis. Registered as `async+sqlite:///PATH`.

Each operation is one short transaction (`BEGIN IMMEDIATE`: workers take turns), run in a
worker thread; the moving window keeps one row per request. A machine-local store: several
machines need a shared one (`async+redis://...`).

>>> storage = SQLiteStorage("async+sqlite:///tmp/limits.db")  # no I/O until first use
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

from limits.aio.storage import MovingWindowSupport, Storage

__all__ = ["SQLiteStorage"]

_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS counters (key TEXT PRIMARY KEY, value INTEGER, expires REAL)",
    "CREATE TABLE IF NOT EXISTS entries (key TEXT, at REAL)",
    "CREATE INDEX IF NOT EXISTS entries_key_at ON entries (key, at)",
)


class SQLiteStorage(Storage, MovingWindowSupport):
    """Fixed-window counters and moving-window entries in one SQLite file."""

    STORAGE_SCHEME: list[str] | None = ["async+sqlite"]  # noqa: RUF012 (limits reads it here)

    def __init__(
        self, uri: str, wrap_exceptions: bool = False, **options: float | str | bool
    ) -> None:
        super().__init__(uri, wrap_exceptions, **options)
        self._path = Path(uri.split("://", 1)[1])
        self._local = threading.local()

    @property
    def base_exceptions(self) -> type[Exception] | tuple[type[Exception], ...]:
        return sqlite3.Error

    def _db(self) -> sqlite3.Connection:
        db: sqlite3.Connection | None = getattr(self._local, "db", None)
        if db is None:
            db = sqlite3.connect(self._path, timeout=10, isolation_level=None)
            db.execute("PRAGMA journal_mode=WAL")
            for statement in _SCHEMA:
                db.execute(statement)
            self._local.db = db
        return db

    def _transaction(self, work: Any) -> Any:
        db = self._db()
        db.execute("BEGIN IMMEDIATE")
        try:
            result = work(db, time.time())
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")
        return result

    async def _run(self, work: Any) -> Any:
        return await asyncio.to_thread(self._transaction, work)

    async def incr(self, key: str, expiry: int, amount: int = 1) -> int:
        def work(db: sqlite3.Connection, now: float) -> int:
            row = db.execute("SELECT value, expires FROM counters WHERE key = ?", (key,)).fetchone()
            value = amount if row is None or row[1] <= now else row[0] + amount
            expires = now + expiry if row is None or row[1] <= now else row[1]
            db.execute(
                "INSERT OR REPLACE INTO counters (key, value, expires) VALUES (?, ?, ?)",
                (key, value, expires),
            )
            return int(value)

        return int(await self._run(work))

    async def get(self, key: str) -> int:
        def work(db: sqlite3.Connection, now: float) -> int:
            row = db.execute(
                "SELECT value FROM counters WHERE key = ? AND expires > ?", (key, now)
            ).fetchone()
            return int(row[0]) if row else 0

        return int(await self._run(work))

    async def get_expiry(self, key: str) -> float:
        def work(db: sqlite3.Connection, now: float) -> float:
            row = db.execute("SELECT expires FROM counters WHERE key = ?", (key,)).fetchone()
            return float(row[0]) if row else now

        return float(await self._run(work))

    async def check(self) -> bool:
        try:
            await self._run(lambda db, _now: db.execute("SELECT 1").fetchone())
        except sqlite3.Error:
            return False
        return True

    async def reset(self) -> int | None:
        def work(db: sqlite3.Connection, _now: float) -> int:
            n = db.execute("DELETE FROM counters").rowcount
            return int(n + db.execute("DELETE FROM entries").rowcount)

        return int(await self._run(work))

    async def clear(self, key: str) -> None:
        def work(db: sqlite3.Connection, _now: float) -> None:
            db.execute("DELETE FROM counters WHERE key = ?", (key,))
            db.execute("DELETE FROM entries WHERE key = ?", (key,))

        await self._run(work)

    async def acquire_entry(self, key: str, limit: int, expiry: int, amount: int = 1) -> bool:
        def work(db: sqlite3.Connection, now: float) -> bool:
            db.execute("DELETE FROM entries WHERE key = ? AND at <= ?", (key, now - expiry))
            (count,) = db.execute("SELECT count(*) FROM entries WHERE key = ?", (key,)).fetchone()
            if amount > limit or count + amount > limit:
                return False
            db.executemany("INSERT INTO entries (key, at) VALUES (?, ?)", [(key, now)] * amount)
            return True

        return bool(await self._run(work))

    async def get_moving_window(
        self,
        key: str,
        limit: int,  # noqa: ARG002 (the protocol's; the window holds at most `limit` anyway)
        expiry: int,
    ) -> tuple[float, int]:
        def work(db: sqlite3.Connection, now: float) -> tuple[float, int]:
            oldest, count = db.execute(
                "SELECT min(at), count(*) FROM entries WHERE key = ? AND at > ?",
                (key, now - expiry),
            ).fetchone()
            return (float(oldest), int(count)) if count else (now, 0)

        result: tuple[float, int] = await self._run(work)
        return result

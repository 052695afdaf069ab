"""`POST /v1/ingest` behind the scenes: unpack an uploaded bundle safely, then validate and
ingest it as a background job that replaces the live index only once it is complete.

A job goes `queued -> validating -> ingesting -> activating -> succeeded`, or to `failed`
with an error in the API's envelope. Bad records follow `tutorgraph ingest`'s rule
(`validate_for_ingest`): each is rejected and the valid ones are ingested; the job succeeds
and its report counts them (`rejected`) and lists them (`rejected_records`, `file:line:
reason`, as the CLI prints them). A pruning job with a bad record fails at `validating` and
changes nothing. Records may reference the concepts the index holds (an add-on bundle),
unless the job prunes. The index's writer lock is taken before the upload is accepted (a CLI
ingest or repair running then is a 409 `index_busy` at once, never a 202 and a failed job) and
held while the bundle is read and validated, and while the index is built as a new
generation, made live by its pointer switch, then served by `LiveIndex.swap` (see
`tutorgraph.api.live_index`).

The upload is kept in `INDEX_DIR/.uploads/job-*` while the job runs (it holds the writer
lock throughout), so a job cut off by kill -9 or a restart leaves the live index as it was,
and its upload and half-built generation are removed by the server's next start or the next
writer (`index/leftovers.py`).

Limits, honestly: one job at a time per process; jobs are kept in memory (the last
`MAX_JOBS`), so a restart forgets them.

>>> names = extract_bundle(Path("bundle.tar.gz"), Path("out"), max_bytes=1 << 30)
... # doctest: +SKIP
>>> sorted(names)  # doctest: +SKIP
['concepts.jsonl', 'documents.jsonl', 'misconceptions.jsonl', 'prerequisites.jsonl']
"""

from __future__ import annotations

import asyncio
import contextlib
import gzip
import logging
import secrets
import shutil
import tarfile
import zlib
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import partial
from pathlib import Path, PurePosixPath
from typing import Any

from tutorgraph.api.errors import ConflictError, JobNotFoundError, PayloadTooLargeError
from tutorgraph.api.live_index import LiveIndex
from tutorgraph.api.metrics import ApiMetrics
from tutorgraph.config import Settings
from tutorgraph.errors import BundleError, IndexBusyError, TutorGraphError, failure_reason
from tutorgraph.index.leftovers import remove_leftovers
from tutorgraph.index.lock import WriterLock
from tutorgraph.index.pipeline import (
    REJECTS_LISTED,
    IngestOptions,
    IngestReport,
    ingest_records,
    validate_for_ingest,
)
from tutorgraph.ingest.bundle import BUNDLE_FILES, ValidationReport, bundle_hash
from tutorgraph_client.models.api import ErrorBody, IngestJobOut, IngestJobReport, JobStatus

__all__ = ["MAX_JOBS", "IngestJob", "IngestJobs", "extract_bundle"]

log = logging.getLogger(__name__)

MAX_JOBS = 100
# An archive with more entries than this is not a bundle (and could be a denial of service).
_MAX_MEMBERS = 1000
_COPY_CHUNK = 1 << 20
# A long-name or pax header larger than this is refused before tarfile reads it into memory
# (a gzip bomb there would otherwise be held whole).
_MAX_HEADER_BYTES = 1 << 20
# What the archive may unpack to beyond the bundle's own limit: headers, padding, and the
# files that are not bundle files (read through, not kept).
_ARCHIVE_SLACK_BYTES = 64 << 20
_LONG_HEADER_TYPES = (
    tarfile.GNUTYPE_LONGNAME,
    tarfile.GNUTYPE_LONGLINK,
    tarfile.XHDTYPE,
    tarfile.XGLTYPE,
    tarfile.SOLARIS_XHDTYPE,
)


def _now() -> datetime:
    return datetime.now(UTC)


def _unsafe_reason(member: tarfile.TarInfo) -> str | None:
    """Why an archive entry is refused, or None. `.` and `./`-rooted names (what `tar -C
    dir .` writes) are fine; so is an empty name (it stands for the archive's top)."""
    name = member.name
    parts = PurePosixPath(name).parts
    if name.startswith(("/", "\\")) or (parts and ":" in parts[0]):
        return "absolute path"
    if ".." in parts or ".." in name.split("\\"):
        return "a '..' path component"
    if member.issym() or member.islnk():
        return "a link"
    if not (member.isfile() or member.isdir()):
        return "a special file"
    if member.size < 0:
        return "a negative size"
    return None


class _BoundedTarInfo(tarfile.TarInfo):
    """A `TarInfo` that refuses an oversized long-name or pax header before reading it."""

    def _proc_member(self, tarfile_: tarfile.TarFile) -> tarfile.TarInfo:
        if self.type in _LONG_HEADER_TYPES and self.size > _MAX_HEADER_BYTES:
            raise tarfile.HeaderError(f"an extended header of {self.size} bytes")
        member: tarfile.TarInfo = super()._proc_member(tarfile_)  # type: ignore[misc]
        return member


class _BoundedReader:
    """The decompressed stream of a `.gz` file, cut off (`PayloadTooLargeError`) once more
    than `limit` bytes have come out of it: a gzip bomb stops there, whatever tarfile does
    with the bytes (keeps them, or reads through a file that is not a bundle file)."""

    def __init__(self, raw: gzip.GzipFile, limit: int, max_bytes: int) -> None:
        self._raw = raw
        self._limit = limit
        self._max_bytes = max_bytes
        self._read = 0

    def read(self, size: int = -1) -> bytes:
        left = self._limit + 1 - self._read
        data = self._raw.read(left if size < 0 else min(size, left))
        self._read += len(data)
        if self._read > self._limit:
            raise PayloadTooLargeError(self._max_bytes, "the unpacked bundle")
        return data


def extract_bundle(archive: Path, dest: Path, *, max_bytes: int) -> list[str]:
    """Unpack the bundle files of a `.tar.gz` into `dest` (blocking); return their names.

    The bundle files (`concepts.jsonl`, ...) may sit at the top of the archive or in one
    folder; other files are skipped. Refused, as `BundleError`: anything that is not a gzip
    tar, an entry with an absolute path or `..`, a link or a special file, more than
    `_MAX_MEMBERS` entries, a bundle file given twice, and an archive with no bundle file.
    More than `max_bytes` of bundle files (or than `max_bytes` and some slack in all)
    unpacked is a `PayloadTooLargeError`. Archive names never become paths: each file is
    written as `dest / <its known name>`. Nothing else is raised, whatever the bytes
    (`tests/unit/test_archive_fuzz.py` holds it to that).
    """
    dest.mkdir(parents=True, exist_ok=True)
    written: list[str] = []
    total = 0
    try:
        # Stream mode: one pass, never seeks back through the gzip stream.
        limit = max_bytes + _ARCHIVE_SLACK_BYTES
        with (
            gzip.open(archive, "rb") as raw,
            tarfile.open(  # type: ignore[call-overload]  # any object with read() will do
                fileobj=_BoundedReader(raw, limit, max_bytes),
                mode="r|",
                tarinfo=_BoundedTarInfo,
            ) as tar,
        ):
            for n, member in enumerate(tar):
                if n >= _MAX_MEMBERS:
                    raise BundleError(f"the archive has more than {_MAX_MEMBERS} entries")
                reason = _unsafe_reason(member)
                if reason is not None:
                    raise BundleError(f"unsafe archive entry {member.name!r}: {reason}")
                path = PurePosixPath(member.name)
                parts = [p for p in path.parts if p != "."]
                if not member.isfile() or len(parts) > 2 or path.name not in BUNDLE_FILES:
                    continue
                if path.name in written:
                    raise BundleError(f"the archive holds {path.name} twice")
                total += member.size
                if total > max_bytes:
                    raise PayloadTooLargeError(max_bytes, "the unpacked bundle")
                source = tar.extractfile(member)
                if source is None:  # pragma: no cover - isfile() members always have data
                    continue
                with source, (dest / path.name).open("wb") as out:
                    copied = 0
                    while chunk := source.read(_COPY_CHUNK):
                        copied += len(chunk)
                        if copied > member.size:  # pragma: no cover - tarfile stops at size
                            raise PayloadTooLargeError(max_bytes, "the unpacked bundle")
                        out.write(chunk)
                written.append(path.name)
    except (tarfile.TarError, EOFError, zlib.error, OSError, ValueError) as exc:
        # ValueError: tarfile's own for a few malformed headers.
        raise BundleError(
            f"could not unpack the upload as a .tar.gz archive ({type(exc).__name__})"
        ) from exc
    if not written:
        raise BundleError(
            f"the archive holds none of {', '.join(BUNDLE_FILES)} (at its top or in one folder)"
        )
    return written


@dataclass
class IngestJob:
    """One ingest job's state, as `GET /v1/ingest/{job_id}` reports it."""

    job_id: str
    prune: bool
    upload_bytes: int
    created_at: datetime = field(default_factory=_now)
    status: JobStatus = "queued"
    started_at: datetime | None = None
    finished_at: datetime | None = None
    report: IngestJobReport | None = None
    generation: str | None = None
    error: ErrorBody | None = None

    @property
    def done(self) -> bool:
        return self.status in ("succeeded", "failed")

    def out(self) -> IngestJobOut:
        return IngestJobOut(
            job_id=self.job_id,
            status=self.status,
            prune=self.prune,
            created_at=self.created_at,
            started_at=self.started_at,
            finished_at=self.finished_at,
            upload_bytes=self.upload_bytes,
            report=self.report,
            generation=self.generation,
            error=self.error,
        )

    def fail(self, code: str, message: str, details: dict[str, Any] | None = None) -> None:
        self.status = "failed"
        self.error = ErrorBody(code=code, message=message, details=details or {})


class IngestJobs:
    """The jobs of this process; at most one runs at a time."""

    def __init__(self, settings: Settings, live: LiveIndex, metrics: ApiMetrics) -> None:
        self._settings = settings
        self._live = live
        self._metrics = metrics
        self._jobs: dict[str, IngestJob] = {}
        self._task: asyncio.Task[None] | None = None

    def get(self, job_id: str) -> IngestJob:
        job = self._jobs.get(job_id)
        if job is None:
            raise JobNotFoundError(job_id)
        return job

    def check_available(self) -> None:
        """Raise `ConflictError` when this server cannot take an ingest job now."""
        s = self._settings
        if not s.http_ingest:
            raise ConflictError(
                "HTTP ingest is off on this server (TUTORGRAPH_HTTP_INGEST=false, or several "
                "workers); use `tutorgraph ingest`"
            )
        shared = [
            name
            for name, on in (
                ("a Neo4j database (TUTORGRAPH_NEO4J_URI)", s.neo4j_uri),
                ("a Chroma server (TUTORGRAPH_CHROMA_HOST)", s.chroma_host),
            )
            if on
        ]
        if shared:
            raise ConflictError(
                "HTTP ingest builds a new index generation beside the live one and swaps it "
                f"in; {' and '.join(shared)} is shared live state that a generation cannot "
                "copy, so this server needs the embedded stores for it; use `tutorgraph "
                "ingest`, which writes to every configured backend",
                details={"backends": shared},
            )
        running = next((j for j in self._jobs.values() if not j.done), None)
        if running is not None:
            raise ConflictError(
                f"ingest job {running.job_id} is still running; one job at a time",
                details={"job_id": running.job_id},
            )

    async def reserve(self) -> WriterLock:
        """Take the index's writer lock for an upload about to be accepted (the caller hands it
        to `submit`, or releases it). Another writer at work (a CLI ingest, a repair, another
        upload) is an `IndexBusyError` (409) now, before anything is read or validated."""
        lock = WriterLock(self._settings.index_dir, "HTTP ingest (POST /v1/ingest)")
        try:
            await asyncio.to_thread(lock.acquire)
        except IndexBusyError as exc:
            holder = exc.details.get("holder") or {}
            who = holder.get("command") if isinstance(holder, dict) else None
            raise IndexBusyError(
                f"another writer is at work on the index ({who or 'another process'}); wait "
                "for it to finish (readers are not affected)",
                details={"holder": holder},
            ) from None
        except OSError as exc:
            raise ConflictError(
                "cannot take the index's writer lock "
                f"({exc.strerror or type(exc).__name__}); is the index folder writable?"
            ) from None
        try:
            # A job cut off by a restart or kill -9 left its upload and half-built generation.
            await asyncio.to_thread(remove_leftovers, self._settings.index_dir)
        except BaseException:
            await asyncio.to_thread(lock.release)
            raise
        return lock

    def submit(
        self,
        workdir: Path,
        bundle_dir: Path,
        *,
        upload_bytes: int,
        prune: bool,
        lock: WriterLock | None = None,
    ) -> IngestJob:
        """Start a job on an unpacked bundle; the job owns (and deletes) `workdir`, and owns
        (and releases) `lock`, the writer lock `reserve` took (without one the job meets any
        other writer only when it starts to write)."""
        self.check_available()
        job = IngestJob(job_id=secrets.token_hex(8), prune=prune, upload_bytes=upload_bytes)
        self._jobs[job.job_id] = job
        finished = [j for j in self._jobs.values() if j.done]
        for old in finished[: max(0, len(self._jobs) - MAX_JOBS)]:
            del self._jobs[old.job_id]
        self._task = asyncio.create_task(self._run(job, workdir, bundle_dir, lock))
        return job

    async def _run(
        self, job: IngestJob, workdir: Path, bundle_dir: Path, lock: WriterLock | None
    ) -> None:
        job.started_at = _now()
        try:
            job.status = "validating"
            # The CLI's rule: bad records are rejected, the rest ingested; a pruning job with
            # a bad record fails here, with nothing changed.
            validation = await asyncio.to_thread(
                partial(validate_for_ingest, prune=job.prune, writer=lock is not None),
                bundle_dir,
                self._settings.index_dir,
            )
            job.status = "ingesting"
            report = await self._ingest(validation, bundle_dir, job, lock)
            job.status = "activating"
            await self._live.swap()
            job.report = IngestJobReport(
                added=report.added,
                updated=report.updated,
                unchanged=report.unchanged,
                pruned=report.pruned,
                rejected=len(validation.errors),
                rejected_records=[str(e) for e in validation.errors[:REJECTS_LISTED]],
                counts=report.counts,
                seconds=round(report.seconds, 3),
            )
            job.generation = report.generation
            job.status = "succeeded"
            self._metrics.observe_swap()
        except asyncio.CancelledError:
            job.fail("cancelled", "the server stopped before the job finished")
            raise
        except TutorGraphError as exc:
            job.fail(exc.code, exc.message, exc.details)
        except Exception as exc:
            log.exception("ingest job %s failed", job.job_id)
            job.fail("internal_error", failure_reason("ingest", exc))
        finally:
            # The upload goes before the lock: the next writer takes any upload it finds for
            # a dead job's.
            await asyncio.to_thread(shutil.rmtree, workdir, True)
            if lock is not None:
                await asyncio.to_thread(lock.release)
            job.finished_at = _now()
            self._metrics.ingest_jobs.labels(status=job.status).inc()

    async def _ingest(
        self,
        validation: ValidationReport,
        bundle_dir: Path,
        job: IngestJob,
        lock: WriterLock | None,
    ) -> IngestReport:
        """Ingest validated records as a new generation of `INDEX_DIR` with the live index's
        embedder (no second copy of the model)."""
        async with self._live.use() as live:
            embedder = live.retriever.embedder
        source_hash = await asyncio.to_thread(bundle_hash, bundle_dir)
        return await ingest_records(
            validation.records,
            self._settings.index_dir,
            embedder,
            IngestOptions(
                source_hash=source_hash, prune=job.prune, writer=f"HTTP ingest job {job.job_id}"
            ),
            lock=lock,  # held since the upload came; released by `_run`
        )

    async def aclose(self) -> None:
        """Cancel a running job (its half-built directory is deleted)."""
        task, self._task = self._task, None
        if task is not None and not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

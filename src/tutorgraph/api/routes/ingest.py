"""`POST /v1/ingest` (admin): upload a bundle as a `.tar.gz` body, get a job; `GET
/v1/ingest/{job_id}` reports on it. The new index replaces the live one only when complete.

The archive is the raw request body (`Content-Type: application/gzip` or
`application/octet-stream`, or none), not a form upload: no multipart parser is needed, and
the body streams to disk under `MAX_INGEST_BYTES`. Any other type is a 415: `text/plain` and
the form types are what a web page may send anywhere without a CORS preflight (writes from
another site's page are refused before this, `CrossSiteWriteMiddleware`). Another writer at
work on the index is a 409 before the body is read. The archive is unpacked safely before
the job starts, so a broken or unsafe archive is a 422 at once; the records are validated by
the job as `tutorgraph ingest` validates them: a bad record is rejected and listed in the
job's report (`rejected`, `rejected_records`), the valid ones are ingested; with
`prune=true` a bad record fails the job with nothing changed.

>>> job = httpx.post(f"{base}/v1/ingest", content=Path("bundle.tar.gz").read_bytes(),
...                  headers={"X-API-Key": admin_key, "Content-Type": "application/gzip"}).json()
... # doctest: +SKIP
>>> httpx.get(f"{base}/v1/ingest/{job['job_id']}", headers=...).json()["status"]
... # doctest: +SKIP
'succeeded'
"""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request, Response
from fastapi import Path as PathParam
from starlette.exceptions import HTTPException

from tutorgraph.api.deps import StateDep, require_admin
from tutorgraph.api.errors import ERROR_RESPONSES, PayloadTooLargeError
from tutorgraph.api.ingest_jobs import extract_bundle
from tutorgraph.api.openapi import INGEST_JOB_EXAMPLE
from tutorgraph.errors import InvalidRequestError, RequestTimeoutError
from tutorgraph.index.leftovers import upload_folder
from tutorgraph_client.models.api import ErrorResponse, IngestJobOut

__all__ = ["router"]

router = APIRouter(
    prefix="/v1/ingest",
    tags=["ingest"],
    dependencies=[Depends(require_admin)],
    responses=ERROR_RESPONSES,
)

_WRITE_CHUNK = 1 << 20
# The body's types; no Content-Type at all means bytes too (RFC 9110, 8.3).
ACCEPTED_TYPES = ("application/gzip", "application/octet-stream")
_BODY: dict[str, Any] = {
    "requestBody": {
        "required": True,
        "description": "The bundle's JSONL files as a gzip-compressed tar archive.",
        "content": {
            "application/gzip": {"schema": {"type": "string", "format": "binary"}},
            "application/octet-stream": {"schema": {"type": "string", "format": "binary"}},
        },
    }
}


def _check_content_type(request: Request) -> None:
    """415 unless the body is declared as a gzip archive or bytes (or not declared)."""
    declared = request.headers.get("content-type")
    if declared is None:
        return
    media_type = declared.split(";", 1)[0].strip().lower()
    if media_type not in ACCEPTED_TYPES:
        raise HTTPException(
            status_code=415,
            detail=f"send the bundle as the raw request body with Content-Type: "
            f"{ACCEPTED_TYPES[0]} (or {ACCEPTED_TYPES[1]}), not {media_type[:100] or 'empty'}",
        )


async def _save_upload(request: Request, path: Path, limit: int, idle_s: float) -> int:
    """Stream the body to `path` in ~1 MiB writes (each in a thread); return its size.

    The upload holds the index's writer lock, so a body that stops coming for `idle_s`
    (`BODY_TIMEOUT_S`) is a 408: a stalled client cannot keep every other writer out. `serve`
    gives up on such a body itself (`api/h11_protocol.py`; the stream then ends with the
    client gone); this holds under any other server too.
    """
    size = 0
    buffer = bytearray()
    chunks = request.stream().__aiter__()
    with await asyncio.to_thread(path.open, "wb") as out:
        while True:
            try:
                chunk = await asyncio.wait_for(anext(chunks), idle_s)
            except StopAsyncIteration:
                break
            except TimeoutError:
                raise RequestTimeoutError(f"the upload stalled: no data for {idle_s:g} s") from None
            size += len(chunk)
            if size > limit:
                raise PayloadTooLargeError(limit, "the uploaded bundle")
            buffer += chunk
            if len(buffer) >= _WRITE_CHUNK:
                await asyncio.to_thread(out.write, bytes(buffer))
                buffer.clear()
        if buffer:
            await asyncio.to_thread(out.write, bytes(buffer))
    return size


@router.post(
    "",
    status_code=202,
    response_model=IngestJobOut,
    openapi_extra=_BODY,
    responses={
        202: {
            "description": "The job, queued: poll its Location (the example is a finished one)",
            "content": {"application/json": {"example": INGEST_JOB_EXAMPLE}},
        },
        409: {
            "model": ErrorResponse,
            "description": "Ingest unavailable, or another writer (an ingest, a repair) at work",
        },
        415: {"model": ErrorResponse, "description": "A body type other than a gzip archive"},
    },
    summary="Upload a bundle (.tar.gz) and start an ingest job",
)
async def start_ingest(
    request: Request,
    response: Response,
    state: StateDep,
    prune: Annotated[
        bool,
        Query(description="Also remove records that are not in this bundle.", examples=[False]),
    ] = False,
) -> IngestJobOut:
    state.jobs.check_available()
    _check_content_type(request)
    # Before the body is read: a CLI ingest (or a repair, or another upload) at work is a
    # 409 now, and none can start until this job is done or refused.
    lock = await state.jobs.reserve()
    try:
        # Inside the index folder: the next writer removes it if this process dies.
        workdir = await asyncio.to_thread(upload_folder, state.settings.index_dir)
    except BaseException:
        await asyncio.to_thread(lock.release)
        raise
    try:
        archive = workdir / "upload.tar.gz"
        size = await _save_upload(
            request, archive, state.settings.max_ingest_bytes, state.settings.body_timeout_s
        )
        if size == 0:
            raise InvalidRequestError("empty body: send the bundle as a .tar.gz archive")
        bundle = workdir / "bundle"
        await asyncio.to_thread(
            extract_bundle, archive, bundle, max_bytes=state.settings.max_bundle_bytes
        )
        await asyncio.to_thread(archive.unlink)
        job = state.jobs.submit(workdir, bundle, upload_bytes=size, prune=prune, lock=lock)
    except BaseException:
        await asyncio.to_thread(shutil.rmtree, workdir, True)
        await asyncio.to_thread(lock.release)
        raise
    response.headers["Location"] = f"/v1/ingest/{job.job_id}"
    return job.out()


@router.get(
    "/{job_id}",
    response_model=IngestJobOut,
    responses={
        200: {"content": {"application/json": {"example": INGEST_JOB_EXAMPLE}}},
        404: {"model": ErrorResponse, "description": "Unknown job id"},
    },
    summary="The state of an ingest job",
)
async def get_ingest_job(
    job_id: Annotated[
        str,
        PathParam(
            description="The id `POST /v1/ingest` returned.",
            examples=["3f9c2a7be01d4c56"],
        ),
    ],
    state: StateDep,
) -> IngestJobOut:
    return state.jobs.get(job_id).out()

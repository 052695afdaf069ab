"""An `OSError` that says this process ran out of something (file descriptors, memory), not
that a file is damaged.

A server holding too many connections fails to open the index's `CURRENT` or manifest
with EMFILE; calling that damage sent operators to `tutorgraph doctor --repair`, which can
do nothing for it.

>>> import errno
>>> out_of_resources(OSError(errno.EMFILE, "Too many open files"), "the index's CURRENT file")
... # doctest: +ELLIPSIS
StoreError("cannot read the index's CURRENT file: this process has too many open files...")
>>> out_of_resources(OSError(errno.EIO, "I/O error"), "x") is None
True
"""

from __future__ import annotations

import errno

from tutorgraph.errors import StoreError

__all__ = ["out_of_resources"]

_WHAT_RAN_OUT = {
    errno.EMFILE: "this process has too many open files",
    errno.ENFILE: "the system has too many open files",
    errno.ENOMEM: "this process is out of memory",
}


def out_of_resources(exc: OSError, what: str) -> StoreError | None:
    """The error to raise for `exc` when reading `what` failed for want of resources, or None
    when `exc` is another failure (which may be damage)."""
    reason = _WHAT_RAN_OUT.get(exc.errno or 0)
    if reason is None:
        return None
    return StoreError(
        f"cannot read {what}: {reason} ({exc.strerror or exc}); the index is not damaged: "
        "the server may hold too many connections (TUTORGRAPH_MAX_CONNECTIONS), or its "
        "open-file limit (ulimit -n) is too low"
    )

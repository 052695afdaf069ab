"""The upload reader (`extract_bundle`) under generated archives: whatever the bytes, it
unpacks bundle files into its folder (and nowhere else), or refuses with a library error
that the API answers with a 4xx. Never another exception, which would be a 500.

Three kinds of input: archives of generated entries (names with `./`, `..`, absolute and
Windows paths, empty and long names; files, folders, symlinks, hard links, devices, FIFOs;
the three tar formats), cut short or with bytes flipped; valid archives whose tar bytes are
damaged before compression (so that the tar parser, not the gzip checksum, meets them); and
plain random bytes.
"""

from __future__ import annotations

import gzip
import io
import tarfile
import tempfile
import tracemalloc
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tutorgraph.api.errors import status_for
from tutorgraph.api.ingest_jobs import extract_bundle
from tutorgraph.errors import TutorGraphError
from tutorgraph.ingest.bundle import BUNDLE_FILES

pytestmark = pytest.mark.unit

FUZZ = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    derandomize=True,
)
MAX_BYTES = 64 * 1024

_PREFIXES = ["", "./", "bundle/", "./bundle/", "a/b/", "../", "/", "/etc/", "a/../../", "C:", "\\"]
_STEMS = [*BUNDLE_FILES, "", ".", "..", "NOTICE", "x" * 120, "y" * 300, "é/ü.jsonl", "a\\..\\b"]
_TYPES = [
    tarfile.REGTYPE,
    tarfile.AREGTYPE,
    tarfile.DIRTYPE,
    tarfile.SYMTYPE,
    tarfile.LNKTYPE,
    tarfile.CHRTYPE,
    tarfile.BLKTYPE,
    tarfile.FIFOTYPE,
    tarfile.CONTTYPE,
]
_FORMATS = [tarfile.USTAR_FORMAT, tarfile.GNU_FORMAT, tarfile.PAX_FORMAT]

names = st.one_of(
    st.builds(lambda p, s: p + s, st.sampled_from(_PREFIXES), st.sampled_from(_STEMS)),
    st.text(max_size=40),
)
members = st.tuples(
    names,
    st.sampled_from(_TYPES),
    st.one_of(st.just(""), names),  # linkname
    st.binary(max_size=200),
)


def _build(entries: list[tuple[str, bytes, str, bytes]], fmt: int) -> bytes | None:
    """A tar (uncompressed) of the entries, or None where tarfile cannot write them."""
    buf = io.BytesIO()
    try:
        with tarfile.open(fileobj=buf, mode="w", format=fmt) as tar:
            for name, kind, linkname, data in entries:
                info = tarfile.TarInfo(name)
                info.type = kind
                info.linkname = linkname
                if kind in (tarfile.REGTYPE, tarfile.AREGTYPE, tarfile.CONTTYPE):
                    info.size = len(data)
                    tar.addfile(info, io.BytesIO(data))
                else:
                    tar.addfile(info)
    except (ValueError, UnicodeError):  # e.g. a name too long for ustar
        return None
    return buf.getvalue()


def _check(archive: bytes) -> None:
    """Unpack `archive`; it is accepted (bundle files only, in the folder) or a 4xx error."""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        path = root / "upload.tar.gz"
        path.write_bytes(archive)
        dest = root / "out" / "bundle"
        try:
            written = extract_bundle(path, dest, max_bytes=MAX_BYTES)
        except TutorGraphError as exc:
            assert 400 <= status_for(exc) < 500, (type(exc).__name__, exc.message)
        else:
            assert written and set(written) <= set(BUNDLE_FILES)
            assert sorted(p.name for p in dest.iterdir()) == sorted(written)
            assert all(p.is_file() and not p.is_symlink() for p in dest.iterdir())
        # Nothing escaped the folder it was given.
        assert sorted(p.name for p in root.iterdir()) in (
            ["upload.tar.gz"],
            ["out", "upload.tar.gz"],
        )
        if (root / "out").exists():
            assert [p.name for p in (root / "out").iterdir()] == ["bundle"]


@FUZZ
@given(
    entries=st.lists(members, max_size=6),
    fmt=st.sampled_from(_FORMATS),
    cut=st.one_of(st.none(), st.integers(min_value=0)),
    flips=st.lists(st.tuples(st.integers(min_value=0), st.integers(0, 255)), max_size=3),
)
def test_generated_archives_are_accepted_or_refused_with_a_4xx(
    entries: list[tuple[str, bytes, str, bytes]],
    fmt: int,
    cut: int | None,
    flips: list[tuple[int, int]],
) -> None:
    tar = _build(entries, fmt)
    if tar is None:
        return
    data = bytearray(gzip.compress(tar))
    for where, value in flips:
        data[where % len(data)] = value
    if cut is not None:
        del data[cut % (len(data) + 1) :]
    _check(bytes(data))


def _valid_tar() -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for n, name in enumerate(["./", "./concepts.jsonl", "./sub/", "./documents.jsonl"]):
            info = tarfile.TarInfo(name)
            if name.endswith("/"):
                info.type = tarfile.DIRTYPE
                tar.addfile(info)
            else:
                data = b'{"id": "x"}\n' * (n + 1)
                info.size = len(data)
                info.pax_headers = {"comment": "é" * n}
                tar.addfile(info, io.BytesIO(data))
    return buf.getvalue()


VALID_TAR = _valid_tar()


@FUZZ
@given(
    flips=st.lists(
        st.tuples(st.integers(0, len(VALID_TAR) - 1), st.integers(0, 255)), min_size=1, max_size=8
    ),
    cut=st.one_of(st.none(), st.integers(0, len(VALID_TAR))),
)
def test_damaged_tar_headers_are_accepted_or_refused_with_a_4xx(
    flips: list[tuple[int, int]], cut: int | None
) -> None:
    data = bytearray(VALID_TAR)
    for where, value in flips:
        data[where] = value
    if cut is not None:
        del data[cut:]
    _check(gzip.compress(bytes(data)))


@FUZZ
@given(st.one_of(st.binary(max_size=2048), st.binary(max_size=2048).map(gzip.compress)))
def test_random_bytes_are_refused_with_a_4xx(data: bytes) -> None:
    _check(data)


def test_the_valid_archive_the_fuzzers_damage_is_accepted() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "a.tar.gz"
        path.write_bytes(gzip.compress(VALID_TAR))
        assert extract_bundle(path, Path(tmp) / "out", max_bytes=MAX_BYTES) == [
            "concepts.jsonl",
            "documents.jsonl",
        ]


@pytest.mark.parametrize("kind", [tarfile.XHDTYPE, tarfile.GNUTYPE_LONGNAME])
def test_a_huge_extended_header_is_refused_before_it_is_read(kind: bytes) -> None:
    """A pax or long-name header of 64 MiB of zeros (64 KiB compressed): refused as soon as
    its size is read, not held in memory first."""
    header = tarfile.TarInfo("././@PaxHeader" if kind == tarfile.XHDTYPE else "././@LongLink")
    header.type = kind
    header.size = 64 << 20
    raw = header.tobuf(tarfile.USTAR_FORMAT) + bytes(64 << 20)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "a.tar.gz"
        path.write_bytes(gzip.compress(raw, compresslevel=1))
        tracemalloc.start()
        try:
            with pytest.raises(TutorGraphError) as err:
                extract_bundle(path, Path(tmp) / "out", max_bytes=1 << 30)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
    assert status_for(err.value) == 422
    assert peak < 8 << 20, peak


def test_a_bomb_in_a_file_that_is_not_a_bundle_file_stops_at_the_limit() -> None:
    """A skipped file is still unpacked to be read through: it counts towards the limit."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        info = tarfile.TarInfo("images/huge.bin")
        info.size = 80 << 20
        tar.addfile(info, io.BytesIO(bytes(info.size)))
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "a.tar.gz"
        path.write_bytes(buf.getvalue())
        with pytest.raises(TutorGraphError) as err:
            extract_bundle(path, Path(tmp) / "out", max_bytes=1 << 20)
    assert status_for(err.value) == 413

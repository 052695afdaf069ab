"""Which int8 weights a CPU multiplies exactly: read from its flags."""

from __future__ import annotations

from pathlib import Path

import pytest

from tutorgraph.embedding.int8_weights import cpu_has_vnni

pytestmark = pytest.mark.unit

EPYC_AVX2 = "processor\t: 0\nflags\t\t: fpu sse sse2 avx avx2 fma bmi2\n"
XEON_VNNI = "processor\t: 0\nflags\t\t: fpu avx2 avx512f avx512_vnni avx_vnni\n"


@pytest.mark.parametrize(
    ("cpuinfo", "vnni"),
    [(EPYC_AVX2, False), (XEON_VNNI, True), ("processor\t: 0\n", False)],
)
def test_vnni_is_read_from_the_cpu_flags(tmp_path: Path, cpuinfo: str, vnni: bool) -> None:
    path = tmp_path / "cpuinfo"
    path.write_text(cpuinfo)
    assert cpu_has_vnni(path) is vnni


def test_a_machine_without_cpuinfo_gets_unsigned_weights(tmp_path: Path) -> None:
    assert cpu_has_vnni(tmp_path / "absent") is False

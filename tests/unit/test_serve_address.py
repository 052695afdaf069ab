"""`tutorgraph serve`'s bind rule: anonymous (no API keys) only on the loopback, unless
TUTORGRAPH_ALLOW_ANONYMOUS says otherwise."""

from __future__ import annotations

import pytest

from tutorgraph.cli.serve import anonymous_bind_error, is_loopback_host
from tutorgraph.config import Settings

pytestmark = pytest.mark.unit

LOOPBACK = [
    "127.0.0.1",
    "127.0.0.2",
    "127.255.255.254",
    "::1",
    "[::1]",
    "0:0:0:0:0:0:0:1",
    "::ffff:127.0.0.1",  # IPv4-mapped
    "localhost",
    "LOCALHOST",
    "localhost.",
    " 127.0.0.1 ",
]
REACHABLE = [
    "0.0.0.0",
    "::",
    "[::]",
    "",
    "10.0.0.5",
    "192.168.1.20",
    "128.0.0.1",
    "::ffff:10.0.0.1",
    "::2",
    "fe80::1%eth0",
    "2001:db8::1",
    "example.org",
    "my-laptop",  # may resolve anywhere (Debian maps its own name to 127.0.1.1; not assumed)
    "localhost.example.org",
    "127.1",  # inet_aton shorthand: not a dotted quad for ipaddress, so not trusted
]


@pytest.mark.parametrize("host", LOOPBACK)
def test_loopback_hosts(host: str) -> None:
    assert is_loopback_host(host)


@pytest.mark.parametrize("host", REACHABLE)
def test_other_hosts_count_as_reachable(host: str) -> None:
    assert not is_loopback_host(host)


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "192.168.1.20", "example.org"])
def test_anonymous_on_a_reachable_address_is_refused_unless_allowed(host: str) -> None:
    error = anonymous_bind_error(host, keys_enabled=False, allow_anonymous=False)
    assert error is not None and host in error
    assert "TUTORGRAPH_API_KEYS" in error and "TUTORGRAPH_ALLOW_ANONYMOUS=1" in error
    assert "\n" not in error  # one line
    assert anonymous_bind_error(host, keys_enabled=False, allow_anonymous=True) is None
    assert anonymous_bind_error(host, keys_enabled=True, allow_anonymous=False) is None


@pytest.mark.parametrize("host", ["127.0.0.1", "::1", "localhost"])
def test_anonymous_on_the_loopback_is_allowed(host: str) -> None:
    assert anonymous_bind_error(host, keys_enabled=False, allow_anonymous=False) is None


@pytest.mark.parametrize(
    ("value", "allowed"),
    [("1", True), ("true", True), ("yes", True), ("0", False), ("false", False)],
)
def test_the_setting_reads_the_environment(
    monkeypatch: pytest.MonkeyPatch, value: str, allowed: bool
) -> None:
    monkeypatch.setenv("TUTORGRAPH_ALLOW_ANONYMOUS", value)
    assert Settings().allow_anonymous is allowed


def test_the_setting_is_off_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TUTORGRAPH_ALLOW_ANONYMOUS", raising=False)
    assert Settings().allow_anonymous is False

"""API keys (parsing `sha256:<hex>:<role>`, constant-time comparison, roles), the token
bucket behind the per-key rate limit, and the limit on failed key checks per address."""

from __future__ import annotations

import hmac
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.unit.api_fakes import FakeOpener, write_fake_index

from tutorgraph.api import auth, create_app
from tutorgraph.api.auth import ApiKeys, hash_key, key_entry
from tutorgraph.api.errors import AuthenticationError, PermissionDeniedError, RateLimitedError
from tutorgraph.api.rate_limit import RateLimiter
from tutorgraph.config import Settings
from tutorgraph.errors import ConfigurationError

pytestmark = pytest.mark.unit

READ_KEY = "read-key-0123456789"
ADMIN_KEY = "admin-key-0123456789"


def _keys() -> ApiKeys:
    return ApiKeys.parse(f"{key_entry(READ_KEY, 'read')}, {key_entry(ADMIN_KEY, 'admin')}")


def test_hash_key_is_the_hex_sha256() -> None:
    assert hash_key("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    assert key_entry("abc", "admin") == f"sha256:{hash_key('abc')}:admin"


def test_entries_parse_with_spaces_upper_case_hex_and_empty_items() -> None:
    digest = hash_key(READ_KEY).upper()
    keys = ApiKeys.parse(f" sha256:{digest}:read ,, ")
    assert keys.enabled and len(keys) == 1
    assert keys.authenticate(READ_KEY).role == "read"


@pytest.mark.parametrize(
    "entry",
    [
        "sha256:abc:read",  # too short
        f"sha256:{'g' * 64}:read",  # not hex
        f"sha256:{'a' * 64}:write",  # unknown role
        f"md5:{'a' * 64}:read",  # another algorithm
        "a-raw-key-pasted-by-mistake",
    ],
)
def test_a_malformed_entry_is_a_configuration_error_that_does_not_echo_it(entry: str) -> None:
    with pytest.raises(ConfigurationError) as err:
        ApiKeys.parse(f"{key_entry(READ_KEY, 'read')},{entry}")
    assert "entry 2" in err.value.message
    assert entry not in err.value.message


def test_the_same_key_with_two_roles_is_refused_and_a_repeat_is_kept_once() -> None:
    with pytest.raises(ConfigurationError):
        ApiKeys.parse(f"{key_entry(READ_KEY, 'read')},{key_entry(READ_KEY, 'admin')}")
    assert len(ApiKeys.parse(f"{key_entry(READ_KEY, 'read')},{key_entry(READ_KEY, 'read')}")) == 1


def test_no_keys_means_auth_off_and_an_anonymous_admin() -> None:
    keys = ApiKeys.parse("  ")
    assert not keys.enabled
    principal = keys.authenticate(None)
    assert principal.role == "admin" and not principal.authenticated


def test_missing_and_wrong_keys_are_authentication_errors() -> None:
    keys = _keys()
    with pytest.raises(AuthenticationError, match="missing"):
        keys.authenticate(None)
    with pytest.raises(AuthenticationError, match="missing"):
        keys.authenticate("")
    with pytest.raises(AuthenticationError, match="invalid"):
        keys.authenticate("not-a-configured-key")
    with pytest.raises(AuthenticationError, match="invalid"):
        keys.authenticate("x" * 10_000)
    # The hash is configured, not the key: presenting the hash itself does not work.
    with pytest.raises(AuthenticationError):
        keys.authenticate(hash_key(READ_KEY))


def test_roles_read_key_cannot_use_admin_routes() -> None:
    keys = _keys()
    read, admin = keys.authenticate(READ_KEY), keys.authenticate(ADMIN_KEY)
    read.require("read")
    admin.require("read")
    admin.require("admin")
    with pytest.raises(PermissionDeniedError):
        read.require("admin")
    assert read.key_id != admin.key_id
    assert READ_KEY not in read.key_id and hash_key(READ_KEY) not in read.key_id


def test_every_entry_is_compared_in_constant_time(monkeypatch: pytest.MonkeyPatch) -> None:
    keys = ApiKeys.parse(",".join(key_entry(f"key-{i}-abcdefgh", "read") for i in range(5)))
    calls: list[tuple[str, str]] = []
    real = hmac.compare_digest

    def spy(a: str, b: str) -> bool:
        calls.append((a, b))
        return real(a, b)

    monkeypatch.setattr(auth.hmac, "compare_digest", spy)
    # A match on the first entry still compares all five: no early exit.
    assert keys.authenticate("key-0-abcdefgh").role == "read"
    assert len(calls) == 5
    assert all(a == hash_key("key-0-abcdefgh") for a, _ in calls)
    calls.clear()
    with pytest.raises(AuthenticationError):
        keys.authenticate("nope")
    assert len(calls) == 5


# -- rate limit -------------------------------------------------------------------------------


async def test_rate_limiter_allows_a_minute_then_says_when_to_retry() -> None:
    limiter = RateLimiter(per_minute=3)
    for _ in range(3):
        await limiter.check("a")
    with pytest.raises(RateLimitedError) as err:
        await limiter.check("a")
    # A moving window: the first of the three leaves it a minute after it came.
    assert 58.0 < err.value.retry_after <= 60.0
    # The body carries it to the millisecond.
    assert err.value.details["retry_after_s"] == pytest.approx(err.value.retry_after, abs=1e-3)
    await limiter.check("b")  # limits are per key


async def test_limiters_on_one_sqlite_file_share_the_limit(tmp_path: Path) -> None:
    """Two limiters over one file, as two workers: together they allow the limit once."""
    uri = f"async+sqlite://{tmp_path / 'limits.db'}"
    workers = [RateLimiter(per_minute=5, storage=uri) for _ in range(2)]
    allowed = 0
    for n in range(10):
        try:
            await workers[n % 2].check("k")
            allowed += 1
        except RateLimitedError:
            pass
    assert allowed == 5
    with pytest.raises(RateLimitedError):
        await workers[0].check("k")
    await workers[1].check("other")


async def test_a_failing_storage_lets_requests_through(tmp_path: Path) -> None:
    blocked = tmp_path / "not-a-dir"
    blocked.write_text("a file where the database's folder should be")
    limiter = RateLimiter(per_minute=1, storage=f"async+sqlite://{blocked / 'limits.db'}")
    for _ in range(3):
        await limiter.check("k")  # logged, allowed


async def test_zero_turns_the_limit_off_and_bad_settings_are_refused() -> None:
    limiter = RateLimiter(per_minute=0)
    assert not limiter.enabled
    for _ in range(1_000):
        await limiter.check("k")
    with pytest.raises(ConfigurationError):
        RateLimiter(per_minute=-1)
    with pytest.raises(ConfigurationError, match="async"):
        RateLimiter(per_minute=5, storage="memory://")


def test_keys_hash_command_prints_the_entry() -> None:
    from typer.testing import CliRunner

    from tutorgraph.cli.app import app

    runner = CliRunner()
    out = runner.invoke(app, ["keys", "hash", "abc", "--role", "admin"])
    assert out.exit_code == 0 and out.stdout.strip() == key_entry("abc", "admin")
    piped = runner.invoke(app, ["keys", "hash"], input="from-stdin-key\n")
    assert piped.exit_code == 0 and piped.stdout.strip() == key_entry("from-stdin-key", "read")
    assert runner.invoke(app, ["keys", "hash", "abc", "--role", "root"]).exit_code == 2
    assert runner.invoke(app, ["keys", "hash"], input="\n").exit_code == 2  # empty key
    # Nothing on stdin and no terminal (a script, `</dev/null`): a new key, as at a terminal.
    made = runner.invoke(app, ["keys", "hash", "--role", "admin"], input="")
    assert made.exit_code == 0, made.output
    key = made.stderr.rsplit(": ", 1)[-1].strip()
    assert ApiKeys.parse(made.stdout.strip()).authenticate(key).role == "admin"


# -- failed key checks (issue 46) ---------------------------------------------------------


async def test_exhausted_spends_nothing_and_spend_always_counts() -> None:
    limiter = RateLimiter(per_minute=2)
    assert await limiter.exhausted("a") is None
    assert await limiter.exhausted("a") is None  # asking spends nothing
    await limiter.spend("a")
    await limiter.spend("a")
    retry = await limiter.exhausted("a")
    assert retry is not None and 58 < retry <= 60
    await limiter.spend("a")  # past the budget: no error
    assert await limiter.exhausted("b") is None
    off = RateLimiter(per_minute=0)
    await off.spend("a")
    assert await off.exhausted("a") is None


@asynccontextmanager
async def _keyed_api(tmp_path: Path, **overrides: object) -> AsyncIterator[Callable[..., Any]]:
    """The app with keys over a fake index; `client(address)` is an HTTP client that calls
    from that address."""
    fields: dict[str, object] = {
        "index_dir": write_fake_index(tmp_path / "index"),
        "api_keys": f"{key_entry(READ_KEY, 'read')},{key_entry(ADMIN_KEY, 'admin')}",
        "auth_failures_per_minute": 3,
        "allowed_hosts": "test",  # the client's base URL
    }
    fields.update(overrides)
    app = create_app(Settings.model_validate(fields), opener=FakeOpener())

    def client(address: str) -> httpx.AsyncClient:
        transport = httpx.ASGITransport(
            app=app, raise_app_exceptions=False, client=(address, 40000)
        )
        return httpx.AsyncClient(transport=transport, base_url="http://test")

    async with app.router.lifespan_context(app):
        yield client


CONCEPT = "/v1/concepts/ccss:5.NF.A.1"


async def test_repeated_wrong_keys_from_one_address_are_refused_429(tmp_path: Path) -> None:
    async with _keyed_api(tmp_path) as client, client("10.0.0.1") as c, client("10.0.0.2") as d:
        for n in range(3):
            resp = await c.get(CONCEPT, headers={"X-API-Key": f"guess-{n}"})
            assert resp.status_code == 401, resp.text
        # No key at all is not a guess: still a plain 401, and never counted.
        for _ in range(5):
            assert (await c.get(CONCEPT)).status_code == 401
        refused = await c.get(CONCEPT, headers={"X-API-Key": "guess-3"})
        assert refused.status_code == 429 and refused.json()["error"]["code"] == "rate_limited"
        assert 55 <= int(refused.headers["retry-after"]) <= 60
        assert "failed API key checks" in refused.json()["error"]["message"]
        # Even the right key, from this address, until the first failure is a minute old:
        # a right guess must not be told apart from a wrong one.
        assert (await c.get(CONCEPT, headers={"X-API-Key": READ_KEY})).status_code == 429
        # Health, metrics and docs check no key: never refused, whatever key they carry.
        for path in ("/healthz", "/readyz", "/metrics", "/openapi.json"):
            assert (await c.get(path, headers={"X-API-Key": "guess"})).status_code == 200
        # Another address is not affected.
        assert (await d.get(CONCEPT, headers={"X-API-Key": READ_KEY})).status_code == 200
        assert (await d.get(CONCEPT, headers={"X-API-Key": "wrong"})).status_code == 401


async def test_right_keys_and_permission_errors_spend_no_failures(tmp_path: Path) -> None:
    async with _keyed_api(tmp_path) as client, client("10.0.0.3") as c:
        for _ in range(10):
            assert (await c.get(CONCEPT, headers={"X-API-Key": READ_KEY})).status_code == 200
            # A read key on an admin route is a 403, not a failed key check.
            resp = await c.get("/v1/ingest/nope", headers={"X-API-Key": READ_KEY})
            assert resp.status_code == 403


@pytest.mark.parametrize(
    "overrides",
    [{"auth_failures_per_minute": 0}, {"rate_limit_per_minute": 0}, {"api_keys": ""}],
)
async def test_no_limit_when_it_is_off_or_there_are_no_keys(
    tmp_path: Path, overrides: dict[str, object]
) -> None:
    async with _keyed_api(tmp_path, **overrides) as client, client("10.0.0.4") as c:
        codes = {(await c.get(CONCEPT, headers={"X-API-Key": "x"})).status_code for _ in range(10)}
        assert 429 not in codes

"""`compose.yaml` against the Compose Specification's JSON Schema (no Docker engine), every
variable a healthcheck reads is set in its own container, neither compose nor the
Dockerfile starts an anonymous API on 0.0.0.0 by default (the image's CMD runs under `sh`),
and the image installs the `[server]` extra that `serve` needs (a fresh-venv run of the
image's install: `tests/integration/test_docker_install.py`)."""

from __future__ import annotations

import contextlib
import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

from tutorgraph.api.auth import ApiKeys, key_entry
from tutorgraph.cli.serve import anonymous_bind_error
from tutorgraph.config import Settings

pytestmark = pytest.mark.unit

ROOT = Path(__file__).parents[2]
SCHEMA = ROOT / "tests" / "data" / "compose" / "compose_spec.json"
# `${NAME}`, `${NAME#prefix}`, `$NAME` in a command, after Compose turned `$$` into `$`.
_READS = re.compile(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)")
# Names the command sets itself (`read -r name`, `name=...`).
_SETS = re.compile(r"(?:\bread\s+(?:-r\s+)?|\b)([A-Za-z_][A-Za-z0-9_]*)(?==|\s*<)")


def _compose() -> dict[str, Any]:
    return yaml.safe_load((ROOT / "compose.yaml").read_text(encoding="utf-8"))


def test_compose_yaml_follows_the_compose_specification() -> None:
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    # The schema names draft 2019-09 by an address jsonschema does not know: say it here.
    jsonschema.Draft201909Validator(schema).validate(_compose())
    with pytest.raises(jsonschema.ValidationError):  # the schema does reject a typo
        broken = _compose()
        broken["services"]["neo4j"]["helthcheck"] = {}
        jsonschema.Draft201909Validator(schema).validate(broken)


def _command(test: str | list[str]) -> str:
    text = test if isinstance(test, str) else " ".join(test[1:])
    return text.replace("$$", "$")  # Compose's escape for a literal `$`


def _env(service: dict[str, Any]) -> set[str]:
    env = service.get("environment") or {}
    if isinstance(env, list):
        return {item.split("=", 1)[0] for item in env}
    return set(env)


@pytest.mark.parametrize("name", sorted(_compose()["services"]))
def test_each_healthcheck_reads_only_what_its_container_sets(name: str) -> None:
    service = _compose()["services"][name]
    check = service.get("healthcheck")
    assert check is not None, f"{name} has no healthcheck"
    command = _command(check["test"])
    reads = set(_READS.findall(command)) - set(_SETS.findall(command))
    missing = reads - _env(service)
    assert not missing, f"{name}'s healthcheck reads {sorted(missing)}, unset in its container"


def test_the_old_neo4j_healthcheck_would_have_been_caught() -> None:
    command = _command(["CMD-SHELL", "cypher-shell -u neo4j -p \"$${NEO4J_PASSWORD}\" 'RETURN 1'"])
    assert set(_READS.findall(command)) - _env(_compose()["services"]["neo4j"]) == {
        "NEO4J_PASSWORD"
    }


# -- no anonymous API on 0.0.0.0 by default (issue 30) -------------------------------------

DOCKERFILE = ROOT / "Dockerfile"
ALLOW = "TUTORGRAPH_ALLOW_ANONYMOUS"
# Compose's `${NAME}`, `${NAME:-default}`, `${NAME-default}`, `${NAME:?error}`, `${NAME?error}`.
_INTERPOLATION = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?)([-?])([^}]*))?\}")


def _interpolate(value: str, env: dict[str, str]) -> str:
    """What Compose puts in the container for `value`, given the host's environment `env`."""

    def one(m: re.Match[str]) -> str:
        name, colon, op, arg = m.groups()
        unset = name not in env or (colon == ":" and env[name] == "")
        if op == "?" and unset:
            raise KeyError(f"{name}: {arg}")
        return arg if op == "-" and unset else env.get(name, "")

    return _INTERPOLATION.sub(one, value)


def _dockerfile_instructions() -> list[tuple[str, str]]:
    """(instruction, arguments) of the Dockerfile, continuation lines joined, comments out."""
    lines = DOCKERFILE.read_text(encoding="utf-8").splitlines()
    joined = "\n".join(ln for ln in lines if not ln.lstrip().startswith("#"))
    out = []
    for line in joined.replace("\\\n", " ").splitlines():
        if line.strip():
            word, _, rest = line.strip().partition(" ")
            out.append((word.upper(), rest.strip()))
    return out


def _dockerfile_env() -> dict[str, str]:
    env: dict[str, str] = {}
    for word, rest in _dockerfile_instructions():
        if word in ("ENV", "ARG"):
            for item in shlex.split(rest):
                name, _, value = item.partition("=")
                env[name] = value
    return env


def _serve_cmd() -> list[str]:
    cmd = [rest for word, rest in _dockerfile_instructions() if word == "CMD"]
    value = json.loads(cmd[-1])  # the last CMD is the one that counts
    assert isinstance(value, list)
    return [str(v) for v in value]


def _settings(monkeypatch: pytest.MonkeyPatch, env: dict[str, str]) -> Settings:
    for name in [n for n in os.environ if n.startswith("TUTORGRAPH_")]:
        monkeypatch.delenv(name)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return Settings()


def test_the_image_serves_on_every_interface_and_so_refuses_anonymity(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    env = _dockerfile_env()
    assert ALLOW not in env and not env.get("TUTORGRAPH_API_KEYS")
    assert not any(ALLOW in rest for _, rest in _dockerfile_instructions())
    assert "--host 0.0.0.0" in _serve_cmd()[-1]
    settings = _settings(monkeypatch, env)
    keys = ApiKeys.parse(settings.api_keys)
    assert anonymous_bind_error(
        "0.0.0.0", keys_enabled=keys.enabled, allow_anonymous=settings.allow_anonymous
    )
    # `docker run -e TUTORGRAPH_API_KEYS=...` lifts it.
    keyed = _settings(monkeypatch, {**env, "TUTORGRAPH_API_KEYS": key_entry("k" * 20, "read")})
    assert ApiKeys.parse(keyed.api_keys).enabled


@pytest.mark.parametrize(
    ("host_env", "refused"),
    [
        ({}, True),
        ({ALLOW: ""}, True),
        ({ALLOW: "0"}, True),
        ({ALLOW: "1"}, False),
        ({"TUTORGRAPH_API_KEYS": key_entry("k" * 20, "admin")}, False),
    ],
)
def test_compose_passes_keys_and_the_override_through_and_defaults_to_refusing(
    monkeypatch: pytest.MonkeyPatch, host_env: dict[str, str], refused: bool
) -> None:
    service = _compose()["services"]["tutorgraph"]
    declared = service["environment"]
    assert {"TUTORGRAPH_API_KEYS", ALLOW} <= set(declared)
    container = {
        name: _interpolate(str(value), {"NEO4J_PASSWORD": "x", **host_env})
        for name, value in declared.items()
    }
    settings = _settings(monkeypatch, container)
    keys = ApiKeys.parse(settings.api_keys)
    error = anonymous_bind_error(
        "0.0.0.0", keys_enabled=keys.enabled, allow_anonymous=settings.allow_anonymous
    )
    assert (error is not None) is refused


def test_no_other_service_sets_the_override() -> None:
    for name, service in _compose()["services"].items():
        if name != "tutorgraph":
            assert ALLOW not in _env(service), name


def test_the_backends_publish_their_ports_on_the_loopback_only() -> None:
    for name in ("neo4j", "chroma"):
        for port in _compose()["services"][name]["ports"]:
            assert str(port).startswith("127.0.0.1:"), (name, port)


def _run_cmd(tmp_path: Path, index_dir: Path, *, ingest_fails: bool = False) -> tuple[int, str]:
    """The image's CMD under `sh`, with a stub `tutorgraph` that logs its arguments."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    log = tmp_path / "calls.log"
    log.unlink(missing_ok=True)
    stub = bin_dir / "tutorgraph"
    fail = 'case "$1" in ingest) exit 1;; esac\n' if ingest_fails else ""
    stub.write_text(f'#!/bin/sh\necho "$*" >> "{log}"\n{fail}')
    stub.chmod(0o755)
    env = {"PATH": f"{bin_dir}:/usr/bin:/bin", "TUTORGRAPH_INDEX_DIR": str(index_dir)}
    proc = subprocess.run(_serve_cmd(), env=env, capture_output=True, text=True, timeout=30)
    return proc.returncode, log.read_text() if log.exists() else ""


def test_the_image_ingests_its_bundle_only_into_an_empty_volume(tmp_path: Path) -> None:
    index_dir = tmp_path / "index"
    serve = "serve --host 0.0.0.0 --port 8000\n"
    assert _run_cmd(tmp_path, index_dir) == (0, "ingest data/curriculum\n" + serve)
    index_dir.mkdir()
    assert _run_cmd(tmp_path, index_dir) == (0, "ingest data/curriculum\n" + serve)
    # An interrupted first ingest (no manifest.json, written last) is redone; a failed one
    # does not serve.
    assert _run_cmd(tmp_path, index_dir, ingest_fails=True) == (1, "ingest data/curriculum\n")
    for marker in ("manifest.json", "CURRENT"):  # an index (of either layout) is there
        (index_dir / marker).write_text("{}")
        assert _run_cmd(tmp_path, index_dir) == (0, serve), marker
        (index_dir / marker).unlink()


# -- the image installs what `serve` needs (issue 46) -----------------------------------------

_PROJECT = re.compile(r"^\.(?:\[([^\]]*)\])?$")  # `.` or `.[extra,...]`


def _pip_installs() -> list[list[str]]:
    """Every `pip install` command in the Dockerfile's RUN lines (each of a `&&` chain)."""
    out = []
    for word, rest in _dockerfile_instructions():
        if word == "RUN":
            for command in rest.split("&&"):
                argv = shlex.split(command)
                if argv[:2] == ["pip", "install"]:
                    out.append(argv)
    return out


def _extras(target: str) -> set[str] | None:
    """The extras a pip target names, if it is the project (`.`, `.[server]`), else None."""
    found = _PROJECT.match(target)
    if found is None:
        return None
    return {e.strip() for e in (found.group(1) or "").split(",") if e.strip()}


def _pyproject() -> dict[str, Any]:
    import tomllib

    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def test_the_image_installs_the_server_extra() -> None:
    """The Dockerfile (which compose builds) installs the project with `[server]`: with a
    plain `pip install .`, `serve` exited 2 in the image and in compose."""
    projects = [
        extras
        for argv in _pip_installs()
        for extras in map(_extras, argv[2:])
        if extras is not None
    ]
    assert len(projects) == 1, _pip_installs()
    assert projects[0] & {"server", "all"}, projects
    assert "server" not in (_extras(".") or set())  # the old line would have been caught
    # compose builds this Dockerfile: its context is the repository, no other file named.
    build = _compose()["services"]["tutorgraph"]["build"]
    if isinstance(build, dict):
        assert build.get("context", ".") == "." and build.get("dockerfile", "Dockerfile") in (
            "Dockerfile",
            "./Dockerfile",
        )
    else:
        assert build in (".", "./")
    server = {re.split(r"[<>=!~\[; ]", r, maxsplit=1)[0].lower() for r in _server_extra()}
    assert {"fastapi", "uvicorn", "prometheus-client", "limits"} <= server


def _server_extra() -> list[str]:
    return list(_pyproject()["project"]["optional-dependencies"]["server"])


def _third_party_imports(path: Path) -> set[str]:
    import ast

    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return {n for n in names if n not in sys.stdlib_module_names and n != "tutorgraph"}


def _closure(requirements: list[str], extras: set[str]) -> set[str]:
    """The distributions these requirements install, with what they require in turn (as
    installed here)."""
    from importlib.metadata import PackageNotFoundError, requires

    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name

    seen: set[str] = set()
    todo = [(r, extras) for r in requirements]
    while todo:
        text, active = todo.pop()
        req = Requirement(text)
        if req.marker is not None and not any(
            req.marker.evaluate({"extra": e}) for e in (active or {""})
        ):
            continue
        name = canonicalize_name(req.name)
        if name == "tutorgraph" or name in seen:
            continue
        seen.add(name)
        with contextlib.suppress(PackageNotFoundError):  # not installed here: a leaf
            todo += [(r, set(req.extras)) for r in requires(req.name) or []]
    return seen


def test_the_server_extra_covers_every_package_serve_imports() -> None:
    """Each third-party package the HTTP layer imports (`tutorgraph.api`, `cli/serve.py`) is
    installed by `pip install ".[server]"`: the project's dependencies, the server extra, or
    what those require (h11 comes with uvicorn, starlette with FastAPI)."""
    from importlib.metadata import packages_distributions

    from packaging.utils import canonicalize_name

    src = ROOT / "src" / "tutorgraph"
    files = [*sorted((src / "api").rglob("*.py")), src / "cli" / "serve.py"]
    modules = set().union(*map(_third_party_imports, files))
    assert {"fastapi", "uvicorn", "h11", "limits", "prometheus_client"} <= modules
    project = _pyproject()["project"]
    installed = _closure([*project["dependencies"], *_server_extra()], {""})
    by_module = packages_distributions()
    for module in sorted(modules):
        dists = {canonicalize_name(d) for d in by_module.get(module, [module])}
        assert dists & installed, f"{module} ({sorted(dists)}) is not installed by .[server]"

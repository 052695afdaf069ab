"""`compose.yaml` against the Compose Specification's JSON Schema (no Docker engine), and
every variable a healthcheck reads is set in its own container."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

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

"""The schemas themselves: valid 2020-12, one per type, limits generated from contract.json, portable patterns."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

import suite_cache
from seq_io.reference import x_limits
from seq_io.reference.spec_data import load_spec
from seq_io_maint import schema_limits

SPEC = load_spec()
TYPES = sorted(path.stem for path in (SPEC.root / "schemas").glob("*.json"))
"""Every type is a schema file: adding one to spec/schemas/ adds it to every test here (CONTRIBUTING.md)."""


def subschemas(node: Any, *, into_rules: bool = True) -> list[dict[str, Any]]:
    """Every subschema; without `into_rules`, not those inside an `x-rule` (which only add constraints)."""
    found: list[dict[str, Any]] = []
    if isinstance(node, dict):
        if "x-rule" in node and not into_rules and "type" not in node:
            return found
        found.append(node)
        for value in node.values():
            found.extend(subschemas(value, into_rules=into_rules))
    elif isinstance(node, list):
        for value in node:
            found.extend(subschemas(value, into_rules=into_rules))
    return found


def test_every_schema_file_is_a_type_with_a_model_and_validation_vectors() -> None:
    assert sorted(SPEC.schemas) == TYPES and len(TYPES) >= 23
    models = SPEC.root.parent / "generated" / "python" / "seq_io_models"
    assert [name for name in TYPES if not (models / f"{name}.py").is_file()] == [], "run `make generate`"
    files, _ = suite_cache.suite()
    tested = {f.doc["type"] for f in files if f.kind == "validation"}
    assert [name for name in TYPES if name not in tested] == [], "every type needs validation vectors"


@pytest.mark.parametrize("name", TYPES)
def test_schema_is_valid_2020_12_with_id_title_description(name: str) -> None:
    schema = SPEC.schemas[name]
    Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"].endswith(f"/{name}.json")
    assert schema["title"] == name and len(schema["description"]) > 20


@pytest.mark.parametrize("name", TYPES)
def test_objects_are_closed(name: str) -> None:
    for node in subschemas(SPEC.schemas[name], into_rules=False):
        if node.get("type") == "object" and "properties" in node:
            assert node.get("additionalProperties") is False, f"{name}: open object {sorted(node['properties'])}"


def test_named_limits_are_read_from_contract_json() -> None:
    assert not schema_limits.drift(), "run `make generate`"
    seen = {
        str(limit)
        for schema in SPEC.schemas.values()
        for node in x_limits.annotated(schema)
        for limit in node["x-limits"].values()
    }
    assert seen == {"MAX_WINDOW", "MAX_STREAMS", "MAX_SAFE_INTEGER", "-MAX_SAFE_INTEGER"}


def test_no_bound_at_the_safe_integer_edge_is_a_bare_literal() -> None:
    safe = SPEC.limits["MAX_SAFE_INTEGER"]
    for name, schema in SPEC.schemas.items():
        for node in subschemas(schema):
            for keyword in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
                if node.get(keyword) in (safe, -safe):
                    assert keyword in node.get("x-limits", {}), f"{name}: {keyword} {node[keyword]} names no limit"


def test_a_changed_limit_shows_as_drift(tmp_path: Path) -> None:
    spec = tmp_path / "spec"
    shutil.copytree(SPEC.root, spec, ignore=shutil.ignore_patterns("releases"))
    contract = json.loads((spec / "contract.json").read_text(encoding="utf-8"))
    contract["limits"]["MAX_WINDOW"] = 300
    (spec / "contract.json").write_text(json.dumps(contract), encoding="utf-8")
    changed = schema_limits.drift(spec)
    assert [path.name for path in changed] == ["Stream.json"]
    assert '"maxItems": 300' in changed[spec / "schemas" / "Stream.json"]


def test_every_integer_is_bounded_within_the_safe_range() -> None:
    safe = SPEC.limits["MAX_SAFE_INTEGER"]
    for name, schema in SPEC.schemas.items():
        for node in subschemas(schema, into_rules=False):
            if node.get("type") == "integer" and "enum" not in node:
                assert -safe <= node["minimum"] and node["maximum"] <= safe, f"{name}: unbounded integer {node}"


def test_patterns_are_dialect_proof() -> None:
    for name, schema in SPEC.schemas.items():
        for node in subschemas(schema):
            pattern = node.get("pattern")
            if isinstance(pattern, str):
                assert not re.search(r"\\[sdwSDW](?![\\s\\S])", pattern.replace("[\\s\\S]", "")), f"{name}: {pattern}"
                assert not pattern.endswith("$") or pattern.endswith("]$"), f"{name}: trailing $ in {pattern}"


def test_contract_version_lives_only_in_contract_json() -> None:
    version = SPEC.contract_version
    assert version == "0.5.25"
    for path in (SPEC.root / "schemas").glob("*.json"):
        assert version not in path.read_text(encoding="utf-8"), path.name

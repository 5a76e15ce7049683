"""The schemas themselves: valid 2020-12, one per type, limits agreeing with contract.json, portable patterns."""

from __future__ import annotations

import re
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from seq_io_ref.spec_data import load_spec

SPEC = load_spec()
TYPES = ["Stream", "Camera", "Observations", "Actions", "Tensors", "Episodes", "ObserveFrame", "ObserveRequest",
         "ObserveResponse", "ActRequest", "ActResponse", "Timeouts", "DeploymentPolicy", "ConnectResponse", "Lease",
         "ActionSpace", "ActionContract", "ObservationContract", "Embodiment", "SecretRef", "InferParam", "SeqFlags",
         "StreamError"]


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


def test_exactly_the_23_types() -> None:
    assert sorted(SPEC.schemas) == sorted(TYPES)
    assert {p.stem for p in (SPEC.root / "schemas").glob("*.json")} == set(TYPES)


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


def test_named_limits_agree_with_contract_json() -> None:
    seen = set()
    for name, schema in SPEC.schemas.items():
        for node in subschemas(schema):
            for keyword, limit in node.get("x-limits", {}).items():
                assert node[keyword] == SPEC.limits[limit], f"{name}: {keyword} is not {limit}"
                seen.add(limit)
    assert seen == {"MAX_WINDOW", "MAX_STREAMS"}


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

"""Where the generated pydantic models are looser than the JSON Schema, kept as one exact table.

The models are the typed result of validation, not the validator. This test runs every invalid validation vector
through the model alone and collects the rules whose refusals the model misses; that set must equal the table
below, so a generator upgrade that changes what is dropped fails here instead of passing silently.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from pydantic import ValidationError

import suite_cache
from seq_io import vectors
from seq_io.reference.beyond_schema import BEYOND_SCHEMA_RULES
from seq_io.reference.validation import contract, model_adapter, to_json_value
from seq_io.reference.validation_cases import instance_text

LOOSER_BY_DESIGN: dict[str, str] = {
    "Stream.at-xor-every": "`not` is dropped by the generator",
    "Camera.quality-needs-jpeg": "`if`/`then` is dropped",
    "Observations.stream-key": "the whitespace patterns sit under `not` and are dropped",
    "Observations.streams-xor-every": "`not` is dropped",
    "Observations.whole-steps": "`if`/`else` is dropped",
    "DeploymentPolicy.streaming-vs-episodes": "`not` is dropped",
    "DeploymentPolicy.own-io-excludes-robot-arm": "`if`/`then` is dropped",
    "DeploymentPolicy.model-name": "`not` patterns are dropped",
    "ObservationContract.robot-arm-camera": "the `allOf` restriction of a nested Camera is dropped",
    "InferParam.bounds-need-numeric-type": "`if`/`then` is dropped",
    "StreamError.reason-fixes-code": "`if`/`then` is dropped",
    "StreamError.reason-details": "`if`/`then` is dropped",
    "uniqueItems": "dropped (distinct offsets, distinct model names)",
    "maxProperties": "dropped (MAX_STREAMS, params count)",
    "enum": "an explicit null passes for optional fields that are not nullable (unit, pad, ...)",
    "type": "pydantic lax mode coerces true, numeric strings and lax booleans",
    "wire.duplicate-key": "pydantic keeps the last key",
    "wire.non-finite-number": "pydantic reads NaN/Infinity and overflow as floats",
    **dict.fromkeys(BEYOND_SCHEMA_RULES, "a rule beyond the schema (no generated type can say it)"),
}

FILES, _ = suite_cache.suite()
INVALID = [(f.doc["type"], c) for f in FILES if f.kind == "validation" for c in f.cases if not c.data["valid"]]


def model_accepts(type_name: str, case: vectors.Case) -> bool:
    adapter: Any = model_adapter(type_name)
    try:
        adapter.validate_json(instance_text(case.data))
    except ValidationError:
        return False
    return True


def test_the_table_of_looseness_is_exact() -> None:
    missed: dict[str, list[str]] = {}
    for type_name, case in INVALID:
        if model_accepts(type_name, case):
            missed.setdefault(case.data["error"]["rule"], []).append(case.id)
    unexpected = {rule: ids for rule, ids in missed.items() if rule not in LOOSER_BY_DESIGN}
    assert not unexpected, f"the models also let these through; add them to the table with a reason: {unexpected}"
    stale = sorted(set(LOOSER_BY_DESIGN) - set(missed))
    assert not stale, f"the models now catch these; remove them from the table: {stale}"


@pytest.mark.parametrize("type_name", sorted({t for t, _ in INVALID}))
def test_models_import_and_build(type_name: str) -> None:
    assert model_adapter(type_name).json_schema()


# -- model → JSON gives back the normalized instance ------------------------------------------------------------

VALID = [(f.doc["type"], c) for f in FILES if f.kind == "validation" for c in f.cases if c.data["valid"]]


def same_json(normalized: Any, written: Any) -> bool:
    """Equal as JSON and of the same kind: an integer stays an integer, a double a double, a boolean a boolean, no
    member added or lost. One exception, which keeps the value: a double with an integral value in a field the
    schema types `integer` is written as that integer (2.0 → 2), the canonical spelling of the same number."""
    if type(normalized) is float and type(written) is int:
        return normalized == written
    if type(normalized) is not type(written):
        return False
    if isinstance(normalized, dict):
        return normalized.keys() == written.keys() and all(same_json(normalized[k], written[k]) for k in normalized)
    if isinstance(normalized, list):
        return len(normalized) == len(written) and all(map(same_json, normalized, written))
    return bool(normalized == written)


@pytest.mark.parametrize(("type_name", "case"), VALID, ids=[c.id for _, c in VALID])
def test_a_model_writes_back_the_normalized_instance(type_name: str, case: vectors.Case) -> None:
    outcome = contract().validate_text(type_name, instance_text(case.data))
    assert outcome.valid and outcome.model is not None
    written = to_json_value(type_name, outcome.model)
    assert same_json(outcome.normalized, written), f"{outcome.normalized!r} came back as {written!r}"


@pytest.mark.parametrize(
    ("type_name", "text", "expected"),
    [
        ("Stream", '{"at": [-15, 0]}', {"at": [-15, 0]}),
        ("Stream", '{"every": 2.5}', {"every": 2.5}),
        ("Stream", '{"every": 2.0}', {"every": 2.0}),
        ("Actions", '{"hz": 15}', {"hz": 15}),
        ("DeploymentPolicy", '{"handler_ref": "m:f", "streaming": true}', {"handler_ref": "m:f", "episodes": "own"}),
        ("DeploymentPolicy", '{"handler_ref": "m:f"}', {"handler_ref": "m:f"}),
        (
            "Observations",
            '{"streams": {"a": {"at": null}}, "unit": "steps"}',
            {"streams": {"a": {"at": None}}, "unit": "steps"},
        ),
        ("InferParam", '{"type": "int", "default": 9007199254740993}', {"type": "int", "default": 9007199254740993}),
    ],
)
def test_numbers_keep_their_kind_and_defaults_stay_unwritten(type_name: str, text: str, expected: Any) -> None:
    outcome = contract().validate_text(type_name, text)
    written = to_json_value(type_name, outcome.model)
    assert json.dumps(written, sort_keys=True) == json.dumps(expected, sort_keys=True)  # 2.0 and 2 differ here

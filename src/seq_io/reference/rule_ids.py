"""A spec version → the set of rule ids a refusal may name: schema keywords, `x-rule` ids, rules beyond the
schema, wire rules and the API's own.

Vectors name the rule a refusal must carry; this set is what the lint checks those names against, so a typo in a
vector is caught instead of making the case unpassable.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from seq_io.reference import beyond_schema, validation, wire
from seq_io.reference.keeper import INVALID_SCENARIO
from seq_io.reference.spec_data import SpecData

ASSERTION_KEYWORDS = frozenset(
    {
        "type",
        "enum",
        "const",
        "required",
        "additionalProperties",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "minItems",
        "maxItems",
        "minProperties",
        "maxProperties",
        "minLength",
        "maxLength",
        "uniqueItems",
        "pattern",
        "not",
        "propertyNames",
        "prefixItems",
        "items",
    }
)


def x_rules(node: Any) -> Iterator[str]:
    """Every `x-rule` id annotated anywhere inside a schema node."""
    if isinstance(node, dict):
        if "x-rule" in node:
            yield str(node["x-rule"])
        for value in node.values():
            yield from x_rules(value)
    elif isinstance(node, list):
        for value in node:
            yield from x_rules(value)


def schema_rule_ids(spec: SpecData) -> set[str]:
    """The `x-rule` ids the schemas of a spec declare."""
    return {rule for schema in spec.schemas.values() for rule in x_rules(schema)}


def known_rule_ids(spec: SpecData) -> set[str]:
    wire_rules = {*wire.WIRE_RULES, wire.READER_TOO_LARGE}
    api_rules = {validation.UNKNOWN_TYPE, validation.MODEL_REFUSED}
    beyond = set(beyond_schema.BEYOND_SCHEMA_RULES)
    return set(ASSERTION_KEYWORDS) | schema_rule_ids(spec) | beyond | wire_rules | api_rules


_ERROR_TABLE_HEAD = re.compile(r"^\|\s*error id\s*\|")
_ERROR_ID_CELL = re.compile(r"^\|\s*`([a-z_]+\.[a-z0-9-]+)`\s*\|")


def error_ids(spec: SpecData) -> set[str]:
    """The error ids a vector may expect: the first column of every table headed `| error id |` in the spec's
    Markdown pages (spec/schedule.md for schedule, envelope and rows_of, spec/stream.md § 10 for the stream), and
    `stream.invalid-scenario`, which spec/stream.md keeps to the conformance vectors (STR-SCENARIO)."""
    found = {INVALID_SCENARIO}
    for page in sorted(spec.root.glob("*.md")):
        in_table = False
        for line in page.read_text(encoding="utf-8").splitlines():
            if _ERROR_TABLE_HEAD.match(line):
                in_table = True
            elif not line.startswith("|"):
                in_table = False
            elif in_table and (cell := _ERROR_ID_CELL.match(line)):
                found.add(cell.group(1))
    return found

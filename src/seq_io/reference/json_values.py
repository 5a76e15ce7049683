"""Two JSON values → whether they are the same JSON value: numbers by value, booleans only equal booleans, strings
by code points, arrays in order, objects whatever their member order.

WHY it is apart: this is the equality spec/validation.md and conformance/protocol.md compare with (normalized
forms, expected results, schema keywords in the bump review); the rules beyond the schema need only its scalar
case, so the comparison every tool judges with is not part of the rules it judges.
"""

from __future__ import annotations

from typing import Any, TypeAlias

JsonValue: TypeAlias = Any
"""A value of the JSON data model as Python holds it: None, bool, int, float, str, a list of values, a dict of
str to values. Spelled `Any`: values reach the code already validated against a schema, and a recursive union
would turn every read of a validated member into an isinstance check; the name says what flows, the schema its
shape."""
JsonObject: TypeAlias = dict[str, JsonValue]
"""A JSON object (a schema is one too)."""


def is_number(value: JsonValue) -> bool:
    """A JSON number: an int or a float, never a bool (which Python counts as an int)."""
    return isinstance(value, int | float) and not isinstance(value, bool)


def json_equal(left: JsonValue, right: JsonValue) -> bool:
    """Equality of JSON values: numbers by value, booleans only equal booleans, strings by code points."""
    if isinstance(left, bool) or isinstance(right, bool):
        return isinstance(left, bool) and isinstance(right, bool) and left == right
    if is_number(left) and is_number(right):
        return bool(left == right)
    if isinstance(left, list) and isinstance(right, list):
        return len(left) == len(right) and all(json_equal(a, b) for a, b in zip(left, right, strict=True))
    if isinstance(left, dict) and isinstance(right, dict):
        return left.keys() == right.keys() and all(json_equal(left[k], right[k]) for k in left)
    return type(left) is type(right) and bool(left == right)

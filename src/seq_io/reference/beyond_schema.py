"""The rules JSON Schema cannot express, and the normalizations: (type name, node) → Issues, or a rewritten node.

Each rule here is listed, with the same id, in spec/validation.md under "Rules beyond the schema"; the tests
check that the two lists agree. A rule receives one schema-valid node of its type (the walk in `typed_walk`
finds every node of every type, however deeply nested), so it never re-checks what the schema already did.
"""

from __future__ import annotations

import json
from bisect import bisect_right
from collections.abc import Callable, Iterator
from functools import cache
from typing import Any

from seq_io.reference.issues import Issue, format_path
from seq_io.reference.json_values import JsonObject, is_number
from seq_io.reference.spec_data import own_spec_root

BEYOND_SCHEMA_RULES: dict[str, str] = {
    "DeploymentPolicy.param-name": "Each `params` name is an identifier and does not start with `_`.",
    "ActionContract.bounds-count": "`bounds` has exactly `action_dim` pairs.",
    "ActionContract.bounds-order": "In each `bounds` pair, low is not above high.",
    "ActionContract.max-delta-count": "A `max_delta` list has exactly `action_dim` values.",
    "InferParam.min-not-above-max": "`min` is not above `max`.",
    "InferParam.default-allowed": "A `default` is among `choices` and within `min`/`max`.",
    "Lease.expires-at-real-date": "`expires_at` names a day that exists in the calendar.",
}
"""Every rule beyond the schema, id → what it demands; spec/validation.md lists the same ids."""


def _rule(rule_id: str) -> str:
    assert rule_id in BEYOND_SCHEMA_RULES, rule_id
    return rule_id


RuleCheck = Callable[[JsonObject, list[str | int]], Iterator[Issue]]


def _param_name_issues(node: JsonObject, path: list[str | int]) -> Iterator[Issue]:
    for name in node.get("params") or {}:
        if not is_param_name(name):
            yield Issue(
                format_path([*path, "params"]),
                _rule("DeploymentPolicy.param-name"),
                f"the parameter name {name!r} is not an identifier (Unicode 14) or starts with '_'",
            )


IDENTIFIER_TABLE = "identifier-characters.json"
"""In the package's own spec/: XID_Start and XID_Continue of Unicode 14.0.0 as ranges (spec/validation.md pins that
version, whatever the runtime's own Unicode is), generated and drift-checked by seq_io_maint.identifier_table."""


@cache
def _identifier_ranges() -> dict[str, tuple[list[int], list[int]]]:
    """property → (first code points, last code points) of its ascending ranges, for bisection."""
    table = json.loads((own_spec_root() / IDENTIFIER_TABLE).read_text(encoding="utf-8"))
    return {
        name: ([first for first, _ in table[name]], [last for _, last in table[name]])
        for name in ("xid_start", "xid_continue")
    }


def _has(property_name: str, character: str) -> bool:
    firsts, lasts = _identifier_ranges()[property_name]
    index = bisect_right(firsts, ord(character)) - 1
    return index >= 0 and ord(character) <= lasts[index]


def is_param_name(name: str) -> bool:
    """The name as sent, not normalized: an identifier (Unicode 14.0.0) that does not start with `_`, i.e. a first
    code point that is XID_Start (which `_` is not) and XID_Continue code points after it."""
    return bool(name) and _has("xid_start", name[0]) and all(_has("xid_continue", character) for character in name[1:])


def _bounds_issues(node: JsonObject, path: list[str | int]) -> Iterator[Issue]:
    bounds, dim = node.get("bounds"), node["action_dim"]
    if bounds is not None:
        if len(bounds) != dim:
            yield Issue(
                format_path([*path, "bounds"]),
                _rule("ActionContract.bounds-count"),
                f"bounds holds {len(bounds)} [low, high] pair(s) but action_dim is {dim}",
            )
        else:
            for index, (low, high) in enumerate(bounds):
                if low > high:
                    yield Issue(
                        format_path([*path, "bounds", index]),
                        _rule("ActionContract.bounds-order"),
                        f"the pair [{low}, {high}] has low above high",
                    )
    max_delta = node.get("max_delta")
    if isinstance(max_delta, list) and len(max_delta) != dim:
        yield Issue(
            format_path([*path, "max_delta"]),
            _rule("ActionContract.max-delta-count"),
            f"max_delta lists {len(max_delta)} value(s) but action_dim is {dim} (or give one number)",
        )


def _infer_param_issues(node: JsonObject, path: list[str | int]) -> Iterator[Issue]:
    low, high, default, choices = node.get("min"), node.get("max"), node.get("default"), node.get("choices")
    if low is not None and high is not None and low > high:
        yield Issue(format_path(path), _rule("InferParam.min-not-above-max"), f"min ({low}) is above max ({high})")
    if default is None:
        return
    if choices is not None and not any(_same_scalar(default, choice) for choice in choices):
        yield Issue(
            format_path([*path, "default"]),
            _rule("InferParam.default-allowed"),
            f"the default {default!r} is not one of the choices (JSON equality: true is not 1, 1 is 1.0)",
        )
    elif (low is not None or high is not None) and not is_number(default):
        yield Issue(
            format_path([*path, "default"]),
            _rule("InferParam.default-allowed"),
            f"the default {default!r} is not a number, so it cannot be checked against min/max",
        )
    elif (low is not None and default < low) or (high is not None and default > high):
        yield Issue(
            format_path([*path, "default"]),
            _rule("InferParam.default-allowed"),
            f"the default {default!r} lies outside [min, max] = [{low}, {high}]",
        )


def _same_scalar(left: Any, right: Any) -> bool:
    """JSON equality of two numbers, booleans or strings (all `default` and `choices` may hold): numbers by value,
    anything else only equal to a value of its own JSON type."""
    if is_number(left) and is_number(right):
        return bool(left == right)
    return type(left) is type(right) and bool(left == right)


def _lease_issues(node: JsonObject, path: list[str | int]) -> Iterator[Issue]:
    date = node["expires_at"][:10]
    year, month, day = (int(part) for part in date.split("-"))
    if not _day_exists(year, month, day):
        yield Issue(
            format_path([*path, "expires_at"]),
            _rule("Lease.expires-at-real-date"),
            f"{date} is not a day of the calendar",
        )


def _day_exists(year: int, month: int, day: int) -> bool:
    """Proleptic Gregorian, year 0000 included (a leap year; `calendar` refuses year 0). The schema's pattern has
    already kept the month within 1..12 and the day within 1..31."""
    if month == 2:
        leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
        return day <= (29 if leap else 28)
    return day <= 30 or month not in (4, 6, 9, 11)


RULES: dict[str, list[RuleCheck]] = {
    "DeploymentPolicy": [_param_name_issues],
    "ActionContract": [_bounds_issues],
    "InferParam": [_infer_param_issues],
    "Lease": [_lease_issues],
}
"""Rules beyond the schema, by the type whose node they inspect (ids as in spec/validation.md)."""


def _sort_window(node: JsonObject) -> JsonObject:
    at = node.get("at")
    return node if at is None else {**node, "at": sorted(at)}


def _fold_legacy_streaming(node: JsonObject) -> JsonObject:
    out = {key: value for key, value in node.items() if key != "streaming"}
    if node.get("streaming") is True:
        out["episodes"] = "own"
    return out


NORMALIZATIONS: dict[str, Callable[[JsonObject], JsonObject]] = {
    "Stream": _sort_window,
    "DeploymentPolicy": _fold_legacy_streaming,
}
"""Normalizations, by type (ids `Stream.sort-at` and `DeploymentPolicy.fold-streaming` in spec/validation.md)."""

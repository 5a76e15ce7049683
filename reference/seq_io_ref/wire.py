"""JSON text → Python value, refusing what the contract's wire rules refuse: text → tokens → value or Issues.

Python's `json` module accepts things the contract does not: duplicate object keys (it keeps the last),
the non-standard tokens `NaN`/`Infinity` (refused as a syntax error of the document, as strict parsers do),
number literals that overflow an IEEE-754 double (`1e400` becomes infinity), and strings holding a lone
surrogate (`"\\ud800"`, refused as a syntax error of the document, as I-JSON and strict parsers do). Other
languages' parsers disagree on all of them, so the spec refuses them on the wire (spec/validation.md, "Wire
rules") and this module is where that happens. Markers are placed during the parse and collected with their JSON
paths afterwards, because `json`'s hooks do not know where they are.

Numbers get the contract's value model (spec/validation.md, "The value of a number"): a literal whose exact
value is an integer is that integer exactly (`9007199254740993.0` and `1.8014398509481985e16` are Python ints),
any other literal is the nearest double (`1e-400` is 0.0). `number_value` is that rule, for every reader of ours.
"""

from __future__ import annotations

import json
import math
import re
from decimal import Decimal
from typing import Any

from seq_io_ref.issues import Issue, JsonPath, format_path

WIRE_JSON_SYNTAX = "wire.json-syntax"
WIRE_DUPLICATE_KEY = "wire.duplicate-key"
WIRE_NON_FINITE = "wire.non-finite-number"


class _NonFinite:
    """Stands in for a number the wire refuses; remembers the literal for the message."""

    def __init__(self, literal: str) -> None:
        self.literal = literal


class _Object(dict[str, Any]):
    """A JSON object that remembers which keys it saw twice."""

    duplicates: list[str]


def _object_from_pairs(pairs: list[tuple[str, Any]]) -> _Object:
    obj = _Object()
    obj.duplicates = []
    for key, value in pairs:
        if key in obj:
            obj.duplicates.append(key)
        obj[key] = value
    return obj


class _LoneSurrogate(Exception):
    """Raised when a string or member name holds a lone surrogate code point."""


class _NotJsonToken(Exception):
    """Raised for `NaN`, `Infinity` and `-Infinity`, which Python's reader accepts and JSON does not."""


def _refuse_token(token: str) -> None:
    raise _NotJsonToken(token)


_TWO_53 = 2.0 ** 53
_LONE_SURROGATE = re.compile(r"[\ud800-\udfff]")


def number_value(literal: str) -> int | float:
    """The value of a JSON number literal that has a fraction or an exponent: its exact value when that is an
    integer of magnitude 2^53 or more (a double may not hold it), else the nearest double (which is exact for
    smaller integers). Infinite when the literal overflows a double; the caller refuses that."""
    value = float(literal)
    if math.isfinite(value) and abs(value) >= _TWO_53:
        ratio = Decimal(literal).as_integer_ratio()  # bounded: |value| < 2^1024 and the literal's own digits
        if ratio[1] == 1:
            return ratio[0]
    return value


def _parse_float(literal: str) -> int | float | _NonFinite:
    value = number_value(literal)
    return value if not isinstance(value, float) or math.isfinite(value) else _NonFinite(literal)


def _parse_int(literal: str) -> int | _NonFinite:
    value = int(literal)
    try:
        float(value)
    except OverflowError:
        return _NonFinite(literal if len(literal) <= 24 else literal[:20] + "...")
    return value


def _collect(value: Any, path: list[str | int], issues: list[Issue], surrogates: bool = False) -> Any:
    """Turn parse markers into Issues and marked containers into plain ones; unless `surrogates`, raise
    _LoneSurrogate at the first string or member name holding a lone surrogate."""
    if isinstance(value, str):
        if not surrogates and _LONE_SURROGATE.search(value):
            raise _LoneSurrogate
        return value
    if isinstance(value, _NonFinite):
        issues.append(Issue(format_path(path), WIRE_NON_FINITE,
                            f"the number {value.literal} is not a finite IEEE-754 double; JSON numbers in this "
                            "contract must be finite (NaN and Infinity are not JSON)"))
        return None
    if isinstance(value, _Object):
        for key in dict.fromkeys(value.duplicates):
            issues.append(Issue(format_path(path), WIRE_DUPLICATE_KEY,
                                f"the key {key!r} appears more than once in this object; duplicate keys are refused"))
        if not surrogates and any(_LONE_SURROGATE.search(key) for key in value):
            raise _LoneSurrogate
        return {key: _collect(item, [*path, key], issues, surrogates) for key, item in value.items()}
    if isinstance(value, list):
        return [_collect(item, [*path, index], issues, surrogates) for index, item in enumerate(value)]
    return value


def parse_json_text(text: str, *, lone_surrogates: bool = False) -> tuple[Any, list[Issue]]:
    """Parse one JSON document under the wire rules; the value is meaningful only when no Issue came back.

    `lone_surrogates=True` lets strings holding lone surrogates through (for protocol messages, whose sentences
    may quote a refused instance); contract instances never pass it."""
    try:
        raw = json.loads(text, object_pairs_hook=_object_from_pairs, parse_float=_parse_float,
                         parse_int=_parse_int, parse_constant=_refuse_token)
    except _NotJsonToken as error:
        return None, [Issue("$", WIRE_JSON_SYNTAX, f"not valid JSON: {error} is not a JSON token (JSON has no NaN or "
                                                   "Infinity; a number must be finite)")]
    except json.JSONDecodeError as error:
        return None, [Issue("$", WIRE_JSON_SYNTAX,
                            f"not valid JSON: {error.msg} at line {error.lineno}, column {error.colno}")]
    except RecursionError:
        return None, [Issue("$", WIRE_JSON_SYNTAX, "not valid JSON here: nested too deeply to read")]
    issues: list[Issue] = []
    try:
        value = _collect(raw, [], issues, lone_surrogates)
    except _LoneSurrogate:
        return None, [Issue("$", WIRE_JSON_SYNTAX, "not valid JSON for this contract: a string or member name holds "
                                                   "a lone surrogate (an unpaired \\ud800-\\udfff escape), which "
                                                   "is not a Unicode character (I-JSON, RFC 7493)")]
    except RecursionError:
        return None, [Issue("$", WIRE_JSON_SYNTAX, "not valid JSON here: nested too deeply to read")]
    return value, issues


def non_json_values(value: Any, path: JsonPath = ()) -> list[Issue]:
    """Issues for values already in memory that JSON cannot carry (non-finite floats, non-string keys)."""
    issues: list[Issue] = []
    if isinstance(value, float) and not math.isfinite(value):
        issues.append(Issue(format_path(path), WIRE_NON_FINITE, f"{value} is not a finite number"))
    elif isinstance(value, str) and _LONE_SURROGATE.search(value):
        issues.append(Issue(format_path(path), WIRE_JSON_SYNTAX, "the string holds a lone surrogate"))
    elif isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                issues.append(Issue(format_path(path), WIRE_JSON_SYNTAX, f"the key {key!r} is not a string"))
            elif _LONE_SURROGATE.search(key):
                issues.append(Issue(format_path(path), WIRE_JSON_SYNTAX, "a member name holds a lone surrogate"))
            else:
                issues.extend(non_json_values(item, [*path, key]))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            issues.extend(non_json_values(item, [*path, index]))
    elif value is not None and not isinstance(value, str | int | float | bool):
        issues.append(Issue(format_path(path), WIRE_JSON_SYNTAX, f"a {type(value).__name__} is not a JSON value"))
    return issues

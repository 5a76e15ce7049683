"""A JSON value (a frame's `inputs`) → its canonical JSON text (spec/stream.md STR-SIZE) → the size in bytes the
stream limits count.

WHY it is shaped this way: a size must not depend on how a request spelled a value, nor on which language counts
it, so it is the UTF-8 length of one canonical text: whole numbers in full decimal, other numbers as ECMAScript
spells them, strings with JSON.stringify's escapes, no whitespace. `canonical_text` writes that text exactly, with
an explicit stack (values may nest deeper than Python's recursion limit). `size` is the hot path of every post: it
lets the C JSON encoder write the text, which equals the canonical text except where Python spells a float
otherwise (`7.0`, `1e+16` and `1e-05`, where the canonical text has `7`, `10000000000000000` and `0.00001`). Such a
float always ends in `.0` or has a signed exponent, so a C-level search finds whether there is any; only then are
the strings cut out (a split on quotes, or a regular expression when a quote is escaped) and each such number
token outside them corrected by the difference of its two spellings.
"""

from __future__ import annotations

import json
import math
import re
import sys
from decimal import Decimal
from json.encoder import c_make_encoder, encode_basestring  # type: ignore[attr-defined]
from typing import Any

from seq_io.reference.wire import plainly_json, wire_limits


def _not_json(value: object) -> object:
    raise TypeError(f"a {type(value).__name__} is not a JSON value")


_CHUNKS = (
    c_make_encoder(None, _not_json, encode_basestring, None, ":", ",", False, False, False)
    if c_make_encoder is not None
    else None
)
"""The C JSON encoder built once (JSONEncoder.encode builds it anew on every call): compact, non-ASCII kept,
NaN refused."""
_ENCODE = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False, check_circular=False).encode
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')
_SUSPECT = re.compile(r"[0-9]\.0(?![0-9])|[0-9][eE][+-]")
"""Where Python spells a float otherwise than the canonical text: a whole float (`7.0`) or a signed exponent
(`1e+16`, `1e-05`). Searched for outside strings only."""
_TOKEN_CHARS = frozenset("0123456789.-+eE")
_SURROGATE = re.compile("[\ud800-\udfff]")
"""A surrogate code point in a Python str is always a lone one (a pair is one code point)."""
_DOUBLE_DIGITS = len(str(int(sys.float_info.max)))
"""309: an integer of fewer digits is below the largest double, so finite (spec/validation.md)."""
_LONG_DIGITS = re.compile(f"[0-9]{{{_DOUBLE_DIGITS}}}")
"""A run of that many digits: an integer that may lie beyond the double range (or digits inside a string, which
then costs a walk of the value, nothing more)."""
_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}
_NEEDS_ESCAPE = re.compile(r'["\\\x00-\x1f]')


class NotJson(ValueError):
    """The value holds something JSON cannot carry (a non-finite float, a non-string member name, another type)."""


def number_text(value: int | float) -> str:
    """The canonical text of a number: a whole number in full decimal, any other as ECMAScript writes it."""
    if isinstance(value, float):
        if not math.isfinite(value):
            raise NotJson(f"{value!r} is not a finite number")
        if value.is_integer():
            return str(int(value))
        return _double_text(value)
    return str(value)


def _double_text(value: float) -> str:
    """ECMAScript's Number::toString of a double that is not whole (so 0 < |value| < 2^52)."""
    _, digit_tuple, exponent = Decimal(repr(abs(value))).as_tuple()  # repr: the shortest round-trip digits
    digits = "".join(map(str, digit_tuple)).rstrip("0")
    assert isinstance(exponent, int)
    n = exponent + len(digit_tuple)  # value = 0.d1d2...dk * 10^n
    sign = "-" if value < 0 else ""
    if 0 < n <= 21:
        return f"{sign}{digits[:n]}.{digits[n:]}"
    if -6 < n <= 0:
        return f"{sign}0.{'0' * -n}{digits}"
    mantissa = digits[0] + (f".{digits[1:]}" if len(digits) > 1 else "")
    return f"{sign}{mantissa}e-{1 - n}"


def string_text(value: str) -> str:
    """A string as JSON.stringify writes it: only `"`, `\\` and U+0000-U+001F escaped."""
    return '"' + _NEEDS_ESCAPE.sub(lambda m: _ESCAPES.get(m.group(), f"\\u{ord(m.group()):04x}"), value) + '"'


def canonical_text(value: Any) -> str:
    """The canonical JSON text of a JSON value (spec/stream.md STR-SIZE); NotJson for anything else."""
    out: list[str] = []
    stack: list[Any] = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, _Literal):
            out.append(item.text)
        elif item is None:
            out.append("null")
        elif item is True or item is False:
            out.append("true" if item else "false")
        elif isinstance(item, int | float):
            out.append(number_text(item))
        elif isinstance(item, str):
            out.append(string_text(item))
        elif isinstance(item, list):
            stack.append(_Literal("]"))
            for index in range(len(item) - 1, -1, -1):
                stack.append(item[index])
                if index:
                    stack.append(_Literal(","))
            stack.append(_Literal("["))
        elif isinstance(item, dict):
            stack.append(_Literal("}"))
            members = list(item.items())
            for index in range(len(members) - 1, -1, -1):
                name, member = members[index]
                if not isinstance(name, str):
                    raise NotJson(f"the member name {name!r} is not a string")
                stack.append(member)
                stack.append(_Literal(string_text(name) + ":"))
                if index:
                    stack.append(_Literal(","))
            stack.append(_Literal("{"))
        else:
            raise NotJson(f"a {type(item).__name__} is not a JSON value")
    return "".join(out)


class _Literal:
    """Text to emit as it is (brackets, commas, a member's name), kept apart from string values on the stack."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text


def _utf8_length(text: str) -> int:
    return len(text) if text.isascii() else len(text.encode("utf-8", "surrogatepass"))


def size(value: Any) -> int:
    """The number of UTF-8 bytes of the canonical JSON text of `value` (spec/stream.md STR-SIZE)."""
    try:
        text = _encoded(value)
    except (ValueError, TypeError, RecursionError):
        return _utf8_length(canonical_text(value))  # NotJson for what JSON cannot carry; deep values are walked
    return _size_of_encoded(text)


def checked_size(value: Any, depth: int) -> int | None:
    """The size of `value` when it surely keeps the wire rules a parsed value can break (spec/stream.md
    STR-POST-BODY), `value` being enclosed by `depth` containers of its body: no lone surrogate, finite numbers (no
    integer beyond the double range), within MAX_JSON_DEPTH; None when that is not sure, and the validator of record
    decides. The hot path of a post: the checks read the text the size is counted on (C-level searches), and only a
    value with more containers than the depth left, or a run of 309 digits, is walked (`plainly_json`)."""
    try:
        text = _encoded(value)
    except (ValueError, TypeError, RecursionError):  # a non-finite float, an integer too long to write, not JSON
        return None
    if not text.isascii() and _SURROGATE.search(text):
        return None
    too_deep = text.count("[") + text.count("{") + depth > wire_limits().depth
    if (too_deep or (len(text) >= _DOUBLE_DIGITS and _LONG_DIGITS.search(text))) and not plainly_json(value, depth):
        return None
    return _size_of_encoded(text)


def _encoded(value: Any) -> str:
    return "".join(_CHUNKS(value, 0)) if _CHUNKS is not None else _ENCODE(value)


def _size_of_encoded(text: str) -> int:
    """The canonical size of a value from the text Python's C encoder wrote for it."""
    length = _utf8_length(text)
    if _SUSPECT.search(text) is None:  # the common case: no float Python spells otherwise, even inside strings
        return length
    outside = "".join(text.split('"')[::2]) if '\\"' not in text else _STRING.sub("", text)
    for match in _SUSPECT.finditer(outside):
        first, last = match.start(), match.end()
        while first > 0 and outside[first - 1] in _TOKEN_CHARS:
            first -= 1
        while last < len(outside) and outside[last] in _TOKEN_CHARS:
            last += 1
        token = outside[first:last]
        length += len(number_text(float(token))) - len(token)
    return length

"""JSON text → the value the reader of record (`seq_io.reference.wire`) would read from it, read by jiter (Rust), or
`NOT_READ` when jiter cannot vouch for it; plus SCREEN, a JSON Schema that a value read this way must pass before it
is trusted.

WHY: the reader of record is pure Python and costs tens of times a plain parse. jiter reads RFC 8259 strictly,
refuses duplicate keys (`catch_duplicate_keys`), the NaN/Infinity tokens (`allow_inf_nan=False`) and lone
surrogates, and nests at most 200 deep, exactly MAX_JSON_DEPTH (tests/test_fast_wire.py pins each of these). What it
reads differently is confined to numbers of magnitude 2^53 or more: it reads an overflowing literal as infinity and
`9007199254740993.0` as a rounded double, where the contract wants a refusal and the exact integer. SCREEN refuses
every such number (and every integer that large, which jiter reads exactly but the reader of record must check
against the digit and finiteness limits), so a value that passes it is exactly the reader of record's value, and
anything else is handed to the reader of record, which explains. Applied inside jsonschema-rs together with the
type's schema, the screen costs one walk in Rust, not one in Python.
"""

from __future__ import annotations

from typing import Any, Final

from seq_io.reference.issues import Issue
from seq_io.reference.wire import MAX_DOCUMENT_BYTES, WIRE_JSON_SYNTAX

try:
    import jiter
except ImportError:  # the pure-Python reader of record is used instead
    jiter = None  # type: ignore[assignment]

SCREEN_ID = "urn:seq-io-ref:wire-screen"
_SAFE = 2**53 - 1
SCREEN: Final[dict[str, Any]] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": SCREEN_ID,
    "description": "Every number is finite with magnitude below 2^53 (jsonschema-rs holds an infinity as a value "
    "of no JSON type), at every depth.",
    "anyOf": [
        {"type": ["string", "boolean", "null"]},
        {"type": "number", "minimum": -_SAFE, "maximum": _SAFE},
        {"type": "array", "items": {"$ref": "#"}},
        {"type": "object", "additionalProperties": {"$ref": "#"}},
    ],
}


class Refused:
    """jiter found the text is not JSON (a syntax error or a lone surrogate, before anything else the wire rules
    refuse); `issue` is the one refusal, the whole text at `$`."""

    def __init__(self, message: str) -> None:
        self.issue = Issue("$", WIRE_JSON_SYNTAX, f"not valid JSON: {message}")


_NOT_DECIDED_BY_JITER = ("Detected duplicate key", "number out of range", "recursion limit exceeded")
"""jiter's refusals that the reader of record must look at: it reports every duplicate key and every number it
refuses, and tells a value nested too deeply from a syntax error that comes later."""


class _NotRead:
    def __repr__(self) -> str:
        return "NOT_READ"


NOT_READ: Final = _NotRead()

AVAILABLE = jiter is not None


def read(text: str) -> Any:
    """jiter's value of `text` (to be screened); or Refused, when jiter found the text is not JSON; or NOT_READ:
    jiter is missing, or the text is not encodable (it holds a lone surrogate) or over the size limit, or jiter met
    something the reader of record must explain (a duplicate key, a long integer, deep nesting)."""
    if jiter is None:
        return NOT_READ
    try:
        data = text.encode()
    except UnicodeEncodeError:
        return NOT_READ
    if len(data) > MAX_DOCUMENT_BYTES:
        return NOT_READ
    try:
        return jiter.from_json(data, allow_inf_nan=False, catch_duplicate_keys=True)
    except ValueError as error:
        message = str(error)
        return NOT_READ if message.startswith(_NOT_DECIDED_BY_JITER) else Refused(message)

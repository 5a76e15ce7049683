"""A frame's inputs as the keeper holds them in a worker → compact: its JSON text (per member, for an object) instead
of a tree of Python objects → spliced, as is, into the text of the act's answer that hands it over.

WHY: a worker holds up to MAX_WORKER_STREAM_BYTES of frames, counted by their canonical size (STR-SIZE), but a
parsed JSON value costs several times that in Python objects (a float 24 bytes plus an 8-byte slot for about 3 to
20 bytes of text, a small list 56 bytes or more). The text costs about its counted size. An object is kept as a
dict of member texts, so that the envelope can still cut an observation to the keys a step reads
(`envelope._cut`) without reading any text back; anything else is one text. The keeper takes this as its `store`
(it never looks inside what it holds), and `dumps` writes an answer holding such texts exactly as
`json.dumps(value, ensure_ascii=False, separators=(",", ":"))` would have written the values themselves: the
worker's answers do not change by one byte (tests/test_held.py).

A text cannot pass through `json.dumps` untouched, so `dumps` writes each one first as a placeholder string carrying
a per-call random nonce (a client cannot guess it, so no string of a request can be taken for one) and then puts
each text in its placeholder's place in one pass.
"""

from __future__ import annotations

import json
import re
import secrets
from typing import Any


class Text:
    """The JSON text of one value, written compactly (no spaces, UTF-8 as is)."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return f"Text({self.text!r})"


def _text(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


_AS_IS = frozenset({str, int, float, bool, type(None)})
"""Values already as small as their text (a str is its text; a number or a constant a few bytes): kept as they are,
which also spares the worker a `json.dumps` per frame for the smallest frames, the ones a flood is made of."""


def _held(value: Any) -> Any:
    if type(value) in _AS_IS or not value:  # a scalar, or an empty array or object
        return value
    return Text(_text(value))


def compact(inputs: Any) -> Any:
    """What a keeper holds for a frame's inputs: an object as a dict of its members, anything else alone, each a
    text unless it is a scalar or empty (kept as it is)."""
    if type(inputs) is dict:
        return {key: _held(member) for key, member in inputs.items()}
    return _held(inputs)


def dumps(value: Any) -> str:
    """`value` as compact JSON text, each `Text` inside it written as its own text."""
    nonce = secrets.token_hex(16)
    texts: list[str] = []

    def placeholder(item: Any) -> str:
        if not isinstance(item, Text):
            raise TypeError(f"{type(item).__name__} is not a JSON value")
        texts.append(item.text)
        return f"\x00{nonce}:{len(texts) - 1}\x00"

    written = json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False, default=placeholder)
    if not texts:
        return written
    pattern = re.compile(rf'"\\u0000{nonce}:(\d+)\\u0000"')
    return pattern.sub(lambda match: texts[int(match.group(1))], written)

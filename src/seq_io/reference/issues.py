"""One shape for every refusal: a rule id, the JSON path it applies to, and a sentence a newcomer understands.

Wire errors, schema errors and rules beyond the schema all end up as `Issue`s so that the CLI, the vectors and
the tests compare refusals the same way: by (path, rule), never by message text.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import islice

JsonPath = Sequence[str | int]


@dataclass(frozen=True, order=True)
class Issue:
    """A single refusal of an instance."""

    path: str
    rule: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message} [{self.rule}]"


_PLAIN_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def format_path(parts: JsonPath) -> str:
    """Render a location as a JSONPath (spec/validation.md, "Rule ids"): `$`, `$.streams["a b"].at[0]`.

    A member name matching [A-Za-z_][A-Za-z0-9_]* is written `.name`; any other is written `["name"]`, the name as
    a JSON string with `"`, `\\` and U+0000-U+001F escaped (\\b \\t \\n \\f \\r, else \\u00xx) and every other
    code point as itself: what `json.dumps(name, ensure_ascii=False)` and JavaScript's `JSON.stringify` write."""
    out = "$"
    for part in parts:
        if isinstance(part, int):
            out += f"[{part}]"
        elif _PLAIN_NAME.fullmatch(part):
            out += f".{part}"
        else:
            out += f"[{json.dumps(part, ensure_ascii=False)}]"
    return out


MAX_ISSUES = 100
"""A refused document is reported with at most this many issues (spec/validation.md, "Limits"): the first the
validator meets, so that a document refused a million times over costs no more than a hundred refusals."""

QUOTE_CHARS = 60
"""A message quotes at most this many characters of a value or key (spec/validation.md, "Limits"): a 100 MB key is
named by its first 57 characters and "...", never in full."""


def quote(value: object) -> str:
    """A value as JSON text (a string in double quotes), cut to QUOTE_CHARS characters. Written piece by piece and
    stopped once long enough, so quoting a 100 MB string or a deeply nested list costs no more than the quote."""
    text = "".join(_pieces(value, QUOTE_CHARS + 1))
    return text if len(text) <= QUOTE_CHARS else text[: QUOTE_CHARS - 3] + "..."


def _pieces(value: object, wanted: int) -> Iterator[str]:
    """The JSON text of `value` in pieces, until at least `wanted` characters were given (iterative)."""
    given = 0
    work: list[object] = [value]
    while work and given < wanted:
        item = work.pop()
        if isinstance(item, _Piece):
            piece = item.text
        elif isinstance(item, str):
            piece = json.dumps(item[:wanted], ensure_ascii=False)
        elif isinstance(item, list | tuple):
            piece = "["
            work.append(_Piece("]"))
            for index in range(min(len(item), wanted) - 1, -1, -1):
                work.append(item[index])
                if index:
                    work.append(_Piece(","))
        elif isinstance(item, dict):
            piece = "{"
            work.append(_Piece("}"))
            members = list(islice(item.items(), wanted))
            for index in range(len(members) - 1, -1, -1):
                key, member = members[index]
                work.extend((member, _Piece(":"), key if isinstance(key, str) else repr(key)))
                if index:
                    work.append(_Piece(","))
        elif item is None or isinstance(item, bool | int | float):
            piece = (
                json.dumps(item)
                if not isinstance(item, int) or item.bit_length() <= 2000
                else f"<an integer of {item.bit_length()} bits>"
            )  # str() refuses more than 4,300 digits
        else:
            piece = repr(item)[:wanted]
        given += len(piece)
        yield piece


@dataclass(frozen=True)
class _Piece:
    """Punctuation waiting on the work stack of `_pieces`."""

    text: str

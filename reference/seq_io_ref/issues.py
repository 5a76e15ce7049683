"""One shape for every refusal: a rule id, the JSON path it applies to, and a sentence a newcomer understands.

Wire errors, schema errors and rules beyond the schema all end up as `Issue`s so that the CLI, the vectors and
the tests compare refusals the same way: by (path, rule), never by message text.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass

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

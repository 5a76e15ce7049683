"""One shape for every refusal: a rule id, the JSON path it applies to, and a sentence a newcomer understands.

Wire errors, schema errors and rules beyond the schema all end up as `Issue`s so that the CLI, the vectors and
the tests compare refusals the same way: by (path, rule), never by message text.
"""

from __future__ import annotations

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


def _is_plain_name(key: str) -> bool:
    return key.isascii() and key.replace("_", "a").isalnum() and not key[:1].isdigit()


def format_path(parts: JsonPath) -> str:
    """Render a location as a JSONPath: `$`, `$.streams["a b"].at[0]`."""
    out = "$"
    for part in parts:
        if isinstance(part, int):
            out += f"[{part}]"
        elif _is_plain_name(part):
            out += f".{part}"
        else:
            escaped = part.replace("\\", "\\\\").replace('"', '\\"')
            out += f'["{escaped}"]'
    return out

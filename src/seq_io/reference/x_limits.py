"""The `x-limits` notation of spec/schemas/ → the nodes that carry it and the number each name stands for.

WHY a module of its own: a limit lives once, in spec/contract.json (spec/validation.md, "Limits"), and a schema
keyword that carries one names it in an `x-limits` annotation, `{"<keyword>": "<LIMIT>"}` or `"-<LIMIT>"` for its
negative. Two readers share the notation: the maintainers' generator that writes the numbers into the schemas
(scripts/seq_io_maint/schema_limits.py, never shipped) and the bump review, which checks a version's schemas
against its own contract.json.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

ANNOTATION = "x-limits"


class LimitError(Exception):
    """A schema names a limit contract.json does not have, or annotates a keyword it does not hold."""


def annotated(node: Any) -> Iterator[dict[str, Any]]:
    """Every schema node (at any depth) that carries an `x-limits` annotation."""
    if isinstance(node, dict):
        if ANNOTATION in node:
            yield node
        for value in node.values():
            yield from annotated(value)
    elif isinstance(node, list):
        for value in node:
            yield from annotated(value)


def limit_value(name: str, limits: dict[str, Any]) -> int | float:
    """The value `name` stands for: a limit of contract.json, negated when written `-NAME`."""
    negative, bare = name.startswith("-"), name.removeprefix("-")
    if bare not in limits:
        raise LimitError(f"x-limits names {bare!r}, which spec/contract.json does not define")
    value: int | float = limits[bare]
    return -value if negative else value

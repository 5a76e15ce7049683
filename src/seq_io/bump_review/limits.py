"""A version's contract.json and schemas → each place where a limit and the schema that should carry it
disagree: an `x-limits` annotation (`{"maxItems": "MAX_WINDOW"}`, `{"minimum": "-MAX_SAFE_INTEGER"}` for the
negative; the notation of `seq_io.reference.x_limits`) whose keyword's value is not the constant's, a
constant it names that contract.json lacks, and an integer whose bounds exceed ±MAX_SAFE_INTEGER.

WHY: a limit lives once, in contract.json, and a schema that enforces it says which one with `x-limits`; when
the two drift (MAX_WINDOW raised to 512, `maxItems` left at 256), readers of the schema and readers of the
constant disagree, and no classified change shows it, since each file on its own changed consistently.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

from seq_io.reference.spec_data import SpecData
from seq_io.reference.x_limits import LimitError, limit_value

SAFE = "MAX_SAFE_INTEGER"


_CONDITIONS = frozenset({"if", "then", "else", "not"})
"""Subschemas that narrow a value bounded elsewhere (a rule's condition), not where a value's range is stated."""


def _nodes(node: Any, pointer: str = "") -> Iterator[tuple[str, dict[str, Any]]]:
    stack: list[tuple[str, Any]] = [(pointer, node)]
    while stack:
        where, value = stack.pop()
        if isinstance(value, dict):
            yield where, value
            stack += [(f"{where}/{key}", item) for key, item in reversed(list(value.items())) if key not in _CONDITIONS]
        elif isinstance(value, list):
            stack += [(f"{where}/{index}", item) for index, item in reversed(list(enumerate(value)))]


def _is_integer(node: dict[str, Any]) -> bool:
    declared = node.get("type")
    return declared == "integer" or (isinstance(declared, list) and "integer" in declared)


def disagreements(spec: SpecData) -> list[str]:
    """A sentence for each disagreement between contract.json's limits and the schemas."""
    limits = spec.contract.get("limits")
    limits = limits if isinstance(limits, dict) else {}
    found: list[str] = []
    safe = limits.get(SAFE)
    for title, schema in sorted(spec.schemas.items()):
        for pointer, node in _nodes(schema):
            where = f"{title}.json#{pointer or '/'}"
            marked = node.get("x-limits")
            for keyword, name in marked.items() if isinstance(marked, dict) else []:
                try:
                    expected = limit_value(str(name), limits)
                except LimitError:
                    found.append(f"{where}: `x-limits` ties `{keyword}` to {name}, which contract.json does not define")
                    continue
                if node.get(keyword) != expected:
                    found.append(
                        f"{where}: `{keyword}` is {node.get(keyword)} but contract.json's {name} is {expected}"
                    )
            if _is_integer(node) and isinstance(safe, int) and isinstance(node.get("enum"), list):
                beyond = [v for v in node["enum"] if isinstance(v, int) and abs(v) > safe]
                if beyond:
                    found.append(f"{where}: integer values {beyond[:3]} beyond ±{SAFE} ({safe})")
            elif _is_integer(node) and isinstance(safe, int):
                high = min(
                    (node[k] for k in ("maximum", "exclusiveMaximum") if isinstance(node.get(k), int | float)),
                    default=math.inf,
                )
                low = max(
                    (node[k] for k in ("minimum", "exclusiveMinimum") if isinstance(node.get(k), int | float)),
                    default=-math.inf,
                )
                if high > safe or low < -safe:
                    found.append(
                        f"{where}: an integer bounded by [{_show(low)}, {_show(high)}], beyond ±{SAFE} ({safe})"
                    )
    return found


def _show(value: float) -> str:
    return "none" if math.isinf(value) else str(int(value) if float(value).is_integer() else value)

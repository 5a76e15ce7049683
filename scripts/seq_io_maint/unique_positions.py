"""spec/schemas/*.json → every position where a `uniqueItems` can sit, seen from every type that reaches it → a list
of `Position`s (the type validated, the route through the instance to the array, the schema file and pointer of the
array's subschema), each able to build an instance holding a given array at that place.

WHY: an explanation that follows a `$ref`, an `anyOf` or an `allOf` on the way to an array once fell back to
jsonschema's pairwise `uniqueItems` (10,000 distinct objects in `Observations.streams.a.at`: two minutes) while the
same array judged as a `Stream` took milliseconds. The tests (tests/test_hostile_unique.py) and the benchmark
(scripts/bench_hostile.py) take their cases from this walk, so a new `uniqueItems`, or a new way to reach one (a type
that embeds `Observations`), is covered without editing either.

The walk follows the schema, not an instance: `$ref` (to another file or within one, cycles cut), the keywords that
judge the same instance (`allOf`, `anyOf`, `oneOf`, `not`, `if`/`then`/`else`, `dependentSchemas`) and the ones that
step into a member or an item (`properties`, `additionalProperties`, `patternProperties`, `items`, `prefixItems`,
`contains`). A member reached through `additionalProperties` is named `a`; through `patternProperties`, the first of a
few plain names the pattern accepts.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from seq_io import locate
from seq_io.reference.issues import format_path

SCHEMAS = (locate.checkout_root() or locate.data_root()) / "spec" / "schemas"

Step = str | int
"""A member name or an item index on the way from the instance's root to the array."""

_MEMBER_NAMES = ("a", "k", "x0", "key")
"""Names tried, in order, for a member reached through `additionalProperties` or `patternProperties`."""


@dataclass(frozen=True)
class Position:
    """One array under `uniqueItems: true`, as validating `type_name` reaches it."""

    type_name: str
    route: tuple[Step, ...]
    schema_file: str
    pointer: str
    array_schema: dict[str, Any]

    @property
    def path(self) -> str:
        """The JSON path of the array in the instance `instance` builds (as issues report it)."""
        return format_path(list(self.route))

    @property
    def label(self) -> str:
        return f"{self.type_name} {self.path}"

    @property
    def max_items(self) -> int | None:
        limit = self.array_schema.get("maxItems")
        return limit if isinstance(limit, int) else None

    def instance(self, array: list[Any]) -> Any:
        """The smallest instance of `type_name` holding `array` at `route` (other required members absent)."""
        value: Any = array
        for step in reversed(self.route):
            value = [*([None] * step), value] if isinstance(step, int) else {step: value}
        return value


def load(schemas_dir: Path = SCHEMAS) -> dict[str, dict[str, Any]]:
    """File name → schema, for every schema of a spec's schemas folder."""
    return {path.name: json.loads(path.read_text(encoding="utf-8")) for path in sorted(schemas_dir.glob("*.json"))}


def positions(schemas_dir: Path = SCHEMAS) -> list[Position]:
    """Every (type, route) at which an array under `uniqueItems: true` is judged, in a stable order."""
    schemas = load(schemas_dir)
    found: dict[tuple[str, tuple[Step, ...], str, str], Position] = {}
    for file_name, schema in schemas.items():
        type_name = str(schema.get("title", file_name.removesuffix(".json")))
        walker = _Walker(schemas, type_name)
        for position in walker.walk(schema, file_name, "", (), frozenset({(file_name, "")})):
            found.setdefault((type_name, position.route, position.schema_file, position.pointer), position)
    return sorted(found.values(), key=lambda p: (p.type_name, p.path, p.schema_file, p.pointer))


_SAME_INSTANCE_LISTS = ("allOf", "anyOf", "oneOf")
_SAME_INSTANCE_ONE = ("not", "if", "then", "else")


class _Walker:
    def __init__(self, schemas: dict[str, dict[str, Any]], type_name: str) -> None:
        self.schemas = schemas
        self.type_name = type_name

    def walk(
        self, node: Any, file_name: str, pointer: str, route: tuple[Step, ...], seen: frozenset[tuple[str, str]]
    ) -> Iterator[Position]:
        if not isinstance(node, dict):
            return
        if isinstance(node.get("$ref"), str):
            yield from self._reference(node["$ref"], file_name, route, seen)
        if node.get("uniqueItems") is True:
            yield Position(self.type_name, route, file_name, pointer, node)
        for keyword in _SAME_INSTANCE_LISTS:
            for index, branch in enumerate(node.get(keyword, ())):
                yield from self.walk(branch, file_name, f"{pointer}/{keyword}/{index}", route, seen)
        for keyword in _SAME_INSTANCE_ONE:
            yield from self.walk(node.get(keyword), file_name, f"{pointer}/{keyword}", route, seen)
        for name, branch in _members(node.get("dependentSchemas")):
            yield from self.walk(branch, file_name, f"{pointer}/dependentSchemas/{_escape(name)}", route, seen)
        for name, member in _members(node.get("properties")):
            yield from self.walk(member, file_name, f"{pointer}/properties/{_escape(name)}", (*route, name), seen)
        extra = node.get("additionalProperties")
        yield from self.walk(extra, file_name, f"{pointer}/additionalProperties", (*route, _MEMBER_NAMES[0]), seen)
        for pattern, member in _members(node.get("patternProperties")):
            where = f"{pointer}/patternProperties/{_escape(pattern)}"
            yield from self.walk(member, file_name, where, (*route, _name_matching(pattern, where)), seen)
        yield from self.walk(node.get("items"), file_name, f"{pointer}/items", (*route, 0), seen)
        yield from self.walk(node.get("contains"), file_name, f"{pointer}/contains", (*route, 0), seen)
        for index, item in enumerate(node.get("prefixItems", ())):
            yield from self.walk(item, file_name, f"{pointer}/prefixItems/{index}", (*route, index), seen)

    def _reference(
        self, ref: str, file_name: str, route: tuple[Step, ...], seen: frozenset[tuple[str, str]]
    ) -> Iterator[Position]:
        target_file, _, fragment = ref.partition("#")
        target_file = target_file.rsplit("/", 1)[-1] or file_name
        if target_file not in self.schemas:
            raise ValueError(f"{file_name}: $ref {ref!r} names no schema of the folder")
        if (target_file, fragment) in seen:
            return
        target: Any = self.schemas[target_file]
        for part in [part for part in fragment.split("/") if part]:
            part = part.replace("~1", "/").replace("~0", "~")
            target = target[int(part)] if isinstance(target, list) else target[part]
        yield from self.walk(target, target_file, fragment, route, seen | {(target_file, fragment)})


def _members(value: Any) -> list[tuple[str, Any]]:
    return list(value.items()) if isinstance(value, dict) else []


def _name_matching(pattern: str, where: str) -> str:
    for name in _MEMBER_NAMES:
        if re.search(pattern, name):
            return name
    raise ValueError(f"{where}: none of the member names {_MEMBER_NAMES} matches the pattern; add one that does")


def _escape(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")


def main() -> int:
    for position in positions():
        print(f"{position.label:<60} {position.schema_file}#{position.pointer}  maxItems={position.max_items}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

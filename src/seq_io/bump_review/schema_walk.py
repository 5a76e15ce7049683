"""A version's schemas + a location inside a type → what can stand there; and a refusal's JSON path → its
location.

The classifier needs three questions answered on either version: which properties a closed object at a
location may carry (so a rule that needs a property the other version's data can never carry is known not to
fire on it), where a type contains other types (so a change to Camera is traced into every type that holds a
Camera), and whether a refusal reported at a JSON path falls on the location of a change (so the data backstop
can say which change explains it). All three follow `$ref`s with the same resolver as the reference validator.
"""

from __future__ import annotations

import json
import re
from typing import Any

from seq_io.bump_review.rules import Location
from seq_io.reference.spec_data import SpecData
from seq_io.reference.typed_walk import SchemaSet

JsonPathParts = tuple[str | int, ...]
_MAX_DEPTH = 64


class Schemas:
    """One version's schemas with `$ref` resolution, by type title."""

    def __init__(self, spec: SpecData) -> None:
        self.spec = spec
        self.set = SchemaSet(list(spec.schemas.values()))

    def root(self, title: str) -> tuple[str, dict[str, Any]]:
        schema = self.spec.schemas[title]
        return str(schema["$id"]), schema

    def ref_title(self, base: str, ref: str) -> tuple[str, Any, str | None]:
        """Resolve a `$ref`: (its URI, the target node, the type title when the target is a whole file)."""
        uri, target = self.set.resolve(base, ref)
        whole = isinstance(target, dict) and target.get("$id") == uri and "title" in target
        return uri, target, str(target["title"]) if whole else None


def _applicable(schemas: Schemas, base: str, node: Any, depth: int = 0) -> list[tuple[str, dict[str, Any]]] | None:
    """The schema objects applying at a node (via `$ref`, `allOf`, a nullable `anyOf`); None: unknowable."""
    if not isinstance(node, dict):
        return []
    if depth > _MAX_DEPTH:
        return None
    found: list[tuple[str, dict[str, Any]]] = [(base, node)]
    nested: list[tuple[str, Any]] = [(base, entry) for entry in node.get("allOf", [])]
    if "$ref" in node:
        uri, target, _ = schemas.ref_title(base, node["$ref"])
        nested.append((uri, target))
    if "anyOf" in node:
        branches = [branch for branch in node["anyOf"] if branch != {"type": "null"}]
        if len(branches) != 1:
            return None
        nested.append((base, branches[0]))
    for nested_base, entry in nested:
        more = _applicable(schemas, nested_base, entry, depth + 1)
        if more is None:
            return None
        found += more
    return found


def _step(schemas: Schemas, nodes: list[tuple[str, Any]], part: str) -> list[tuple[str, Any]] | None:
    """The schemas one location step further; [] when no instance can stand there, None when anything may."""
    children: list[tuple[str, Any]] = []
    for base, node in nodes:
        applicable = _applicable(schemas, base, node)
        if applicable is None:
            return None
        for schema_base, schema in applicable:
            extra = schema.get("additionalProperties")
            if part == "*":
                if extra is False:
                    return []
                if isinstance(extra, dict):
                    children.append((schema_base, extra))
            elif part.startswith("["):
                index = part[1:-1]
                prefix = schema.get("prefixItems", [])
                if index.isdigit() and int(index) < len(prefix):
                    children.append((schema_base, prefix[int(index)]))
                elif isinstance(schema.get("items"), dict):
                    children.append((schema_base, schema["items"]))
            elif part in schema.get("properties", {}):
                children.append((schema_base, schema["properties"][part]))
            elif extra is False:
                return []
            elif isinstance(extra, dict):
                children.append((schema_base, extra))
    return children or None


def closed_properties(spec: SpecData, type_name: str, location: Location) -> frozenset[str] | None:
    """The properties an instance at `location` of `type_name` may carry, when a closed object fixes them.

    An empty set also means that nothing can stand there at all (or that this version has no such type). None:
    unknown (open content or a union)."""
    if type_name not in spec.schemas:
        return frozenset()
    schemas = Schemas(spec)
    nodes: list[tuple[str, Any]] = [schemas.root(type_name)]
    for part in location:
        step = None if part == "{key}" else _step(schemas, nodes, part)
        if part == "{key}" or step == []:
            return frozenset()
        if step is None:
            return None
        nodes = step
    closed: list[frozenset[str]] = []
    for base, node in nodes:
        applicable = _applicable(schemas, base, node)
        if applicable is None:
            return None
        closed += [frozenset(s.get("properties", {})) for _, s in applicable if s.get("additionalProperties") is False]
    return frozenset.intersection(*closed) if closed else None


def nodes_at(spec: SpecData, type_name: str, location: Location) -> list[tuple[str, Any]] | None:
    """Every schema (with its base URI) that applies to the value at `location` of `type_name`; None when that
    cannot be told (a union, open content) or nothing can stand there."""
    if type_name not in spec.schemas:
        return None
    schemas = Schemas(spec)
    nodes: list[tuple[str, Any]] = [schemas.root(type_name)]
    for part in location:
        if part == "{key}":
            names: list[tuple[str, Any]] = []
            for base, node in nodes:
                applicable = _applicable(schemas, base, node)
                if applicable is None:
                    return None
                names += [(b, s["propertyNames"]) for b, s in applicable if isinstance(s.get("propertyNames"), dict)]
            nodes = names
            continue
        step = _step(schemas, nodes, part)
        if not step:
            return None
        nodes = step
    return nodes or None


def _references(
    schemas: Schemas,
    base: str,
    node: Any,
    location: Location,
    out: list[tuple[Location, str]],
    depth: int = 0,
) -> None:
    if not isinstance(node, dict) or depth > _MAX_DEPTH:
        return
    if "$ref" in node:
        uri, target, title = schemas.ref_title(base, node["$ref"])
        if title is not None:
            out.append((location, title))
        else:
            _references(schemas, uri, target, location, out, depth + 1)
    for keyword in ("allOf", "anyOf", "oneOf"):
        for branch in node.get(keyword, []):
            _references(schemas, base, branch, location, out, depth + 1)
    for keyword in ("not", "if", "then", "else"):
        _references(schemas, base, node.get(keyword), location, out, depth + 1)
    for name, sub in node.get("properties", {}).items():
        _references(schemas, base, sub, (*location, name), out, depth + 1)
    steps = {"additionalProperties": "*", "items": "[]", "propertyNames": "{key}"}
    for keyword, part in steps.items():
        _references(schemas, base, node.get(keyword), (*location, part), out, depth + 1)
    for index, sub in enumerate(node.get("prefixItems", [])):
        _references(schemas, base, sub, (*location, f"[{index}]"), out, depth + 1)


def occurrences(spec: SpecData, type_name: str) -> list[tuple[Location, str]]:
    """Every (location, type) of a type contained in `type_name`, directly or through other types."""
    schemas = Schemas(spec)
    found: list[tuple[Location, str]] = []

    def visit(title: str, prefix: Location, seen: frozenset[str]) -> None:
        direct: list[tuple[Location, str]] = []
        base, root = schemas.root(title)
        _references(schemas, base, root, (), direct)
        for location, inner in direct:
            found.append(((*prefix, *location), inner))
            if inner not in seen and inner in spec.schemas:
                visit(inner, (*prefix, *location), seen | {inner})

    visit(type_name, (), frozenset({type_name}))
    return found


_PATH_TOKEN = re.compile(r'\.([^.\[]+)|\[(\d+)\]|\["((?:[^"\\]|\\.)*)"\]')


def parse_path(path: str) -> JsonPathParts:
    """A refusal's JSONPath (`$.streams["a b"].at[0]`, as seq_io.reference.issues writes it) → its parts."""
    parts: list[str | int] = []
    position = 1
    while position < len(path):
        token = _PATH_TOKEN.match(path, position)
        if token is None:
            break
        name, index, quoted = token.groups()
        parts.append(int(index) if index is not None else name if name is not None else json.loads(f'"{quoted}"'))
        position = token.end()
    return tuple(parts)


def _part_matches(location_part: str, path_part: str | int) -> bool:
    if isinstance(path_part, int):
        return location_part == "[]" or location_part == f"[{path_part}]"
    return location_part == "*" or location_part == path_part


def on_same_branch(location: Location, path: JsonPathParts) -> bool:
    """True when the refusal at `path` lies on the change's location, above it (an object-level keyword such
    as `additionalProperties` or `required`) or below it (a refusal inside the changed subtree)."""
    if "{key}" in location:
        location = location[: location.index("{key}")]
    return all(_part_matches(a, b) for a, b in zip(location, path, strict=False))

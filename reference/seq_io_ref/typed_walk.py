"""A schema-valid instance + its type's schema → every (type name, path, node) inside it, deepest first.

Rules beyond the schema and normalizations are written per type ("every ActionContract", "every Stream"), but
those types sit at many depths (a Stream inside Observations inside DeploymentPolicy or ConnectResponse). Walking
the instance alongside its schema, following `$ref`s into other files, finds them all from the schemas
themselves, so adding a type or a field never means teaching this module where things nest.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from referencing import Registry
from referencing._core import Resolver


@dataclass(frozen=True)
class TypedNode:
    type_name: str
    path: tuple[str | int, ...]
    node: Any


def walk(type_name: str, instance: Any, registry: Registry[Any], base_uri: str) -> Iterator[TypedNode]:
    """Yield the typed nodes of `instance` (which must already be valid), children before their parents."""
    resolver = registry.resolver(base_uri=base_uri)
    root = resolver.lookup(base_uri)
    yield from _walk_schema(root.contents, root.resolver, instance, ())
    yield TypedNode(type_name, (), instance)


def _walk_schema(schema: Any, resolver: Resolver[Any], instance: Any,
                 path: tuple[str | int, ...]) -> Iterator[TypedNode]:
    if not isinstance(schema, dict) or instance is None:
        return
    if "$ref" in schema:
        resolved = resolver.lookup(schema["$ref"])
        yield from _walk_schema(resolved.contents, resolved.resolver, instance, path)
        title = resolved.contents.get("title")
        if title and "$id" in resolved.contents:
            yield TypedNode(title, path, instance)
    for keyword in ("anyOf", "allOf"):
        for branch in schema.get(keyword, []):
            yield from _walk_schema(branch, resolver, instance, path)
    if isinstance(instance, dict):
        properties = schema.get("properties", {})
        extra = schema.get("additionalProperties")
        for key, value in instance.items():
            child = properties.get(key, extra if key not in properties else None)
            yield from _walk_schema(child, resolver, value, (*path, key))
    elif isinstance(instance, list) and "items" in schema:
        for index, value in enumerate(instance):
            yield from _walk_schema(schema["items"], resolver, value, (*path, index))

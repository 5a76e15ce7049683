"""A schema-valid instance + its type's schema → every (type name, path, node) inside it, deepest first.

Rules beyond the schema and normalizations are written per type ("every ActionContract", "every Stream"), but
those types sit at many depths (a Stream inside Observations inside DeploymentPolicy or ConnectResponse). Walking
the instance alongside its schema, following `$ref`s into other files, finds them all from the schemas
themselves, so adding a type or a field never means teaching this module where things nest. References are
resolved once per (base, ref) pair: the walk runs on every validation, on every element of large arrays.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Any
from urllib.parse import urljoin


@dataclass(frozen=True)
class TypedNode:
    type_name: str
    path: tuple[str | int, ...]
    node: Any


class SchemaSet:
    """Schemas by `$id`, with cached resolution of relative `$ref`s."""

    def __init__(self, schemas: list[dict[str, Any]]) -> None:
        self.by_uri = {schema["$id"]: schema for schema in schemas}
        self.resolve = lru_cache(maxsize=None)(self._resolve)

    def _resolve(self, base_uri: str, ref: str) -> tuple[str, Any]:
        uri, _, fragment = urljoin(base_uri, ref).partition("#")
        node: Any = self.by_uri[uri]
        for step in filter(None, fragment.split("/")):
            node = node[step]
        return uri, node


def walk(type_name: str, instance: Any, schemas: SchemaSet, base_uri: str) -> Iterator[TypedNode]:
    """Yield the typed nodes of `instance` (which must already be valid), children before their parents."""
    yield from _walk_schema(schemas.by_uri[base_uri], base_uri, schemas, instance, ())
    yield TypedNode(type_name, (), instance)


def _walk_schema(schema: Any, base: str, schemas: SchemaSet, instance: Any,
                 path: tuple[str | int, ...]) -> Iterator[TypedNode]:
    if not isinstance(schema, dict) or not schema or instance is None:
        return
    if "$ref" in schema:
        target_base, target = schemas.resolve(base, schema["$ref"])
        yield from _walk_schema(target, target_base, schemas, instance, path)
        if "title" in target and "$id" in target:
            yield TypedNode(target["title"], path, instance)
    for keyword in ("anyOf", "allOf"):
        for branch in schema.get(keyword, ()):
            yield from _walk_schema(branch, base, schemas, instance, path)
    if isinstance(instance, dict):
        properties = schema.get("properties", {})
        extra = schema.get("additionalProperties")
        for key, value in instance.items():
            child = properties.get(key, extra)
            yield from _walk_schema(child, base, schemas, value, (*path, key))
    elif isinstance(instance, list) and "items" in schema:
        for index, value in enumerate(instance):
            yield from _walk_schema(schema["items"], base, schemas, value, (*path, index))

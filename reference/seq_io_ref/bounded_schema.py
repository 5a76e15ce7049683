"""A type's schema + an instance → the jsonschema (pure-Python, validator of record) errors that explain why it is
invalid, with work bounded on hostile instances: linear in the instance, never quadratic, and never examining the
contents of a container the schema already refuses for its size.

Two things make stock jsonschema unbounded on inputs the schema refuses anyway:

- `uniqueItems` on unhashable items (objects, arrays) falls back to comparing every pair: 10,000 distinct objects
  in a `Stream.at` (whose `maxItems` is 256) take minutes. Here each item gets a hashable canonical form (JSON
  equality: 1 = 1.0, true ≠ 1, objects unordered), built iteratively, and the forms go into a set.
- A container over its `maxItems`/`maxProperties` (100,000 stream keys where 64 are allowed), or a string over its
  `maxLength`, is still walked item by item by every keyword that looks inside it. Here a first pass (`oversized`)
  follows the schema (not the instance) to every such container and string that a size keyword certainly applies
  to, and the keywords that look inside them (`items`, `properties`, `additionalProperties`, `propertyNames`,
  `uniqueItems`, `pattern`, ...) skip them; the size keyword itself still reports the refusal
  (spec/validation.md, "Limits": an oversized container's contents are not examined).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Iterator
from contextvars import ContextVar
from typing import Any

from jsonschema import Draft202012Validator, validators
from jsonschema.exceptions import ValidationError
from referencing import Registry

from seq_io_ref.issues import quote

_OVERSIZED: ContextVar[frozenset[int]] = ContextVar("oversized", default=frozenset())
"""ids of the instance nodes whose contents the current explanation does not examine."""

_LOOKING_INSIDE = ("items", "prefixItems", "contains", "uniqueItems", "properties", "additionalProperties",
                   "patternProperties", "propertyNames", "unevaluatedItems", "unevaluatedProperties",
                   "dependentSchemas", "pattern")
_SIZE_KEYWORDS = {"array": "maxItems", "object": "maxProperties", "string": "maxLength"}

Keyword = Callable[..., Iterable[ValidationError] | None]


def canonical(value: Any) -> Hashable:
    """A hashable form of a JSON value such that two values have equal forms exactly when they are equal as JSON
    values (numbers by value, booleans apart from numbers, arrays in order, objects as sets of members).
    Iterative: the depth of the value does not matter."""
    work: list[tuple[Any, bool]] = [(value, False)]
    done: list[Hashable] = []
    while work:
        item, children_done = work.pop()
        if isinstance(item, bool):
            done.append(("b", item))
        elif isinstance(item, int | float):
            done.append(("n", item))
        elif isinstance(item, str):
            done.append(("s", item))
        elif item is None:
            done.append(("z",))
        elif children_done:
            parts = done[len(done) - len(item):]
            del done[len(done) - len(item):]
            done.append(("a", tuple(parts)) if isinstance(item, list) else ("o", frozenset(zip(item, parts,
                                                                                             strict=True))))
        else:
            work.append((item, True))
            children = item if isinstance(item, list) else list(item.values())
            work.extend((child, False) for child in reversed(children))
    return done[0]


def _all_distinct(items: list[Any]) -> bool:
    seen: set[Hashable] = set()
    for item in items:
        form = canonical(item)
        if form in seen:
            return False
        seen.add(form)
    return True


def _unique_items(validator: Any, unique: bool, instance: Any, schema: Any) -> Iterator[ValidationError]:
    if unique and validator.is_type(instance, "array") and not _all_distinct(instance):
        yield ValidationError(f"{quote(instance)} has non-unique elements")


def _skipping_oversized(check: Keyword) -> Keyword:
    def keyword(validator: Any, value: Any, instance: Any, schema: Any) -> Iterable[ValidationError] | None:
        if id(instance) in _OVERSIZED.get():
            return ()
        return check(validator, value, instance, schema)

    return keyword


def bounded_validator_class() -> Any:
    """Draft 2020-12 with a linear `uniqueItems` and the looking-inside keywords skipping oversized nodes."""
    stock = Draft202012Validator.VALIDATORS
    changed: dict[str, Keyword] = {name: _skipping_oversized(stock[name]) for name in _LOOKING_INSIDE}
    changed["uniqueItems"] = _skipping_oversized(_unique_items)
    return validators.extend(Draft202012Validator, changed)


def _json_type(value: Any) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return "null"


class _SizeWalk:
    """Finds the oversized nodes of one instance by following its schema."""

    def __init__(self, registry: Registry[Any]) -> None:
        self.registry = registry
        self.found: set[int] = set()

    def visit(self, schema: Any, base: str, instance: Any) -> None:
        if not isinstance(schema, dict):
            return
        if "$ref" in schema:
            resolved = self.registry.resolver(base_uri=base).lookup(schema["$ref"])
            target_base = resolved.contents.get("$id", base) if isinstance(resolved.contents, dict) else base
            self.visit(resolved.contents, target_base, instance)
        kind = _json_type(instance)
        limit = schema.get(_SIZE_KEYWORDS.get(kind, ""))
        if isinstance(limit, int) and len(instance) > limit:
            self.found.add(id(instance))
            return
        for branch in schema.get("allOf", ()):
            self.visit(branch, base, instance)
        admitting = [branch for branch in schema.get("anyOf", ()) if self._admits(branch, base, instance)]
        if len(admitting) == 1:
            self.visit(admitting[0], base, instance)
        if kind == "object":
            properties = schema.get("properties", {})
            extra = schema.get("additionalProperties")
            for key, member in instance.items():
                self.visit(properties.get(key, extra), base, member)
                if "propertyNames" in schema:
                    self.visit(schema["propertyNames"], base, key)
        elif kind == "array" and "items" in schema:
            for item in instance:
                self.visit(schema["items"], base, item)

    def _admits(self, branch: Any, base: str, instance: Any) -> bool:
        if isinstance(branch, dict) and "$ref" in branch and "type" not in branch:
            branch = self.registry.resolver(base_uri=base).lookup(branch["$ref"]).contents
        if not isinstance(branch, dict) or "type" not in branch:
            return True
        kind = _json_type(instance)
        admitted = branch["type"] if isinstance(branch["type"], list) else [branch["type"]]
        whole = isinstance(instance, int) or (isinstance(instance, float) and instance.is_integer())
        return kind in admitted or (kind == "number" and "integer" in admitted and whole)


def oversized(root: dict[str, Any], registry: Registry[Any], instance: Any) -> frozenset[int]:
    walk = _SizeWalk(registry)
    walk.visit(root, root["$id"], instance)
    return frozenset(walk.found)


def explain(validator: Any, root: dict[str, Any], registry: Registry[Any], instance: Any) -> list[ValidationError]:
    """Every error of `instance`, skipping inside its oversized nodes."""
    token = _OVERSIZED.set(oversized(root, registry, instance))
    try:
        return list(validator.iter_errors(instance))
    finally:
        _OVERSIZED.reset(token)

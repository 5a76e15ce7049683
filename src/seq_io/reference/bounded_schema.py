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
- Both only hold while the walk stays in this class. jsonschema's `evolve` (every `descend`) switches to the class
  of a subschema's `$schema`, which every schema file's root declares: a `$ref` to another type (Observations →
  Stream) went back to the stock class and its pairwise `uniqueItems`. `_keeping_class` keeps the class there.

Skipping only ever removes errors, and the instance stays refused by its size. The keywords whose verdict an error
removed below them would turn around (`not`, the condition of `if`, `oneOf`) are skipped as a whole at an oversized
node, and evaluate their subschemas with nothing skipped everywhere else, so no error is ever reported that the
stock validator would not report.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Iterator
from contextvars import ContextVar
from functools import cache
from itertools import islice
from typing import Any
from urllib.parse import urljoin

from jsonschema import Draft202012Validator, validators
from jsonschema.exceptions import ValidationError
from referencing import Registry

from seq_io.reference.issues import quote

_OVERSIZED: ContextVar[frozenset[int]] = ContextVar("oversized", default=frozenset())
"""ids of the instance nodes whose contents the current explanation does not examine."""
_FOCUS: ContextVar[dict[int, frozenset[str | int]]] = ContextVar("focus", default={})  # noqa: B039 (never mutated)
"""id of a large array or object → the indices or keys of its items that hold an error; the others are valid."""

_LOOKING_INSIDE = (
    "items",
    "prefixItems",
    "contains",
    "uniqueItems",
    "properties",
    "additionalProperties",
    "patternProperties",
    "propertyNames",
    "unevaluatedItems",
    "unevaluatedProperties",
    "dependentSchemas",
    "pattern",
    "not",
    "if",
    "oneOf",
)
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
            parts = done[len(done) - len(item) :]
            del done[len(done) - len(item) :]
            done.append(
                ("a", tuple(parts)) if isinstance(item, list) else ("o", frozenset(zip(item, parts, strict=True)))
            )
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


def _type(validator: Any, types: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
    kinds = types if isinstance(types, list) else [types]
    if not any(validator.is_type(instance, kind) for kind in kinds):
        yield ValidationError(f"{quote(instance)} is not of type {', '.join(repr(kind) for kind in kinds)}")


def _any_of(validator: Any, branches: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
    found: list[ValidationError] = []
    for index, branch in enumerate(branches):
        errors = list(validator.descend(instance, branch, schema_path=index))
        if not errors:
            return
        found.extend(errors)
    yield ValidationError(f"{quote(instance)} is not valid under any of the given schemas", context=found)


def _size(kind: str, most: bool, empty: str, other: str) -> Keyword:
    """`maxItems`, `minLength`, ...: jsonschema's check and words, the instance quoted short."""

    def keyword(validator: Any, limit: int, instance: Any, schema: Any) -> Iterator[ValidationError]:
        if validator.is_type(instance, kind) and (len(instance) > limit if most else len(instance) < limit):
            words = empty if limit == (0 if most else 1) else other
            yield ValidationError(f"{quote(instance)} {words}")

    return keyword


_QUOTING: dict[str, Keyword] = {
    "type": _type,
    "anyOf": _any_of,
    "maxItems": _size("array", True, "is expected to be empty", "is too long"),
    "minItems": _size("array", False, "should be non-empty", "is too short"),
    "maxProperties": _size("object", True, "is expected to be empty", "has too many properties"),
    "minProperties": _size("object", False, "should be non-empty", "does not have enough properties"),
    "maxLength": _size("string", True, "is expected to be empty", "is too long"),
    "minLength": _size("string", False, "should be non-empty", "is too short"),
}
"""The keywords that judge a whole container, as jsonschema words them but with the instance quoted short
(issues.quote): jsonschema's own message holds the instance's full `repr`, built on every failed branch of every
`anyOf` around an array of 10,000 objects and then never shown (schema_errors words each keyword itself)."""


def _not(validator: Any, not_schema: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
    """`not`, its subschema judged with nothing skipped (an error skipped inside would turn the verdict)."""
    token = _OVERSIZED.set(frozenset())
    try:
        errors = list(Draft202012Validator.VALIDATORS["not"](validator, not_schema, instance, schema) or ())
    finally:
        _OVERSIZED.reset(token)
    yield from errors


def _if(validator: Any, if_schema: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
    """`if`/`then`/`else`, the condition judged with nothing skipped; the chosen branch as usual."""
    token = _OVERSIZED.set(frozenset())
    try:
        holds = validator.evolve(schema=if_schema).is_valid(instance)
    finally:
        _OVERSIZED.reset(token)
    branch = "then" if holds else "else"
    if branch in schema:
        yield from validator.descend(instance, schema[branch], schema_path=branch)


def _focused(check: Keyword, kind: str) -> Keyword:
    """`items` / `additionalProperties` looking only at the focused items of a large array or object."""

    def keyword(validator: Any, value: Any, instance: Any, schema: Any) -> Iterable[ValidationError] | None:
        wanted = _FOCUS.get().get(id(instance))
        if wanted is None or not validator.is_type(instance, kind) or not isinstance(value, dict):
            return check(validator, value, instance, schema)
        return _focused_errors(validator, value, instance, schema, wanted, kind)

    return keyword


def _focused_errors(
    validator: Any, value: Any, instance: Any, schema: Any, wanted: frozenset[str | int], kind: str
) -> Iterator[ValidationError]:
    if kind == "array":
        start = len(schema.get("prefixItems", []))
        for index in sorted(index for index in wanted if isinstance(index, int) and index >= start):
            yield from validator.descend(instance[index], value, path=index)
        return
    known = schema.get("properties", {})
    for key in instance:
        if key in wanted and key not in known:
            yield from validator.descend(instance[key], value, path=key)


def _skipping_oversized(check: Keyword) -> Keyword:
    def keyword(validator: Any, value: Any, instance: Any, schema: Any) -> Iterable[ValidationError] | None:
        if id(instance) in _OVERSIZED.get():
            return ()
        return check(validator, value, instance, schema)

    return keyword


@cache
def bounded_validator_class() -> Any:
    """Draft 2020-12 with a linear `uniqueItems`, the looking-inside keywords skipping oversized nodes and the
    whole-container keywords quoting the instance short (`_QUOTING`), kept across every `$ref`, `anyOf`, `allOf`,
    `oneOf`, `not` and `if` (see `_keeping_class`). Built once: a class made per Contract would be a new class each
    time for the same keywords."""
    stock = Draft202012Validator.VALIDATORS
    changed: dict[str, Keyword] = {name: _skipping_oversized(stock[name]) for name in _LOOKING_INSIDE}
    changed.update(_QUOTING)
    changed["items"] = _skipping_oversized(_focused(stock["items"], "array"))
    changed["additionalProperties"] = _skipping_oversized(_focused(stock["additionalProperties"], "object"))
    changed["uniqueItems"] = _skipping_oversized(_unique_items)
    changed["not"] = _skipping_oversized(_not)
    changed["if"] = _skipping_oversized(_if)
    return _keeping_class(validators.extend(Draft202012Validator, changed))


def linear_unique_validator_class() -> Any:
    """Draft 2020-12 as stock but for a linear `uniqueItems` and messages that quote the instance short, kept
    across `$ref`: for the documents that are not a type of the contract (the testee protocol's messages), where
    nothing is skipped but no keyword may be quadratic either. The bounded class is that when no explanation is
    running (nothing is marked oversized, nothing focused)."""
    return bounded_validator_class()


def _keeping_class(cls: Any) -> Any:
    """`cls` whose `evolve` (which every `descend`, so every `$ref`, `anyOf`, `items`, ..., goes through) returns
    `cls` again.

    WHY: jsonschema's own `evolve` picks the class of the subschema's `$schema` (`validator_for`), and every schema
    of spec/schemas declares `$schema` at its root: following a `$ref` to one (Observations → Stream) handed the rest
    of the walk to the stock Draft202012Validator, with its pairwise `uniqueItems` and no oversized skipping. Every
    schema of the contract is 2020-12 (spec_data checks them with Draft202012Validator.check_schema), so keeping the
    class changes no verdict."""
    fields = [(field.name, field.alias) for field in cls.__attrs_attrs__ if field.init]

    def evolve(self: Any, **changes: Any) -> Any:
        changes.setdefault("schema", self.schema)
        for name, alias in fields:
            if alias not in changes:
                changes[alias] = getattr(self, name)
        return cls(**changes)

    cls.evolve = evolve
    return cls


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


Resolve = Callable[[str, str], tuple[str, str, Any]]
SubschemaCheck = Callable[[str, str], Callable[[Any], bool]]
"""(base URI, JSON pointer of a subschema in it) → a fast validity check of an instance against that subschema."""

FOCUS_FROM = 64
"""Arrays and objects with more items than this are examined item by item only where a fast check finds an error."""


class _Walk:
    """Follows the schema through one instance: finds its oversized nodes and, given fast checks, which items of its
    large arrays and objects hold an error (the others need no explanation)."""

    def __init__(self, resolve: Resolve, check: SubschemaCheck | None, wanted: int) -> None:
        self.resolve = resolve
        self.check = check
        self.wanted = wanted
        self.oversized: set[int] = set()
        self.focus: dict[int, frozenset[str | int]] = {}

    def visit(self, schema: Any, base: str, pointer: str, instance: Any) -> None:
        if not isinstance(schema, dict):
            return
        if "$ref" in schema:
            uri, fragment, target = self.resolve(base, schema["$ref"])
            self.visit(target, uri, fragment, instance)
        kind = _json_type(instance)
        limit = schema.get(_SIZE_KEYWORDS.get(kind, ""))
        if isinstance(limit, int) and len(instance) > limit:
            self.oversized.add(id(instance))
            return
        for index, branch in enumerate(schema.get("allOf", ())):
            self.visit(branch, base, f"{pointer}/allOf/{index}", instance)
        admitting = [
            index for index, branch in enumerate(schema.get("anyOf", ())) if self._admits(branch, base, instance)
        ]
        if len(admitting) == 1:
            self.visit(schema["anyOf"][admitting[0]], base, f"{pointer}/anyOf/{admitting[0]}", instance)
        if kind == "object":
            self._members(schema, base, pointer, instance)
        elif kind == "array" and isinstance(schema.get("items"), dict):
            indices: Iterable[int] = range(len(instance))
            if len(instance) > FOCUS_FROM and self.check is not None:
                indices = self._failing(f"{pointer}/items", base, ((index, instance[index]) for index in indices))
                self.focus[id(instance)] = frozenset(indices)
            for index in indices:
                self.visit(schema["items"], base, f"{pointer}/items", instance[index])

    def _members(self, schema: dict[str, Any], base: str, pointer: str, instance: dict[str, Any]) -> None:
        properties = schema.get("properties", {})
        extra = schema.get("additionalProperties")
        if not properties and not isinstance(extra, dict) and "propertyNames" not in schema:
            return  # nothing here looks at a member: an object item of a string array is not walked key by key
        others = [key for key in instance if key not in properties]
        if (
            len(others) > FOCUS_FROM
            and self.check is not None
            and isinstance(extra, dict)
            and "patternProperties" not in schema
        ):
            others = self._failing(f"{pointer}/additionalProperties", base, ((key, instance[key]) for key in others))
            self.focus[id(instance)] = frozenset([*others, *(key for key in instance if key in properties)])
        for key in instance:
            if "propertyNames" in schema:
                self.visit(schema["propertyNames"], base, f"{pointer}/propertyNames", key)
        for key in [key for key in instance if key in properties]:
            self.visit(properties[key], base, f"{pointer}/properties/{_escape(key)}", instance[key])
        for key in others:
            self.visit(extra, base, f"{pointer}/additionalProperties", instance[key])

    def _failing(self, pointer: str, base: str, members: Iterable[tuple[Any, Any]]) -> list[Any]:
        """The keys or indices whose value the subschema refuses, up to as many as will be reported."""
        assert self.check is not None
        valid = self.check(base, pointer)
        return list(islice((key for key, value in members if not valid(value)), self.wanted))

    def _admits(self, branch: Any, base: str, instance: Any) -> bool:
        if isinstance(branch, dict) and "$ref" in branch and "type" not in branch:
            branch = self.resolve(base, branch["$ref"])[2]
        if not isinstance(branch, dict) or "type" not in branch:
            return True
        kind = _json_type(instance)
        admitted = branch["type"] if isinstance(branch["type"], list) else [branch["type"]]
        whole = isinstance(instance, int) or (isinstance(instance, float) and instance.is_integer())
        return kind in admitted or (kind == "number" and "integer" in admitted and whole)


def _escape(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")


def resolver(registry: Registry[Any]) -> Resolve:
    """(base URI, `$ref`) → (target URI, JSON pointer, target schema), remembered: the walk meets the same few
    references on every item of a large array."""

    @cache
    def resolve(base: str, ref: str) -> tuple[str, str, Any]:
        uri, _, fragment = urljoin(base, ref).partition("#")
        return uri, fragment, registry.resolver(base_uri=base).lookup(ref).contents

    return resolve


def explain(
    validator: Any,
    root: dict[str, Any],
    resolve: Resolve,
    instance: Any,
    *,
    wanted: int,
    check: SubschemaCheck | None = None,
) -> list[ValidationError]:
    """The first errors of `instance`, in the order the validator meets them, until they explain `wanted` refusals;
    skipping inside its oversized nodes, and, given fast checks, the items of large arrays and objects they find
    valid."""
    walk = _Walk(resolve, check, wanted)
    walk.visit(root, root["$id"], "", instance)
    tokens = (_OVERSIZED.set(frozenset(walk.oversized)), _FOCUS.set(walk.focus))
    try:
        return list(islice(validator.iter_errors(instance), wanted))
    finally:
        _FOCUS.reset(tokens[1])
        _OVERSIZED.reset(tokens[0])

"""Two versions of a subschema (an `x-rule`, or another constraint the structural walk cannot order) → whom the
change breaks, decided by content where it can be: a proof that one side's instances are all the other's
(`includes`), and a **witness search**: instances built from both subschemas, from the schemas at the change's
location and from the vectors, each tried on both sides; an instance one side accepts and the other refuses is
the evidence that the change breaks that direction.

WHY both: a witness proves a direction breaks, and only a proof shows it does not; a direction with neither stays
"breaks" and the report says it is undecided (spec/compatibility.md). The proof is structural and sound but
incomplete (it follows `$ref`s, at most 32 deep, and understands types, enums and consts, bounds, patterns as
regular languages, required, properties, closed content, items, `not`, `allOf`, `anyOf` and `if`/`then`/`else` with
the same `if`); the search is deterministic (the same instances, in the same order, every run), bounded
(MAX_CANDIDATES instances, nesting MAX_GENERATION_DEPTH), and validates with the reference validator library on each
side's own schemas.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from seq_io.bump_review import regex_language
from seq_io.reference.json_values import json_equal
from seq_io.reference.spec_data import SpecData

MAX_CANDIDATES = 400
MAX_GENERATION_DEPTH = 4
MAX_PER_VALUE = 8
_ANNOTATIONS = frozenset(
    {
        "description",
        "title",
        "$comment",
        "examples",
        "deprecated",
        "readOnly",
        "writeOnly",
        "format",
        "x-enum-varnames",
        "x-limits",
        "x-rule",
        "$schema",
        "$id",
        "default",
    }
)


@dataclass(frozen=True)
class Decision:
    """Whom the change breaks, how that was decided (`note`), and the witnesses found (`evidence`)."""

    old_readers: bool
    new_readers: bool
    note: str
    evidence: tuple[str, ...]
    same: bool
    """Proven to accept the same instances both ways: nothing accepted changes."""


# -- one side: its schemas, resolved and validated ----------------------------------------------------------


class Side:
    """One version's schemas: a registry for validation, and `$ref` resolution for the generator."""

    def __init__(self, spec: SpecData) -> None:
        self.spec = spec
        self.by_uri = {str(schema["$id"]): schema for schema in spec.schemas.values()}
        self.registry: Registry[Any] = Registry().with_resources(
            (uri, Resource.from_contents(schema, default_specification=DRAFT202012))
            for uri, schema in self.by_uri.items()
        )
        self._validators: dict[tuple[str, int], tuple[Any, Draft202012Validator]] = {}

    def resolve(self, base: str, ref: str) -> tuple[str, Any]:
        uri, _, fragment = (
            ref if "://" in ref else base.rsplit("/", 1)[0] + "/" + ref if not ref.startswith("#") else base + ref
        ).partition("#")
        node: Any = self.by_uri.get(uri, {})
        for step in filter(None, fragment.split("/")):
            node = node.get(step, {}) if isinstance(node, dict) else {}
        return uri, node

    def accepts(self, base: str, schema: Any, instance: Any) -> bool:
        key = (base, id(schema))
        if key not in self._validators:
            wrapped = _absolute(schema, base)
            if isinstance(wrapped, dict):
                wrapped = {k: v for k, v in wrapped.items() if k != "$schema"}
                wrapped["$id"] = base.rsplit("/", 1)[0] + "/__bump_review_subschema__.json"
            self._validators[key] = (schema, Draft202012Validator(wrapped, registry=self.registry))
        return bool(self._validators[key][1].is_valid(instance))


def _absolute(node: Any, base: str) -> Any:
    """`node` with `#…` references made absolute against its file, so it can be validated on its own."""
    if isinstance(node, dict):
        out = {key: _absolute(value, base) for key, value in node.items()}
        if isinstance(out.get("$ref"), str) and out["$ref"].startswith("#"):
            out["$ref"] = base + out["$ref"]
        return out
    if isinstance(node, list):
        return [_absolute(value, base) for value in node]
    return node


# -- references, followed --------------------------------------------------------------------------------------

MAX_REF_DEPTH = 32
_DATA = frozenset({"enum", "const", "default", "examples"})
"""Keywords whose values are instances, not subschemas: a `$ref` member there is data."""


@dataclass
class Expansion:
    """A subschema with every `$ref` replaced by what it names, and whether some were left (too deep)."""

    node: Any
    cut: bool = False


def expand(side: Side, base: str, node: Any) -> Expansion:
    """`node` (of the file `base`) with each `$ref` replaced by its target, followed at most MAX_REF_DEPTH deep;
    a `$ref` with siblings becomes an `allOf` of its target and the siblings. Deeper references stay as they
    are (`cut`), and the proof, which cannot look into them, leaves that direction undecided."""
    found = Expansion(None)
    found.node = _expand(side, base, node, 0, found)
    return found


def _expand(side: Side, base: str, node: Any, depth: int, found: Expansion) -> Any:
    if isinstance(node, list):
        return [_expand(side, base, value, depth, found) for value in node]
    if not isinstance(node, dict):
        return node
    out = {key: value if key in _DATA else _expand(side, base, value, depth, found) for key, value in node.items()}
    if not isinstance(node.get("$ref"), str):
        return out
    if depth >= MAX_REF_DEPTH:
        found.cut = True
        return out
    uri, target = side.resolve(base, node["$ref"])
    inner = _expand(side, uri, target, depth + 1, found)
    del out["$ref"]
    return {"allOf": [inner, out]} if _core(out) else inner


# -- the proof ---------------------------------------------------------------------------------------------


def core(node: Any) -> Any:
    """`node` without its annotations: what it demands."""
    return _core(node)


def _core(node: Any) -> Any:
    if isinstance(node, dict):
        return {k: _core(v) for k, v in node.items() if k not in _ANNOTATIONS}
    if isinstance(node, list):
        return [_core(v) for v in node]
    return node


def _types(node: dict[str, Any]) -> set[str] | None:
    declared = node.get("type")
    if declared is None:
        return None
    return {declared} if isinstance(declared, str) else set(declared)


def _values(node: dict[str, Any]) -> list[Any] | None:
    return [node["const"]] if "const" in node else node.get("enum")


def _finite_values(node: dict[str, Any]) -> list[Any] | None:
    """Every instance `node` can accept, when that is a short list: its `enum` or `const`, or all the values of
    a type that has few (`null`, `boolean`)."""
    values = _values(node)
    if values is not None:
        return values
    few: dict[str, list[Any]] = {"null": [None], "boolean": [False, True]}
    types = _types(node)
    if types is None or not types <= set(few):
        return None
    return [value for t in sorted(types) for value in few[t]]


def _bound(node: dict[str, Any], side: str) -> tuple[float, bool]:
    keys = ("minimum", "exclusiveMinimum") if side == "min" else ("maximum", "exclusiveMaximum")
    sign = 1 if side == "min" else -1
    found = [(float(node[k]), k.startswith("exclusive")) for k in keys if isinstance(node.get(k), int | float)]
    return max(found, key=lambda b: (sign * b[0], b[1])) if found else (-sign * math.inf, False)


def _within(inner: tuple[float, bool], outer: tuple[float, bool], side: str) -> bool:
    sign = 1 if side == "min" else -1
    if sign * inner[0] != sign * outer[0]:
        return sign * inner[0] > sign * outer[0]
    return inner[1] or not outer[1]


def includes(
    outer: Any,
    inner: Any,
    outer_side: Side | None = None,
    inner_side: Side | None = None,
    outer_base: str = "",
    inner_base: str = "",
) -> bool:
    """True only when every instance `inner` accepts, `outer` accepts too (a sound, incomplete proof)."""
    outer, inner = _core(outer), _core(inner)
    if outer in (True, {}) or (
        json_equal(outer, inner) and _same_refs(outer, outer_side, inner_side, outer_base, inner_base)
    ):
        return True
    if not isinstance(outer, dict) or not isinstance(inner, dict):
        return inner is False

    def sub(o: Any, i: Any) -> bool:
        return includes(o, i, outer_side, inner_side, outer_base, inner_base)

    for entry in inner.get("allOf", []):  # inner is within each of its entries: one within outer suffices
        if sub(outer, entry):
            return True
    if "anyOf" in inner and all(sub(outer, branch) for branch in inner["anyOf"]):
        return True
    if "anyOf" in outer and any(sub(branch, inner) for branch in outer["anyOf"]):
        return True
    keys = set(outer)
    if keys & {
        "$ref",
        "oneOf",
        "dependentRequired",
        "dependentSchemas",
        "unevaluatedProperties",
        "contains",
        "patternProperties",
        "prefixItems",
        "propertyNames",
        "anyOf",
        "uniqueItems",
        "multipleOf",
        "minItems",
        "maxItems",
        "minProperties",
        "maxProperties",
    }:
        return False
    return all(_keyword_holds(key, outer, inner, sub) for key in keys)


def _keyword_holds(key: str, outer: dict[str, Any], inner: dict[str, Any], sub: Any) -> bool:  # noqa: C901 (one branch per JSON Schema keyword, a table in code)
    """Whether `inner` implies `outer`'s keyword `key`."""
    if key == "type":
        inner_types = _types(inner)
        if inner_types is None:
            values = _values(inner)
            return values is not None and all(_json_type_in(value, _types(outer) or set()) for value in values)
        return all(
            t in (_types(outer) or set()) or (t == "integer" and "number" in (_types(outer) or set()))
            for t in inner_types
        )
    if key in ("enum", "const"):
        values = _finite_values(inner)
        return values is not None and all(any(json_equal(v, o) for o in _values(outer) or []) for v in values)
    if key in ("minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum"):
        side = "min" if "inimum" in key else "max"
        return _within(_bound(inner, side), _bound(outer, side), side)
    if key in ("minLength", "maxLength"):
        want = outer[key]
        have = inner.get(key)
        if not isinstance(have, int):
            return False
        return bool(have >= want if key == "minLength" else have <= want)
    if key == "pattern":
        if "pattern" not in inner:
            values = _values(inner)
            return values is not None and all(
                isinstance(v, str) and regex_language.accepts(outer["pattern"], v) for v in values
            )
        found = regex_language.compare(outer["pattern"], inner["pattern"])
        return found is not None and found.relation in ("equal", "narrowed")
    if key == "required":
        return set(outer["required"]) <= set(inner.get("required", []))
    if key == "properties":
        for name, schema in outer["properties"].items():
            if name in inner.get("properties", {}):
                if not sub(schema, inner["properties"][name]):
                    return False
            elif inner.get("additionalProperties") is not False and not sub(
                schema, inner.get("additionalProperties", {})
            ):
                return False
        return True
    if key == "additionalProperties":
        extra = outer["additionalProperties"]
        if extra is False:
            return inner.get("additionalProperties") is False and set(inner.get("properties", {})) <= set(
                outer.get("properties", {})
            )
        return bool(sub(extra, inner.get("additionalProperties", {})))
    if key == "items":
        return "items" in inner and sub(outer["items"], inner["items"])
    if key == "not":
        return "not" in inner and sub(inner["not"], outer["not"])
    if key == "allOf":
        return all(sub(entry, inner) for entry in outer["allOf"])
    if key in ("if", "then", "else"):
        if "if" not in inner or not json_equal(_core(inner["if"]), _core(outer["if"])):
            return False
        return key == "if" or sub(outer.get(key, {}), inner.get(key, {}))
    return False


def _json_type_in(value: Any, types: set[str]) -> bool:
    kind = (
        "null"
        if value is None
        else "boolean"
        if isinstance(value, bool)
        else "integer"
        if isinstance(value, int)
        else "number"
        if isinstance(value, float)
        else "string"
        if isinstance(value, str)
        else "array"
        if isinstance(value, list)
        else "object"
    )
    return (
        kind in types
        or (kind == "integer" and "number" in types)
        or (kind == "number" and "integer" in types and float(value).is_integer())
    )


def _same_refs(node: Any, outer_side: Side | None, inner_side: Side | None, outer_base: str, inner_base: str) -> bool:
    """Equal schemas accept alike only when each `$ref` in them names schemas equal on both sides."""
    refs = [ref for ref in _refs(node)]
    if not refs:
        return True
    if outer_side is None or inner_side is None:
        return False
    return all(
        json_equal(_core(outer_side.resolve(outer_base, ref)[1]), _core(inner_side.resolve(inner_base, ref)[1]))
        for ref in refs
    )


def _refs(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        if isinstance(node.get("$ref"), str):
            yield node["$ref"]
        for value in node.values():
            yield from _refs(value)
    elif isinstance(node, list):
        for value in node:
            yield from _refs(value)


# -- the witness search ------------------------------------------------------------------------------------


def _numbers(node: dict[str, Any]) -> list[Any]:
    integer = _types(node) == {"integer"}
    out: list[Any] = []
    for side in ("min", "max"):
        value, exclusive = _bound(node, side)
        if math.isfinite(value):
            step = 1 if integer or value.is_integer() else 0.5
            inside = value + (step if exclusive else 0) * (1 if side == "min" else -1)
            outside = value - (0 if exclusive else step) * (1 if side == "min" else -1)
            out += [inside, outside]
    multiple = node.get("multipleOf")
    if isinstance(multiple, int | float) and not isinstance(multiple, bool):
        out += [multiple, multiple * 2, Fraction(str(multiple)) / 2]
    out += [0, 1, -1, 2, 0.5]
    return [v if isinstance(v, int) else int(v) if float(v).is_integer() else float(v) for v in out]


def _strings(node: dict[str, Any]) -> list[str]:
    out: list[str] = []
    if isinstance(node.get("pattern"), str):
        out += regex_language.examples(node["pattern"])
    for key in ("minLength", "maxLength"):
        if isinstance(node.get(key), int) and node[key] <= 1024:
            out += ["a" * node[key], "a" * (node[key] + 1), "a" * max(0, node[key] - 1)]
    return [*out, "a", "", "/", " a"]


def candidates(side: Side, base: str, node: Any, depth: int = 0) -> Iterator[Any]:
    """Instances worth trying against `node`: its literal values, values at and just past its bounds, strings
    its patterns accept and refuse, objects with each property varied, and the instances of the subschemas it
    combines; the first ones are the likeliest to be valid."""
    if not isinstance(node, dict) or depth > MAX_GENERATION_DEPTH:
        return
    if isinstance(node.get("$ref"), str):
        uri, target = side.resolve(base, node["$ref"])
        yield from candidates(side, uri, target, depth + 1)
    values = _values(node)
    if values is not None:
        yield from values
    for key in ("anyOf", "oneOf", "allOf"):
        for branch in node.get(key, []):
            yield from candidates(side, base, branch, depth + 1)
    for key in ("if", "then", "else", "not"):
        if isinstance(node.get(key), dict):
            yield from candidates(side, base, node[key], depth + 1)
    types = _types(node) or set()
    if "properties" in node or "required" in node or "object" in types:
        yield from _objects(side, base, node, depth)
    if "array" in types or "items" in node:
        items = list(_limited(candidates(side, base, node.get("items", {}), depth + 1)))
        yield from ([], *([item] for item in items), items[:2])
    if types & {"integer", "number"}:
        yield from _numbers(node)
    if "string" in types or "pattern" in node or "minLength" in node or "maxLength" in node:
        yield from _strings(node)
    if "boolean" in types:
        yield from (True, False)
    if "null" in types:
        yield None


def _limited(found: Iterator[Any]) -> Iterator[Any]:
    seen: list[str] = []
    for value in found:
        text = json.dumps(value, sort_keys=True, default=str)
        if text not in seen:
            seen.append(text)
            yield value
        if len(seen) >= MAX_PER_VALUE:
            return


def _objects(side: Side, base: str, node: dict[str, Any], depth: int) -> Iterator[dict[str, Any]]:
    properties: dict[str, Any] = node.get("properties", {})
    options = {name: list(_limited(candidates(side, base, schema, depth + 1))) for name, schema in properties.items()}
    names = [*properties, *(n for n in node.get("required", []) if n not in properties)]
    first = {name: options[name][0] if options.get(name) else "a" for name in names}
    minimal = {name: first[name] for name in node.get("required", []) if name in first}
    full = dict(first)
    yield minimal
    yield full
    for name in properties:
        for value in options.get(name, [])[1:]:
            yield full | {name: value}
            yield minimal | {name: value}
        yield {k: v for k, v in full.items() if k != name}


def _located(instance: Any, location: tuple[str, ...]) -> Iterator[Any]:
    """The values at `location` inside an instance (every key for `*`, every item for `[]`)."""
    if not location:
        yield instance
        return
    part, rest = location[0], location[1:]
    if part == "*" and isinstance(instance, dict):
        for value in instance.values():
            yield from _located(value, rest)
    elif part == "{key}" and isinstance(instance, dict):
        yield from instance
    elif part.startswith("[") and isinstance(instance, list):
        index = part[1:-1]
        for position, value in enumerate(instance):
            if not index or int(index) == position:
                yield from _located(value, rest)
    elif isinstance(instance, dict) and part in instance:
        yield from _located(instance[part], rest)


def decide(
    sides: tuple[Side, Side],
    nodes: tuple[list[tuple[str, Any]] | None, list[tuple[str, Any]] | None],
    rules: tuple[tuple[str, Any], tuple[str, Any]],
    location: tuple[str, ...],
    vectors: list[Any],
) -> Decision:
    """Whom replacing rule `rules[0]` (base) by `rules[1]` (head) breaks. `nodes`: every schema applying at the
    rule's location on each side (None: unknown, then only the rules themselves judge); `vectors`: whole
    instances of the type, looked into at `location`."""
    (base, head), ((old_uri, old_rule), (new_uri, new_rule)) = sides, rules
    old_full, new_full = expand(base, old_uri, old_rule), expand(head, new_uri, new_rule)
    new_within_old = includes(old_full.node, new_full.node, base, head, old_uri, new_uri)
    old_within_new = includes(new_full.node, old_full.node, head, base, new_uri, old_uri)
    tried = 0
    witnesses: dict[str, Any] = {}
    pool: list[Iterator[Any]] = [
        (value for instance in vectors for value in _located(instance, location)),
        candidates(head, new_uri, new_rule),
        candidates(base, old_uri, old_rule),
        *(candidates(side, uri, node) for side, found in zip(sides, nodes, strict=True) for uri, node in found or []),
    ]
    seen: set[str] = set()
    for value in (v for source in pool for v in source):
        text = json.dumps(value, sort_keys=True, default=str)
        if text in seen:
            continue
        seen.add(text)
        tried += 1
        if tried > MAX_CANDIDATES or len(witnesses) == 2:
            break
        if (
            "old" not in witnesses
            and _valid_at(head, nodes[1], new_uri, new_rule, value)
            and not base.accepts(old_uri, old_rule, value)
        ):
            witnesses["old"] = value
        if (
            "new" not in witnesses
            and _valid_at(base, nodes[0], old_uri, old_rule, value)
            and not head.accepts(new_uri, new_rule, value)
        ):
            witnesses["new"] = value
    evidence = tuple(
        f"{_show(witnesses[key])} is accepted by the {'new' if key == 'old' else 'old'} version and "
        f"refused by the {key} one"
        for key in ("old", "new")
        if key in witnesses
    )
    notes = [
        _direction_note("old readers of new data", "old" in witnesses, new_within_old, tried),
        _direction_note("new readers of old data", "new" in witnesses, old_within_new, tried),
    ]
    if old_full.cut or new_full.cut:
        notes.append(f"references nested deeper than {MAX_REF_DEPTH} were not followed")
    return Decision(
        "old" in witnesses or not new_within_old,
        "new" in witnesses or not old_within_new,
        "; ".join(notes),
        evidence,
        new_within_old and old_within_new and not witnesses,
    )


def _valid_at(side: Side, nodes: list[tuple[str, Any]] | None, uri: str, rule: Any, value: Any) -> bool:
    if not side.accepts(uri, rule, value):
        return False
    return all(side.accepts(base, node, value) for base, node in nodes or [])


def _direction_note(reader: str, witness: bool, proven: bool, tried: int) -> str:
    if witness:
        return f"breaks {reader}: shown by a witness"
    if proven:
        return f"does not break {reader}: proven (every instance one side accepts, the other accepts)"
    return f"{reader}: undecided (no proof, and no witness among {tried} instances tried), so assumed to break"


def _show(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    return text if len(text) <= 200 else text[:197] + "..."

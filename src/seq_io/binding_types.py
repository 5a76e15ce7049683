"""The schemas of one spec version (file stem → schema) → one language-neutral description of every type: named
types (objects, string enums, integer enums) with their fields, and where each named type comes from.

Every compiled binding (Go, Rust, Java, C++) generates its types from this description, not from the schemas: the
schemas say what *validates*, this says what a *type* holds. Reading the schemas once, here, gives every language
the same type names (a nested object or enum without a `title` is named after its parent and member:
`StreamErrorError`, `CameraCodec`), the same field order, and the same three facts per member that decide a
faithful round-trip (spec/validation.md "Writing an instance"): is it `required`, is it `nullable` (an `anyOf`
with a `{"type": "null"}` branch), and which value kind it carries. What JSON Schema checks beyond the value kind
(bounds, patterns, `if`/`then`, `not`, cross-field rules) is left to each binding's validator, so a type here is
never stricter than its schema.

WHY in the package and not in scripts/: the maintainers' generator (scripts/seq_io_maint/binding_model.py) writes
generated/binding-model.json from it, and the bump review (seq_io.bump_review.generated_code) builds it for two
versions of the spec, from a release snapshot, a git ref or the installed wheel, where scripts/ never ships. One
builder for both means the review judges what the generators really emit. The places (`Origin`) are the review's
only addition and are never written into the generated file.

Value kinds (`"kind"` of a type expression):
  string, integer, number, boolean   the JSON scalar (an `integer` holds any whole number value, `640.0` included)
  any                                an opaque JSON value, kept exactly (numbers as written, members in order)
  ref        {"name"}                a named type of this file
  list       {"items"}               a JSON array of one item type
  tuple      {"items": [...]}        a fixed-length JSON array (`prefixItems`)
  map        {"values"}              a JSON object with free member names and one value type
  union      {"options": [...]}      one of several kinds, told apart by JSON type (never two of one JSON type)
Named types (`"kind"` of an entry of `types`): object (fields), string_enum (values), int_enum (members: name, value).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

RENAMES = {
    "StreamErrorError": "StreamErrorInfo",
    "StreamErrorInfoCode": "StreamErrorCode",
    "StreamErrorInfoDetails": "StreamErrorDetails",
    "StreamErrorDetailsReason": "StreamErrorReason",
    "StreamErrorDetailsLimit": "StreamErrorLimit",
    "StreamErrorDetailsIssuesItem": "StreamErrorIssue",
}
"""Where the name made from parent and member stutters, the one name every language uses instead."""

Schema = dict[str, Any]
TypeExpr = dict[str, Any]
Location = tuple[str, ...]


@dataclass(frozen=True)
class Origin:
    """Where a named type is defined: the schema file (stem) whose walk met it first, the instance location inside
    that file's root (`()` for the root itself, `("codec",)`, `("cameras", "*")`), the member it was met under
    (empty for a root) and the `title` written on it (or on its nullable member), which some generators name it by."""

    file: str
    location: Location
    member: str
    title: str | None


def pascal(text: str) -> str:
    """`when_behind` → `WhenBehind`, `details` → `Details`."""
    return "".join(part[:1].upper() + part[1:] for part in text.split("_") if part)


def ref_name(ref: str) -> str:
    """`Camera.json` → `Camera`; only whole-file references occur in the schemas."""
    if not ref.endswith(".json") or "#" in ref:
        raise ValueError(f"unsupported $ref {ref!r}: the model reads whole-file references only")
    return ref.removesuffix(".json")


class ModelBuilder:
    """Walks each schema's root and collects named types, naming nested objects and enums after their place."""

    def __init__(self) -> None:
        self.types: dict[str, dict[str, Any]] = {}
        self.origins: dict[str, Origin] = {}
        self.titles: dict[str, str] = {}
        """Schema file stem → its title: a `$ref` names a file, the type is called by that file's title."""
        self._file = ""

    def ref(self, ref: str) -> TypeExpr:
        stem = ref_name(ref)
        return {"kind": "ref", "name": self.titles.get(stem, stem)}

    def add(self, name: str, entry: dict[str, Any]) -> None:
        if name in self.types and self.types[name] != entry:
            raise ValueError(f"two different types would both be named {name}")
        self.types[name] = entry

    def root(self, file: str, schema: Schema) -> None:
        """A schema file's root: a named type called by its `title`."""
        self._file = file
        self.named(str(schema["title"]), schema, Origin(file, (), "", schema.get("title")))

    def named(self, name: str, schema: Schema, origin: Origin | None = None) -> None:
        """A schema that becomes a named type (a file's root, or a nested object or enum)."""
        self.origins.setdefault(name, origin or Origin(self._file, (), "", schema.get("title")))
        where = self.origins[name].location
        doc = schema.get("description")
        if "enum" in schema and schema.get("type", "string") == "string":
            self.add(name, {"kind": "string_enum", "name": name, "doc": doc, "values": list(schema["enum"])})
        elif "enum" in schema and schema.get("type") == "integer":
            names = schema["x-enum-varnames"]
            members = [{"name": n, "value": v} for n, v in zip(names, schema["enum"], strict=True)]
            self.add(name, {"kind": "int_enum", "name": name, "doc": doc, "members": members})
        elif schema.get("type") == "object" and "properties" in schema:
            self.add(name, self.object_type(name, schema, where))
        else:
            raise ValueError(f"{name}: a named type must be an object with properties or an enum")

    def object_type(self, name: str, schema: Schema, where: Location = ()) -> dict[str, Any]:
        required = set(schema.get("required", []))
        fields = []
        for member, sub in schema["properties"].items():
            nullable, inner = split_nullable(sub)
            title = inner.get("title", sub.get("title")) if isinstance(inner, dict) else None
            fields.append(
                {
                    "json": member,
                    "required": member in required,
                    "nullable": nullable,
                    "type": self.expr(name + pascal(member), inner, (*where, member), member, title),
                    "doc": sub.get("description"),
                    **({"default": sub["default"]} if "default" in sub else {}),
                }
            )
        closed = schema.get("additionalProperties") is False
        return {"kind": "object", "name": name, "doc": schema.get("description"), "closed": closed, "fields": fields}

    def expr(
        self, place: str, schema: Schema, where: Location = (), member: str = "", title: str | None = None
    ) -> TypeExpr:
        """The type expression of a (non-null) member schema; nested objects and enums become named types."""
        if "$ref" in schema:
            return self.ref(schema["$ref"])
        if "allOf" in schema and "$ref" in schema["allOf"][0]:
            # A narrowing of a named type (the robot-arm Camera): the type is the named one, the rule the validator's.
            return self.ref(schema["allOf"][0]["$ref"])
        if "anyOf" in schema:
            return {"kind": "union", "options": [self.expr(place, b, where, member, title) for b in schema["anyOf"]]}
        kind = schema.get("type")
        if isinstance(kind, list):
            return {"kind": "union", "options": [{"kind": k} for k in kind]}
        if "enum" in schema or (kind == "object" and "properties" in schema):
            name = RENAMES.get(place, place)
            self.named(name, schema, Origin(self._file, where, member, schema.get("title", title)))
            return {"kind": "ref", "name": name}
        if kind == "object":
            values = schema.get("additionalProperties", {})
            return {"kind": "map", "values": self.expr(place + "Value", values, (*where, "*"), member + "_value")}
        if kind == "array" and "prefixItems" in schema:
            items = [
                self.expr(f"{place}{i}", s, (*where, f"[{i}]"), f"{member}_{i}")
                for i, s in enumerate(schema["prefixItems"])
            ]
            return {"kind": "tuple", "items": items}
        if kind == "array":
            return {"kind": "list", "items": self.expr(place + "Item", schema.get("items", {}), (*where, "[]"), member)}
        if kind in ("string", "integer", "number", "boolean"):
            return {"kind": kind}
        if kind is None and not (set(schema) - {"description", "title"}):
            return {"kind": "any"}
        raise ValueError(f"{place}: no type expression for {json.dumps(schema)[:200]}")


def split_nullable(schema: Schema) -> tuple[bool, Schema]:
    """`anyOf: [S, {"type": "null"}]` → (True, S); anything else → (False, schema)."""
    branches = schema.get("anyOf")
    if branches and {"type": "null"} in branches:
        rest = [b for b in branches if b != {"type": "null"}]
        inner = rest[0] if len(rest) == 1 else {"anyOf": rest}
        return True, inner
    return False, schema


def build_types(schemas: Iterable[tuple[str, Schema]]) -> ModelBuilder:
    """Every named type of the schemas, given as (file stem, schema) in file-name order; raises ValueError when the
    schemas hold something no binding can represent."""
    builder = ModelBuilder()
    files = list(schemas)
    builder.titles = {file: str(schema["title"]) for file, schema in files}
    for file, schema in files:
        builder.root(file, schema)
    return builder

"""spec/schemas/*.json → one language-neutral description of every type → generated/binding-model.json.

Every compiled binding (Go, Rust, Java, C++) generates its types from this one file, not from the schemas: the
schemas say what *validates*, this file says what a *type* holds. Reading the 23 schemas once, here, gives every
language the same type names (a nested object or enum without a `title` is named after its parent and member:
`StreamErrorError`, `CameraCodec`), the same field order, and the same three facts per member that decide a
faithful round-trip (spec/validation.md "Writing an instance"): is it `required`, is it `nullable` (an `anyOf` with
a `{"type": "null"}` branch), and which value kind it carries. What JSON Schema checks beyond the value kind
(bounds, patterns, `if`/`then`, `not`, cross-field rules) is left to each binding's validator, so a type here is
never stricter than its schema.

`generate` writes the file; `check` fails on any byte of drift (both run by `make generate` / `make check`).

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
import sys
import tomllib
from typing import Any

from seq_io import locate

CHECKOUT = locate.checkout_root() or locate.data_root()
SCHEMAS = CHECKOUT / "spec" / "schemas"
OUTPUT = CHECKOUT / "generated" / "binding-model.json"
FORMAT = "seq-io-binding-model/1"
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

    def add(self, name: str, entry: dict[str, Any]) -> None:
        if name in self.types and self.types[name] != entry:
            raise ValueError(f"two different types would both be named {name}")
        self.types[name] = entry

    def named(self, name: str, schema: Schema) -> None:
        """A schema that becomes a named type (a file's root, or a nested object or enum)."""
        doc = schema.get("description")
        if "enum" in schema and schema.get("type", "string") == "string":
            self.add(name, {"kind": "string_enum", "name": name, "doc": doc, "values": list(schema["enum"])})
        elif "enum" in schema and schema.get("type") == "integer":
            names = schema["x-enum-varnames"]
            members = [{"name": n, "value": v} for n, v in zip(names, schema["enum"], strict=True)]
            self.add(name, {"kind": "int_enum", "name": name, "doc": doc, "members": members})
        elif schema.get("type") == "object" and "properties" in schema:
            self.add(name, self.object_type(name, schema))
        else:
            raise ValueError(f"{name}: a named type must be an object with properties or an enum")

    def object_type(self, name: str, schema: Schema) -> dict[str, Any]:
        required = set(schema.get("required", []))
        fields = []
        for member, sub in schema["properties"].items():
            nullable, inner = split_nullable(sub)
            fields.append(
                {
                    "json": member,
                    "required": member in required,
                    "nullable": nullable,
                    "type": self.expr(name + pascal(member), inner),
                    "doc": sub.get("description"),
                    **({"default": sub["default"]} if "default" in sub else {}),
                }
            )
        closed = schema.get("additionalProperties") is False
        return {"kind": "object", "name": name, "doc": schema.get("description"), "closed": closed, "fields": fields}

    def expr(self, place: str, schema: Schema) -> TypeExpr:
        """The type expression of a (non-null) member schema; nested objects and enums become named types."""
        if "$ref" in schema:
            return {"kind": "ref", "name": ref_name(schema["$ref"])}
        if "allOf" in schema and "$ref" in schema["allOf"][0]:
            # A narrowing of a named type (the robot-arm Camera): the type is the named one, the rule the validator's.
            return {"kind": "ref", "name": ref_name(schema["allOf"][0]["$ref"])}
        if "anyOf" in schema:
            return {"kind": "union", "options": [self.expr(place, branch) for branch in schema["anyOf"]]}
        kind = schema.get("type")
        if isinstance(kind, list):
            return {"kind": "union", "options": [{"kind": k} for k in kind]}
        if "enum" in schema or (kind == "object" and "properties" in schema):
            name = RENAMES.get(place, place)
            self.named(name, schema)
            return {"kind": "ref", "name": name}
        if kind == "object":
            values = schema.get("additionalProperties", {})
            return {"kind": "map", "values": self.expr(place + "Value", values)}
        if kind == "array" and "prefixItems" in schema:
            items = [self.expr(f"{place}{i}", s) for i, s in enumerate(schema["prefixItems"])]
            return {"kind": "tuple", "items": items}
        if kind == "array":
            return {"kind": "list", "items": self.expr(place + "Item", schema.get("items", {}))}
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


def build() -> dict[str, Any]:
    contract = json.loads((CHECKOUT / "spec" / "contract.json").read_text(encoding="utf-8"))
    builder = ModelBuilder()
    for path in sorted(SCHEMAS.glob("*.json")):
        schema = json.loads(path.read_text(encoding="utf-8"))
        builder.named(schema["title"], schema)
    return {
        "format": FORMAT,
        "contract_version": contract["contract_version"],
        "package_version": tomllib.loads((CHECKOUT / "pyproject.toml").read_text(encoding="utf-8"))["project"][
            "version"
        ],
        "generated_from": "spec/schemas/*.json by scripts/seq_io_maint/binding_model.py; do not edit",
        "types": [builder.types[name] for name in sorted(builder.types)],
    }


def render() -> str:
    return json.dumps(build(), indent=2, ensure_ascii=False) + "\n"


def main(argv: list[str]) -> int:
    command = argv[0] if argv else "check"
    text = render()
    if command == "generate":
        OUTPUT.write_text(text, encoding="utf-8")
        print(f"wrote {OUTPUT.relative_to(CHECKOUT)}")
        return 0
    if command == "check":
        if not OUTPUT.exists() or OUTPUT.read_text(encoding="utf-8") != text:
            print(
                f"{OUTPUT.relative_to(CHECKOUT)} is stale: run `make generate` and commit the result", file=sys.stderr
            )
            return 1
        return 0
    print("usage: binding_model generate|check", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""Two versions of the spec → the binding model of each (seq_io.binding_types) → per binding (python, ts, go, rust,
java, cpp) the names, files, property spellings, enum member names and field types the generators emit, keyed by
where in the schemas they come from → the differences, as `code-renamed`, `code-moved` and `code-retyped` findings
that name the bindings they touch (spec/compatibility.md, "Generated code").

WHY predicted and not generated: the review runs on a release snapshot, a git ref or the installed wheel, where
neither the generators (scripts/, never shipped) nor their toolchains (datamodel-code-generator, quicktype, the
compilers) are at hand, and running six generators twice would take minutes. The compiled bindings' names come from
the very rules their generators import (seq_io.binding_types, seq_io.binding_names); the Python and TypeScript names
are the rules of datamodel-code-generator and quicktype as configured here (a root type by its `title`, a nested
one by its `title` or else its member's name, one Python module per schema file, one TypeScript file), as
spec/compatibility.md states them.

Facts are keyed by place (schema file, instance location, and the member or enum value), so that a rename is the same
place with another name, and a type reached through a `$ref` to a schema file is reported at that file's own `$`,
once, not at every place that holds it.
"""

from __future__ import annotations

import json
import keyword
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from seq_io.binding_names import (
    CPP_SCALARS,
    GO_SCALARS,
    JAVA_SCALARS,
    RUST_SCALARS,
    cpp_member_name,
    cpp_pascal,
    cpp_wrap,
    go_field_name,
    go_pascal,
    go_wrap,
    java_constant,
    java_name,
    java_wrap,
    rust_field_name,
    rust_pascal,
    rust_wrap,
)
from seq_io.binding_types import ModelBuilder, build_types, pascal
from seq_io.bump_review.rules import Location, render_location
from seq_io.reference.spec_data import SpecData

BINDINGS = ("python", "ts", "go", "rust", "java", "cpp")
"""The six bindings the package ships, in the order the report names them."""
FILES = {
    "python": "generated/python/seq_io_models/{file}.py",
    "ts": "generated/ts/contract.d.ts",
    "go": "generated/go/types.go",
    "rust": "generated/rust/types.rs",
    "java": "generated/java/src/example/seqio/types/{type}.java",
    "cpp": "generated/cpp/include/seqio/types.h",
}
"""Where each binding writes a type: `{file}` is the schema file that defines it, `{type}` its name there."""
RULE_OF = {
    "type": "code-renamed",
    "file": "code-moved",
    "property": "code-renamed",
    "member": "code-renamed",
    "field": "code-retyped",
}
"""The kind of fact that changed → the rule of spec/compatibility.md that classifies it."""
UNREPRESENTABLE = "(generated code)"
"""The place of a `code-unrepresentable` finding: the head as a whole, the binding model naming no type."""
MAX_DEPTH = 32
Expr = dict[str, Any]
Named = dict[str, Any]


@dataclass(frozen=True)
class Spelled:
    """One generated thing in one binding: `same` is compared between versions (a named type it holds written
    `{ref}`, a type's own name in a member or file written `{type}`), `shown` is what the generator writes."""

    same: str
    shown: str


@dataclass
class Fact:
    """What the bindings emit at one place; `identity` is the origin of the named type a type fact is about."""

    by_binding: dict[str, Spelled]
    identity: str = ""


FactKey = tuple[str, str, Location, str]
"""(kind, schema file, location, member or enum value); kind is type, file, property, field or member."""


@dataclass(frozen=True)
class CodeChange:
    """One generated-code finding: level `source`, whatever the wire does."""

    type_name: str
    location: Location
    rule: str
    bindings: tuple[str, ...]
    detail: str

    @property
    def level(self) -> str:
        return "source"


@dataclass
class CodeAxis:
    """The findings, and why a side's model could not be built (`problems`, "base" or "head" → reason)."""

    changes: list[CodeChange] = field(default_factory=list)
    problems: dict[str, str] = field(default_factory=dict)


def _file_of(schema: dict[str, Any], title: str) -> str:
    """The schema file's stem, from its `$id` (`…/Camera.json` → `Camera`), else its title."""
    ident = str(schema.get("$id", ""))
    return ident.rsplit("/", 1)[-1].removesuffix(".json") if ident.endswith(".json") else title


def ts_name(title: str) -> str:
    """quicktype's TypeScript name of a title: "Case request" → CaseRequest (scripts/typescript/generate-types.js)."""
    return "".join(word[:1].upper() + word[1:] for word in re.split(r"[^A-Za-z0-9]+", title) if word)


def _item_name(name: str, item: bool) -> str:
    """datamodel-code-generator's and quicktype's name for a list's item: the singular (`issues` → `Issue`), else
    the name with `Item`; anything else keeps its name."""
    if not item:
        return name
    return name[:-1] if name.endswith("s") and len(name) > 1 else name + "Item"


def python_identifier(name: str) -> str:
    """datamodel-code-generator's field name for a JSON member: invalid characters `_`, a keyword gets `_`."""
    clean = re.sub(r"\W", "_", name)
    return clean + "_" if keyword.iskeyword(clean) else clean


class _Facts:
    """Walks one binding model from each schema file's root and records what each binding emits, by place."""

    def __init__(self, builder: ModelBuilder) -> None:
        self.types = builder.types
        self.origins = builder.origins
        self.found: dict[FactKey, Fact] = {}

    def names(self, name: str) -> dict[str, str]:
        """A named type's name in each binding (TypeScript has none for an integer enum: it writes `number`)."""
        origin = self.origins[name]
        if origin.location:
            given = origin.title or _item_name(pascal(origin.member), origin.location[-1] == "[]")
            python, ts = given, ts_name(given)
        else:
            python, ts = origin.title or name, ts_name(origin.title or name)
        out = {"python": python, "ts": ts, "go": name, "rust": name, "java": name, "cpp": name}
        if self.types[name]["kind"] == "int_enum":
            del out["ts"]
        return out

    def identity(self, name: str) -> str:
        origin = self.origins[name]
        return f"{origin.file}#{render_location(origin.location)}"

    def add(self, key: FactKey, by_binding: dict[str, Spelled], identity: str = "") -> None:
        self.found.setdefault(key, Fact(by_binding, identity))

    def named(self, name: str, file: str, location: Location, depth: int) -> None:
        """The type facts of a named type at a place, then its members or fields (a nested type's, recursively)."""
        names, origin = self.names(name), self.origins[name]
        ident = self.identity(name)
        self.add(("type", file, location, ""), {b: Spelled(n, n) for b, n in names.items()}, ident)
        files = {b: FILES[b].replace("{file}", origin.file) for b in names}
        self.add(
            ("file", file, location, ""),
            {b: Spelled(f, f.replace("{type}", names[b])) for b, f in files.items()},
            ident,
        )
        if ident != f"{file}#{render_location(location)}" or depth > MAX_DEPTH:
            return  # held from another place: its members and fields are reported where it is defined
        entry = self.types[name]
        if entry["kind"] == "object":
            for member in entry["fields"]:
                self.field(name, member, file, (*location, member["json"]), depth)
        else:
            pairs = (
                [(json.dumps(v), v) for v in entry["values"]]
                if entry["kind"] == "string_enum"
                else [(json.dumps(m["value"]), m["name"]) for m in entry["members"]]
            )
            for value, word in pairs:
                self.add(("member", file, location, value), _member_names(word, names))

    def field(self, owner: str, member: dict[str, Any], file: str, location: Location, depth: int) -> None:
        json_name = str(member["json"])
        spellings = {
            "python": python_identifier(json_name),
            "ts": json_name,
            "go": go_field_name(json_name),
            "rust": rust_field_name(json_name),
            "java": java_name(json_name),
            "cpp": cpp_member_name(json_name),
        }
        self.add(("property", file, location, ""), {b: Spelled(s, s) for b, s in spellings.items()})
        self.add(("field", file, location, ""), self.field_types(member))
        self.expression(member["type"], file, location, depth + 1)

    def expression(self, expr: Expr, file: str, location: Location, depth: int) -> None:
        kind = expr["kind"]
        if kind == "ref":
            self.named(str(expr["name"]), file, location, depth)
        elif kind == "list":
            self.expression(expr["items"], file, (*location, "[]"), depth)
        elif kind == "map":
            self.expression(expr["values"], file, (*location, "*"), depth)
        elif kind == "tuple":
            for index, item in enumerate(expr["items"]):
                self.expression(item, file, (*location, f"[{index}]"), depth)
        elif kind == "union":
            for option in expr["options"]:
                self.expression(option, file, location, depth)

    def field_types(self, member: dict[str, Any]) -> dict[str, Spelled]:
        expr: Expr = member["type"]
        out: dict[str, Spelled] = {}
        for binding in BINDINGS:
            same, shown = (self.render(binding, expr, refs) for refs in (False, True))
            out[binding] = Spelled(_wrap(binding, member, same), _wrap(binding, member, shown))
        return out

    def render(self, binding: str, expr: Expr, refs: bool) -> str:
        """The type a binding writes for an expression; a named type as its name there, or `{ref}` (`refs` false)."""
        kind = expr["kind"]
        if kind == "ref":
            name = str(expr["name"])
            if binding == "ts" and self.types[name]["kind"] == "int_enum":
                return "number"
            return self.names(name)[binding] if refs else "{ref}"
        parts = {
            "list": [expr.get("items")],
            "map": [expr.get("values")],
            "tuple": expr.get("items"),
            "union": expr.get("options"),
        }.get(kind)
        inner = [self.render(binding, e, refs) for e in parts] if isinstance(parts, list) else []
        return _compose(binding, kind, inner)


def _member_names(word: str, names: dict[str, str]) -> dict[str, Spelled]:
    """An enum member's name in each binding that names members (TypeScript writes the values themselves)."""
    spelled = {
        "python": word if word.isidentifier() else python_identifier(word),
        "go": "{type}" + go_pascal(word),
        "rust": rust_pascal(word),
        "java": java_constant(word),
        "cpp": cpp_pascal(word),
    }
    return {b: Spelled(s, s.replace("{type}", names[b])) for b, s in spelled.items()}


SCALARS: dict[str, dict[str, str]] = {
    "python": {"string": "str", "integer": "int", "number": "int | float", "boolean": "bool", "any": "Any"},
    "ts": {"string": "string", "integer": "number", "number": "number", "boolean": "boolean", "any": "unknown"},
    "go": GO_SCALARS,
    "rust": RUST_SCALARS,
    "java": {**JAVA_SCALARS, "any": "JsonValue"},
    "cpp": CPP_SCALARS,
}


def _compose(binding: str, kind: str, inner: list[str]) -> str:
    """A container or union of already written types, as the binding writes it."""
    if kind in SCALARS[binding]:
        return SCALARS[binding][kind]
    if kind == "union":
        if binding == "java":
            return "JsonValue"
        joined = {"python": " | ", "ts": " | ", "rust": "Or", "cpp": ", "}.get(binding, "|")
        text = joined.join(inner)
        return {"cpp": f"std::variant<{text}>", "go": f"union{{{text}}}"}.get(binding, text)
    one = inner[0] if inner else "?"
    templates = {
        "list": {"python": "list[{}]", "ts": "({})[]", "go": "[]{}", "rust": "Vec<{}>", "java": "List<{}>"},
        "map": {
            "python": "dict[str, {}]",
            "ts": "{{ [key: string]: {} }}",
            "go": "Map[{}]",
            "rust": "Map<{}>",
            "java": "Map<String, {}>",
            "cpp": "Map<{}>",
        },
    }
    if kind == "list":
        return templates["list"].get(binding, "std::vector<{}>").format(one)
    if kind == "map":
        return templates["map"][binding].format(one)
    if kind == "tuple":
        return {
            "python": f"tuple[{', '.join(inner)}]",
            "ts": f"[{', '.join(inner)}]",
            "go": f"[{len(inner)}]{one}",
            "rust": f"({', '.join(inner)})",
            "java": f"List<{one}>",
            "cpp": f"std::array<{one}, {len(inner)}>",
        }[binding]
    raise ValueError(f"no {binding} type for a {kind} expression")


def _wrap(binding: str, member: dict[str, Any], inner: str) -> str:
    """The field's declared type: the expression with what being optional or nullable adds in that binding."""
    if binding == "python":
        written = f"{inner} | None" if member["nullable"] or not member["required"] else inner
        return written if member["required"] else f"{written} = None"
    if binding == "ts":
        written = f"{inner} | null" if member["nullable"] else inner
        return f"{'' if member['required'] else '?'}: {written}"
    wrap = {"go": go_wrap, "rust": rust_wrap, "java": java_wrap, "cpp": cpp_wrap}[binding]
    return wrap(member, inner)


def facts(spec: SpecData) -> dict[FactKey, Fact]:
    """What every binding emits for one version of the spec, by place; ValueError when no binding can be built."""
    files = sorted((_file_of(schema, title), schema) for title, schema in spec.schemas.items())
    walk = _Facts(build_types(files))
    for file, schema in files:
        walk.named(str(schema["title"]), file, (), 0)
    return walk.found


def _findings(base: dict[FactKey, Fact], head: dict[FactKey, Fact]) -> Iterator[tuple[FactKey, str, str]]:
    """(place, binding, what changed) for every fact of a place both versions have that a binding writes otherwise."""
    for key in sorted(set(base) & set(head), key=lambda k: (k[1], k[2], k[0], k[3])):
        before, after = base[key], head[key]
        here = f"{key[1]}#{render_location(key[2])}"
        if key[0] in ("type", "file") and before.identity == after.identity and before.identity != here:
            continue  # a type held from here that changed where it is defined: reported there, once
        for binding in BINDINGS:
            old, new = before.by_binding.get(binding), after.by_binding.get(binding)
            if old is not None and new is not None and old.same != new.same:
                yield key, binding, f"`{old.shown}` → `{new.shown}`"


def compare(base: SpecData, head: SpecData) -> CodeAxis:
    """The generated-code findings between two versions, grouped by type, location and rule."""
    axis = CodeAxis()
    sides: list[dict[FactKey, Fact]] = []
    for label, spec in (("base", base), ("head", head)):
        try:
            sides.append(facts(spec))
        except (ValueError, KeyError) as error:
            axis.problems[label] = f"the generators cannot represent the {label}'s schemas: {error}"
    if "head" in axis.problems and "base" not in axis.problems:
        axis.changes.append(CodeChange(UNREPRESENTABLE, (), "code-unrepresentable", BINDINGS, axis.problems["head"]))
    if axis.problems:
        return axis
    grouped: dict[tuple[str, Location, str], dict[str, list[str]]] = {}
    for key, binding, what in _findings(*sides):
        kind, file, location, value = key
        label = {"member": f"member {value}: ", "property": "property: ", "field": "", "file": "", "type": ""}[kind]
        details = grouped.setdefault((file, location, RULE_OF[kind]), {})
        details.setdefault(f"{label}{what}", []).append(binding)
    for (file, location, rule), details in grouped.items():
        bindings = tuple(b for b in BINDINGS if any(b in found for found in details.values()))
        detail = "; ".join(f"{what} ({', '.join(found)})" for what, found in details.items())
        axis.changes.append(CodeChange(file, location, rule, bindings, detail))
    return axis

"""The schemas of a spec folder → every mechanical mutant of them, one change each: (file, JSON pointer,
operator, detail, mutated schema).

WHY it is shaped this way: the validation vectors are only as strong as the schema changes they notice, so
`scripts/mutation_schemas.py` judges each mutant by the vectors alone. A mutant is one edit of one keyword,
the kind an implementer makes by accident (a dropped `required` name, an off-by-one bound, a forgotten `not`, a
character missing from a class); its id is derived from the file, the JSON pointer of the edited node, the
operator and the edit itself, never from a position in a list, so the list of equivalent mutants
(scripts/equivalents/schemas.json) stays valid across runs and across edits elsewhere. Only
assertions are mutated (annotations such as `description`, `default`, `x-limits` change nothing a validator
decides), and a mutant that is not a valid 2020-12 schema, or whose pattern Python cannot compile, is left out.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from jsonschema import Draft202012Validator

from seq_io.reference.json_values import JsonObject

OPERATORS: dict[str, str] = {
    "type-widened": '`type` admits one more JSON type: + "null", + "string" (at the root and below)',
    "type-narrowed": "one JSON type dropped from a `type` list",
    "integer-number": "`type` integer → number, or number → integer",
    "bound": "a bound (minimum, maximum, exclusive*, min/maxItems, min/maxLength, min/maxProperties) ± 1",
    "inclusive-exclusive": "minimum ↔ exclusiveMinimum, maximum ↔ exclusiveMaximum (same value)",
    "enum-dropped": "one member dropped from an `enum`",
    "enum-case": "the upper-case spelling of a string member added to an `enum` (a near miss)",
    "enum-added": "a wrong value added to an `enum`: null where nothing admits it yet; 0, unassigned bits and a "
    "combination of two in an integer (flags) enum",
    "const": "`const` removed, or its value changed (a boolean negated, a string upper-cased)",
    "required-dropped": "one name dropped from `required`",
    "additionalProperties-removed": "`additionalProperties` removed (a closed object opened, a value schema dropped)",
    "anyOf-branch-removed": "one branch removed from an `anyOf`",
    "not": "`not` removed, or its subschema asserted instead of negated",
    "if-then-else": "`if`, `then` or `else` removed, or `then` and `else` swapped",
    "ref-swapped": "a `$ref` pointed at the next schema file whose root is of the same JSON type",
    "uniqueItems-removed": "`uniqueItems: true` removed",
    "propertyNames-removed": "`propertyNames` removed",
    "x-rule-removed": "an `x-rule` annotation removed (refusals then carry the keyword's name)",
    "pattern-removed": "a `pattern` removed",
    "regex-class": "one member (a character or a whole range) dropped from a character class of a pattern",
    "regex-range": "a character range of a pattern narrowed by one at either end",
    "regex-quantifier": "a quantifier of a pattern changed ({m,n} ± 1 at either end, ? dropped, + ↔ *)",
    "regex-anchor": "an anchor of a pattern removed (^, a final $, the end-of-text lookahead (?![\\s\\S]))",
    "regex-alternative": "one alternative dropped from a group of a pattern",
}
"""Every mutation operator, name → what it changes. The names are part of each mutant's id."""

BOUNDS = (
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "minItems",
    "maxItems",
    "minLength",
    "maxLength",
    "minProperties",
    "maxProperties",
)
COUNTS = frozenset({"minItems", "maxItems", "minLength", "maxLength", "minProperties", "maxProperties"})
SWAP_BOUND = {
    "minimum": "exclusiveMinimum",
    "exclusiveMinimum": "minimum",
    "maximum": "exclusiveMaximum",
    "exclusiveMaximum": "maximum",
}
SUBSCHEMA_MAPS = ("properties", "$defs", "patternProperties", "dependentSchemas")
SUBSCHEMA_LISTS = ("allOf", "anyOf", "oneOf", "prefixItems")
SUBSCHEMA_ONE = ("additionalProperties", "items", "not", "if", "then", "else", "propertyNames", "contains")


@dataclass(frozen=True)
class Mutant:
    """One edit of one schema file."""

    file: str
    pointer: str
    operator: str
    detail: str
    schema: JsonObject

    @property
    def id(self) -> str:
        return f"{self.file}#{self.pointer} {self.operator}: {self.detail}"


def _show(value: Any) -> str:
    return json.dumps(value, ensure_ascii=True, separators=(",", ":"))


def _escape(step: str | int) -> str:
    return str(step).replace("~", "~0").replace("/", "~1")


def _pointer(steps: tuple[str | int, ...]) -> str:
    return "".join("/" + _escape(step) for step in steps)


ANNOTATIONS = frozenset({"description", "title", "default", "deprecated", "$comment", "examples"})


@dataclass(frozen=True)
class _Site:
    """A subschema in a file: where it is, the JSON types a sibling `anyOf` branch admits whatever the value (a
    branch holding nothing but `type`), and whether it is the schema of member names (`propertyNames`)."""

    steps: tuple[str | int, ...]
    node: JsonObject
    admitted_beside: frozenset[str] = frozenset()
    names: bool = False


def _admits_all_of(branch: Any) -> frozenset[str]:
    """The JSON types a branch admits unconditionally: its `type` when it asserts nothing else."""
    if not isinstance(branch, dict) or set(branch) - ANNOTATIONS != {"type"}:
        return frozenset()
    kind = branch["type"]
    return frozenset([kind] if isinstance(kind, str) else kind)


def _subschemas(
    node: Any, steps: tuple[str | int, ...] = (), admitted_beside: frozenset[str] = frozenset(), names: bool = False
) -> Iterator[_Site]:
    """Every subschema object of a schema, with its location (keywords holding data are not descended into)."""
    if not isinstance(node, dict):
        return
    yield _Site(steps, node, admitted_beside, names)
    for keyword in SUBSCHEMA_MAPS:
        for name, child in (node.get(keyword) or {}).items():
            yield from _subschemas(child, (*steps, keyword, name))
    for keyword in SUBSCHEMA_LISTS:
        branches = node.get(keyword) or []
        for index, child in enumerate(branches):
            # Inside an anyOf branch, what the enclosing anyOf admits beside this node is admitted beside its own
            # branches too (`max_delta`: an anyOf of a number and an array, inside a nullable anyOf).
            beside = (
                admitted_beside.union(*(_admits_all_of(b) for i, b in enumerate(branches) if i != index))
                if keyword == "anyOf"
                else frozenset()
            )
            yield from _subschemas(child, (*steps, keyword, index), beside)
    for keyword in SUBSCHEMA_ONE:
        if keyword in node:
            yield from _subschemas(node[keyword], (*steps, keyword), names=keyword == "propertyNames")


Edit = tuple[str, str, Callable[[JsonObject], None]]
"""(operator, detail, an in-place change of the subschema at the site)."""


def _set(keyword: str, value: Any) -> Callable[[JsonObject], None]:
    def change(node: JsonObject) -> None:
        node[keyword] = value

    return change


def _drop(*keywords: str) -> Callable[[JsonObject], None]:
    def change(node: JsonObject) -> None:
        for keyword in keywords:
            node.pop(keyword, None)

    return change


def _rename(old: str, new: str) -> Callable[[JsonObject], None]:
    def change(node: JsonObject) -> None:
        node[new] = node.pop(old)

    return change


def _type_edits(node: JsonObject, admitted_beside: frozenset[str]) -> Iterator[Edit]:
    """Widening skips a type a sibling branch already admits whatever the value: that mutant validates exactly as
    the schema does, so it measures nothing."""
    value = node["type"]
    types = [value] if isinstance(value, str) else list(value)
    for extra in ("null", "string"):
        if extra not in types and extra not in admitted_beside:
            yield "type-widened", f"+ {extra}", _set("type", [*types, extra])
    if len(types) > 1:
        for dropped in types:
            rest = [t for t in types if t != dropped]
            yield "type-narrowed", f"- {dropped}", _set("type", rest[0] if len(rest) == 1 else rest)
    for old, new in (("integer", "number"), ("number", "integer")):
        if old in types and new not in types:
            swapped = [new if t == old else t for t in types]
            yield "integer-number", f"{old} -> {new}", _set("type", swapped[0] if len(swapped) == 1 else swapped)


def _bound_edits(node: JsonObject) -> Iterator[Edit]:
    for keyword in BOUNDS:
        value = node.get(keyword)
        if isinstance(value, bool) or not isinstance(value, int | float):
            continue
        for step in (1, -1):
            new = value + step
            if keyword not in COUNTS or new >= 0:
                yield "bound", f"{keyword} {_show(value)} -> {_show(new)}", _set(keyword, new)
        swapped = SWAP_BOUND.get(keyword)
        if swapped is not None and swapped not in node:
            yield "inclusive-exclusive", f"{keyword} -> {swapped}", _rename(keyword, swapped)


def _power_of_two_gaps(members: list[int]) -> list[int]:
    top = max(members)
    return [1 << bit for bit in range(top.bit_length()) if (1 << bit) not in members]


def _enum_edits(node: JsonObject, null_admitted: bool) -> Iterator[Edit]:
    """Adding null is skipped where a sibling branch already admits null (no change at all)."""
    members: list[Any] = node["enum"]
    if len(members) > 1:
        for member in members:
            yield "enum-dropped", f"- {_show(member)}", _set("enum", [m for m in members if m != member])
    for member in members:
        if isinstance(member, str) and member.upper() != member and member.upper() not in members:
            yield "enum-case", f"+ {_show(member.upper())}", _set("enum", [*members, member.upper()])
    integers = [m for m in members if isinstance(m, int) and not isinstance(m, bool)]
    if integers and len(integers) == len(members) and min(integers) > 0:
        added = [0, *_power_of_two_gaps(integers), sorted(integers)[0] + sorted(integers)[1]]
        for extra in dict.fromkeys(added):
            if extra not in members:
                yield "enum-added", f"+ {extra}", _set("enum", [*members, extra])
    elif None not in members and not null_admitted and node.get("type") is None:
        yield "enum-added", "+ null", _set("enum", [*members, None])


def _const_edits(node: JsonObject) -> Iterator[Edit]:
    value = node["const"]
    yield "const", "removed", _drop("const")
    if isinstance(value, bool):
        yield "const", f"{_show(value)} -> {_show(not value)}", _set("const", not value)
    elif isinstance(value, str):
        changed = value.upper() if value.upper() != value else value + "x"
        yield "const", f"{_show(value)} -> {_show(changed)}", _set("const", changed)
    elif isinstance(value, int | float):
        yield "const", f"{_show(value)} -> {_show(value + 1)}", _set("const", value + 1)


def _combinator_edits(node: JsonObject) -> Iterator[Edit]:
    for name in node.get("required", []):
        remaining = [n for n in node["required"] if n != name]
        yield "required-dropped", f"- {_show(name)}", _set("required", remaining)
    if "additionalProperties" in node:
        yield "additionalProperties-removed", _show(node["additionalProperties"])[:40], _drop("additionalProperties")
    branches = node.get("anyOf", [])
    if len(branches) > 1:
        for index in range(len(branches)):
            rest = [branch for i, branch in enumerate(branches) if i != index]
            yield "anyOf-branch-removed", f"branch {index}", _set("anyOf", rest)
    if "not" in node:
        yield "not", "removed", _drop("not")
        yield "not", "asserted instead of negated", _unwrap_not
    if "if" in node:
        yield "if-then-else", "if removed", _drop("if")
    for keyword in ("then", "else"):
        if keyword in node:
            yield "if-then-else", f"{keyword} removed", _drop(keyword)
    if "then" in node or "else" in node:
        yield "if-then-else", "then and else swapped", _swap_then_else
    if node.get("uniqueItems") is True:
        yield "uniqueItems-removed", "true", _drop("uniqueItems")
    if "propertyNames" in node:
        yield "propertyNames-removed", "removed", _drop("propertyNames")
    if "x-rule" in node:
        yield "x-rule-removed", str(node["x-rule"]), _drop("x-rule")


def _unwrap_not(node: JsonObject) -> None:
    node["allOf"] = [*node.get("allOf", []), node.pop("not")]


def _swap_then_else(node: JsonObject) -> None:
    then, otherwise = node.pop("then", None), node.pop("else", None)
    if otherwise is not None:
        node["then"] = otherwise
    if then is not None:
        node["else"] = then


def _ref_target(ref: str, root_types: dict[str, Any]) -> str | None:
    """The next file (sorted, cyclic) whose root `type` equals that of the file `ref` names; None if alone."""
    file = ref.split("#", 1)[0]
    if file not in root_types:
        return None
    same = sorted(name for name, kind in root_types.items() if kind == root_types[file])
    target = same[(same.index(file) + 1) % len(same)]
    return None if target == file else target


# -- patterns ----------------------------------------------------------------------------------------------------

_ESCAPE = re.compile(r"\\(u[0-9A-Fa-f]{4}|x[0-9A-Fa-f]{2}|.)", re.DOTALL)
_CLASS_ESCAPES = {"t": 9, "n": 10, "f": 12, "r": 13, "v": 11}


@dataclass(frozen=True)
class _Member:
    """One member of a character class: text span [start, end) and, for a range, the split and both code points."""

    start: int
    end: int
    low: int | None = None
    high: int | None = None
    dash: int = -1


def _read_atom(pattern: str, index: int) -> tuple[int, int | None]:
    """(end of the character or escape at `index`, its code point or None for a class escape such as \\s)."""
    if pattern[index] != "\\":
        return index + 1, ord(pattern[index])
    match = _ESCAPE.match(pattern, index)
    assert match is not None, pattern
    body = match.group(1)
    if body[0] in "ux" and len(body) > 1:
        return match.end(), int(body[1:], 16)
    if body in _CLASS_ESCAPES:
        return match.end(), _CLASS_ESCAPES[body]
    return match.end(), None if body.isalpha() else ord(body)


def _class_members(pattern: str, start: int) -> tuple[list[_Member], int]:
    """The members of the class opening at `start` (`[`), and the index after its `]`."""
    index = start + 1
    if pattern[index] == "^":
        index += 1
    members: list[_Member] = []
    while pattern[index] != "]":
        end, low = _read_atom(pattern, index)
        if pattern[end] == "-" and pattern[end + 1] != "]" and low is not None:
            high_end, high = _read_atom(pattern, end + 1)
            members.append(_Member(index, high_end, low, high, end))
            index = high_end
        else:
            members.append(_Member(index, end))
            index = end
    return members, index + 1


def _code(point: int) -> str:
    return chr(point) if 0x21 <= point <= 0x7E and chr(point) not in "\\]^-[" else f"\\u{point:04x}"


PatternEdit = tuple[str, str, str]
"""(operator, detail, the new pattern)."""


def _splice(pattern: str, start: int, end: int, new: str) -> str:
    return pattern[:start] + new + pattern[end:]


def pattern_edits(pattern: str) -> Iterator[PatternEdit]:
    """Every regex mutant of a pattern in the subset the schemas use: classes with ranges and escapes, groups with
    alternatives and lookaheads, quantifiers ? * + {m} {m,n}, the anchors ^ and $."""
    groups: list[tuple[int, list[int]]] = []  # open groups: (index of "(", indexes of its top-level "|")
    index = 0
    end_anchor = "(?![\\s\\S])"
    if pattern.startswith("^"):
        yield "regex-anchor", "^ removed", pattern[1:]
    if pattern.endswith(end_anchor):
        yield "regex-anchor", f"{end_anchor} removed", pattern[: -len(end_anchor)]
    elif pattern.endswith("$") and not pattern.endswith("\\$"):
        yield "regex-anchor", "$ removed", pattern[:-1]
    while index < len(pattern):
        char, quantifiable = pattern[index], True
        if char == "[":
            members, after = _class_members(pattern, index)
            yield from _class_edits(pattern, members)
            index = after
        elif char == "\\":
            index = _read_atom(pattern, index)[0]
        elif char == "(":
            groups.append((index, []))
            index += 3 if pattern.startswith(("(?!", "(?=", "(?:"), index) else 1
            quantifiable = False
        elif char == "|" and groups:
            groups[-1][1].append(index)
            index, quantifiable = index + 1, False
        elif char == ")":
            opening, bars = groups.pop()
            yield from _alternative_edits(pattern, opening, bars, index)
            index += 1
        else:
            index, quantifiable = index + 1, char not in "^$|"
        if quantifiable and index < len(pattern) and pattern[index] in "?*+{":
            yield from _quantifier_edits(pattern, index)
            counted = _COUNTED.match(pattern, index)
            index = counted.end() if counted else index + 1


def _class_edits(pattern: str, members: list[_Member]) -> Iterator[PatternEdit]:
    if len(members) > 1:
        for member in members:
            dropped = pattern[member.start : member.end]
            yield (
                "regex-class",
                f"{_show(dropped)} dropped at {member.start}",
                _splice(pattern, member.start, member.end, ""),
            )
    for member in members:
        if member.low is None or member.high is None or member.high <= member.low:
            continue
        low_text, high_text = pattern[member.start : member.dash], pattern[member.dash + 1 : member.end]
        narrowed_low = _code(member.low + 1) + "-" + high_text
        narrowed_high = low_text + "-" + _code(member.high - 1)
        for new in (narrowed_low, narrowed_high):
            yield (
                "regex-range",
                f"{_show(pattern[member.start : member.end])} -> {_show(new)} at {member.start}",
                _splice(pattern, member.start, member.end, new),
            )


def _alternative_edits(pattern: str, opening: int, bars: list[int], closing: int) -> Iterator[PatternEdit]:
    if not bars:
        return
    body_start = opening + 1
    cuts = [body_start - 1, *bars, closing]
    alternatives = [(cuts[i] + 1, cuts[i + 1]) for i in range(len(cuts) - 1)]
    for number, (start, end) in enumerate(alternatives):
        kept = [pattern[s:e] for i, (s, e) in enumerate(alternatives) if i != number]
        new = _splice(pattern, body_start, closing, "|".join(kept))
        yield "regex-alternative", f"{_show(pattern[start:end])} dropped from the group at {opening}", new


_COUNTED = re.compile(r"\{(\d+)(?:(,)(\d*))?\}")


def _quantifier_edits(pattern: str, index: int) -> Iterator[PatternEdit]:
    char = pattern[index]
    if char == "?":
        yield "regex-quantifier", f"? dropped at {index}", _splice(pattern, index, index + 1, "")
    elif char in "*+":
        other = "+" if char == "*" else "*"
        yield "regex-quantifier", f"{char} -> {other} at {index}", _splice(pattern, index, index + 1, other)
    elif char == "{":
        match = _COUNTED.match(pattern, index)
        if match is None:
            return
        low = int(match.group(1))
        high = None if match.group(2) is None else match.group(3)
        variants: list[str] = []
        if high is None:
            variants = [f"{{{low + 1}}}"] + ([f"{{{low - 1}}}"] if low > 0 else [])
        else:
            top = int(high) if high else None
            variants = [f"{{{low + 1},{high}}}"] if top is None or low + 1 <= top else []
            variants += [f"{{{low - 1},{high}}}"] if low > 0 else []
            if top is not None:
                variants += [f"{{{low},{top + 1}}}"] + ([f"{{{low},{top - 1}}}"] if top - 1 >= low else [])
        for new in variants:
            yield "regex-quantifier", f"{match.group(0)} -> {new} at {index}", _splice(pattern, index, match.end(), new)


# -- all mutants -------------------------------------------------------------------------------------------------


def _edits(site: _Site, root_types: dict[str, Any]) -> Iterator[Edit]:
    node = site.node
    # Member names are always strings: the type of a `propertyNames` schema, and null in its enum, change nothing.
    if "type" in node and not site.names:
        yield from _type_edits(node, site.admitted_beside)
    yield from _bound_edits(node)
    if isinstance(node.get("enum"), list):
        yield from _enum_edits(node, "null" in site.admitted_beside or site.names)
    if "const" in node:
        yield from _const_edits(node)
    yield from _combinator_edits(node)
    if isinstance(node.get("$ref"), str):
        target = _ref_target(node["$ref"], root_types)
        if target is not None:
            yield "ref-swapped", f"{node['$ref']} -> {target}", _set("$ref", target)
    if isinstance(node.get("pattern"), str):
        yield "pattern-removed", _show(node["pattern"]), _drop("pattern")
        for operator, detail, new in pattern_edits(node["pattern"]):
            yield operator, detail, _set("pattern", new)


def _at(schema: JsonObject, steps: tuple[str | int, ...]) -> JsonObject:
    node: Any = schema
    for step in steps:
        node = node[step]
    assert isinstance(node, dict)
    return node


def _acceptable(schema: JsonObject) -> bool:
    """A valid 2020-12 schema whose patterns Python's `re` compiles (the reference validates with it)."""
    try:
        Draft202012Validator.check_schema(schema)
        for site in _subschemas(schema):
            if isinstance(site.node.get("pattern"), str):
                re.compile(site.node["pattern"])
    except Exception:
        return False
    return True


def mutants(schemas: dict[str, JsonObject]) -> list[Mutant]:
    """Every mutant of every schema (file name → schema), in file order then document order; ids unique."""
    root_types = {file: schema.get("type") for file, schema in schemas.items()}
    found: dict[str, Mutant] = {}
    for file, schema in sorted(schemas.items()):
        for site in _subschemas(schema):
            for operator, detail, change in _edits(site, root_types):
                mutated = copy.deepcopy(schema)
                change(_at(mutated, site.steps))
                mutant = Mutant(file, _pointer(site.steps), operator, detail, mutated)
                assert mutant.id not in found, mutant.id
                if mutated != schema and _acceptable(mutated):
                    found[mutant.id] = mutant
    return list(found.values())

"""Two versions of the spec → every classified change, per type (`Diff`).

The walk runs over both schemas of a type at once, location by location (`$`, `$.cameras.*`, `$.at[]`): it compares
JSON types, null, enums, bounds (as sets of numbers, number_sets), defaults, properties, `required`, open or closed
content and items, stops at a `$ref` to the same type on both sides (that type is compared on its own, and the types
holding it get a `via-reference` entry), decides a location holding a union or a changed `$ref` as a whole by what
each side accepts (decide, references followed), and sets aside every subschema carrying an `x-rule`: those, the
tables of validation.md (wire rules, rules beyond the schema, normalizations) and the constants of contract.json are
compared by id. Each difference becomes a `Change` through `rules.make`, so its classification always comes from the
rule table. Why a walk of our own: no available tool classifies 2020-12 changes in both directions
(spec/compatibility.md).
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

from seq_io.bump_review import decide, number_sets, prose, regex_language, relations
from seq_io.bump_review.regex_language import Relation
from seq_io.bump_review.rules import Change, Location, make, render_location
from seq_io.bump_review.schema_walk import Schemas, closed_properties, nodes_at, occurrences
from seq_io.bump_review.snapshot import Snapshot, suite
from seq_io.reference.json_values import json_equal
from seq_io.reference.rule_ids import x_rules
from seq_io.reference.spec_data import SpecData
from seq_io.reference.validation_cases import instance_text
from seq_io.reference.wire import parse_json_text

ANNOTATIONS = frozenset(
    {
        "description",
        "title",
        "$comment",
        "examples",
        "deprecated",
        "readOnly",
        "writeOnly",
        "format",
        "contentMediaType",
        "contentEncoding",
        "x-enum-varnames",
        "x-limits",
        "$schema",
        "$id",
        "x-rule",
    }
)
ALL_TYPES = frozenset({"boolean", "string", "object", "array", "number"})
COUNT_BOUNDS = (("minLength", "maxLength"), ("minItems", "maxItems"), ("minProperties", "maxProperties"))
BOUND_KEYWORDS = (
    "maximum",
    "exclusiveMaximum",
    "minimum",
    "exclusiveMinimum",
    "multipleOf",
    "pattern",
    *(key for pair in COUNT_BOUNDS for key in pair),
    "uniqueItems",
)
"""Every keyword whose change is a `bound-…` row (places.py points an annotation at the one that changed)."""
_BOUND_RULE: dict[Relation, str] = {
    "narrowed": "bound-tightened",
    "widened": "bound-loosened",
    "changed": "bound-changed",
    "equal": "bound-changed",
}
"""The row of a bound or pattern compared as a set of values (equal ones are editorial: `_same_values`)."""
_ACCEPTS: dict[Relation, str] = {"narrowed": "a subset", "widened": "a superset", "changed": "neither", "equal": "all"}
HANDLED = frozenset(
    {
        "type",
        "enum",
        "const",
        "$ref",
        *BOUND_KEYWORDS,
        "properties",
        "required",
        "additionalProperties",
        "propertyNames",
        "items",
        "prefixItems",
    }
)
NO_RULE: dict[str, Any] = {}
"""The subschema that accepts everything: the "before" of an added rule, the "after" of a removed one."""
WIRE = "(wire)"
CONSTANTS = "(contract.json)"
_MISSING = object()


@dataclass
class View:
    """One subschema as the walk compares it: constraining keywords apart from null, annotations, rules."""

    core: dict[str, Any]
    annotations: dict[str, Any]
    nullable: bool
    default: Any
    rules: list[tuple[str, dict[str, Any]]]
    rule_id: str | None


def view(node: Any) -> View:
    """Split a subschema: a nullable `anyOf` becomes its branch plus `nullable`, `x-rule` entries of `allOf`
    are set aside, a lone `{"$ref"}` entry of `allOf` is the node's own reference."""
    if not isinstance(node, dict):
        return View({} if node in (True, None) else {"not": {}}, {}, False, _MISSING, [], None)
    node = dict(node)
    rule_id = node.get("x-rule")
    nullable = False
    branches = node.get("anyOf")
    if isinstance(branches, list) and len(branches) == 2 and {"type": "null"} in branches:
        nullable = True
        other = next(branch for branch in branches if branch != {"type": "null"})
        del node["anyOf"]
        node = {**node, **other} if isinstance(other, dict) else node
    rules: list[tuple[str, dict[str, Any]]] = []
    plain: list[Any] = []
    for entry in node.pop("allOf", []):
        if isinstance(entry, dict) and "x-rule" in entry:
            rules.append((str(entry["x-rule"]), entry))
        else:
            plain.append(entry)
    if len(plain) == 1 and isinstance(plain[0], dict) and set(plain[0]) == {"$ref"} and "$ref" not in node:
        node["$ref"], plain = plain[0]["$ref"], []
    if plain:
        node["allOf"] = plain
    annotations = {key: node.pop(key) for key in list(node) if key in ANNOTATIONS}
    default = node.pop("default", _MISSING)
    return View(node, annotations, nullable, default, rules, str(rule_id) if rule_id else None)


def strip_annotations(node: Any) -> Any:
    """A subschema without its annotations (descriptions and the like), for comparing what it demands."""
    if isinstance(node, dict):
        return {
            key: strip_annotations(value) for key, value in node.items() if key in ("x-rule",) or key not in ANNOTATIONS
        }
    if isinstance(node, list):
        return [strip_annotations(value) for value in node]
    return node


def _short(value: Any) -> str:
    text = "absent" if value is _MISSING else json.dumps(value, ensure_ascii=False, sort_keys=True)
    return text if len(text) <= 80 else text[:77] + "..."


def _same(before: Any, after: Any) -> bool:
    if before is _MISSING or after is _MISSING:
        return before is after
    return json_equal(before, after)


def _types(core: dict[str, Any]) -> frozenset[str]:
    declared = core.get("type")
    if declared is None:
        return ALL_TYPES
    names = {declared} if isinstance(declared, str) else set(declared)
    step = number_sets.number(core.get("multipleOf"))
    if "number" in names and step is not None and step > 0 and step.denominator == 1:
        names = (names - {"number"}) | {"integer"}  # D2: the numbers it accepts are integers
    return frozenset(names - {"null"})


def _union(core: dict[str, Any]) -> bool:
    return "anyOf" in core or "oneOf" in core


def _whole(v: View) -> dict[str, Any]:
    """What a location accepts, annotations, default and rules aside: its core, or that or null."""
    return {"anyOf": [v.core, {"type": "null"}]} if v.nullable else v.core


def _without_ref(v: View) -> View:
    core = {key: value for key, value in v.core.items() if key != "$ref"}
    return View(core, v.annotations, v.nullable, v.default, v.rules, v.rule_id)


def _step(core: dict[str, Any]) -> Fraction | None:
    """The grid of the numbers a location accepts: its `multipleOf`, else 1 when it accepts integers only."""
    types = _types(core)
    return number_sets.step_of(core, "integer" in types and "number" not in types)


def _contains(outer: frozenset[str], inner: frozenset[str]) -> bool:
    return all(t in outer or (t == "integer" and "number" in outer) for t in inner)


def _accepts_null(v: View) -> bool:
    if v.nullable or "$ref" in v.core:
        return v.nullable
    values = _enum(v.core, keep_null=True)
    if values is not None:
        return any(value is None for value in values)
    declared = v.core.get("type")
    return declared is None or declared == "null" or (isinstance(declared, list) and "null" in declared)


def _enum(core: dict[str, Any], *, keep_null: bool = False) -> list[Any] | None:
    values = [core["const"]] if "const" in core else core.get("enum")
    if values is None:
        return None
    return [value for value in values if keep_null or value is not None]


def _properties_trivial(node: Any) -> bool:
    """True for a subschema that accepts every value (only annotations in it)."""
    return isinstance(node, dict) and not strip_annotations({k: v for k, v in node.items() if k != "x-rule"})


def trigger_sets(rule: dict[str, Any]) -> list[frozenset[str]] | None:
    """The property sets a rule needs present before it can refuse anything: one set per way it can fire.

    `not: {required: [...]}` fires only when all are present; `if` fires only when its `required` (in each
    `anyOf` branch) are present; a bare `properties` constraint fires only when one of them is present.
    None when the rule's shape says nothing (it may fire on any instance)."""
    if isinstance(rule.get("not"), dict) and rule["not"].get("required"):
        return [frozenset(rule["not"]["required"])]
    if "if" in rule:
        return _if_triggers(rule["if"])
    constraining = set(strip_annotations(rule)) - {"x-rule", "type"}
    if constraining == {"properties"} and rule["properties"]:
        return [frozenset({name}) for name in rule["properties"]]
    return None


def _if_triggers(condition: Any) -> list[frozenset[str]] | None:
    if not isinstance(condition, dict):
        return None
    required = frozenset(condition.get("required", []))
    if "anyOf" in condition:
        found: list[frozenset[str]] = []
        for branch in condition["anyOf"]:
            more = _if_triggers(branch)
            if more is None:
                return None
            found += [required | t for t in more]
        return found
    return [required] if required else None


@dataclass
class Diff:
    """Every change between two versions, and where each type contains other types (for the backstop)."""

    changes: list[Change] = field(default_factory=list)
    via: list[Change] = field(default_factory=list)
    contains: dict[str, set[tuple[Location, str]]] = field(default_factory=dict)
    added_types: list[str] = field(default_factory=list)
    removed_types: list[str] = field(default_factory=list)

    def for_type(self, type_name: str) -> list[Change]:
        return [c for c in self.changes if c.type_name == type_name]


class _Walk:
    """The paired walk over two versions of every common type."""

    def __init__(self, base: Snapshot, head: Snapshot) -> None:
        self.base, self.head = base, head
        self.schemas = (Schemas(base.spec), Schemas(head.spec))
        self.sides = (decide.Side(base.spec), decide.Side(head.spec))
        self.rules: tuple[dict[str, dict[str, tuple[Location, dict[str, Any]]]], ...] = ({}, {})
        self.out: list[Change] = []

    def emit(self, rule: str, type_name: str, location: Location, detail: str, **override: Any) -> None:
        self.out.append(make(rule, type_name, location, detail, **override))

    def compare(self, type_name: str, location: Location, before: Any, after: Any, bases: tuple[str, str]) -> None:
        b, h = view(before), view(after)
        for side, v in enumerate((b, h)):
            for rule_id, content in v.rules:
                self.rules[side].setdefault(type_name, {})[rule_id] = (location, content)
        if b.rule_id is not None and b.rule_id == h.rule_id:
            for side, node in enumerate((before, after)):
                self.rules[side].setdefault(type_name, {})[b.rule_id] = (location, node)
            return
        for side, (v, node) in enumerate(((b, before), (h, after))):
            if v.rule_id is not None:
                self.rules[side].setdefault(type_name, {})[v.rule_id] = (location, node)
        self._annotations(type_name, location, b.annotations, h.annotations)
        if not _same(b.default, h.default):
            self.emit("default-changed", type_name, location, f"default {_short(b.default)} → {_short(h.default)}")
        referenced = "$ref" in b.core or "$ref" in h.core
        if _union(b.core) or _union(h.core) or (referenced and not self._same_type_held(b, h, bases)):
            self._by_content(type_name, location, b, h, bases)
            return
        self._null(type_name, location, b, h)
        if "$ref" in b.core:  # the same type on both sides, compared on its own; its siblings here
            b, h = _without_ref(b), _without_ref(h)
        self._types(type_name, location, b, h)
        self._enum(type_name, location, b.core, h.core)
        self._bounds(type_name, location, b.core, h.core)
        self._object(type_name, location, b.core, h.core, bases)
        self._array(type_name, location, b.core, h.core, bases)
        self._leftovers(type_name, location, b.core, h.core)

    def _annotations(self, type_name: str, location: Location, before: dict[str, Any], after: dict[str, Any]) -> None:
        # `title` and `x-enum-varnames` name generated code: seq_io.bump_review.generated_code compares them.
        for key in sorted((set(before) | set(after)) - {"x-rule", "$id", "$schema", "title", "x-enum-varnames"}):
            old, new = before.get(key, _MISSING), after.get(key, _MISSING)
            if _same(old, new):
                continue
            if key == "description":
                self._description(type_name, location, old, new)
            elif isinstance(old, list) and isinstance(new, list):
                gained = [v for v in new if v not in old]
                lost = [v for v in old if v not in new]
                what = (
                    ", ".join(
                        part
                        for part in (
                            f"gains {_short(gained)}" if gained else "",
                            f"loses {_short(lost)}" if lost else "",
                        )
                        if part
                    )
                    or "reordered"
                )
                self.emit("annotation-changed", type_name, location, f"`{key}` {what}")
            else:
                self.emit("annotation-changed", type_name, location, f"`{key}`: {_short(old)} → {_short(new)}")

    def _description(self, type_name: str, location: Location, old: Any, new: Any) -> None:
        """A description whose values (numbers, quoted strings, code spans) change may state another rule ("null
        means 95" → "75"): undecided, both ways, unless the changelog marks it editorial; any other edit is an
        annotation."""
        detail = f"`description`: {_short(old)} → {_short(new)}"
        before, after = (prose.carried_values(v if isinstance(v, str) else "") for v in (old, new))
        if before == after:
            self.emit("annotation-changed", type_name, location, detail)
            return
        lost, gained = sorted((before - after).elements()), sorted((after - before).elements())
        moved = "; ".join(
            part
            for part in (f"loses {', '.join(lost)}" if lost else "", f"gains {', '.join(gained)}" if gained else "")
            if part
        )
        self.emit(
            "description-values-changed",
            type_name,
            location,
            detail,
            note=f"undecided: the description's values changed ({moved}); the review cannot read prose, so both "
            "directions are assumed; mark it editorial in the changelog if nothing accepted or meant changed",
        )

    def _null(self, type_name: str, location: Location, b: View, h: View) -> None:
        before, after = _accepts_null(b), _accepts_null(h)
        if before != after:
            rule = "type-widened" if after else "type-narrowed"
            self.emit(rule, type_name, location, "null is now accepted" if after else "null is no longer accepted")

    def _title(self, side: int, base: str, v: View) -> str | None:
        return self.schemas[side].ref_title(base, v.core["$ref"])[2] if "$ref" in v.core else None

    def _same_type_held(self, b: View, h: View, bases: tuple[str, str]) -> bool:
        """Both sides hold the same type by `$ref` (compared on its own, where it is defined)."""
        titles = self._title(0, bases[0], b), self._title(1, bases[1], h)
        return titles[0] is not None and titles[0] == titles[1]

    def _by_content(self, type_name: str, location: Location, b: View, h: View, bases: tuple[str, str]) -> None:
        """A location the walk cannot pair keyword by keyword (a union of more than a type and null, a changed
        `$ref`, a reference replaced by an inline schema or the reverse): what each side accepts there, with
        every `$ref` followed, compared as a whole (decide), one row."""
        old, new = _whole(b), _whole(h)
        followed = [
            decide.expand(side, base, node) for side, base, node in zip(self.sides, bases, (old, new), strict=True)
        ]
        if json_equal(old, new) and json_equal(decide.core(followed[0].node), decide.core(followed[1].node)):
            return
        titles = self._title(0, bases[0], b), self._title(1, bases[1], h)
        if "$ref" in b.core and "$ref" in h.core:
            rule = "ref-changed"
            detail = f"holds `{titles[1] or h.core['$ref']}` instead of `{titles[0] or b.core['$ref']}`"
        elif "$ref" in b.core or "$ref" in h.core:
            rule = "subschema-changed"
            detail = (
                f"the reference to `{titles[0] or b.core['$ref']}` is replaced by an inline schema"
                if "$ref" in b.core
                else f"an inline schema is replaced by a reference to `{titles[1] or h.core['$ref']}`"
            )
        else:
            rule, detail = "subschema-changed", f"{_short(old)} → {_short(new)}"
        found = self._decide(type_name, location, (location, old), (location, new))
        self.emit(
            rule,
            type_name,
            location,
            detail,
            old_readers=found.old_readers,
            new_readers=found.new_readers,
            note=found.note,
            evidence=found.evidence,
            editorial=found.same,
        )

    def _types(self, type_name: str, location: Location, b: View, h: View) -> None:
        before, after = _types(b.core), _types(h.core)
        if before == after:
            declared = b.core.get("type"), h.core.get("type")
            if not _same(*declared):
                self.emit(
                    "subschema-changed",
                    type_name,
                    location,
                    f"type {_short(declared[0])} → {_short(declared[1])}",
                    old_readers=False,
                    new_readers=False,
                    editorial=True,
                    note="`integer` and `number` with an integral `multipleOf` accept the same instances (numbers "
                    "are values: 1.0 is an integer): nothing accepted on the wire changes",
                )
            return
        wider, narrower = _contains(after, before), _contains(before, after)
        rule = (
            "type-widened" if wider and not narrower else "type-narrowed" if narrower and not wider else "type-changed"
        )
        self.emit(rule, type_name, location, f"type {sorted(before)} → {sorted(after)}")

    def _enum(self, type_name: str, location: Location, before: dict[str, Any], after: dict[str, Any]) -> None:
        old, new = _enum(before), _enum(after)
        if old is None and new is None:
            return
        if old is None or new is None:
            rule = "enum-values-removed" if old is None else "enum-values-added"
            listed = _short(new if old is None else old)
            self.emit(
                rule,
                type_name,
                location,
                f"values restricted to {listed}" if old is None else f"values no longer restricted to {listed}",
            )
            return
        added = [v for v in new if not any(json_equal(v, o) for o in old)]
        removed = [v for v in old if not any(json_equal(v, n) for n in new)]
        if added:
            self.emit("enum-values-added", type_name, location, f"values added: {_short(added)}")
        if removed:
            self.emit("enum-values-removed", type_name, location, f"values removed: {_short(removed)}")

    def _bounds(self, type_name: str, location: Location, before: dict[str, Any], after: dict[str, Any]) -> None:
        self._numeric_bounds(type_name, location, before, after)
        for low, high in COUNT_BOUNDS:
            for key, sign in ((low, 1), (high, -1)):
                old_value = before.get(key, 0 if sign == 1 else math.inf)
                new_value = after.get(key, 0 if sign == 1 else math.inf)
                if old_value != new_value:
                    direction = 1 if sign * new_value > sign * old_value else -1
                    self._bound(type_name, location, direction, f"{key} {old_value} → {new_value}")
        if bool(before.get("uniqueItems")) != bool(after.get("uniqueItems")):
            self._bound(
                type_name,
                location,
                1 if after.get("uniqueItems") else -1,
                f"uniqueItems {bool(before.get('uniqueItems'))} → {bool(after.get('uniqueItems'))}",
            )
        for key in ("pattern", "multipleOf"):
            old_value, new_value = before.get(key), after.get(key)
            detail = f"{key} {_short(old_value)} → {_short(new_value)}"
            if key == "multipleOf" and _types(before) == _types(after):
                steps = _step(before), _step(after)  # D2: integers only is `multipleOf: 1`
                old_value, new_value = (None if v is None else number_sets.show(v) for v in steps)
            if old_value == new_value:
                continue
            if old_value is None or new_value is None:
                self._bound(type_name, location, -1 if new_value is None else 1, detail)
            elif key == "pattern":
                self._pattern(type_name, location, str(old_value), str(new_value), detail)
            else:
                self._multiple_of(type_name, location, old_value, new_value, detail)

    def _numeric_bounds(
        self, type_name: str, location: Location, before: dict[str, Any], after: dict[str, Any]
    ) -> None:
        """minimum/maximum and their exclusive forms, both ends at once: the accepted numbers compared as sets
        (number_sets), on the integers when the location accepts integers only; one row for the location."""
        keys = ("minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum")
        if all(_same(before.get(k, _MISSING), after.get(k, _MISSING)) for k in keys):
            return
        steps = _step(before), _step(after)
        grid = steps[0] if steps[0] == steps[1] else None
        old, new = number_sets.of(before, grid), number_sets.of(after, grid)
        detail = f"accepted numbers {old.render()} → {new.render()}"
        on = "as sets of integers" if grid == 1 else "as sets of numbers" if grid is None else "on the grid"
        narrower, wider = number_sets.includes(old, new), number_sets.includes(new, old)
        if narrower and wider:
            self._same_values(type_name, location, detail, f"compared {on}, both bounds accept the same values")
            return
        only_new, only_old = number_sets.witness(new, old), number_sets.witness(old, new)
        evidence = tuple(
            f"{number_sets.show(value)} is accepted by the {side} version only"
            for side, value in (("new", only_new), ("old", only_old))
            if value is not None
        )
        relation: Relation = "narrowed" if narrower else "widened" if wider else "changed"
        note = f"compared {on}, the new bounds accept {_ACCEPTS[relation]} of the old values"
        self.emit(_BOUND_RULE[relation], type_name, location, detail, evidence=evidence, note=note)

    def _same_values(self, type_name: str, location: Location, detail: str, how: str) -> None:
        """A bound or pattern rewritten so that it accepts the same values: one editorial `bound-changed`."""
        self.emit(
            "bound-changed",
            type_name,
            location,
            detail,
            old_readers=False,
            new_readers=False,
            editorial=True,
            note=f"{how}: nothing accepted changes",
        )

    def _pattern(self, type_name: str, location: Location, old: str, new: str, detail: str) -> None:
        """A pattern replaced by another: the two regular languages compared (regex_language), with a string in
        each difference as the witness; both directions, undecided, when a pattern is outside the subset."""
        found = regex_language.compare(old, new)
        if found is None:
            self.emit(
                "bound-changed",
                type_name,
                location,
                detail,
                note="undecided: a pattern uses a feature the review cannot compare (lookarounds, "
                "backreferences, ...), so both directions are assumed",
            )
            return
        evidence = tuple(
            f"{json.dumps(text, ensure_ascii=False)} is accepted by the {side} pattern only"
            for side, text in (("old", found.only_old), ("new", found.only_new))
            if text is not None
        )
        if found.relation == "equal":
            self._same_values(
                type_name, location, detail, "the two patterns accept the same strings (compared as regular languages)"
            )
        else:
            note = (
                "neither pattern's strings contain the other's"
                if found.relation == "changed"
                else f"the new pattern accepts {_ACCEPTS[found.relation]} of the old one's strings"
            )
            rule = _BOUND_RULE[found.relation]
            self.emit(
                rule, type_name, location, detail, evidence=evidence, note=f"{note} (compared as regular languages)"
            )

    def _multiple_of(self, type_name: str, location: Location, old: Any, new: Any, detail: str) -> None:
        """multipleOf a → b: tightened when b is a multiple of a, loosened when a is one of b, else both ways."""
        try:
            a, b = Fraction(str(old)), Fraction(str(new))
        except (ValueError, ZeroDivisionError):
            self.emit("bound-changed", type_name, location, detail, note="undecided: not two numbers")
            return
        if (b / a).denominator == 1:
            self.emit(
                "bound-tightened",
                type_name,
                location,
                detail,
                note=f"every multiple of {new} is a multiple of {old}",
                evidence=(f"{old} is accepted by the old side only",),
            )
        elif (a / b).denominator == 1:
            self.emit(
                "bound-loosened",
                type_name,
                location,
                detail,
                note=f"every multiple of {old} is a multiple of {new}",
                evidence=(f"{new} is accepted by the new side only",),
            )
        else:
            self.emit(
                "bound-changed",
                type_name,
                location,
                detail,
                evidence=(f"{old} is accepted by the old side only", f"{new} is accepted by the new side only"),
                note="neither step divides the other",
            )

    def _bound(self, type_name: str, location: Location, direction: int, detail: str) -> None:
        if direction:
            rule = {1: "bound-tightened", -1: "bound-loosened"}.get(direction, "bound-changed")
            self.emit(rule, type_name, location, detail.replace("inf", "none"))

    def _object(
        self,
        type_name: str,
        location: Location,
        before: dict[str, Any],
        after: dict[str, Any],
        bases: tuple[str, str],
    ) -> None:
        old_props, new_props = before.get("properties", {}), after.get("properties", {})
        old_extra, new_extra = before.get("additionalProperties"), after.get("additionalProperties")
        for name in sorted(set(new_props) - set(old_props)):
            self._property_added(type_name, location, name, new_props[name], old_extra)
        for name in sorted(set(old_props) - set(new_props)):
            self._property_removed(type_name, location, name, old_props[name], new_extra)
        for name in sorted(set(old_props) & set(new_props)):
            self.compare(type_name, (*location, name), old_props[name], new_props[name], bases)
        old_required, new_required = set(before.get("required", [])), set(after.get("required", []))
        for name in sorted(new_required - old_required):
            self.emit("required-added", type_name, location, f"`{name}` is now required")
        for name in sorted(old_required - new_required):
            self.emit("required-removed", type_name, location, f"`{name}` is no longer required")
        self._content(type_name, location, old_extra, new_extra, bases)
        if "propertyNames" in before or "propertyNames" in after:
            self.compare(
                type_name,
                (*location, "{key}"),
                before.get("propertyNames", {}),
                after.get("propertyNames", {}),
                bases,
            )

    def _property_added(self, type_name: str, location: Location, name: str, schema: Any, old_extra: Any) -> None:
        where = (*location, name)
        if old_extra is False:
            self.emit("property-added-closed", type_name, where, f"property `{name}` added to a closed object")
        elif _properties_trivial(schema):
            self.emit(
                "property-added-open",
                type_name,
                where,
                f"property `{name}` added to open content",
                new_readers=False,
                note="the new property accepts any value: nothing accepted changes",
                editorial=True,
            )
        else:
            constrained = isinstance(old_extra, dict) and not _properties_trivial(old_extra)
            self.emit(
                "property-added-open",
                type_name,
                where,
                f"property `{name}` added to open content",
                old_readers=constrained or None,
                note="old readers check it against their additionalProperties schema" if constrained else "",
            )

    def _property_removed(self, type_name: str, location: Location, name: str, schema: Any, new_extra: Any) -> None:
        where = (*location, name)
        if new_extra is False:
            self.emit("property-removed-closed", type_name, where, f"property `{name}` removed from a closed object")
        elif _properties_trivial(schema):
            self.emit(
                "property-removed-open",
                type_name,
                where,
                f"property `{name}` removed from open content",
                old_readers=False,
                note="the removed property accepted any value: nothing accepted changes",
                editorial=True,
            )
        else:
            self.emit("property-removed-open", type_name, where, f"property `{name}` removed from open content")

    def _content(self, type_name: str, location: Location, before: Any, after: Any, bases: tuple[str, str]) -> None:
        def state(extra: Any) -> str:
            return "closed" if extra is False else "schema" if isinstance(extra, dict) and extra else "open"

        old, new = state(before), state(after)
        if old == new == "schema":
            self.compare(type_name, (*location, "*"), before, after, bases)
        elif old != new:
            opened = (old, new) in (("closed", "open"), ("closed", "schema"), ("schema", "open"))
            self.emit(
                "content-opened" if opened else "content-closed",
                type_name,
                location,
                f"additional properties: {old} → {new}",
            )

    def _array(
        self,
        type_name: str,
        location: Location,
        before: dict[str, Any],
        after: dict[str, Any],
        bases: tuple[str, str],
    ) -> None:
        if "items" in before or "items" in after:
            self.compare(type_name, (*location, "[]"), before.get("items", {}), after.get("items", {}), bases)
        old_prefix, new_prefix = before.get("prefixItems", []), after.get("prefixItems", [])
        for index in range(max(len(old_prefix), len(new_prefix))):
            self.compare(
                type_name,
                (*location, f"[{index}]"),
                old_prefix[index] if index < len(old_prefix) else {},
                new_prefix[index] if index < len(new_prefix) else {},
                bases,
            )

    def _leftovers(self, type_name: str, location: Location, before: dict[str, Any], after: dict[str, Any]) -> None:
        for key in sorted((set(before) | set(after)) - HANDLED):
            old, new = strip_annotations(before.get(key)), strip_annotations(after.get(key))
            if (key in before) != (key in after) or not json_equal(old, new):
                found = self._decide(
                    type_name,
                    location,
                    (location, {key: before[key]} if key in before else NO_RULE),
                    (location, {key: after[key]} if key in after else NO_RULE),
                )
                self.emit(
                    "subschema-changed",
                    type_name,
                    location,
                    f"`{key}`: {_short(before.get(key, _MISSING))} → {_short(after.get(key, _MISSING))}",
                    old_readers=found.old_readers,
                    new_readers=found.new_readers,
                    note=found.note,
                    evidence=found.evidence,
                    editorial=found.same,
                )

    def compare_rules(self, type_name: str) -> None:
        """The `x-rule` subschemas of a type, by id. Each added, removed or changed rule is decided by content
        (`decide`: a proof, or a witness instance), and a rule that cannot fire on the other version's data (its
        trigger needs a property that version cannot carry) is compatible towards that data."""
        old, new = self.rules[0].get(type_name, {}), self.rules[1].get(type_name, {})
        for rule_id in sorted(set(old) | set(new)):
            if rule_id not in old:
                where, content = new[rule_id]
                silent = self._cannot_fire(self.base.spec, type_name, where, content)
                found = self._decide(type_name, where, (where, NO_RULE), (where, content))
                self.emit(
                    "rule-added",
                    type_name,
                    where,
                    f"rule `{rule_id}` added",
                    new_readers=found.new_readers and not silent,
                    note=silent or found.note,
                    evidence=found.evidence,
                )
            elif rule_id not in new:
                where, content = old[rule_id]
                silent = self._cannot_fire(self.head.spec, type_name, where, content)
                found = self._decide(type_name, where, (where, content), (where, NO_RULE))
                self.emit(
                    "rule-removed",
                    type_name,
                    where,
                    f"rule `{rule_id}` removed",
                    old_readers=found.old_readers and not silent,
                    note=silent or found.note,
                    evidence=found.evidence,
                )
            else:
                self._rule_changed(type_name, rule_id, old[rule_id], new[rule_id])

    def _decide(
        self, type_name: str, location: Location, old: tuple[Location, Any], new: tuple[Location, Any]
    ) -> decide.Decision:
        """Whom replacing the subschema `old` (base, at its location) by `new` (head) breaks, by content."""
        uris = tuple(
            self.schemas[side].root(type_name)[0] if type_name in spec.schemas else ""
            for side, spec in enumerate((self.base.spec, self.head.spec))
        )
        nodes = (nodes_at(self.base.spec, type_name, old[0]), nodes_at(self.head.spec, type_name, new[0]))
        instances = [*_instances(self.base.vectors_root, type_name), *_instances(self.head.vectors_root, type_name)]
        return decide.decide(self.sides, nodes, ((uris[0], old[1]), (uris[1], new[1])), location, instances)

    def _rule_changed(
        self,
        type_name: str,
        rule_id: str,
        old: tuple[Location, dict[str, Any]],
        new: tuple[Location, dict[str, Any]],
    ) -> None:
        if old[0] == new[0] and json_equal(strip_annotations(old[1]), strip_annotations(new[1])):
            if not json_equal(old[1], new[1]):
                self.emit("annotation-changed", type_name, new[0], f"rule `{rule_id}`: its description changed")
            return
        old_silent = self._cannot_fire(self.head.spec, type_name, old[0], old[1])
        new_silent = self._cannot_fire(self.base.spec, type_name, new[0], new[1])
        found = self._decide(type_name, new[0], old, new)
        notes = [
            f"old readers: {old_silent}" if old_silent else "",
            f"new readers: {new_silent}" if new_silent else "",
            found.note,
        ]
        self.emit(
            "rule-changed",
            type_name,
            new[0],
            f"rule `{rule_id}` now demands something else",
            old_readers=found.old_readers and not old_silent,
            new_readers=found.new_readers and not new_silent,
            note="; ".join(n for n in notes if n),
            evidence=found.evidence,
            editorial=found.same,
        )

    @staticmethod
    def _cannot_fire(other: SpecData, type_name: str, location: Location, rule: dict[str, Any]) -> str:
        """Why a rule cannot refuse any instance of the other version ("" when it might)."""
        triggers = trigger_sets(rule)
        carried = closed_properties(other, type_name, location)
        if not triggers or carried is None or any(t <= carried for t in triggers):
            return ""
        needed = " or ".join("+".join(f"`{p}`" for p in sorted(t)) for t in triggers)
        return (
            f"the rule fires only when {needed} is present, which no {other.contract_version} instance at "
            f"{render_location(location)} can carry"
        )


@cache
def _suite_instances(root: Path) -> dict[str, list[Any]]:
    """The instances of a vectors folder's validation cases, by type (unreadable files are the backstop's to
    report)."""
    files, _ = suite(root)
    out: dict[str, list[Any]] = {}
    for vector_file in files:
        if vector_file.kind == "validation":
            for case in vector_file.cases:
                value, issues = parse_json_text(instance_text(case.data))
                if not issues:
                    out.setdefault(str(vector_file.doc["type"]), []).append(value)
    return out


def _instances(root: Path | None, type_name: str) -> list[Any]:
    return [] if root is None else _suite_instances(root).get(type_name, [])


def _flatten(value: Any, prefix: str = "") -> Iterator[tuple[str, Any]]:
    if isinstance(value, dict):
        for key, inner in value.items():
            yield from _flatten(inner, f"{prefix}.{key}" if prefix else key)
    else:
        yield prefix, value


def _tables(walk: _Walk, common: set[str]) -> None:
    base, head = walk.base, walk.head
    for table in ("wire", "beyond-schema", "normalization"):
        old, new = base.tables[table], head.tables[table]
        for rule_id in sorted(set(old) | set(new)):
            owner = WIRE if table == "wire" else rule_id.split(".", 1)[0]
            if owner != WIRE and owner not in common:
                continue  # a rule of a type one side lacks: reported with type-added / type-removed
            kind = "normalization" if table == "normalization" else "rule"
            label = f"{table} rule `{rule_id}`" if kind == "rule" else f"normalization `{rule_id}`"
            if rule_id not in old:
                walk.emit(f"{kind}-added", owner, (), f"{label} added (validation.md)")
            elif rule_id not in new:
                walk.emit(f"{kind}-removed", owner, (), f"{label} removed (validation.md)")
            elif old[rule_id] != new[rule_id]:
                detail = f"{label}: its text in validation.md changed"
                found = relations.relation_change(old[rule_id], new[rule_id]) if kind == "rule" else None
                if relations.same_statement(old[rule_id], new[rule_id]):
                    walk.emit(
                        f"{kind}-changed",
                        owner,
                        (),
                        detail,
                        old_readers=False,
                        new_readers=False,
                        editorial=True,
                        note="the same words and comparisons, worded otherwise (comparison words are normalised, "
                        "spec/compatibility.md): editorial",
                    )
                elif found is None:
                    walk.emit(
                        f"{kind}-changed",
                        owner,
                        (),
                        detail,
                        note="undecided: the review cannot read prose, so both directions are assumed (mark "
                        "a rewording editorial in the changelog, spec/compatibility.md)",
                    )
                else:
                    effect, was, now = found
                    walk.emit(
                        "rule-changed",
                        owner,
                        (),
                        detail,
                        old_readers=effect != "tightened",
                        new_readers=effect != "loosened",
                        note=f"the text differs only in one comparison, {was} → {now}: the requirement is "
                        + {"tightened": "stricter", "loosened": "looser", "changed": "neither stricter nor looser"}[
                            effect
                        ],
                    )


def _constants(walk: _Walk) -> None:
    """contract.json, member by member. A changed limit named MAX_… is an upper bound (raising it lets new data
    exceed what old readers accept; lowering it refuses old data), MIN_… a lower bound; an error code's text is
    its description (editorial); any other change is undecided, both ways."""
    old = dict(_flatten({k: v for k, v in walk.base.spec.contract.items() if k != "contract_version"}))
    new = dict(_flatten({k: v for k, v in walk.head.spec.contract.items() if k != "contract_version"}))
    for key in sorted(set(old) | set(new)):
        where = tuple(key.split("."))
        if key not in old:
            walk.emit("constant-added", CONSTANTS, where, f"`{key}` = {_short(new[key])} added")
        elif key not in new:
            walk.emit("constant-removed", CONSTANTS, where, f"`{key}` removed (was {_short(old[key])})")
        elif not json_equal(old[key], new[key]):
            detail = f"`{key}`: {_short(old[key])} → {_short(new[key])}"
            name = where[-1]
            numbers = all(isinstance(v, int | float) and not isinstance(v, bool) for v in (old[key], new[key]))
            if where[0] == "error_codes":
                walk.emit("annotation-changed", CONSTANTS, where, detail + " (the code's description)")
            elif numbers and name.startswith(("MAX_", "MIN_")) and where[0] == "limits":
                loosened = (new[key] > old[key]) == name.startswith("MAX_")
                walk.emit(
                    "constant-changed",
                    CONSTANTS,
                    where,
                    detail,
                    old_readers=loosened,
                    new_readers=not loosened,
                    note=f"{name} is {'an upper' if name.startswith('MAX_') else 'a lower'} limit: "
                    + (
                        "new data may now exceed what old readers accept"
                        if loosened
                        else "old data within the old limit may now be refused"
                    ),
                )
            else:
                walk.emit(
                    "constant-changed",
                    CONSTANTS,
                    where,
                    detail,
                    note="undecided: the review cannot tell what this constant's value changes, so both "
                    "directions are assumed",
                )


def _type_detail(snapshot: Snapshot, type_name: str, verb: str) -> str:
    """`type X added (with rules …; normalizations …)`: what comes and goes with a whole type."""
    own = [
        r
        for table in ("beyond-schema", "normalization")
        for r in snapshot.tables[table]
        if r.startswith(type_name + ".")
    ]
    rules = sorted(set(x_rules(snapshot.spec.schemas[type_name]))) + sorted(own)
    return f"type `{type_name}` {verb}" + (f" (with its rules {', '.join(rules)})" if rules else "")


def diff(base: Snapshot, head: Snapshot) -> Diff:
    """Every classified change from `base` to `head`, plus `via-reference` entries and containment."""
    walk = _Walk(base, head)
    old_types, new_types = set(base.spec.schemas), set(head.spec.schemas)
    result = Diff(added_types=sorted(new_types - old_types), removed_types=sorted(old_types - new_types))
    for name in result.added_types:
        walk.emit("type-added", name, (), _type_detail(head, name, "added"))
    for name in result.removed_types:
        walk.emit("type-removed", name, (), _type_detail(base, name, "removed"))
    common = old_types & new_types
    for name in sorted(common):
        (old_base, old_root), (new_base, new_root) = walk.schemas[0].root(name), walk.schemas[1].root(name)
        walk.compare(name, (), old_root, new_root, (old_base, new_base))
        walk.compare_rules(name)
    _tables(walk, common)
    _constants(walk)
    result.changes = [*walk.out, *prose.changes(base, head)]
    for name in sorted(old_types | new_types):
        result.contains[name] = {
            *(occurrences(base.spec, name) if name in old_types else []),
            *(occurrences(head.spec, name) if name in new_types else []),
        }
    result.via = _via(result, common)
    return result


def _via(result: Diff, common: set[str]) -> list[Change]:
    """One `via-reference` entry per (type, contained type with breaking changes)."""
    entries: list[Change] = []
    for name in sorted(common):
        by_inner: dict[str, list[Location]] = {}
        for location, inner in sorted(result.contains[name]):
            if inner != name and any(c.level == "breaking" for c in result.for_type(inner)):
                by_inner.setdefault(inner, []).append(location)
        for inner, locations in sorted(by_inner.items()):
            inner_changes = [c for c in result.for_type(inner) if c.level == "breaking"]
            where = ", ".join(render_location(loc) for loc in locations)
            entries.append(
                Change(
                    name,
                    locations[0],
                    "via-reference",
                    f"holds `{inner}` at {where}: {len(inner_changes)} breaking change(s) of `{inner}` reach it",
                    any(c.old_readers for c in inner_changes),
                    any(c.new_readers for c in inner_changes),
                )
            )
    return entries

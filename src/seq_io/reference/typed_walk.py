"""A type's schema → a compiled plan of where, inside a schema-valid instance, nodes of a type with rules beyond the
schema or a normalization can sit → for one instance: the refusals of those rules and the normalized instance.

Rules beyond the schema and normalizations are written per type ("every ActionContract", "every Stream"), but those
types sit at many depths (a Stream inside Observations inside DeploymentPolicy or ConnectResponse). The plan is
derived from the schemas themselves (following `$ref`s into other files, through `anyOf`/`allOf` branches), so adding
a type or a field never means teaching this module where things nest.

WHY compiled, and pruned: the walk runs on every validation. A plan keeps only the members under which such a node can
occur, so the walk never enters what no rule looks at: an `ObserveRequest` has no plan at all, and the `inputs` of
its 1,024 frames are never visited. The walk follows the plan, not the instance, so its depth is bounded by the
schemas' nesting, never by the instance's.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any
from urllib.parse import urljoin

from seq_io.reference.issues import Issue
from seq_io.reference.json_values import JsonObject
from seq_io.reference.spec_data import SpecError

RuleCheck = Callable[[JsonObject, list[str | int]], Iterator[Issue]]
Normalization = Callable[[JsonObject], JsonObject]


@dataclass
class Plan:
    """What to do at one node of an instance: the types it is a node of (each with a rule or normalization), and
    the plans of the members and items below it that lead to such nodes."""

    types: list[str] = field(default_factory=list)
    members: dict[str, Plan] = field(default_factory=dict)
    other_members: Plan | None = None
    items: Plan | None = None

    def is_empty(self) -> bool:
        return not (self.types or self.members or self.other_members or self.items)

    def merge(self, other: Plan) -> None:
        """Add what `other` finds at the same node (another `anyOf`/`allOf` branch, or a `$ref`'s target)."""
        self.types += [name for name in other.types if name not in self.types]
        for key, plan in other.members.items():
            _merge_into(self.members, key, plan)
        self.other_members = _merged(self.other_members, other.other_members)
        self.items = _merged(self.items, other.items)


def _merged(mine: Plan | None, theirs: Plan | None) -> Plan | None:
    if theirs is None:
        return mine
    if mine is None:
        mine = Plan()
    mine.merge(theirs)
    return mine


def _merge_into(members: dict[str, Plan], key: str, plan: Plan) -> None:
    if key not in members:
        members[key] = Plan()
    members[key].merge(plan)


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


class Compiler:
    """Schemas by `$id` + the names of the types that matter → a Plan per type (or None: nothing to do)."""

    def __init__(self, schemas: list[dict[str, Any]], wanted_types: set[str]) -> None:
        self.schemas = SchemaSet(schemas)
        self.wanted = wanted_types
        self._following: list[str] = []  # the `$ref`s being followed, outermost first: a repeat is a cycle

    def plan_for(self, uri: str) -> Plan | None:
        root = self.schemas.by_uri[uri]
        self._following = [uri]
        plan = self._plan(root, uri)
        if root.get("title") in self.wanted:
            plan.types.append(root["title"])
        return None if plan.is_empty() else plan

    def _plan(self, schema: Any, base: str) -> Plan:
        plan = Plan()
        if not isinstance(schema, dict):
            return plan
        if "$ref" in schema:
            target_base, target = self.schemas.resolve(base, schema["$ref"])
            where = urljoin(base, schema["$ref"])
            if where in self._following:
                cycle = " -> ".join([*self._following[self._following.index(where) :], where])
                raise SpecError(
                    f"the schemas refer to themselves ({cycle}): a spec's schemas may not be recursive, "
                    "since the rules beyond the schema are planned by walking them to the end"
                )
            self._following.append(where)
            plan.merge(self._plan(target, target_base))
            self._following.pop()
            if "$id" in target and target.get("title") in self.wanted:
                plan.types.append(target["title"])
        for keyword in ("anyOf", "allOf"):
            for branch in schema.get(keyword, ()):
                plan.merge(self._plan(branch, base))
        for key, member in schema.get("properties", {}).items():
            found = self._plan(member, base)
            if not found.is_empty():
                _merge_into(plan.members, key, found)
        if isinstance(schema.get("additionalProperties"), dict):
            found = self._plan(schema["additionalProperties"], base)
            plan.other_members = None if found.is_empty() else found
        if isinstance(schema.get("items"), dict):
            found = self._plan(schema["items"], base)
            plan.items = None if found.is_empty() else found
        return plan


def apply(
    plan: Plan,
    value: Any,
    path: list[str | int],
    issues: list[Issue],
    rules: Mapping[str, list[RuleCheck]],
    normalizations: Mapping[str, Normalization],
) -> Any:
    """Check every rule on the nodes the plan reaches (as they came) and return the instance normalized, deepest
    nodes first; containers are rebuilt only where something below them changed."""
    if value is None:
        return value
    new = value
    if isinstance(value, dict):
        changed: dict[str, Any] = {}
        for key, member in value.items():
            member_plan = plan.members.get(key, plan.other_members)
            if member_plan is not None:
                out = apply(member_plan, member, [*path, key], issues, rules, normalizations)
                if out is not member:
                    changed[key] = out
        if changed:
            new = {**value, **changed}
    elif isinstance(value, list) and plan.items is not None:
        items = [
            apply(plan.items, item, [*path, index], issues, rules, normalizations) for index, item in enumerate(value)
        ]
        if any(out is not item for out, item in zip(items, value, strict=True)):
            new = items
    for type_name in plan.types:
        for check in rules.get(type_name, ()):
            issues.extend(check(value, path))
        normalize = normalizations.get(type_name)
        if normalize is not None:
            new = normalize(new)
    return new

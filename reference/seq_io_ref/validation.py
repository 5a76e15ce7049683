"""The validation API: (type name, JSON text or value) → wire rules → JSON Schema → rules beyond the schema →
normalization → generated pydantic model, or a list of Issues.

The JSON Schema is the validator of record; the generated models are only the typed result, because
datamodel-code-generator drops `if`/`then`, `not`, `uniqueItems` and lets lax coercions through (see
spec/validation.md, "Where the models are looser"). Errors are never raised for a user's bad input: every
refusal comes back as an `Issue` carrying the JSON path, the rule id and a sentence.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from pydantic import TypeAdapter
from pydantic import ValidationError as ModelError
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from seq_io_ref import beyond_schema, typed_walk
from seq_io_ref.issues import Issue, format_path
from seq_io_ref.schema_errors import issue_from_error, leaf_errors
from seq_io_ref.spec_data import SpecData, load_spec, own_spec_root
from seq_io_ref.wire import non_json_values, parse_json_text

UNKNOWN_TYPE = "api.unknown-type"
MODEL_REFUSED = "api.model-refused"


@dataclass
class Outcome:
    """What validating one instance gave: the normalized value and model when valid, else the issues."""

    type_name: str
    issues: list[Issue] = field(default_factory=list)
    normalized: Any = None
    model: Any = None

    @property
    def valid(self) -> bool:
        return not self.issues


class Contract:
    """One spec version, ready to validate: its schemas in a registry, one validator per type."""

    def __init__(self, spec: SpecData, *, fast: bool = False, models: bool = True) -> None:
        self.spec = spec
        self.models = models
        resources = [(s["$id"], Resource.from_contents(s, default_specification=DRAFT202012))
                     for s in spec.schemas.values()]
        self.registry: Registry[Any] = Registry().with_resources(resources)
        self._validators = {name: Draft202012Validator(schema, registry=self.registry)
                            for name, schema in spec.schemas.items()}
        self._fast_checks = _fast_checks(spec) if fast else {}
        self._schema_set = typed_walk.SchemaSet(list(spec.schemas.values()))

    @property
    def type_names(self) -> list[str]:
        return self.spec.type_names

    def validate_text(self, type_name: str, text: str) -> Outcome:
        """Validate one JSON document given as text (the wire form)."""
        value, issues = parse_json_text(text)
        if issues:
            return Outcome(type_name, issues=issues)
        return self._validate_json_value(type_name, value)

    def validate_value(self, type_name: str, value: Any) -> Outcome:
        """Validate a value built in memory (it is first checked to be a JSON value at all)."""
        return Outcome(type_name, issues=non_json_values(value)) if non_json_values(value) else \
            self._validate_json_value(type_name, value)

    def _validate_json_value(self, type_name: str, value: Any) -> Outcome:
        if type_name not in self._validators:
            known = ", ".join(self.type_names)
            return Outcome(type_name, [Issue("$", UNKNOWN_TYPE, f"no type {type_name!r}; known types: {known}")])
        issues = self._schema_issues(type_name, value)
        if issues:
            return Outcome(type_name, issues=issues)
        nodes = list(typed_walk.walk(type_name, value, self._schema_set, self.spec.schemas[type_name]["$id"]))
        issues = [issue for node in nodes for check in beyond_schema.RULES.get(node.type_name, [])
                  for issue in check(node.node, list(node.path))]
        if issues:
            return Outcome(type_name, issues=sorted(issues))
        normalized = _normalize(value, nodes)
        if not self.models:
            return Outcome(type_name, normalized=normalized)
        try:
            model = model_adapter(type_name).validate_python(normalized)
        except ModelError as error:  # A gap between schema and models: report it rather than crash.
            return Outcome(type_name, [Issue(format_path(list(e["loc"])), MODEL_REFUSED, e["msg"])
                                       for e in error.errors()])
        return Outcome(type_name, normalized=normalized, model=model)

    def _schema_issues(self, type_name: str, value: Any) -> list[Issue]:
        fast_check = self._fast_checks.get(type_name)
        if fast_check is not None and fast_check(value):
            return []
        root = self.spec.schemas[type_name]
        found = {issue_from_error(leaf, root, self.registry)
                 for error in self._validators[type_name].iter_errors(value) for leaf in leaf_errors(error)}
        return sorted(found)


def _fast_checks(spec: SpecData) -> dict[str, Callable[[Any], bool]]:
    """jsonschema-rs validators (2020-12) answering only "valid?"; the explanation of a refusal still comes from
    `jsonschema`, so both paths report the same issues. tests/test_fast_path.py proves they agree on every vector."""
    import jsonschema_rs

    registry = jsonschema_rs.Registry([(s["$id"], s) for s in spec.schemas.values()])
    return {name: jsonschema_rs.Draft202012Validator(schema, registry=registry).is_valid
            for name, schema in spec.schemas.items()}


def _normalize(value: Any, nodes: list[typed_walk.TypedNode]) -> Any:
    """Apply each type's normalization, deepest nodes first, rebuilding the containers on the way up."""
    for node in nodes:
        normalize = beyond_schema.NORMALIZATIONS.get(node.type_name)
        if normalize is not None:
            value = _replace_at(value, node.path, normalize(_get_at(value, node.path)))
    return value


def _get_at(value: Any, path: tuple[str | int, ...]) -> Any:
    for step in path:
        value = value[step]
    return value


def _replace_at(value: Any, path: tuple[str | int, ...], new: Any) -> Any:
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(value, list):
        assert isinstance(head, int)
        return [*value[:head], _replace_at(value[head], rest, new), *value[head + 1:]]
    return {**value, head: _replace_at(value[head], rest, new)}


@cache
def model_adapter(type_name: str) -> TypeAdapter[Any]:
    """The generated pydantic model of a type (of the package's own spec: models are generated from it)."""
    module = importlib.import_module(f"seq_io_models.{type_name}")
    return TypeAdapter(getattr(module, type_name))


def to_json_value(type_name: str, model: Any) -> Any:
    """A model of a type (an Outcome's `model`, or one an SDK built) → the JSON value it stands for.

    Exactly the members the model was given (`exclude_unset`: a default is the meaning of an absent member and is
    never written, spec/validation.md "Writing an instance"), each number of the kind it came in (the models type
    `number` as `int | float`). For a model of a valid instance this is its normalized form; tests/test_models.py
    checks it on every valid vector."""
    return model_adapter(type_name).dump_python(model, mode="json", exclude_unset=True, by_alias=True)


@cache
def contract(spec_root: Path | None = None, *, fast: bool = False) -> Contract:
    """The Contract for a spec folder (the one in force by default), built once; `fast` needs jsonschema-rs.

    The generated models were generated from the package's own schemas, so they type the result only when the
    folder's schemas are exactly those (another release's folder is validated by its schemas and rules alone)."""
    spec = load_spec(spec_root)
    own = load_spec(own_spec_root())
    return Contract(spec, fast=fast, models=spec.schemas == own.schemas)


@cache
def checking_contract() -> Contract:
    """The repository's Contract for the reference functions that check their inputs (of, rows_of): the jsonschema-rs
    fast path when it is installed (it decides exactly as the main path: tests/test_fast_path.py), else the main path.
    """
    return contract(fast=importlib.util.find_spec("jsonschema_rs") is not None)

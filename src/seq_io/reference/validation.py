"""The validation API: (type name, JSON text or value) → wire rules and limits → JSON Schema → rules beyond the schema
→ normalization → an Outcome (the normalized value, and on request the generated pydantic model), or a list of Issues.

The JSON Schema is the validator of record; the generated models are only the typed result, because
datamodel-code-generator drops `if`/`then`, `not`, `uniqueItems` and lets lax coercions through (see
spec/validation.md, "Where the models are looser"). Errors are never raised for a user's bad input: every
refusal comes back as an `Issue` carrying the JSON path, the rule id and a sentence.

WHY two paths: the pure-Python path (`seq_io.reference.wire`'s reader, `jsonschema`) is the reference of record and the
fallback. Where the Rust helpers import (jiter, jsonschema-rs: base dependencies on the platforms that have wheels),
a Contract first asks them one question, "is this text a valid instance?", in one parse and one walk in Rust
(`seq_io.reference.fast_wire`: the type's schema and the wire screen in one jsonschema-rs validator). Only a "no", or a
text they cannot vouch for, takes the pure-Python path, which finds and explains the refusals. Both paths decide
every vector alike and report the same issues (tests/test_fast_path.py). The model is built when first asked for:
most callers (a worker, `of`) need the decision and the normalized value only.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter
from pydantic import ValidationError as ModelError
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from seq_io.reference import beyond_schema, bounded_schema, fast_wire, typed_walk
from seq_io.reference.issues import MAX_ISSUES, Issue, format_path
from seq_io.reference.json_values import JsonValue
from seq_io.reference.schema_errors import issue_from_error, leaf_errors
from seq_io.reference.spec_data import SpecData, load_spec, own_spec_root
from seq_io.reference.wire import check_value, parse_json_text

UNKNOWN_TYPE = "api.unknown-type"
MODEL_REFUSED = "api.model-refused"

FAST_PATH_AVAILABLE = importlib.util.find_spec("jsonschema_rs") is not None
"""jsonschema-rs imports here (it decides validity; jiter, when it imports too, reads the text)."""


class ModelGapError(Exception):
    """The generated model refused an instance the schema accepted: a gap between `generated/` and `spec/schemas/`,
    a bug of this package, never a user's mistake (tests/test_validation_vectors.py types every valid vector)."""


class Outcome:
    """What validating one instance gave: the normalized value when valid (and its model, built on first access),
    else the issues. A plain class with slots: one is made per validation, on the hot path."""

    __slots__ = ("_model", "issues", "normalized", "type_name", "typed")

    def __init__(
        self, type_name: str, issues: list[Issue] | None = None, normalized: Any = None, typed: bool = False
    ) -> None:
        self.type_name = type_name
        self.issues = [] if issues is None else issues
        self.normalized = normalized
        self.typed = typed
        self._model: Any = _NOT_BUILT

    def __repr__(self) -> str:
        return f"Outcome({self.type_name!r}, issues={self.issues!r}, normalized={self.normalized!r})"

    @property
    def valid(self) -> bool:
        return not self.issues

    @property
    def model(self) -> Any:
        """The generated pydantic model of the normalized instance; None when invalid or when the Contract does not
        type its results (another spec folder than the repository's). Raises ModelGapError on a schema/model gap."""
        if self._model is _NOT_BUILT:
            self._model = self._build_model()
        return self._model

    def _build_model(self) -> Any:
        if self.issues or not self.typed:
            return None
        try:
            return model_adapter(self.type_name).validate_python(self.normalized)
        except ModelError as error:
            gaps = "; ".join(f"{format_path(list(e['loc']))}: {e['msg']} [{MODEL_REFUSED}]" for e in error.errors())
            raise ModelGapError(f"the generated {self.type_name} model refused a valid instance: {gaps}") from None


_NOT_BUILT = object()


class Contract:
    """One spec version, ready to validate: its schemas in a registry, one validator per type, and per type the plan
    of where rules beyond the schema and normalizations apply. `fast`: use jsonschema-rs (and jiter) for the
    decision; None (the default) uses them whenever they import."""

    def __init__(self, spec: SpecData, *, fast: bool | None = None, models: bool = True) -> None:
        self.spec = spec
        self.models = models
        self.fast = FAST_PATH_AVAILABLE if fast is None else fast
        resources = [
            (s["$id"], Resource.from_contents(s, default_specification=DRAFT202012)) for s in spec.schemas.values()
        ]
        self.registry: Registry[Any] = Registry().with_resources(resources)
        self._resolve = bounded_schema.resolver(self.registry)
        validator_class = bounded_schema.bounded_validator_class()
        self._validators = {
            name: validator_class(schema, registry=self.registry) for name, schema in spec.schemas.items()
        }
        fast_checks: tuple[Any, dict[str, Check], dict[str, Check], Check] = (
            _fast_checks(spec) if self.fast else (None, {}, {}, _never)
        )
        self._rs_registry, self._schema_checks, self._text_checks, self._screen = fast_checks
        self._subschema_checks: dict[str, Check] = {}
        compiler = typed_walk.Compiler(
            list(spec.schemas.values()), set(beyond_schema.RULES) | set(beyond_schema.NORMALIZATIONS)
        )
        self._plans = {name: compiler.plan_for(schema["$id"]) for name, schema in spec.schemas.items()}

    @property
    def type_names(self) -> list[str]:
        return self.spec.type_names

    def validate_text(self, type_name: str, text: str) -> Outcome:
        """Validate one JSON document given as text (the wire form)."""
        text_check = self._text_checks.get(type_name)
        if text_check is not None:
            value = fast_wire.read(text)
            if isinstance(value, fast_wire.Refused):
                return Outcome(type_name, issues=[value.issue])
            if value is not fast_wire.NOT_READ:
                if text_check(value):
                    if self._plans[type_name] is None:  # the common case: nothing beyond the schema to do
                        return Outcome(type_name, None, value, self.models)
                    return self._accepted(type_name, value)
                if self._screen(value):  # jiter read it exactly: only the schema or a rule refuses it
                    return self._validate_json_value(type_name, value)
        value, issues = parse_json_text(text)
        if issues:
            return Outcome(type_name, issues=issues[:MAX_ISSUES])
        return self._validate_json_value(type_name, value)

    def validate_value(self, type_name: str, value: Any) -> Outcome:
        """Validate a value built in memory: first checked to be a JSON value within the limits, decided as the
        text API decides the same document."""
        issues = check_value(value)
        if issues:
            return Outcome(type_name, issues=issues[:MAX_ISSUES])
        return self._validate_json_value(type_name, value)

    def _validate_json_value(self, type_name: str, value: Any) -> Outcome:
        if type_name not in self._validators:
            known = ", ".join(self.type_names)
            return Outcome(type_name, [Issue("$", UNKNOWN_TYPE, f"no type {type_name!r}; known types: {known}")])
        issues = self._schema_issues(type_name, value)
        if issues:
            return Outcome(type_name, issues=issues)
        return self._accepted(type_name, value)

    def _accepted(self, type_name: str, value: Any) -> Outcome:
        """A schema-valid instance → the rules beyond the schema → normalized."""
        plan = self._plans[type_name]
        if plan is None:
            return Outcome(type_name, normalized=value, typed=self.models)
        issues: list[Issue] = []
        normalized = typed_walk.apply(plan, value, [], issues, beyond_schema.RULES, beyond_schema.NORMALIZATIONS)
        if issues:
            return Outcome(type_name, issues=sorted(issues))
        return Outcome(type_name, normalized=normalized, typed=self.models)

    def _schema_issues(self, type_name: str, value: Any) -> list[Issue]:
        schema_check = self._schema_checks.get(type_name)
        if schema_check is not None and schema_check(value):
            return []
        root = self.spec.schemas[type_name]
        errors = bounded_schema.explain(
            self._validators[type_name],
            root,
            self._resolve,
            value,
            wanted=MAX_ISSUES,
            check=self._subschema_check if self._schema_checks else None,
        )
        # When jsonschema-rs said "no" and jsonschema finds nothing, jsonschema (the validator of record) decides.
        leaves = (leaf for error in errors for leaf in leaf_errors(error))
        return sorted({issue_from_error(leaf, root, self.registry) for leaf in leaves})[:MAX_ISSUES]

    def _subschema_check(self, base: str, pointer: str) -> Check:
        """A jsonschema-rs check of one subschema (`base#pointer`), compiled once."""
        key = f"{base}#{pointer}"
        check = self._subschema_checks.get(key)
        if check is None:
            import jsonschema_rs

            check = self._subschema_checks[key] = jsonschema_rs.Draft202012Validator(
                {"$schema": "https://json-schema.org/draft/2020-12/schema", "$ref": key}, registry=self._rs_registry
            ).is_valid
        return check


Check = Callable[[Any], bool]


def _never(_: Any) -> bool:
    return False


def _fast_checks(spec: SpecData) -> tuple[Any, dict[str, Check], dict[str, Check], Check]:
    """jsonschema-rs validators (2020-12) answering only "valid?", per type: one for values already checked by the
    reader of record, and one for values read by jiter, which must also pass the wire screen (fast_wire.SCREEN);
    the second exists only when jiter imports; and the screen alone. The explanation of a refusal always comes from
    `jsonschema`."""
    import jsonschema_rs

    registry = jsonschema_rs.Registry(
        [*((s["$id"], s) for s in spec.schemas.values()), (fast_wire.SCREEN_ID, fast_wire.SCREEN)]
    )
    schema_checks: dict[str, Check] = {
        name: jsonschema_rs.Draft202012Validator(schema, registry=registry).is_valid
        for name, schema in spec.schemas.items()
    }
    screen = jsonschema_rs.Draft202012Validator(fast_wire.SCREEN, registry=registry).is_valid
    if not fast_wire.AVAILABLE:
        return registry, schema_checks, {}, screen
    text_checks: dict[str, Check] = {
        name: jsonschema_rs.Draft202012Validator(
            {
                "$schema": "https://json-schema.org/draft/2020-12/schema",
                "allOf": [{"$ref": schema["$id"]}, {"$ref": fast_wire.SCREEN_ID}],
            },
            registry=registry,
        ).is_valid
        for name, schema in spec.schemas.items()
    }
    return registry, schema_checks, text_checks, screen


@cache
def model_adapter(type_name: str) -> TypeAdapter[Any]:
    """The generated pydantic model of a type (of the package's own spec: models are generated from it)."""
    module = importlib.import_module(f"seq_io_models.{type_name}")
    return TypeAdapter(getattr(module, type_name))


def to_json_value(type_name: str, model: Any) -> JsonValue:
    """A model of a type (an Outcome's `model`, or one an SDK built) → the JSON value it stands for.

    Exactly the members the model was given (`exclude_unset`: a default is the meaning of an absent member and is
    never written, spec/validation.md "Writing an instance"), each number of the kind it came in (the models type
    `number` as `int | float`). For a model of a valid instance this is its normalized form; tests/test_models.py
    checks it on every valid vector."""
    return model_adapter(type_name).dump_python(model, mode="json", exclude_unset=True, by_alias=True)


@cache
def contract(spec_root: Path | None = None, *, fast: bool | None = None) -> Contract:
    """The Contract for a spec folder (the one in force by default), built once. `fast`: None (the default)
    uses jsonschema-rs and jiter whenever they import; False is the pure-Python path of record; True requires them.

    The generated models were generated from the package's own schemas, so they type the result only when the
    folder's schemas are exactly those (another release's folder is validated by its schemas and rules alone)."""
    spec = load_spec(spec_root)
    own = load_spec(own_spec_root())
    return Contract(spec, fast=fast, models=spec.schemas == own.schemas)


def checking_contract() -> Contract:
    """The repository's Contract for the reference functions that check their inputs (of, rows_of)."""
    return contract()

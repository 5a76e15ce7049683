"""jsonschema's raw errors → Issues with the rule they break: error tree → leaf errors → (path, rule, sentence).

The rule of a failing keyword is the nearest `x-rule` annotation on the way from the type's root schema down to
the keyword (so every cross-field rule the schemas express has a stable, named id), and otherwise the keyword's
own name (`maximum`, `required`, ...). Nullable fields are written `anyOf: [X, {"type": "null"}]` (and
`max_delta` is a number or an array); the only useful explanation of a failed `anyOf` is why the instance failed
the branches of its own JSON type, so the walk descends into those instead of reporting "not valid under any of
the given schemas", and reports `type` when no branch is of the instance's type.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from jsonschema.exceptions import ValidationError
from referencing import Registry

from seq_io.reference.issues import Issue, format_path, quote


def leaf_errors(error: ValidationError) -> Iterator[ValidationError]:
    """Yield the errors that explain `error` (spec/validation.md, "Rule ids"): for a failed `anyOf`/`oneOf`, the
    errors of every branch that admits the instance's JSON type (a branch admits it unless its own `type` refuses
    it), never the `anyOf` itself; when no branch admits it, the one `type` refusal at the instance."""
    if error.validator in ("anyOf", "oneOf") and error.context:
        by_branch: dict[int, list[ValidationError]] = {}
        for sub in error.context:
            by_branch.setdefault(int(sub.relative_schema_path[0]), []).append(sub)
        candidates = [
            index
            for index in range(len(error.validator_value))
            if not any(_wrong_type_at_branch_root(sub) for sub in by_branch.get(index, []))
        ]
        if not candidates:  # of no branch's type: a `type` refusal, taken from the first branch that says so
            yield next(
                sub for index in sorted(by_branch) for sub in by_branch[index] if _wrong_type_at_branch_root(sub)
            )
            return
        for index in candidates:
            for sub in by_branch.get(index, []):
                yield from leaf_errors(sub)
        return
    yield error


def _wrong_type_at_branch_root(sub: ValidationError) -> bool:
    """True when a branch failed because the instance is not of its JSON type (at the branch's own level)."""
    return sub.validator == "type" and not sub.relative_path


def _rule_along(schema_path: list[str | int], root: dict[str, Any], registry: Registry[Any]) -> tuple[str, str]:
    """Follow an absolute schema path through `$ref`s; return (nearest x-rule id, its description)."""
    resolver = registry.resolver(base_uri=root["$id"])
    node: Any = root
    found = ("", "")
    for step in schema_path:
        if isinstance(node, dict) and "x-rule" in node:
            found = (node["x-rule"], node.get("description", ""))
        # jsonschema leaves `$ref` out of the path when it follows one: resolve it when the step is not here.
        while isinstance(node, dict) and "$ref" in node and (step == "$ref" or step not in node):
            resolved = resolver.lookup(node["$ref"])
            resolver, node = resolved.resolver, resolved.contents
            if isinstance(node, dict) and "x-rule" in node:
                found = (node["x-rule"], node.get("description", ""))
        if step != "$ref":
            node = node[step]
    return found


_short = quote

_KEYS_NAMED = 5
"""An unknown-keys sentence names at most this many keys (each quoted short), then says how many more there are."""


def _unknown_keys(error: ValidationError) -> str:
    known = error.schema.get("properties", {})
    unknown = sorted(key for key in error.instance if key not in known)
    named = ", ".join(quote(key) for key in unknown[:_KEYS_NAMED])
    more = f" and {len(unknown) - _KEYS_NAMED} more" if len(unknown) > _KEYS_NAMED else ""
    return f"unknown key(s) {named}{more}: this object is closed"


def _keyword_sentence(error: ValidationError) -> str:
    """A plain sentence for a failing JSON Schema keyword."""
    keyword, expected, instance = error.validator, error.validator_value, error.instance
    templates: dict[str, Callable[[], str]] = {
        "type": lambda: (
            f"must be of JSON type {' or '.join(expected) if isinstance(expected, list) else expected},"
            f" not {_short(instance)}"
        ),
        "enum": lambda: f"must be one of {', '.join(_short(v) for v in expected)}; got {_short(instance)}",
        "const": lambda: f"must be {_short(expected)}; got {_short(instance)}",
        "required": lambda: error.message.replace("is a required property", "is required but missing"),
        "additionalProperties": lambda: _unknown_keys(error),
        "minimum": lambda: f"must be at least {expected}; got {_short(instance)}",
        "maximum": lambda: f"must be at most {expected}; got {_short(instance)}",
        "exclusiveMinimum": lambda: f"must be greater than {expected}; got {_short(instance)}",
        "exclusiveMaximum": lambda: f"must be less than {expected}; got {_short(instance)}",
        "minItems": lambda: f"must hold at least {expected} item(s); it holds {len(instance)}",
        "maxItems": lambda: f"must hold at most {expected} item(s); it holds {len(instance)}",
        "minProperties": lambda: f"must have at least {expected} key(s); it has {len(instance)}",
        "maxProperties": lambda: f"must have at most {expected} key(s); it has {len(instance)}",
        "minLength": lambda: f"must be at least {expected} character(s) long (code points)",
        "maxLength": lambda: f"must be at most {expected} character(s) long (code points); it has {len(instance)}",
        "uniqueItems": lambda: "must not hold two equal items (numbers compare by value: 0, 0.0 and -0.0 are equal)",
        "pattern": lambda: f"{_short(instance)} does not match the required pattern",
        "not": lambda: f"{_short(instance)} is a form this field forbids",
    }
    make = templates.get(str(keyword))
    return make() if make else str(error.message)


def issue_from_error(error: ValidationError, root: dict[str, Any], registry: Registry[Any]) -> Issue:
    """Name the rule a leaf error breaks and say it in words."""
    rule_id, rule_text = _rule_along(list(error.absolute_schema_path), root, registry)
    sentence = _keyword_sentence(error)
    path = format_path(list(error.absolute_path))
    if str(error.validator) != "additionalProperties" and _in_property_names(error):
        sentence = f"the key {_short(error.instance)} is refused: {sentence}"
    if rule_id:
        return Issue(path, rule_id, f"{rule_text} ({sentence})" if rule_text else sentence)
    return Issue(path, str(error.validator), sentence)


def _in_property_names(error: ValidationError) -> bool:
    return "propertyNames" in list(error.absolute_schema_path)

"""Every `uniqueItems` of spec/schemas, at every place a type reaches it (scripts/seq_io_maint/unique_positions.py),
and the testee hello's `kinds` → large arrays of distinct items, duplicates, number and key-order equality → the
issues, and the number of item comparisons the check made.

WHY counted, not timed: the machines are shared, so a duration proves nothing. jsonschema's own `uniqueItems`
compares every pair of items it cannot sort (objects), through `jsonschema._utils.equal`; the linear one builds one
canonical form per item (`bounded_schema.canonical`). Both are counted, and the count must stay linear in the
number of items (a budget of a few per item; past it the check is stopped, so a quadratic regression fails at
once instead of hanging). The messages are checked against the stock jsonschema explanation of the same small
instance: the linear check finds the same duplicates and says them in the same words at the same path.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import jsonschema
import pytest
from jsonschema import Draft202012Validator

from seq_io.reference import bounded_schema
from seq_io.reference.issues import MAX_ISSUES, Issue
from seq_io.reference.schema_errors import issue_from_error, leaf_errors
from seq_io.reference.validation import Contract, contract
from seq_io.runner.protocol import Traffic
from seq_io_maint.unique_positions import Position, positions

POSITIONS = positions()
LARGE = 10_000
"""Items in a large array: past every `maxItems` of the contract, and what a quadratic check cannot get through."""
PER_ITEM = 4
"""Comparisons and canonical forms allowed per item (the linear check needs one form per item)."""


class BudgetExceededError(Exception):
    """More comparisons than the budget: the check went quadratic."""


class Counter:
    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.count = 0

    def wrap(self, function: Callable[..., Any]) -> Callable[..., Any]:
        def counted(*args: Any) -> Any:
            self.count += 1
            if self.count > self.budget:
                raise BudgetExceededError(f"more than {self.budget} comparisons or canonical forms")
            return function(*args)

        return counted


@contextmanager
def comparisons(monkeypatch: pytest.MonkeyPatch, budget: int) -> Iterator[Counter]:
    """Counts jsonschema's pairwise `equal` calls and the linear check's canonical forms while the block runs."""
    counter = Counter(budget)
    with monkeypatch.context() as patch:
        patch.setattr(jsonschema._utils, "equal", counter.wrap(jsonschema._utils.equal))
        patch.setattr(bounded_schema, "canonical", counter.wrap(bounded_schema.canonical))
        yield counter


def contracts() -> list[Contract]:
    """The default path (jsonschema-rs decides, jsonschema explains) and the pure-Python path of record."""
    return [contract(), contract(fast=False)]


def distinct_objects(count: int) -> list[Any]:
    """Objects: jsonschema cannot sort them, so its own check compares them pair by pair."""
    return [{"k": index} for index in range(count)]


def issues_at(issues: list[Issue], path: str) -> list[tuple[str, str]]:
    return sorted({(issue.path, issue.rule) for issue in issues if issue.path == path})


def stock_issues(the_contract: Contract, type_name: str, instance: Any) -> list[Issue]:
    """What jsonschema's own validator (pairwise uniqueItems, nothing skipped) explains for a small instance."""
    root = the_contract.spec.schemas[type_name]
    validator = Draft202012Validator(root, registry=the_contract.registry)
    errors = list(validator.iter_errors(instance))[:MAX_ISSUES]
    leaves = (leaf for error in errors for leaf in leaf_errors(error))
    return sorted({issue_from_error(leaf, root, the_contract.registry) for leaf in leaves})[:MAX_ISSUES]


def by_label(position: Position) -> str:
    return position.label


def test_the_walk_finds_every_known_route() -> None:
    labels = {position.label for position in POSITIONS}
    assert {
        "Stream $.at",
        "Observations $.streams.a.at",
        "DeploymentPolicy $.models",
        "DeploymentPolicy $.observations.streams.a.at",
    } <= labels
    for position in POSITIONS:
        value = position.instance([1, 2])
        for step in position.route:
            value = value[step]
        assert value == [1, 2], position.label


@pytest.mark.parametrize("position", POSITIONS, ids=by_label)
def test_large_array_of_distinct_objects_is_refused_by_its_size_alone(
    position: Position, monkeypatch: pytest.MonkeyPatch
) -> None:
    instance = position.instance(distinct_objects(LARGE))
    for the_contract in contracts():
        with comparisons(monkeypatch, PER_ITEM * LARGE) as counter:
            outcome = the_contract.validate_value(position.type_name, instance)
        assert counter.count <= PER_ITEM * LARGE
        at_array = issues_at(outcome.issues, position.path)
        if position.max_items is not None and position.max_items < LARGE:
            assert at_array == [(position.path, "maxItems")], outcome.issues
        else:
            assert (position.path, "uniqueItems") not in at_array, outcome.issues


@pytest.mark.parametrize("position", POSITIONS, ids=by_label)
def test_full_array_of_distinct_objects_is_checked_in_linear_count(
    position: Position, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As many objects as `maxItems` allows: uniqueItems runs on them, and counts at most a few forms per item,
    where jsonschema's own check needs n(n-1)/2 comparisons (32,640 for 256)."""
    count = position.max_items or LARGE
    instance = position.instance(distinct_objects(count))
    counts = []
    for the_contract in contracts():
        with comparisons(monkeypatch, PER_ITEM * count) as counter:
            outcome = the_contract.validate_value(position.type_name, instance)
        counts.append(counter.count)
        assert not outcome.valid
        assert (position.path, "uniqueItems") not in issues_at(outcome.issues, position.path), outcome.issues
    assert max(counts) <= PER_ITEM * count, counts


DUPLICATES: list[tuple[str, list[Any]]] = [
    ("1 and 1.0", [-2, -1, -1.0]),
    ("0 and -0.0", [0, -0.0]),
    ("objects, 1 and 1.0 inside", [{"k": 1}, {"k": 1.0}]),
    ("objects, keys in another order", [{"a": 1, "b": [2]}, {"b": [2.0], "a": 1}]),
    ("equal strings", ["o/m", "o/n", "o/m"]),
]
DISTINCT: list[tuple[str, list[Any]]] = [
    ("-1 and -2", [-1, -2]),
    ("true is not 1", [{"k": True}, {"k": 1}]),
    ("arrays in another order", [[1, 2], [2, 1]]),
    ("a string is not a number", ["1", 1]),
]


@pytest.mark.parametrize("position", POSITIONS, ids=by_label)
def test_duplicates_are_reported_at_the_array_as_jsonschema_reports_them(position: Position) -> None:
    for the_contract in contracts():
        for label, items in DUPLICATES:
            instance = position.instance(items)
            outcome = the_contract.validate_value(position.type_name, instance)
            assert (position.path, "uniqueItems") in issues_at(outcome.issues, position.path), (label, outcome.issues)
            assert outcome.issues == stock_issues(the_contract, position.type_name, instance), label
        for label, items in DISTINCT:
            instance = position.instance(items)
            outcome = the_contract.validate_value(position.type_name, instance)
            assert (position.path, "uniqueItems") not in issues_at(outcome.issues, position.path), label
            assert outcome.issues == stock_issues(the_contract, position.type_name, instance), label


def test_numbers_from_the_text_compare_by_value() -> None:
    """`-1` and `-1.0`, `0` and `-0.0` as written on the wire, judged on both paths (spec/validation.md, "Limits"
    and the numbers table: `at: [0, -0.0]` is refused)."""
    for the_contract in contracts():
        refused = the_contract.validate_text("Observations", '{"streams": {"a": {"at": [0, -0.0]}}}')
        assert issues_at(refused.issues, "$.streams.a.at") == [("$.streams.a.at", "uniqueItems")]
        refused = the_contract.validate_text("Observations", '{"streams": {"a": {"at": [-1.0, -1]}}}')
        assert issues_at(refused.issues, "$.streams.a.at") == [("$.streams.a.at", "uniqueItems")]
        assert the_contract.validate_text("Observations", '{"streams": {"a": {"at": [-1.0, -2]}}}').valid
        assert the_contract.validate_text(
            "Observations", '{"unit": "seconds", "streams": {"a": {"at": [-1.5, -1]}}}'
        ).valid


def hello(kinds: list[Any]) -> dict[str, Any]:
    return {
        "type": "hello",
        "protocol": 1,
        "implementation": {"name": "n", "version": "1"},
        "contract_version": "0.0.0",
        "kinds": kinds,
    }


def test_hello_kinds_without_max_items_is_checked_in_linear_count(monkeypatch: pytest.MonkeyPatch) -> None:
    """The hello's `kinds` has no `maxItems`: the count must grow with the items, not their pairs (the ratio of
    two sizes measured in the same run)."""
    counts = {}
    for size in (LARGE // 2, LARGE):
        with comparisons(monkeypatch, PER_ITEM * size) as counter:
            problems = Traffic().problems("testee-hello", hello(distinct_objects(size)))
        assert problems and "non-unique" not in problems[0], problems
        counts[size] = counter.count
    assert counts[LARGE] <= 2.5 * max(1, counts[LARGE // 2]), counts


def test_hello_kinds_duplicates_are_named() -> None:
    problems = Traffic().problems("testee-hello", hello(["validation", "schedule", "validation"]))
    assert len(problems) == 1 and "$.kinds" in problems[0] and "non-unique" in problems[0], problems
    assert Traffic().problems("testee-hello", hello(["validation", "schedule"])) == []


def nested(depth: int, leaf: Any) -> Any:
    value = leaf
    for level in range(depth):
        value = [value] if level % 2 else {"k": value}
    return value


def test_forms_follow_json_equality_at_any_depth() -> None:
    """1 = 1.0 and true is not 1, at the bottom of a value as deep as the wire allows (the form is built without
    recursion); key order is ignored."""
    assert bounded_schema.canonical({"a": 1, "b": [2.0]}) == bounded_schema.canonical({"b": [2], "a": 1.0})
    assert bounded_schema.canonical([True]) != bounded_schema.canonical([1])
    assert bounded_schema.canonical(nested(150, 1)) == bounded_schema.canonical(nested(150, 1.0))
    assert bounded_schema.canonical(nested(150, 1)) != bounded_schema.canonical(nested(150, True))


def test_messages_quote_a_large_array_short() -> None:
    """Every error the explanation builds around 10,000 objects (the failed `anyOf` branches, the size) quotes the
    array short instead of holding its whole `repr`."""
    the_contract = contract(fast=False)
    instance = {"streams": {"a": {"at": distinct_objects(LARGE)}}}
    validator = bounded_schema.bounded_validator_class()(
        the_contract.spec.schemas["Observations"], registry=the_contract.registry
    )
    pending = list(validator.iter_errors(instance))
    assert pending
    while pending:
        error = pending.pop()
        assert len(error.message) < 300, error.message[:300]
        pending.extend(error.context or ())


def test_the_bounded_class_is_kept_where_a_subschema_names_its_dialect() -> None:
    """jsonschema's own `evolve` takes the class a subschema's `$schema` names, which is how the explanation once
    fell back to the stock class below every `$ref` to another schema file."""
    the_contract = contract(fast=False)
    bounded = bounded_schema.bounded_validator_class()
    validator = bounded(the_contract.spec.schemas["Observations"], registry=the_contract.registry)
    stream = the_contract.spec.schemas["Stream"]
    assert "$schema" in stream
    assert type(validator.evolve(schema=stream)) is bounded
    assert type(Draft202012Validator({}).evolve(schema=stream)) is Draft202012Validator

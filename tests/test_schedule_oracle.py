"""Schedule, envelope and rows-of vectors → the same calls on sequence-base 0.4.28 → agreement, or
disagreement exactly where a case says `upstream: {diverges: ...}`.

The expectations in the vectors were derived by hand from spec/schedule.md; this test is their independent
cross-check (the only module of ours that imports sequence-base's schedule code). sequence-base takes Python
forms, so each JSON form is converted first: entry lists become tuples, frame keys "5" become the integer 5,
and a step written as an integral float (3.0) becomes the integer 3 (value semantics). Its refusals are
exceptions; each is mapped to one of our error ids by type and message, and an exception that maps to no id
never counts as agreement. A declaration sequence-base's own `Observations` model refuses counts as
`schedule.invalid-declaration` upstream, since a worker only ever schedules a validated declaration.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from pydantic import TypeAdapter
from pydantic import ValidationError as PydanticError
from sequence_base.contract import obs_schedule as upstream
from sequence_base.contract.own_io import Observations, rows_of

import suite_cache
from seq_io import rule_coverage, vectors

FILES, PROBLEMS = suite_cache.suite()
KINDS = ("schedule", "envelope", "rows_of")
MINE = [f for f in FILES if f.kind in KINDS]
SCHEDULE = [case for f in MINE if f.kind == "schedule" for case in f.cases]
ENVELOPE = [case for f in MINE if f.kind == "envelope" for case in f.cases]
ROWS = [case for f in MINE if f.kind == "rows_of" for case in f.cases]
GROUPS = [(f, g) for f in MINE if f.kind == "schedule" for g in f.doc["groups"] if "reads_past" in g]

REQUIRED_RULES = frozenset(
    {
        "SCH-INPUT-DECLARATION",
        "SCH-INPUT-RATE",
        "SCH-INPUT-STEPS",
        "SCH-INPUT-OVERFLOW",
        "SCH-OF-NULL",
        "SCH-OF-UNIT",
        "SCH-OF-SECONDS-ROUND",
        "SCH-OF-WINDOW",
        "SCH-OF-FED",
        "SCH-OF-ALONE",
        "SCH-OF-WHOLE",
        "SCH-OF-EVERY",
        "SCH-OF-PAD",
        "SCH-PICKS-NULL",
        "SCH-PICKS-WINDOW",
        "SCH-PICKS-FED",
        "SCH-PICKS-ALONE",
        "SCH-PICKS-WHOLE",
        "SCH-PICKS-ORDER",
        "SCH-PICKS-REPEAT-FIRST",
        "SCH-PICKS-DROP",
        "SCH-NEEDED",
        "SCH-KEEPS-FROM",
        "SCH-WANTED-PICKS",
        "SCH-WANTED-REACH",
        "SCH-WANTED-MERGE",
        "SCH-RESULT-BOUND",
        "SCH-READS-PAST-DECLARATION",
        "SCH-READS-PAST-SCHEDULE",
        "ENV-WALK",
        "ENV-OWN",
        "ENV-CUT",
        "ENV-WHOLE",
        "ENV-MISSING",
        "ENV-INPUT",
        "ROWS-DECLARED-KEY",
        "ROWS-DECLARED-SOURCE",
        "ROWS-DECLARED-EMPTY",
        "ROWS-DECLARED-HORIZON",
        "ROWS-UNDECLARED-NUMBERS",
        "ROWS-UNDECLARED-ROWS",
        "ROWS-UNDECLARED-OBJECTS",
        "ROWS-UNDECLARED-OTHER",
        "ROWS-ACTIONS-VALID",
    }
)
CRASH = "upstream crashed"


def json_equal(a: Any, b: Any) -> bool:
    """JSON value equality: numbers by value, booleans only equal booleans, object member order ignored."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(json_equal(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(json_equal(a[k], b[k]) for k in a)
    return type(a) is type(b) and bool(a == b)


def as_step(value: Any) -> Any:
    """A JSON step for Python: an integral float is the integer it stands for; anything else passes as is."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def json_entries(entries: Any) -> list[list[Any]]:
    pairs = entries.items() if isinstance(entries, dict) else entries
    return [[step, None if keys is None else list(keys)] for step, keys in pairs]


def _schedule_error(error: Exception) -> str:
    if isinstance(error, OverflowError):
        return "schedule.step-overflow"
    if isinstance(error, TypeError):
        return "schedule.invalid-step"
    if isinstance(error, ValueError) and "control rate" in str(error):
        return "schedule.rate-required"
    return f"{CRASH}: {type(error).__name__}: {error}"


def model_refuses(declaration: Any) -> bool:
    if declaration is None:
        return False
    try:
        TypeAdapter(Observations).validate_json(json.dumps(declaration))
    except PydanticError:
        return True
    return False


def upstream_raw(group: dict[str, Any], case: dict[str, Any]) -> dict[str, Any]:
    """The four results of one schedule case from sequence-base, reading the declaration raw."""
    t, t_prev = as_step(case["t"]), as_step(case.get("t_prev", -1))
    try:
        schedule = upstream.of(group["declaration"], group.get("rate"))
        return {
            "picks": json_entries(upstream.picks(schedule, t, t_prev)),
            "needed": sorted(upstream.needed(schedule, t, t_prev)),
            "wanted": json_entries(upstream.wanted(schedule, t_prev, t)),
            "keeps_from": upstream.keeps_from(schedule, t),
        }
    except Exception as error:
        return {"error": _schedule_error(error)}


def upstream_schedule(group: dict[str, Any], case: dict[str, Any]) -> dict[str, Any]:
    if model_refuses(group["declaration"]):
        return {"error": "schedule.invalid-declaration"}
    return upstream_raw(group, case)


def _rows_error(error: Exception) -> str:
    text = str(error)
    if isinstance(error, ValueError):
        for needle, rule in (
            ("field, which its actions", "rows_of.missing-key"),
            ("not a list of rows", "rows_of.not-a-list"),
            ("holds no rows", "rows_of.no-rows"),
            ("lists of lengths", "rows_of.ragged"),
            ("dicts, which plays", "rows_of.objects"),
            ("plays neither", "rows_of.mixed"),
        ):
            if needle in text:
                return rule
    return f"{CRASH}: {type(error).__name__}: {text}"


def upstream_rows(case: dict[str, Any]) -> dict[str, Any]:
    try:
        return {"rows": rows_of(case["answer"], case["actions"])}
    except Exception as error:
        return {"error": _rows_error(error)}


def upstream_envelope(case: dict[str, Any]) -> dict[str, Any]:
    picked = [(step, None if keys is None else tuple(keys)) for step, keys in case["picks"]]
    # The bridge from JSON to upstream's int-keyed dict: names int() reads become steps, others are left out.
    frames = {int(step): frame for step, frame in case["frames"].items() if step.lstrip("+-").isdigit()}
    try:
        return dict(upstream.envelope(picked, frames, case["own"], case["t"]))
    except KeyError:
        return {"error": "envelope.frame-missing"}


def agrees(expected: dict[str, Any], actual: dict[str, Any]) -> bool:
    if expected.get("error") == "rows_of.invalid-actions" and str(actual.get("error", "")).startswith(CRASH):
        return True  # upstream reads the invalid declaration and fails on it: a refusal, too
    return json_equal(expected, actual)


def check(case: vectors.Case, actual: dict[str, Any]) -> None:
    expected = case.data["expect"]
    diverges = "upstream" in case.data
    agreed = agrees(expected, actual)
    where = f"{case.file}:{case.line}: {case.id}"
    assert not (diverges and agreed), f"{where} says it diverges from upstream, but upstream agrees: {actual}"
    assert diverges or agreed, f"{where} disagrees with upstream:\n expected {expected}\n upstream {actual}"


def test_my_vector_files_load_clean() -> None:
    mine = [p for p in PROBLEMS if re.match(r"conformance/vectors/(schedule|envelope|rows-of)/", p.file)]
    assert not mine, "\n".join(map(str, mine))
    assert {f.kind for f in MINE} == set(KINDS)


def test_enough_cases() -> None:
    assert len(SCHEDULE) >= 520
    assert len(ENVELOPE) >= 25
    assert len(ROWS) >= 40


def test_every_rule_is_defined_once_and_exercised() -> None:
    report = rule_coverage.coverage(FILES)
    missing = sorted(REQUIRED_RULES - set(report.defined))
    assert not missing, f"published rule ids the prose lacks: {missing}"
    assert report.ok, (report.unexercised, report.defined_twice, report.listed_undefined)


def test_every_error_id_is_expected_somewhere() -> None:
    expected = {c.data["expect"].get("error") for c in SCHEDULE + ENVELOPE + ROWS} - {None}
    assert expected == {
        "schedule.invalid-declaration",
        "schedule.rate-required",
        "schedule.invalid-rate",
        "schedule.invalid-step",
        "schedule.t-prev-not-before-t",
        "schedule.step-overflow",
        "schedule.result-too-large",
        "envelope.frame-missing",
        "envelope.invalid-input",
        "rows_of.missing-key",
        "rows_of.not-a-list",
        "rows_of.no-rows",
        "rows_of.ragged",
        "rows_of.objects",
        "rows_of.mixed",
        "rows_of.invalid-actions",
    }


@pytest.mark.parametrize("case", SCHEDULE, ids=[c.id for c in SCHEDULE])
def test_schedule_case_against_upstream(case: vectors.Case) -> None:
    if case.data["expect"].get("error") == "schedule.result-too-large":
        # Upstream would build a result of about 2^53 entries and never return: not called, and the case must say
        # that it diverges.
        assert "upstream" in case.data, f"{case.id}: a result-too-large case must say that upstream diverges"
        return
    actual = upstream_schedule(case.group, case.data)
    check(case, actual)
    if "error" not in case.data["expect"] and actual == {"error": "schedule.invalid-declaration"}:
        # Only the model refuses (1.0 in unit steps): the raw reading must still give the same schedule.
        assert json_equal(case.data["expect"], upstream_raw(case.group, case.data)), case.id


@pytest.mark.parametrize(
    ("vector_file", "group"), GROUPS, ids=[f"{f.doc['id_prefix']}:{g['group']}" for f, g in GROUPS]
)
def test_reads_past_against_upstream(vector_file: vectors.VectorFile, group: dict[str, Any]) -> None:
    declaration = group["declaration"]
    actual = {
        "declaration": upstream.reads_past(declaration),
        "schedule": upstream.reads_past(upstream.of(declaration, group.get("rate"))),
    }
    where = f"{vectors.relative(vector_file.path)}: {group['group']}"
    assert actual == group["reads_past"], f"{where}: upstream {actual}"


@pytest.mark.parametrize("case", ENVELOPE, ids=[c.id for c in ENVELOPE])
def test_envelope_case_against_upstream(case: vectors.Case) -> None:
    check(case, upstream_envelope(case.data))


@pytest.mark.parametrize("case", ROWS, ids=[c.id for c in ROWS])
def test_rows_of_case_against_upstream(case: vectors.Case) -> None:
    check(case, upstream_rows(case.data))


def test_the_judge_can_fail() -> None:
    """A wrong expectation must be caught, and so must a divergence claim upstream does not bear out."""
    case = next(c for c in SCHEDULE if "upstream" not in c.data and "error" not in c.data["expect"])
    wrong = vectors.Case(case.id, case.file, case.line, case.group, {**case.data, "expect": {"error": "x.y"}})
    with pytest.raises(AssertionError):
        check(wrong, upstream_schedule(case.group, case.data))
    claimed_data = {**case.data, "upstream": {"diverges": "no"}}
    claimed = vectors.Case(case.id, case.file, case.line, case.group, claimed_data)
    with pytest.raises(AssertionError):
        check(claimed, upstream_schedule(case.group, case.data))
    assert not json_equal(True, 1) and json_equal(1, 1.0) and json_equal({"a": [1]}, {"a": [1.0]})

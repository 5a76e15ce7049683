"""A schedule, envelope or rows_of case + the reference implementation → pass or fail with a diff a person can
act on.

Vectors hold JSON forms only, so this module converts at the boundary: picked entries `[step, keys]` become
`(step, tuple(keys))`, frame objects keyed by decimal strings ("5") become integer steps, and the reference's
tuples come back as lists. Results compare as JSON values (`json_equal`: numbers by value, object member order
ignored, array order significant). An expected `{error: id}` passes when the reference raises a `ScheduleError`
with exactly that rule; messages are never compared.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from seq_io_ref import schedule as sch
from seq_io_ref.beyond_schema import json_equal
from seq_io_ref.envelope import envelope_of_json
from seq_io_ref.rows_of import rows_of
from seq_io_ref.schedule import Entry, ScheduleError

from seq_io_tools.validation_cases import CaseResult
from seq_io_tools.vectors import Case

REFERENCE_KINDS = ("schedule", "envelope", "rows_of")
_SHOWN = 240  # characters of a value shown in a diff


def _show(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= _SHOWN else text[:_SHOWN] + "…"


def _json_entries(entries: Sequence[Entry]) -> list[list[Any]]:
    return [[step, None if keys is None else list(keys)] for step, keys in entries]


def _difference(name: str, got: Any, expected: Any) -> str:
    """One line saying where `got` first departs from `expected`."""
    where = ""
    if isinstance(got, list) and isinstance(expected, list):
        index = next((i for i, (a, b) in enumerate(zip(got, expected, strict=False)) if not json_equal(a, b)),
                     min(len(got), len(expected)))
        where = f" (first difference at [{index}]; lengths {len(got)} and {len(expected)})"
    return f"{name}: got {_show(got)}, expected {_show(expected)}{where}"


def _compare(case: Case, got: dict[str, Any], expected: dict[str, Any]) -> CaseResult:
    differences = [_difference(name, got[name], expected[name])
                   for name in expected if not json_equal(got[name], expected[name])]
    return CaseResult(case.id, not differences, "; ".join(differences))


def _refused(case: Case, expected: dict[str, Any], error: ScheduleError) -> CaseResult:
    if "error" not in expected:
        return CaseResult(case.id, False, f"expected a result, refused: {error}")
    if error.rule != expected["error"]:
        return CaseResult(case.id, False, f"expected the refusal {expected['error']}, got {error}")
    return CaseResult(case.id, True)


def _accepted(case: Case, expected: dict[str, Any], got: dict[str, Any]) -> CaseResult:
    if "error" in expected:
        return CaseResult(case.id, False, f"expected the refusal {expected['error']}, got the result {_show(got)}")
    return _compare(case, got, expected)


def _reads_past(group: dict[str, Any]) -> str:
    """The group's `reads_past` expectation checked; an empty string when it holds or is not given."""
    if "reads_past" not in group:
        return ""
    expected = group["reads_past"]
    try:
        got = {"declaration": sch.reads_past_declaration(group["declaration"]),
               "schedule": sch.reads_past(sch.of(group["declaration"], group.get("rate")))}
    except ScheduleError as error:
        return f"the group's reads_past cannot be checked: {error}"
    return "" if got == expected else _difference("reads_past (group)", got, expected)


def judge_schedule(case: Case) -> CaseResult:
    """picks(t, t_prev), needed(t, t_prev), wanted(t_prev, t) and keeps_from(t) of the group's declaration."""
    group, data = case.group, case.data
    t, t_prev, expected = data["t"], data.get("t_prev", -1), data["expect"]
    try:
        schedule = sch.of(group["declaration"], group.get("rate"))
        got = {"picks": _json_entries(sch.picks(schedule, t, t_prev)),
               "needed": sch.needed(schedule, t, t_prev),
               "wanted": _json_entries(sch.wanted(schedule, t_prev, t)),
               "keeps_from": sch.keeps_from(schedule, t)}
    except ScheduleError as error:
        result = _refused(case, expected, error)
    else:
        result = _accepted(case, expected, got)
    group_problem = _reads_past(group)
    if group_problem:
        return CaseResult(case.id, False, "; ".join(filter(None, [result.detail, group_problem])))
    return result


def judge_envelope(case: Case) -> CaseResult:
    data = case.data
    try:
        got = envelope_of_json(data["picks"], data["frames"], data["own"], data["t"])
    except ScheduleError as error:
        return _refused(case, data["expect"], error)
    return _accepted(case, data["expect"], got)


def judge_rows_of(case: Case) -> CaseResult:
    data = case.data
    try:
        got = {"rows": rows_of(data["answer"], data["actions"])}
    except ScheduleError as error:
        return _refused(case, data["expect"], error)
    return _accepted(case, data["expect"], got)


JUDGES: dict[str, Callable[[Case], CaseResult]] = {
    "schedule": judge_schedule, "envelope": judge_envelope, "rows_of": judge_rows_of,
}
"""The judge for each kind of vector file that the reference implementation answers."""


def judge(kind: str, case: Case) -> CaseResult:
    """Run the reference on one case of a `schedule`, `envelope` or `rows_of` file."""
    return JUDGES[kind](case)

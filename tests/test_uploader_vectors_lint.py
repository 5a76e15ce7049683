"""Uploader scenarios that break the robot's event order (spec/uploader.md UPL-EVENTS) or a retry's window → `iospec
lint` names the file, the case, the event's index and the rule, in a plain sentence; a scenario that keeps the order
lints clean.

Each breach is one edit of a scenario that lints clean, so a check that stopped looking at one part of the order
would let exactly that edit through.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from seq_io import uploader_lint, vectors
from seq_io.reference import schedule as sch

GOOD: list[dict[str, Any]] = [
    {"plan": 2},
    {"observe": {"n": 0, "inputs": 0}, "expect": [{"post": {"frames": [{"seq": 0, "inputs": 0}]}}]},
    {"fail": {"to": "post", "reason": "timeout"}},
    {"drop": 1},
    {"advance": 0.25, "expect": [{"post": {"frames": [{"seq": 0, "inputs": 0}]}, "at": {"from": 0.1, "to": 0.2}}]},
    {"answer": {"to": "post", "status": 200}, "expect": [{"post": {"skipped": [1]}, "at": 0.25}]},
    {"act": {"t": 2, "inputs": 2}, "expect": [{"act": {"seq": 2, "inputs": 2}}]},
    {"answer": {"to": "act", "status": 409}},
    {"act": {"t": 2, "inputs": 2}, "expect": [{"act": {"seq": 2, "inputs": 2}}]},
    {"answer": {"to": "act", "status": 200}},
    {"answer": {"to": "post", "status": 200}},
    {"plan": 4},
    {"observe": {"n": 3, "inputs": 3}, "expect": [{"post": {"frames": [{"seq": 3, "inputs": 3}]}}]},
    {"act": {"t": 4, "inputs": 4}, "expect": [{"act": {"seq": 4, "inputs": 4}}]},
]
"""A scenario that follows UPL-EVENTS: each breach below replaces one event of it, and the lint must name that
event's index."""

BREACHES: dict[str, tuple[int, dict[str, Any], str]] = {
    "no plan first": (0, {"observe": {"n": 0, "inputs": 0}}, "before the first plan"),
    "a step left out": (1, {"drop": 1}, "before step 0"),
    "a step twice": (3, {"observe": {"n": 0, "inputs": 0}}, "again or out of order"),
    "a step at the plan": (12, {"observe": {"n": 4, "inputs": 4}}, "not before the planned act"),
    "a step not after t_prev": (12, {"drop": 2}, "not after the last handed-over act at 2"),
    "an act at another step": (6, {"act": {"t": 3, "inputs": 3}}, "the planned step is 2"),
    "an act before the last step": (3, {"act": {"t": 2, "inputs": 2}}, "before the observe or drop of step 1"),
    "a plan before the act": (6, {"plan": 5}, "before the act at the planned step 2"),
    "a plan while the act is unanswered": (7, {"plan": 4}, "unanswered"),
    "a plan after a refused act": (8, {"plan": 4}, "not handed over"),
    "a plan not after t_prev": (11, {"plan": 2}, "not after the last handed-over act at 2"),
    "an observation after the act": (7, {"observe": {"n": 1, "inputs": 1}}, "after the act at 2"),
    "a second act in flight": (7, {"act": {"t": 2, "inputs": 2}}, "unanswered"),
    "an act after it was handed over": (10, {"act": {"t": 2, "inputs": 2}}, "after it was handed over"),
    "an answer to no post": (2, {"answer": {"to": "act", "status": 200}}, "to act when the expected requests"),
    "a failure of no post": (3, {"fail": {"to": "post", "reason": "timeout"}}, "fails a request to post"),
    "an answer to an act no longer in flight": (10, {"answer": {"to": "act", "status": 200}}, "none in flight"),
}


def _with(index: int, event: dict[str, Any]) -> list[dict[str, Any]]:
    events = [dict(e) for e in GOOD]
    events[index] = event
    return events


def _file(tmp_path: Path, events: list[dict[str, Any]]) -> Path:
    case = {"id": "upl-lint-0001", "why": "a scenario for the lint's own test", "events": events}
    document = {
        "$schema": "../../schema/vector-file.schema.json",
        "kind": "uploader",
        "id_prefix": "upl-lint",
        "groups": [
            {"group": "order", "why": "one scenario", "declaration": {"every": 1}, "episode_id": "e", "cases": [case]}
        ],
    }
    path = tmp_path / "uploader" / "order.yaml"
    path.parent.mkdir(exist_ok=True)
    path.write_text(json.dumps(document, indent=1), encoding="utf-8")
    return path


def _problems(path: Path) -> list[vectors.Problem]:
    vector_file, problems = vectors.load_vector_file(path)
    assert vector_file is not None, problems
    return list(vectors.lint([vector_file], {"upl-lint-0001"}, set(), set()))


def test_the_good_scenario_lints_clean(tmp_path: Path) -> None:
    assert _problems(_file(tmp_path, GOOD)) == []


@pytest.mark.parametrize("name", sorted(BREACHES))
def test_each_breach_is_named_with_file_case_event_and_rule(tmp_path: Path, name: str) -> None:
    index, event, words = BREACHES[name]
    problems = _problems(_file(tmp_path, _with(index, event)))
    assert len(problems) == 1, problems
    text = str(problems[0])
    assert "uploader/order.yaml" in text and "case upl-lint-0001" in text, text
    assert f"event {index} (" in text and "(UPL-EVENTS)" in text and words in text, text
    assert problems[0].path == f"$.groups[0].cases[0].events[{index}]"
    assert problems[0].line > 1


def test_a_retry_window_must_be_passed_whole_by_an_advance(tmp_path: Path) -> None:
    short = _with(4, {**GOOD[4], "advance": 0.15})  # ends inside [0.1, 0.2]
    inside = _with(4, {"advance": 0.12})  # the next event, at 0.12, would fall inside the window
    inside.insert(5, GOOD[4] | {"advance": 0.2})
    not_an_advance = _with(3, {"drop": 1, "expect": GOOD[4]["expect"]})
    for events in (short, inside, not_an_advance):
        problems = _problems(_file(tmp_path, events))
        assert len(problems) == 1 and "(UPL-RETRY-BACKOFF)" in problems[0].message, problems


def test_a_request_time_must_be_the_event_reading(tmp_path: Path) -> None:
    late = _with(5, {**GOOD[5], "expect": [{"post": {"skipped": [1]}, "at": 0.3}]})
    problems = _problems(_file(tmp_path, late))
    assert len(problems) == 1 and "(UPL-CLOCK)" in problems[0].message and "event 5 (answer)" in problems[0].message


def test_a_plan_whose_wanted_is_refused_is_no_plan(tmp_path: Path) -> None:
    # UPL-EVENTS: {every: 1} after t_prev 2 wants every step up to the plan; 1,000,002 steps are beyond the result
    # bound (spec/schedule.md SCH-RESULT-BOUND), so that plan is refused at its own event.
    problems = _problems(_file(tmp_path, _with(11, {"plan": 1_000_005})))
    assert len(problems) == 1, problems
    message = problems[0].message
    assert "event 11 (plan)" in message and "schedule.result-too-large" in message and "(UPL-EVENTS)" in message


def test_the_wanted_check_follows_the_scenario_s_schedule() -> None:
    # The same gap is a plan when the schedule wants one step of it (cam one step back), and when nothing is declared.
    far = [{"plan": 2_000_000}]
    assert uploader_lint.first_breach(far, sch.of({"every": 1})) is not None
    assert uploader_lint.first_breach(far, sch.of({"streams": {"cam": {"at": [-1, 0]}}})) is None
    assert uploader_lint.first_breach(far, None) is None


def test_only_the_first_breach_of_a_scenario_is_reported() -> None:
    events = _with(0, {"observe": {"n": 0, "inputs": 0}})
    events[6] = {"act": {"t": 3, "inputs": 3}}
    found = uploader_lint.first_breach(events)
    assert found is not None and found[0] == 0


def test_the_schema_refuses_an_event_with_two_members(tmp_path: Path) -> None:
    events = _with(0, {"plan": 2, "drop": 0})
    vector_file, problems = vectors.load_vector_file(_file(tmp_path, events))
    assert vector_file is None and problems

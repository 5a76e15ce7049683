"""The eight deliberately wrong uploaders of tests/broken_uploaders.py against the uploader vectors: each fails
exactly the cases written down here, in the deterministic mode over the whole suite (in process, and as a testee of
`iospec run`) and over real HTTP (`iospec uploader-check`) on a sample of them; and every case a fault fails is one
whose scenario puts that fault to work, checked by a predicate on the scenario (so a set written down here is not
taken on trust).

WHY the sets are written out: they were derived by running each fault, then checked case by case against the fault
(the predicates below, and by reading the scenarios a predicate would not have shown). A change to the vectors, the
reference or the comparison that moves them is a change to review, not to absorb.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from broken_uploaders import FAULTS, Wrapped, play
from seq_io.reference import schedule as sch
from seq_io.reference.uploader import Uploader, cut
from seq_io.runner.suite import SuiteCase, load_cases, select
from seq_io.runner.uploader_judge import judge_requests, uploader_case_data
from seq_io.uploader_check.engine import sleeps
from seq_io.uploader_check.run import check
from seq_io.vectors import VECTORS_DIR

BROKEN = Path(__file__).parent / "broken_uploaders.py"


def _ids(theme: str, *numbers: int) -> frozenset[str]:
    return frozenset(f"upl-{theme}-{number:04d}" for number in numbers)


@cache
def suite() -> tuple[SuiteCase, ...]:
    return tuple(select(load_cases(VECTORS_DIR / "uploader")[0], kinds=["uploader"]))


def _all() -> frozenset[str]:
    return frozenset(case.id for case in suite())


EXPECTED: dict[str, Callable[[], frozenset[str]]] = {
    "too-little": lambda: (
        _ids("acts", 1, 11)
        | _ids("answers", 6, 19)
        | _ids("batching", 8, 11)
        | _ids("behind", 12)
        | _ids("long", 2, 4, 5)
        | _ids("skips", 1, 4, 6, 8)
        | _ids("wanted", *range(6, 14), 17, 19, 22)
    ),
    "everything": lambda: (
        _ids("acts", 1, 3, 4, 12, 13)
        | _ids("answers", 3, 6, 10, 11, 19, 21)
        | _ids("batching", 7, 8, 9, 11, 12)
        | _ids("behind", 12, 13)
        | _ids("clock", 7)
        | _ids("depth", *range(7, 12))
        | _ids("formats", 15, 16)
        | _ids("long", *range(2, 7))
        | _ids("retries", 11, 14, 17)
        | _ids("setup", *range(9, 16))
        | _ids("skips", *range(1, 7), 8, *range(11, 15))
        | _ids("wanted", 3, 4, *range(6, 11), 12, *range(14, 21), 22)
    ),
    "never-batches": lambda: (
        _ids("acts", 1, 3, 10, 12)
        | _ids("answers", 1, 3, 4, 5, 7, 10, 11, 12, 13, 17, 19, 20, 21, 23)
        | _ids("batching", 1, 2, *range(4, 13))
        | _ids("behind", *range(1, 16))
        | _ids("clock", 4, 5, 7, 9, 11)
        | _ids("depth", 5)
        | _ids("formats", 1, 5, 7, 8, 9, 11, 12, 14, 17, 18, 19)
        | _ids("long", *range(1, 7))
        | _ids("retries", 5, 8, 12, *range(14, 19))
        | _ids("setup", 18)
        | _ids("skips", 2, 3, 5, 9, 10, 12, 13)
        | _ids("wanted", 2, 10, 11, 13, 16, 18, 20)
    ),
    "forgets-skipped": lambda: (
        _ids("acts", 1, 12, 13)
        | _ids("answers", *range(1, 13), 19, 21, 22, 23)
        | _ids("batching", *range(7, 13))
        | _ids("behind", 4, 5, 6, *range(9, 16))
        | _ids("clock", 6, 7)
        | _ids("depth", 2, 3, *range(5, 12))
        | _ids("formats", 15, 16)
        | _ids("long", *range(1, 7))
        | _ids("retries", *range(11, 16), 17, 18)
        | _ids("skips", *range(1, 15))
        | _ids("wanted", 3, 4, 6, 7, 8, 10, *range(14, 21), 22)
    ),
    "new-numbers": lambda: (
        _ids("answers", 4, 9, 17, 23)
        | _ids("behind", 8, 15)
        | _ids("clock", 9, 10, 11, 12)
        | _ids("formats", 19)
        | _ids("long", *range(1, 7))
        | _ids("retries", *range(1, 19))
    ),
    "acts-first": lambda: _all() - _ids("acts", 2, 4) - _ids("clock", 3) - _ids("setup", *range(1, 16), 19),
    "retries-413": lambda: _ids("answers", *range(5, 13), 23) | _ids("behind", 11) | _ids("long", 1, 2, 4, 5, 6),
    "ignores-503": lambda: (
        _ids("answers", 4, 9, 17, 23)
        | _ids("behind", 8, 15)
        | _ids("clock", 9, 10, 11, 12)
        | _ids("formats", 19)
        | _ids("long", *range(1, 7))
        | _ids("retries", *range(1, 19))
    ),
}
"""Each fault → the uploader cases it fails."""

RACY = {"retries-413": _ids("formats", 9)}
"""Cases a fault may fail over HTTP though it passes them on the virtual clock, left out of the HTTP sample: the
retry the fault makes falls due after the scenario's last event, which the virtual clock never passes and the real
one may (conformance/uploader-http.md, "The clock")."""


# -- what puts a fault to work -------------------------------------------------------------------------------


Moment = tuple[dict[str, Any], bool, int, int | None, Any]
"""An event as the reference met it: the event, whether a post was in flight or backing off, the last act handed
over, the planned act, the schedule."""


def moments(data: dict[str, Any]) -> Iterator[Moment]:
    """The scenario's events with the reference uploader's state before each."""
    uploader = Uploader(data.get("declaration"), data.get("rate"), data["episode_id"], data.get("backlog"))
    schedule = sch.of(data.get("declaration"), data.get("rate"))
    clock, in_flight, planned = 0.0, False, None
    for event in data["events"]:
        given = {key: value for key, value in event.items() if key != "expect"}
        clock += given.get("advance", 0)
        yield given, in_flight or uploader.next_due() is not None, uploader.last_act, planned, schedule
        planned = given.get("plan", planned)
        in_flight = in_flight and (given.get("answer") or given.get("fail") or {}).get("to") != "post"
        in_flight = any("observe" in request for request in uploader.event(given, clock)) or in_flight


def _number(event: dict[str, Any]) -> int:
    return int(event["observe"]["n"] if "observe" in event else event["drop"])


def _wanted(moment: Moment) -> dict[int, Any]:
    _, _, last, planned, schedule = moment
    return dict(sch.wanted(schedule, last, planned)) if planned is not None else {}


def _observations(data: dict[str, Any]) -> Iterator[Moment]:
    return (m for m in moments(data) if "observe" in m[0] or "drop" in m[0])


def _post_failures(data: dict[str, Any]) -> bool:
    return any(
        (e.get("answer") or e.get("fail") or {}).get("to") == "post" and ("fail" in e or e["answer"]["status"] >= 500)
        for e in data["events"]
    )


def _expected_posts(data: dict[str, Any]) -> list[dict[str, Any]]:
    return [request["post"] for event in data["events"] for request in event.get("expect", []) if "post" in request]


def _sends_other_than_whole(m: Moment) -> bool:
    """An observation the reference does not post whole under its number: the stream is off, its step is not
    wanted, or the cut leaves members out."""
    event, schedule = m[0], m[4]
    wanted = _wanted(m)
    if not sch.reads_past(schedule) or _number(event) not in wanted:
        return True
    return "observe" in event and cut(event["observe"]["inputs"], wanted[_number(event)]) != event["observe"]["inputs"]


def _wanted_not_needed(m: Moment) -> bool:
    """An observation `wanted` lists that the planned act does not read (a later act's window may)."""
    event, _, last, planned, schedule = m
    return (
        "observe" in event
        and planned is not None
        and _number(event) in _wanted(m)
        and _number(event) not in sch.needed(schedule, planned, last)
    )


EXERCISES: dict[str, Callable[[dict[str, Any]], bool]] = {
    "too-little": lambda d: any(_wanted_not_needed(m) for m in _observations(d)),
    "everything": lambda d: any(_sends_other_than_whole(m) for m in _observations(d)),
    "never-batches": lambda d: any(m[1] and sch.reads_past(m[4]) for m in _observations(d)),
    "forgets-skipped": lambda d: any(post.get("skipped") for post in _expected_posts(d)),
    "new-numbers": _post_failures,
    "acts-first": lambda d: bool(_expected_posts(d)),
    "retries-413": lambda d: any(
        e.get("answer", {}).get("to") == "post" and e["answer"]["status"] == 413 for e in d["events"]
    ),
    "ignores-503": _post_failures,
}
"""Each fault → whether a scenario puts it to work (the rule it breaks has something to decide)."""


def failures(make: Callable[[Any, Any, str, int | None], Any], cases: tuple[SuiteCase, ...]) -> frozenset[str]:
    """The cases an uploader fails in the deterministic mode."""
    failed = set()
    for case in cases:
        data = uploader_case_data(case)
        played = play(make, data)
        refusal = data["expect"]["error"] if "expect" in data else None
        if isinstance(played, str) or refusal is not None:
            passed = played == refusal
        else:
            passed = judge_requests(data, played).status == "pass"
        if not passed:
            failed.add(case.id)
    return frozenset(failed)


def test_the_reference_behind_the_wrapper_fails_nothing() -> None:
    assert suite(), "the suite has no uploader vectors"
    assert failures(Wrapped, suite()) == frozenset()


@pytest.mark.parametrize("fault", FAULTS)
def test_a_fault_fails_exactly_its_cases_on_the_virtual_clock(fault: str) -> None:
    failed = failures(FAULTS[fault], suite())
    expected = EXPECTED[fault]()
    assert failed == expected, {"not expected": sorted(failed - expected), "passed": sorted(expected - failed)}


@pytest.mark.parametrize("fault", FAULTS)
def test_every_case_a_fault_fails_puts_the_fault_to_work(fault: str) -> None:
    by_id = {case.id: uploader_case_data(case) for case in suite()}
    idle = sorted(i for i in EXPECTED[fault]() if "expect" in by_id[i] or not EXERCISES[fault](by_id[i]))
    assert not idle, f"{fault} fails cases whose scenario does not put it to work: {idle}"


@pytest.mark.realclock
@pytest.mark.parametrize("fault", FAULTS)
def test_a_fault_as_a_testee_fails_the_same_cases_in_iospec_run(fault: str) -> None:
    """The deterministic mode through the testee protocol, as an SDK's own testee would be run."""
    from seq_io.reference.spec_data import load_spec
    from seq_io.runner.run import StdioTestee, run_cases

    testee = StdioTestee([sys.executable, str(BROKEN), fault, "--testee"], load_spec().contract_version)
    report = run_cases(list(suite()), testee)
    assert {record.case.id for record in report.records if not record.ok} == EXPECTED[fault]()
    assert not report.problems, report.problems


def sample(fault: str, failing: int = 6, passing: int = 4) -> list[SuiteCase]:
    """The quickest cases to play of those a fault fails, and of those it passes (none racy)."""
    expected, racy = EXPECTED[fault](), RACY.get(fault, frozenset())
    quickest = sorted(suite(), key=lambda case: (sleeps(uploader_case_data(case)), case.id))
    chosen = [case for case in quickest if case.id in expected and case.id not in racy][:failing]
    chosen += [case for case in quickest if case.id not in expected and case.id not in racy][:passing]
    return chosen


@pytest.mark.realclock
@pytest.mark.slow
@pytest.mark.parametrize("fault", FAULTS)
def test_a_fault_fails_the_same_cases_over_http(fault: str) -> None:
    cases = sample(fault)
    report = check(cases, [sys.executable, str(BROKEN), fault])
    failed = {record.case.id for record in report.records if not record.ok}
    expected = {case.id for case in cases} & EXPECTED[fault]()
    assert failed == expected, {record.case.id: record.verdict.detail[:300] for record in report.records}
    assert not report.problems, report.problems

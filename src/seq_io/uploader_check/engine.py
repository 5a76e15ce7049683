"""One uploader scenario (a vector case of kind `uploader`) + an SDK behind its driver + the recording worker → the
robot's events told to the SDK, the worker's answers given to the requests it holds, each `advance` slept → the
requests that arrived, attributed to events and timed on the scenario's clock → judged by the runner's own
comparison (`judge_requests`) → a `Verdict`.

WHY it is shaped this way (conformance/uploader-http.md, "Playing a scenario"):

- The SDK runs on its own real clock, so the scenario's virtual clock is mapped onto it: an `advance d` is d real
  seconds slept, and a request's `at` is the reading of the event it belongs to plus the real seconds since that
  event began. Robot and worker events take no virtual time but some real time, so a retry timed from a failure
  may come a little early, and any request a little late: an `at` within `tolerance` of its expectation is taken
  as that expectation, and a request that arrives within `tolerance` before an `advance` that expects one of its
  sort (while the event it arrived in has no room for it) belongs to that advance. Nothing else is moved: a
  request a robot or worker event causes cannot come before it. The tolerance grows with the lag measured in the
  scenario (the SDK's acknowledgements, the runner's own sleeps), so a busy machine widens it instead of failing
  the case; a case that fails only on timing is played once more.
- Waits end early: after each event the runner waits only until the requests the vector expects by then have
  arrived, or until their latest expected time plus the tolerance, so an SDK that sends less costs a bounded wait.
  After an answer it waits until the SDK closed the answered connection (every answer says `Connection: close`),
  so the robot's next event never overtakes an answer the SDK has not read. A worker event ending a request the
  vector has in flight first waits (at most the widest tolerance) for that request to be held: answering nothing
  in its place would leave the late one held, every later request of its sort answered with the answer meant for
  the one before, and an SDK that waits for its act stalled until its own timeout. Before an event that expects a
  request (or an advance) it waits a short settle for one the vector does not expect, so that a request an event
  caused is seen there and never passes for the next event's.
- The comparison is the deterministic runner's (`seq_io.runner.uploader_judge`), so a case fails over HTTP for
  the same reasons it fails in `iospec run`; what only HTTP can get wrong (another method, path or content type, a
  body that is not JSON or is cut off, a flood) is added to the verdict as differences of its own.
"""

from __future__ import annotations

import bisect
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from seq_io.reference.wire import parse_json_text, wire_limits
from seq_io.runner.protocol import PROTOCOL_DEPTH_MARGIN, Broken
from seq_io.runner.suite import SuiteCase
from seq_io.runner.uploader_judge import judge_requests, uploader_case_data
from seq_io.runner.verdict import Difference, Verdict, differences_text
from seq_io.uploader_check.sdk import Sdk
from seq_io.uploader_check.worker import (
    MAX_CONNECTIONS,
    MAX_REQUESTS,
    Answer,
    Arrival,
    Drop,
    RecordingWorker,
    Scenario,
    http_problems,
)

TOLERANCE = 0.1
"""Real seconds an `at` may be off its expectation on an idle machine (`--tolerance`)."""
SETTLE = 0.02
"""Real seconds the runner waits, on an idle machine, for a request an event caused that the vector does not
expect, before an event that expects one (or an advance) could take it for its own."""
LAG_FACTOR = 2.0
"""The tolerance grows by this many times the largest lag measured in the scenario."""
MAX_TOLERANCE = 1.0
"""The tolerance never grows beyond this; a case that would pass with it is played once more instead."""
SCENARIO_SLACK = 60.0
"""Real seconds a scenario may take beyond its advances before it fails (an SDK that acknowledges slowly)."""
MAX_SLEEP = 60.0
"""A scenario whose advances add up to more virtual seconds than this is not played over HTTP."""
ROBOT_EVENTS = ("plan", "observe", "drop", "act")
WORKER_EVENTS = ("answer", "fail")
REQUEST_SORTS = {"post": "observe", "act": "act"}
"""An expected request's sort → the member naming its body in a recorded request (protocol.md, kind uploader)."""
NOT_APPLICABLE = "not applicable over HTTP"


@dataclass(frozen=True)
class Settings:
    """The timing a run plays with (conformance/uploader-http.md, "Timing slack" and "Limits")."""

    tolerance: float = TOLERANCE
    max_tolerance: float = MAX_TOLERANCE
    scenario_slack: float = SCENARIO_SLACK


@dataclass(frozen=True)
class Played:
    """When one event was played: its real start (time.monotonic), the reading before it and its own reading; for
    an `advance` (the only event during which a request may come that no event of its own caused: a retry,
    UPL-RETRY-BACKOFF), the real start and the reading of the event a retry in it is timed from (`timed_from`: the
    last answer or failure of a post before it)."""

    start: float
    before: float
    reading: float
    advance: bool = False
    timed_from: tuple[float, float] | None = None

    def at(self, seconds: float) -> float:
        """The reading of a request that arrived at `seconds` in this event: the event's reading before it plus the
        real seconds since it began; in an advance, counted from the event its retry is timed from, since the zero-
        time events played after that event took real time the uploader's backoff timer counted too."""
        start, reading = self.timed_from if self.advance and self.timed_from else (self.start, self.before)
        return reading + (seconds - start)


@dataclass
class Playback:
    """What a played scenario left to judge."""

    played: list[Played] = field(default_factory=list)
    arrivals: list[Arrival] = field(default_factory=list)
    lag: float = 0.0
    """The largest lag measured: an acknowledgement's round trip, or how late a sleep woke."""
    flooded: int = 0


def event_name(event: dict[str, Any]) -> str:
    return next(name for name in (*ROBOT_EVENTS, *WORKER_EVENTS, "advance") if name in event)


def sleeps(data: dict[str, Any]) -> float:
    """The seconds a scenario's advances add up to: what playing it sleeps."""
    return sum(float(event["advance"]) for event in data.get("events", []) if "advance" in event)


def not_applicable(data: dict[str, Any]) -> str | None:
    """Why a scenario is not played over HTTP (None: it is)."""
    if sleeps(data) > MAX_SLEEP:
        return (
            f"{NOT_APPLICABLE}: its advances add up to {sleeps(data):g} s, more than the {MAX_SLEEP:g} s slept at most"
        )
    return None


def start_message(data: dict[str, Any], url: str) -> dict[str, Any]:
    message: dict[str, Any] = {"type": "start", "worker": url, "episode_id": data["episode_id"]}
    message["declaration"] = data.get("declaration")
    message |= {key: data[key] for key in ("rate", "backlog") if key in data}
    return message


def robot_message(event: dict[str, Any]) -> dict[str, Any]:
    """A robot event of a vector → its driver-protocol line (conformance/uploader-http.md, "Messages")."""
    if "plan" in event:
        return {"type": "plan", "t": event["plan"]}
    if "observe" in event:
        return {"type": "observe", "n": event["observe"]["n"], "inputs": event["observe"]["inputs"]}
    if "drop" in event:
        return {"type": "drop", "n": event["drop"]}
    return {"type": "act", "t": event["act"]["t"], "inputs": event["act"]["inputs"]}


def worker_outcome(event: dict[str, Any]) -> tuple[str, Answer | Drop]:
    """A worker event → (the sort of request it ends, how the recording worker ends it)."""
    if "fail" in event:
        return str(event["fail"]["to"]), Drop()
    answer = event["answer"]
    headers = answer.get("headers")
    return str(answer["to"]), Answer(
        int(answer["status"]),
        None if headers is None else {str(name): str(value) for name, value in headers.items()},
        answer.get("body"),
        "body" in answer,
    )


def _latest(expect: list[dict[str, Any]], reading: float) -> float:
    """The latest reading at which an event's expected requests may be sent."""
    ends = [reading]
    for request in expect:
        at = request.get("at")
        ends.append(float(at["to"]) if isinstance(at, dict) else reading if at is None else float(at))
    return max(ends)


class Player:
    """Plays scenarios one at a time through one SDK and the recording worker."""

    def __init__(
        self,
        sdk: Sdk,
        worker: RecordingWorker,
        settings: Settings | None = None,
        announce: Callable[[str], None] | None = None,
    ) -> None:
        self.sdk, self.worker, self.settings = sdk, worker, settings or Settings()
        self.announce = announce

    def tolerance(self, lag: float) -> float:
        return min(self.settings.tolerance + LAG_FACTOR * lag, self.settings.max_tolerance)

    def settle(self, lag: float) -> float:
        return min(SETTLE + LAG_FACTOR * lag, self.settings.max_tolerance)

    def verdict(self, case: SuiteCase) -> Verdict:
        """Play the case (once more when it failed only on timing) and judge it. `Broken` only when no SDK can
        be started or handshaken (the run cannot go on)."""
        data = uploader_case_data(case)
        first = self._play_and_judge(data)
        if first[0].status != "fail" or not first[1]:
            return first[0]
        if self.announce is not None:
            self.announce(f"{case.id} failed only on timing; played once more")
        again = self._play_and_judge(data)[0]
        if again.status == "pass":
            return again
        return Verdict(
            again.status,
            f"played twice (the first failed only on timing): {again.detail}",
            again.differences,
            again.rule,
            again.printed,
            again.more,
            again.timed_out,
        )

    def _play_and_judge(self, data: dict[str, Any]) -> tuple[Verdict, bool]:
        """(the verdict, whether it failed only on timing: it would pass with the largest tolerance)."""
        self.sdk.hello()
        scenario = self.worker.scenario()
        try:
            outcome = self._play(data, scenario)
        except Broken as broken:
            self.sdk.kill()
            return Verdict("fail", broken.detail, printed=broken.printed, timed_out=broken.timed_out), False
        finally:
            self.worker.finish(scenario)
        if isinstance(outcome, Verdict):
            return outcome, False
        verdict = judge(data, outcome, self.tolerance(outcome.lag))
        widest = judge(data, outcome, self.settings.max_tolerance, late=True)
        timing_only = verdict.status == "fail" and widest.status == "pass"
        return verdict, timing_only

    def _play(self, data: dict[str, Any], scenario: Scenario) -> Playback | Verdict:
        events: list[dict[str, Any]] = data["events"]
        budget = sleeps(data) + self.settings.scenario_slack
        deadline = time.monotonic() + budget
        answer, _ = self.sdk.tell(start_message(data, scenario.url), deadline - time.monotonic())
        expected_error = data.get("expect", {}).get("error") if isinstance(data.get("expect"), dict) else None
        if answer["type"] == "error" or expected_error is not None:
            return _setup_verdict(answer, expected_error, self.sdk)
        playback = Playback()
        clock, expected_total, answered = 0.0, 0, 0
        in_flight = {"post": 0, "act": 0}  # the vector's requests sent and not yet ended by a worker event
        timed_from: tuple[float, float] | None = None
        for index, event in enumerate(events):
            start, before = time.monotonic(), clock
            if start > deadline:
                self.sdk.kill()
                return Verdict("fail", f"the scenario took more than its {budget:g} s")
            if "advance" in event:
                clock += float(event["advance"])
            expect = event.get("expect", [])
            expected_total += len(expect)
            name = event_name(event)
            if name in ROBOT_EVENTS:
                _, took = self.sdk.tell(robot_message(event), deadline - time.monotonic())
                playback.lag = max(playback.lag, took)
            elif name in WORKER_EVENTS:
                sort, outcome = worker_outcome(event)
                if in_flight[sort]:  # the vector has one in flight: a late request is waited for, not skipped
                    scenario.wait_held(sort, min(time.monotonic() + self.settings.max_tolerance, deadline))
                    in_flight[sort] -= 1
                if scenario.release(sort, outcome) and isinstance(outcome, Answer):
                    answered += 1
                timed_from = (start, clock) if sort == "post" else timed_from
            else:
                wake = start + (clock - before)
                time.sleep(max(0.0, wake - time.monotonic()))
                playback.lag = max(playback.lag, time.monotonic() - wake)
            playback.played.append(Played(start, before, clock, name == "advance", timed_from))
            for expected in expect:
                in_flight["post" if "post" in expected else "act"] += 1
            latest = start + (_latest(expect, clock) - before) + self.tolerance(playback.lag)
            if expected_total > scenario.count():
                scenario.wait_for(expected_total, min(latest, deadline))
            if name in WORKER_EVENTS:  # the SDK takes the answer in before the robot's next event
                scenario.wait_taken(answered, min(time.monotonic() + self.tolerance(playback.lag), deadline))
            following = events[index + 1] if index + 1 < len(events) else {"advance": 0}
            if following.get("expect") or "advance" in following:  # where a stray could pass for an expected one
                scenario.wait_for(expected_total + 1, min(time.monotonic() + self.settle(playback.lag), deadline))
        self.sdk.tell({"type": "end"}, deadline - time.monotonic())
        playback.arrivals, playback.flooded = scenario.arrivals(), scenario.flooded
        return playback


def _setup_verdict(answer: dict[str, Any], expected_error: str | None, sdk: Sdk) -> Verdict:
    """The verdict of a scenario whose uploader could not be made, or should not have been (UPL-SETUP)."""
    rule = answer.get("rule") if answer["type"] == "error" else None
    if rule == expected_error:
        return Verdict("pass", rule=rule)
    if expected_error is None:
        message = answer.get("message")
        said = f"the refusal {rule}" + (f" ({message})" if isinstance(message, str) and message else "")
        return Verdict(
            "fail", f"expected an uploader, the SDK answered the start with {said}", (Difference("$", None, rule),)
        )
    sdk.tell({"type": "end"})
    got = rule if rule is not None else "an uploader (the start was acknowledged ok)"
    return Verdict(
        "fail", f"expected the refusal {expected_error}, got {got}", (Difference("$.error", expected_error, got),)
    )


# -- attributing and judging -------------------------------------------------------------------------------


def attribute(
    played: Sequence[Played],
    expects: Sequence[list[dict[str, Any]]],
    arrivals: Sequence[Arrival],
    tolerance: float,
    *,
    late: bool = False,
) -> list[list[Arrival]]:
    """The arrivals of each event: the event during which each arrived; or, when that event has no room for a
    request of its sort, the next `advance` that still expects one, when its reading (`Played.at`) fits that
    expectation within `tolerance` (a retry come early: the zero-time events before the advance took real time). A
    request that a robot or worker event causes cannot come before that event, so no other is moved earlier. With
    `late`, an arrival may also go back to an earlier event that still expects one and whose latest expected
    reading it missed by at most `tolerance` (a request come late; only to tell a failure on timing alone). Within
    an event, a post and an act keep the vector's order of sorts (separate connections do not order them)."""
    starts = [event.start for event in played]
    room = [Counter(_sort(request) for request in expect) for expect in expects]
    latest = [
        event.start + _latest(expect, event.reading) - event.before
        for event, expect in zip(played, expects, strict=True)
    ]
    per_event: list[list[Arrival]] = [[] for _ in played]
    for arrival in sorted(arrivals, key=lambda a: a.seconds):
        index = max(0, bisect.bisect_right(starts, arrival.seconds) - 1)
        sort = arrival.sort
        if room[index][sort] <= 0:
            advance = next((j for j in range(index + 1, len(played)) if played[j].advance and room[j][sort] > 0), None)
            if advance is not None and _fits(played[advance], expects[advance], arrival, tolerance):
                index = advance
            elif late:
                earlier = (j for j in range(index - 1, -1, -1) if arrival.seconds - latest[j] <= tolerance)
                index = next((j for j in earlier if room[j][sort] > 0), index)
        room[index][sort] -= 1
        per_event[index].append(arrival)
    return [_in_expected_order(got, expect) for got, expect in zip(per_event, expects, strict=True)]


def _fits(event: Played, expect: list[dict[str, Any]], arrival: Arrival, tolerance: float) -> bool:
    """Whether an arrival's reading in `event` is within `tolerance` of an expected request of its sort there."""
    at = event.at(arrival.seconds)
    return any(
        _sort(request) == arrival.sort and within(at, request.get("at"), event.reading, tolerance) for request in expect
    )


def _sort(request: dict[str, Any]) -> str:
    return "post" if "post" in request else "act"


def _in_expected_order(got: list[Arrival], expect: list[dict[str, Any]]) -> list[Arrival]:
    wanted = [_sort(request) for request in expect]
    if sorted(wanted) != sorted(arrival.sort for arrival in got):
        return got
    queues = {sort: [arrival for arrival in got if arrival.sort == sort] for sort in set(wanted)}
    return [queues[sort].pop(0) for sort in wanted]


def within(at: float, expected: Any, reading: float, tolerance: float) -> bool:
    """Whether `at` is within `tolerance` of its expectation: the event's reading (no `at` in the vector), a
    reading, or a window `{from, to}` widened by the tolerance at both ends."""
    if isinstance(expected, dict):
        return float(expected["from"]) - tolerance <= at <= float(expected["to"]) + tolerance
    return abs(at - (reading if expected is None else float(expected))) <= tolerance


def snapped(at: float, expected: Any, reading: float, tolerance: float) -> float:
    """`at` taken as its expectation when `within` the tolerance of it (a window: its nearest point)."""
    if not within(at, expected, reading, tolerance):
        return at
    if isinstance(expected, dict):
        return min(max(at, float(expected["from"])), float(expected["to"]))
    return reading if expected is None else float(expected)


def body_value(arrival: Arrival) -> tuple[Any, str | None]:
    """A recorded body → (its JSON value, None), or (a sentence standing for it, the same sentence as a problem)."""
    try:
        text = arrival.body.decode("utf-8")
    except UnicodeDecodeError as error:
        problem = f"the body is not UTF-8 ({error.reason} at byte {error.start})"
        return f"({problem})", problem
    value, issues = parse_json_text(text, lone_surrogates=True, max_depth=wire_limits().depth + PROTOCOL_DEPTH_MARGIN)
    if issues:
        problem = f"the body is not JSON under the wire rules: {issues[0].path}: {issues[0].message}"
        return f"({problem})", problem
    return value, None


def recorded(
    played: Sequence[Played], expects: Sequence[list[dict[str, Any]]], per_event: list[list[Arrival]], tolerance: float
) -> tuple[list[list[dict[str, Any]]], list[Difference]]:
    """The requests of each event as protocol.md's uploader result holds them (`at` snapped), and the HTTP
    problems of each, as differences at its place."""
    requests: list[list[dict[str, Any]]] = []
    problems: list[Difference] = []
    for index, (event, expect, got) in enumerate(zip(played, expects, per_event, strict=True)):
        mine: list[dict[str, Any]] = []
        for position, arrival in enumerate(got):
            at = round(event.at(arrival.seconds), 6)
            if position < len(expect) and _sort(expect[position]) == arrival.sort:
                at = snapped(at, expect[position].get("at"), event.reading, tolerance)
            found = arrival.problems or http_problems(arrival.method, arrival.path, arrival.headers)
            if arrival.sort == "other":
                mine.append({"at": at, "request": f"{arrival.method} {arrival.path}"})
            else:
                value, problem = body_value(arrival)
                mine.append({"at": at, REQUEST_SORTS[arrival.sort]: value})
                found = [*found, problem] if problem else found
            where = f"$.requests[{index}][{position}]"
            problems += [Difference(where, "a request as spec/uploader.md UPL-HTTP says", text) for text in found]
        requests.append(mine)
    return requests, problems


def judge(data: dict[str, Any], playback: Playback, tolerance: float, *, late: bool = False) -> Verdict:
    """The verdict of a played scenario: the runner's comparison of the requests, plus their HTTP problems
    (`late`: as `attribute` says)."""
    expects = [event.get("expect", []) for event in data["events"]]
    per_event = attribute(playback.played, expects, playback.arrivals, tolerance, late=late)
    requests, problems = recorded(playback.played, expects, per_event, tolerance)
    if playback.flooded:
        problems.append(
            Difference(
                "$.requests",
                f"at most {MAX_REQUESTS} requests, {MAX_CONNECTIONS} connections open at once",
                f"{playback.flooded} more requests or connections, refused",
                " (the SDK floods the worker)",
            )
        )
    compared = judge_requests(data, requests)
    if not problems:
        return compared
    found = [*problems, *compared.differences]
    detail = differences_text(problems, 0)
    if compared.status == "fail":
        detail += f"; and: {compared.detail}"
    return Verdict("fail", detail, tuple(found[:10]), more=max(0, len(found) - 10) + compared.more)

"""An uploader scenario's setup, events and expected requests → the first place where it breaks the robot's event
order (spec/uploader.md UPL-EVENTS) or puts an event inside a retry's window, as a plain sentence.

WHY it is apart from the shape check: a vector is played by a runner acting as the robot and the worker, and an
uploader MAY rely on the robot following UPL-EVENTS, so a scenario that breaks it would test nothing the spec
asks. The schema cannot see an order; this walk can, with no model of the uploader: it follows the plan, the
steps observed, the act and its answer, and takes the requests in flight from the vector's own expectations (the
worker answers only what the expected requests leave in flight). It stops at a scenario's first breach, since
later events are judged against a robot that already went astray. The windows are checked as conformance/README.md
says (kind `uploader`): a retry is expected during an `advance` that starts before its window and passes its end.
A plan for which `wanted(s, t_prev, T)` is refused is no plan a robot may make (UPL-EVENTS); the schedule is
seq_io.reference.schedule's, whose result bound is the least spec/schedule.md SCH-RESULT-BOUND allows, so a plan
it accepts no conforming uploader may refuse.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from seq_io.reference import schedule as sch

EVENTS = ("plan", "observe", "drop", "act", "answer", "fail", "advance")


class Breach(Exception):
    """The scenario's first departure from UPL-EVENTS (or, for a request's `at`, from UPL-RETRY-BACKOFF or
    UPL-CLOCK): a sentence and the rule it breaks."""

    def __init__(self, sentence: str, rule: str = "UPL-EVENTS") -> None:
        super().__init__(sentence)
        self.rule = rule


@dataclass
class _Robot:
    """What the walk knows after each event: the robot's plan and act, the worker's side, the clock."""

    t_prev: int = -1
    plan: int | None = None
    next_step: int = 0
    act: str = "none"
    """"none" (not yet sent for this plan), "waiting" (no answer yet), "handed" (answered 200), "refused"."""
    in_flight: set[str] = field(default_factory=set)
    clock: float = 0.0
    schedule: sch.Schedule | None = None
    """The scenario's `of(declaration, rate)`; None when nothing is declared or no uploader is made."""


def event_name(event: dict[str, Any]) -> str:
    return next((name for name in EVENTS if name in event), "?")


def _plan(robot: _Robot, step: int) -> None:
    if robot.plan is not None:
        if robot.act == "none":
            raise Breach(f"plans step {step} before the act at the planned step {robot.plan}")
        if robot.act == "waiting":
            raise Breach(f"plans step {step} while the act at {robot.plan} is unanswered: a plan waits for its 200")
        if robot.act == "refused":
            raise Breach(f"plans step {step} after the act at {robot.plan} was not handed over: the robot acts again")
    if step <= robot.t_prev:
        raise Breach(f"plans step {step}, not after the last handed-over act at {robot.t_prev}")
    try:
        sch.wanted(robot.schedule, robot.t_prev, step)
    except sch.ScheduleError as refusal:
        raise Breach(
            f"plans step {step}, but wanted(s, {robot.t_prev}, {step}) is refused ({refusal.rule}): a robot never"
            " makes a plan whose wanted is refused"
        ) from None
    robot.plan, robot.next_step, robot.act = step, robot.t_prev + 1, "none"


def _observe(robot: _Robot, step: int) -> None:
    if robot.plan is None:
        raise Breach(f"observes step {step} before the first plan")
    if robot.act != "none":
        raise Breach(f"observes step {step} after the act at {robot.plan}: observations wait for the next plan")
    if step >= robot.plan:
        raise Breach(f"observes step {step}, which is not before the planned act at {robot.plan}")
    if step <= robot.t_prev:
        raise Breach(f"observes step {step}, not after the last handed-over act at {robot.t_prev}")
    if step < robot.next_step:
        raise Breach(f"observes step {step} again or out of order: the next step is {robot.next_step}")
    if step > robot.next_step:
        raise Breach(f"observes step {step} before step {robot.next_step}, which needs its observe or drop first")
    robot.next_step += 1


def _act(robot: _Robot, step: int) -> None:
    if robot.plan is None:
        raise Breach(f"acts at step {step} before the first plan")
    if step != robot.plan:
        raise Breach(f"acts at step {step}, but the planned step is {robot.plan}")
    if robot.act == "none" and robot.next_step < step:
        raise Breach(f"acts at step {step} before the observe or drop of step {robot.next_step}")
    if robot.act == "waiting":
        raise Breach(f"acts at step {step} again while the first act at {step} is unanswered")
    if robot.act == "handed":
        raise Breach(f"acts at step {step} again after it was handed over: the next robot event is a plan")
    robot.act = "waiting"


def _answer(robot: _Robot, event: dict[str, Any], name: str) -> None:
    to = event[name]["to"]
    if to not in robot.in_flight:
        verb = "answers" if name == "answer" else "fails"
        raise Breach(f"{verb} a request to {to} when the expected requests leave none in flight")
    robot.in_flight.discard(to)
    if to == "act" and robot.act == "waiting":
        handed = name == "answer" and event[name]["status"] == 200
        robot.act = "handed" if handed else "refused"
        if handed and robot.plan is not None:
            robot.t_prev = robot.plan


def _requests(robot: _Robot, event: dict[str, Any], before: float) -> None:
    """Take the expected requests in flight; a request's `at` is the event's reading, or a window it passes."""
    for request in event.get("expect", []):
        robot.in_flight.add("post" if "post" in request else "act")
        at = request.get("at", robot.clock)
        if isinstance(at, dict):
            start, end = at["from"], at["to"]
            if "advance" not in event or not before < start <= end <= robot.clock:
                raise Breach(
                    f"expects a retry in the window [{start}, {end}] during an event that is not an advance from "
                    f"before the window to its end or later (the clock goes from {before} to {robot.clock}): no "
                    "event may fall inside a retry's window",
                    "UPL-RETRY-BACKOFF",
                )
        elif at != robot.clock:
            raise Breach(
                f"expects a request at reading {at}, but the event happens at reading {robot.clock}", "UPL-CLOCK"
            )


def _play(robot: _Robot, event: dict[str, Any]) -> None:
    name = event_name(event)
    before = robot.clock
    if name == "plan":
        _plan(robot, event["plan"])
    elif name in ("observe", "drop"):
        _observe(robot, event["observe"]["n"] if name == "observe" else event["drop"])
    elif name == "act":
        _act(robot, event["act"]["t"])
    elif name in ("answer", "fail"):
        _answer(robot, event, name)
    elif name == "advance":
        robot.clock += float(event["advance"])
    _requests(robot, event, before)


def first_breach(events: list[dict[str, Any]], schedule: sch.Schedule | None = None) -> tuple[int, Breach] | None:
    """The index of the first event that breaks UPL-EVENTS or a retry window, and the breach; `schedule` is the
    scenario's (None: nothing declared, so no `wanted` is refused)."""
    robot = _Robot(schedule=schedule)
    for index, event in enumerate(events):
        try:
            _play(robot, event)
        except Breach as breach:
            return index, breach
    return None


def _schedule_of(case: dict[str, Any], group: dict[str, Any]) -> sch.Schedule | None:
    """The scenario's schedule from its setup (the case's, else its group's); None when `of` refuses it, since the
    scenario then makes no uploader and expects that refusal (UPL-SETUP)."""
    declaration = case["declaration"] if "declaration" in case else group.get("declaration")
    rate = case["rate"] if "rate" in case else group.get("rate")
    try:
        return sch.of(declaration, rate)
    except sch.ScheduleError:
        return None


def breaches(document: dict[str, Any]) -> Iterator[tuple[tuple[str | int, ...], str]]:
    """For each scenario of an uploader file that breaks the order: the event's path and a plain sentence naming
    the case, the event's index and kind, and the rule."""
    for group_index, group in enumerate(document["groups"]):
        for case_index, case in enumerate(group["cases"]):
            found = first_breach(case["events"], _schedule_of(case, group))
            if found is not None:
                index, breach = found
                name = event_name(case["events"][index])
                path = ("groups", group_index, "cases", case_index, "events", index)
                yield path, f"case {case['id']}, event {index} ({name}): {breach} ({breach.rule})"

"""An uploader case (its events, each with the requests it `expect`s) and the requests an uploader sent during each
event → a `Verdict`: pass, or the first event that differs and every difference, as conformance/protocol.md
"Comparison" (uploader bullet) says.

WHY it is apart: the same comparison judges a testee's answer in stdio mode (`kinds`) and the traffic a recording
worker saw over real HTTP (`iospec uploader-check`), so it takes plain JSON values, never a protocol message. What
an uploader sends is judged where spec/uploader.md § 9 leaves freedom by a property, not a value: the frames of a
post as a set keyed by `seq`, its skipped numbers as a set, a retry's reading anywhere in its window. The answer
comes from the implementation under test and may be any JSON value: every shape it can take is a difference with a
sentence, never an exception.
"""

from __future__ import annotations

from typing import Any

from seq_io.reference.issues import format_path
from seq_io.reference.json_values import is_number, json_equal
from seq_io.reference.uploader import EVENTS
from seq_io.runner.suite import SuiteCase
from seq_io.runner.verdict import ABSENT, SHOWN_DIFFERENCES, Difference, Verdict, differences, differences_text

DEFAULTS = ("declaration", "rate", "episode_id", "backlog")
"""What a group of an uploader file may give for all its cases; a case's own value wins (conformance/README.md)."""

_POST_MEMBERS = ("episode_id", "frames", "skipped")
_ACT_MEMBERS = ("episode_id", "seq", "inputs")

Path = tuple[str | int, ...]


def uploader_case_data(case: SuiteCase) -> dict[str, Any]:
    """An uploader case with its group's defaults applied."""
    group = case.case.group
    return {name: group[name] for name in DEFAULTS if name in group} | case.case.data


def uploader_input(case_data: dict[str, Any]) -> dict[str, Any]:
    """The `input` of an uploader case's request (conformance/protocol.md): the setup, and the events without their
    `expect`."""
    given: dict[str, Any] = {"declaration": case_data.get("declaration")}
    given |= {name: case_data[name] for name in ("rate", "episode_id", "backlog") if name in case_data}
    given["events"] = [{name: event[name]} for event in case_data["events"] for name in EVENTS if name in event]
    return given


class _Found:
    """Every difference found, counted; the first SHOWN_DIFFERENCES of them kept in full."""

    def __init__(self) -> None:
        self.shown: list[Difference] = []
        self.count = 0

    def add(self, at: Path, expected: Any, got: Any, note: str = "") -> None:
        self.count += 1
        if len(self.shown) < SHOWN_DIFFERENCES:
            self.shown.append(Difference(format_path(list(at)), expected, got, note))

    def add_values(self, expected: Any, got: Any, at: Path) -> None:
        """Where `got` is not the same JSON value as `expected` (objects member by member, arrays in order)."""
        found, more = differences(expected, got, at)
        for difference in found:
            self.count += 1
            if len(self.shown) < SHOWN_DIFFERENCES:
                self.shown.append(difference)
        self.count += more


def _whole(value: Any) -> int | None:
    """A JSON number that is a whole number by value (3.0 is 3), else None."""
    if is_number(value) and float(value).is_integer():
        return int(value)
    return None


def _readings(events: list[dict[str, Any]]) -> list[float]:
    """Each event's clock reading on the virtual clock: 0.0 at the start, one binary64 addition per advance, an
    advance's reading being the one after it (UPL-CLOCK)."""
    clock, readings = 0.0, []
    for event in events:
        if "advance" in event:
            clock += float(event["advance"])
        readings.append(clock)
    return readings


def _event_name(event: dict[str, Any]) -> str:
    return next((name for name in EVENTS if name in event), "?")


def _wire_request(want: dict[str, Any], episode_id: Any, reading: float) -> dict[str, Any]:
    """An expected request as an uploader sends it, for showing: the post's or act's body with the episode's id."""
    at = want.get("at", reading)
    if "post" in want:
        return {"at": at, "observe": {"episode_id": episode_id, **want["post"]}}
    return {"at": at, "act": {"episode_id": episode_id, **want["act"]}}


def _compare_at(want: Any, got: Any, at: Path, found: _Found) -> None:
    """A request's reading: the expected one by value, or anywhere in a window, both ends included."""
    if isinstance(want, dict):
        if not (is_number(got) and want["from"] <= got <= want["to"]):
            found.add(at, want, got, " (a retry is sent anywhere in its window, both ends included)")
    elif not (is_number(got) and got == want):
        found.add(at, want, got, " (the clock reading at which the request is sent)")


def _compare_frames(expected: list[dict[str, Any]], got: Any, at: Path, found: _Found) -> None:
    """A post's frames as a set keyed by `seq`: each number once, each expected frame there with equal inputs."""
    if not isinstance(got, list):
        found.add(at, expected, got, " (frames is a list of {seq, inputs})")
        return
    by_number: dict[int, int] = {}
    for index, frame in enumerate(got):
        number = _whole(frame.get("seq")) if isinstance(frame, dict) and frame.keys() == {"seq", "inputs"} else None
        if number is None:
            found.add((*at, index), ABSENT, frame, " (a frame is exactly {seq, inputs}, seq a whole number)")
        elif number in by_number:
            found.add((*at, index), ABSENT, frame, f" (seq {number} twice in one post: each number is sent once)")
        else:
            by_number[number] = index
    expected_numbers = set()
    for frame in expected:
        number = _whole(frame["seq"])
        assert number is not None, f"the vector's frame {frame!r} has a whole seq"
        expected_numbers.add(number)
        if number not in by_number:
            found.add(at, frame, ABSENT, f" (no frame of seq {number}; frames compare as a set keyed by seq)")
        else:
            index = by_number[number]
            found.add_values(frame["inputs"], got[index]["inputs"], (*at, index, "inputs"))
    for number, index in by_number.items():
        if number not in expected_numbers:
            found.add((*at, index), ABSENT, got[index], f" (a frame of seq {number} the vector does not expect)")


def _compare_skipped(expected: list[Any], got: Any, at: Path, found: _Found) -> None:
    """A post's skipped numbers as a set: each number once, exactly the expected ones."""
    if not isinstance(got, list):
        found.add(at, expected, got, " (skipped is a list of numbers)")
        return
    by_number: dict[int, int] = {}
    for index, value in enumerate(got):
        number = _whole(value)
        if number is None:
            found.add((*at, index), ABSENT, value, " (a skipped number is a whole number)")
        elif number in by_number:
            found.add((*at, index), ABSENT, value, f" ({number} skipped twice in one post: each number is sent once)")
        else:
            by_number[number] = index
    expected_numbers = {_whole(value) for value in expected}
    for value in expected:
        if _whole(value) not in by_number:
            found.add(at, value, ABSENT, f" ({value} is not among the skipped numbers; they compare as a set)")
    for number, index in by_number.items():
        if number not in expected_numbers:
            found.add((*at, index), ABSENT, got[index], f" ({number} skipped, which the vector does not expect)")


def _compare_post(want: dict[str, Any], body: Any, episode_id: Any, at: Path, found: _Found) -> None:
    """A post's body: the episode's id, the frames and the skipped numbers as sets (an absent list is an empty
    one), no other member."""
    if not isinstance(body, dict):
        found.add(at, {"episode_id": episode_id, **want}, body, " (a post's body is an ObserveRequest object)")
        return
    got_id = body.get("episode_id", ABSENT)
    if got_id is ABSENT or not json_equal(episode_id, got_id):
        found.add((*at, "episode_id"), episode_id, got_id)
    _compare_frames(want.get("frames", []), body.get("frames", []), (*at, "frames"), found)
    _compare_skipped(want.get("skipped", []), body.get("skipped", []), (*at, "skipped"), found)
    for name, value in body.items():
        if name not in _POST_MEMBERS:
            found.add((*at, name), ABSENT, value, " (a post carries episode_id, frames and skipped only)")


def _compare_request(want: dict[str, Any], got: Any, episode_id: Any, reading: float, at: Path, found: _Found) -> None:
    """One request: its body (a post or an act, as expected), its reading, and no other member."""
    if not isinstance(got, dict):
        found.add(at, _wire_request(want, episode_id, reading), got, " (a request is {at, observe} or {at, act})")
        return
    wire = "observe" if "post" in want else "act"
    if wire not in got:
        found.add((*at, wire), _wire_request(want, episode_id, reading)[wire], ABSENT)
    elif wire == "observe":
        _compare_post(want["post"], got["observe"], episode_id, (*at, "observe"), found)
    else:
        expected_act = {"episode_id": episode_id, **{name: want["act"][name] for name in ("seq", "inputs")}}
        found.add_values(expected_act, got["act"], (*at, "act"))
    _compare_at(want.get("at", reading), got.get("at", ABSENT), (*at, "at"), found)
    for name, value in got.items():
        if name not in ("at", wire):
            found.add((*at, name), ABSENT, value, f" (a {wire} request is {{at, {wire}}})")


def _compare_event(
    expected: list[dict[str, Any]], got: Any, episode_id: Any, reading: float, at: Path, found: _Found
) -> None:
    """The requests sent during one event against the expected ones, request by request, in order."""
    if not isinstance(got, list):
        shown = [_wire_request(want, episode_id, reading) for want in expected]
        found.add(at, shown, got, " (the requests sent during an event are a list, one per event)")
        return
    for index in range(max(len(expected), len(got))):
        if index >= len(got):
            want = _wire_request(expected[index], episode_id, reading)
            found.add((*at, index), want, ABSENT, " (expected, not sent)")
        elif index >= len(expected):
            found.add((*at, index), ABSENT, got[index], " (sent, not expected)")
        else:
            _compare_request(expected[index], got[index], episode_id, reading, (*at, index), found)


def judge_requests(case_data: dict[str, Any], requests: Any) -> Verdict:
    """An uploader case (group defaults applied) and the requests sent during each of its events (a testee's
    `result["requests"]`, or recorded traffic, any JSON value) → pass, or fail naming the first event that differs
    (its index and kind) and listing every difference in the order of the expectation."""
    events: list[dict[str, Any]] = case_data["events"]
    episode_id = case_data.get("episode_id")
    found = _Found()
    if not isinstance(requests, list):
        wanted = f"a list of {len(events)} lists of requests, one per event"
        found.add(("requests",), wanted, ABSENT if requests is None else requests)
        return Verdict("fail", differences_text(found.shown, 0), tuple(found.shown))
    first: str | None = None
    for index, (event, reading) in enumerate(zip(events, _readings(events), strict=True)):
        before = found.count
        got = requests[index] if index < len(requests) else ABSENT
        if got is ABSENT:
            shown = [_wire_request(want, episode_id, reading) for want in event.get("expect", [])]
            found.add(("requests", index), shown, ABSENT, f" (lengths: {len(events)} events, {len(requests)} lists)")
        else:
            _compare_event(event.get("expect", []), got, episode_id, reading, ("requests", index), found)
        if first is None and found.count > before:
            first = f"event {index} ({_event_name(event)})"
    if len(requests) > len(events):
        extra = len(events)
        note = f" (lengths: {len(events)} events, {len(requests)} lists: one list per event)"
        found.add(("requests", extra), ABSENT, requests[extra], note)
    if not found.count:
        return Verdict("pass")
    more = found.count - len(found.shown)
    where = f"the first event that differs is {first}" if first else "every event matches, but lists follow them"
    detail = f"{where}: {differences_text(found.shown, more)}"
    return Verdict("fail", detail, tuple(found.shown), more=more)

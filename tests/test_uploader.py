"""The reference uploader, rule by rule: each test plays a short scenario of spec/uploader.md on a virtual clock and
compares the requests sent with ones derived by hand from the prose (the rule ids name where). Frames and skipped
numbers are compared as sets, as conformance/protocol.md compares them; everything else exactly.

Two declarations carry most tests. EVERY reads the whole observation of every step since the previous act
(`every: 1`), so `wanted(t_prev, T)` is every step between the acts, uncut. WINDOW reads `cam` one step back
(`at: [-1, 0]`) and `arm` at the act's own step only, so between acts only the step right before the planned act is
wanted, cut to `cam`; the other steps are lazy skips (spec/schedule.md SCH-WANTED-PICKS, SCH-WANTED-REACH).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from seq_io.reference.schedule import ScheduleError
from seq_io.reference.spec_data import load_spec, load_uploader_constants
from seq_io.reference.uploader import Uploader, cut, deeper_than, lists_observe_format

EPISODE = "ep-1"
EVERY: dict[str, Any] = {"every": 1}
WINDOW: dict[str, Any] = {"streams": {"cam": {"at": [-1, 0]}, "arm": {}}}
DROP_OLDEST: dict[str, Any] = {"every": 1, "when_behind": "drop_oldest"}
CURRENT_ONLY: dict[str, Any] = {"streams": {"cam": {"at": [0]}}}
FED: dict[str, Any] = {"streams": {"cam": {"every": 2}}}

OK_POST: dict[str, Any] = {"answer": {"to": "post", "status": 200}}
OK_ACT: dict[str, Any] = {"answer": {"to": "act", "status": 200}}
NO_HEADER: dict[str, Any] = {}


def observe(n: int, inputs: Any = None) -> dict[str, Any]:
    return {"observe": {"n": n, "inputs": {"n": n} if inputs is None else inputs}}


def act(t: int, inputs: Any = None) -> dict[str, Any]:
    return {"act": {"t": t, "inputs": {"own": t} if inputs is None else inputs}}


def answer(to: str, status: int, headers: dict[str, Any] | None = None) -> dict[str, Any]:
    given: dict[str, Any] = {"to": to, "status": status}
    return {"answer": given if headers is None else given | {"headers": headers}}


def fail(to: str) -> dict[str, Any]:
    return {"fail": {"to": to, "reason": "timeout"}}


def post(at: float, frames: dict[int, Any] | None = None, skipped: tuple[int, ...] = ()) -> dict[str, Any]:
    """An expected post, in the normal form `normal` gives a sent one."""
    body = {"episode_id": EPISODE, "frames": sorted((frames or {}).items()), "skipped": sorted(skipped)}
    return {"at": at, "observe": body}


def act_request(at: float, t: int, inputs: Any = None) -> dict[str, Any]:
    return {"at": at, "act": {"episode_id": EPISODE, "seq": t, "inputs": {"own": t} if inputs is None else inputs}}


def normal(request: dict[str, Any]) -> dict[str, Any]:
    """A sent request with its frames and skipped numbers sorted (they are sets, spec/uploader.md § 9), after
    checking that no number repeats within it (UPL-POST-BODY) and that it leaves out no list it needs."""
    if "act" in request:
        return request
    body = request["observe"]
    assert set(body) <= {"episode_id", "frames", "skipped"} and (body.get("frames") or body.get("skipped"))
    frames = [(frame["seq"], frame["inputs"]) for frame in body.get("frames", [])]
    skipped = body.get("skipped", [])
    numbers = [number for number, _ in frames] + skipped
    assert len(numbers) == len(set(numbers)), f"a number twice in one post: {body}"
    return {
        "at": request["at"],
        "observe": {"episode_id": body["episode_id"], "frames": sorted(frames), "skipped": sorted(skipped)},
    }


class Robot:
    """Plays events on one uploader with a virtual clock (UPL-CLOCK) and gives the requests of each, normalized."""

    def __init__(self, declaration: Any, rate: Any = None, backlog: int | None = None) -> None:
        self.uploader = Uploader(declaration, rate, EPISODE, backlog)
        self.clock = 0.0

    def __call__(self, event: dict[str, Any]) -> list[dict[str, Any]]:
        if "advance" in event:
            self.clock += event["advance"]
        return [normal(request) for request in self.uploader.event(event, self.clock)]

    def play(self, *events: dict[str, Any]) -> list[list[dict[str, Any]]]:
        return [self(event) for event in events]


def nested(depth: int) -> Any:
    """A value of own depth `depth` (spec/stream.md STR-DEPTH): a number inside `depth` arrays."""
    value: Any = 0
    for _ in range(depth):
        value = [value]
    return value


# -- setup ----------------------------------------------------------------------------------------------------


def test_the_constants_are_those_of_uploader_json() -> None:
    given = json.loads((load_spec().root / "uploader.json").read_text(encoding="utf-8"))
    constants = load_uploader_constants()
    assert (constants.attempts, constants.max_post_depth) == (given["UPLOAD_ATTEMPTS"], given["MAX_POST_DEPTH"])
    assert (constants.first_backoff_s, constants.backoff_factor, constants.backoff_spread) == (
        given["UPLOAD_FIRST_BACKOFF_S"],
        given["UPLOAD_BACKOFF_FACTOR"],
        given["UPLOAD_BACKOFF_SPREAD"],
    )


def test_a_declaration_of_refuses_makes_no_uploader() -> None:
    # UPL-SETUP: a declaration in seconds needs the rate; `of` refuses, and that refusal is reported.
    with pytest.raises(ScheduleError) as raised:
        Uploader({"unit": "seconds", "streams": {"cam": {"at": [-0.5, 0]}}}, None, EPISODE)
    assert raised.value.rule == "schedule.rate-required"


@pytest.mark.parametrize(("episode_id", "backlog"), [("", None), ("e" * 257, None), (EPISODE, 0), (EPISODE, 1025)])
def test_an_episode_id_or_backlog_out_of_range_is_a_value_error(episode_id: str, backlog: int | None) -> None:
    # UPL-SETUP: an id of 1 to 256 code points, a backlog from 1 to MAX_STREAM_FRAMES (1024).
    with pytest.raises(ValueError, match=r"UPL-SETUP"):
        Uploader(EVERY, None, episode_id, backlog)


def test_the_clock_must_not_go_back() -> None:
    uploader = Uploader(EVERY, None, EPISODE)
    uploader.event({"plan": 3}, 1.0)
    with pytest.raises(ValueError, match=r"UPL-CLOCK"):
        uploader.event(observe(0), 0.5)


# -- what to upload (§ 3) -----------------------------------------------------------------------------------


@pytest.mark.parametrize("declaration", [None, CURRENT_ONLY])
def test_a_schedule_that_reads_no_past_step_never_posts(declaration: Any) -> None:
    # UPL-STREAM-OFF: no post at all, not even skips; the act still carries seq and episode_id (UPL-ACT-BODY).
    robot = Robot(declaration)
    sent = robot.play({"plan": 2}, observe(0), {"drop": 1}, act(2), OK_ACT, {"plan": 4}, observe(3), act(4))
    assert sent == [[], [], [], [act_request(0.0, 2)], [], [], [], [act_request(0.0, 4)]]


def test_wanted_steps_are_posted_cut_and_the_others_ride_along_as_lazy_skips() -> None:
    # UPL-WANTED: between -1 and 3 WINDOW wants step 2 only, for `cam` (UPL-CUT: arm is left out).
    # UPL-SKIP-UNWANTED: 0 and 1 are lazy skips, which start no post (UPL-POST-PROMPT) and go with the next one
    # (UPL-POST-BATCH). The act's own step 3 is never posted; the act carries its inputs whole (UPL-ACT-BODY).
    robot = Robot(WINDOW)
    whole = {"cam": "c3", "arm": "a3"}
    sent = robot.play(
        {"plan": 3},
        observe(0, {"cam": "c0", "arm": "a0"}),
        observe(1, {"cam": "c1", "arm": "a1"}),
        observe(2, {"cam": "c2", "arm": "a2"}),
        act(3, whole),
    )
    assert sent == [[], [], [], [post(0.0, {2: {"cam": "c2"}}, (0, 1))], [act_request(0.0, 3, whole)]]


def test_lazy_skips_stay_pending_across_an_act_until_a_post_leaves() -> None:
    # UPL-POST-PROMPT: lazy skips alone never start a post. FED reads `cam` every 2nd step counted back from the
    # act: the act at 1 reads nothing before it, so 0 is lazy and waits; after the act at 1 is handed over
    # (spec/uploader.md § 5), the act at 4 reads 2, whose post carries 0 along (UPL-POST-BATCH); 3 is lazy again.
    robot = Robot(FED)
    sent = robot.play(
        {"plan": 1}, observe(0), act(1), OK_ACT, {"plan": 4}, observe(2, {"cam": 2, "arm": 2}), observe(3), act(4)
    )
    assert sent == [
        [],
        [],
        [act_request(0.0, 1)],
        [],
        [],
        [post(0.0, {2: {"cam": 2}}, (0,))],
        [],
        [act_request(0.0, 4)],
    ]


def test_an_urgent_skip_takes_the_lazy_ones_along() -> None:
    # UPL-DROPPED, UPL-POST-BATCH: WINDOW wants 2 before the act at 3; losing it posts 2 at once, with the lazy 0
    # and 1. After the act at 3, WINDOW wants 5 (not 4) before the act at 6.
    robot = Robot(WINDOW)
    assert robot.play({"plan": 3}, observe(0), observe(1), {"drop": 2}) == [[], [], [], [post(0.0, skipped=(0, 1, 2))]]
    robot.play(OK_POST, act(3), OK_ACT, {"plan": 6})
    assert robot.uploader.last_act == 3
    assert robot.play(observe(4), observe(5, {"cam": "c5", "arm": "a5"})) == [[], [post(0.0, {5: {"cam": "c5"}}, (4,))]]


def test_a_cut_keeps_a_non_object_whole_and_leaves_out_missing_keys() -> None:
    # UPL-CUT, as envelope cuts: listed members only, {} when none is there; a non-object, or null keys: whole.
    assert cut({"cam": 1, "arm": 2}, ("cam",)) == {"cam": 1}
    assert cut({"arm": 2}, ("cam",)) == {}
    assert cut([1, 2], ("cam",)) == [1, 2]
    assert cut({"arm": 2}, None) == {"arm": 2}
    for made, posted in [({"arm": 1}, {}), (7, 7), ([{"cam": 1}], [{"cam": 1}])]:
        robot = Robot(WINDOW)  # wants 1 for `cam` before the act at 2
        assert robot.play({"plan": 2}, observe(0), observe(1, made)) == [[], [], [post(0.0, {1: posted}, (0,))]]


def test_a_dropped_wanted_step_is_an_urgent_skip_posted_at_once() -> None:
    # UPL-DROPPED: EVERY wants 0 and 1 before the act at 2; losing 0 is declared at once.
    robot = Robot(EVERY)
    assert robot.play({"plan": 2}, {"drop": 0}) == [[], [post(0.0, skipped=(0,))]]


def test_own_depth_counts_the_observation_s_own_arrays_and_objects() -> None:
    # STR-DEPTH: 0 for a scalar, [] and {}; 1 for [0] and {"a": 1}; [[]] is 1.
    for value, depth in [(7, 0), ([], 0), ({}, 0), ([0], 1), ({"a": 1}, 1), ([[]], 1), ({"a": [{}]}, 2)]:
        assert not deeper_than(value, depth) and (depth == 0 or deeper_than(value, depth - 1)), value
    assert deeper_than(nested(5000), 197)  # deeper than Python's recursion limit, measured all the same


def test_a_frame_too_deep_to_post_is_an_urgent_skip_and_the_act_still_carries_it() -> None:
    # UPL-DEPTH: own depth 197 is posted; 198 is declared skipped instead (urgent: a post leaves at once). An act
    # allows two levels more, and carries 198 whole.
    robot = Robot(EVERY)
    sent = robot.play({"plan": 2}, observe(0, nested(197)), OK_POST, observe(1, nested(198)), act(2, nested(198)))
    assert sent == [
        [],
        [post(0.0, {0: nested(197)})],
        [],
        [post(0.0, skipped=(1,))],
        [act_request(0.0, 2, nested(198))],
    ]


def test_under_wait_no_frame_is_ever_dropped() -> None:
    # UPL-BEHIND, "wait" (the default): the frames made while 0 is in flight all go in the next post.
    robot = Robot(EVERY, backlog=2)
    sent = robot.play({"plan": 5}, observe(0), observe(1), observe(2), observe(3), OK_POST)
    assert sent[-1] == [post(0.0, {1: {"n": 1}, 2: {"n": 2}, 3: {"n": 3}})]


def test_drop_oldest_keeps_the_backlog_and_declares_the_dropped_frame_skipped() -> None:
    # UPL-BEHIND with backlog 2: frame 0 is in flight (not pending, not counted); 1, 2 pending; 3 makes three
    # pending frames, so the lowest, 1, becomes an urgent skip. The next post carries 2 and 3, and skips 1.
    robot = Robot(DROP_OLDEST, backlog=2)
    sent = robot.play({"plan": 5}, observe(0), observe(1), observe(2), observe(3), OK_POST)
    assert sent == [[], [post(0.0, {0: {"n": 0}})], [], [], [], [post(0.0, {2: {"n": 2}, 3: {"n": 3}}, (1,))]]


# -- when to post (§ 4) -------------------------------------------------------------------------------------


def test_one_post_at_a_time_and_the_next_carries_everything_pending() -> None:
    # UPL-POST-ONE, UPL-POST-PROMPT, UPL-POST-BATCH: 1 and 2 wait while 0 is in flight; the answer to 0 sends
    # them, at the answer's reading.
    robot = Robot(EVERY)
    sent = robot.play({"plan": 4}, observe(0), observe(1), {"advance": 0.5}, observe(2), OK_POST, OK_POST)
    assert sent == [[], [post(0.0, {0: {"n": 0}})], [], [], [], [post(0.5, {1: {"n": 1}, 2: {"n": 2}})], []]


# -- the act (§ 5) ------------------------------------------------------------------------------------------


def test_an_act_leaves_at_once_whatever_is_in_flight_and_pending_stays_pending() -> None:
    # UPL-ACT-BODY: the act does not wait for the post of 0 nor take 1 along; 1 leaves when 0 is answered.
    robot = Robot(EVERY)
    sent = robot.play({"plan": 2}, observe(0), observe(1), act(2), OK_POST)
    assert sent == [[], [post(0.0, {0: {"n": 0}})], [], [act_request(0.0, 2)], [post(0.0, {1: {"n": 1}})]]


def test_an_act_is_never_retried_by_the_uploader() -> None:
    # UPL-ACT-ONCE: a 409, a 503 or a failure sends nothing; a second `act` event sends a second request.
    robot = Robot(EVERY)
    robot.play({"plan": 1}, observe(0), OK_POST)
    sent = robot.play(
        act(1), answer("act", 409), {"advance": 5.0}, act(1), answer("act", 503), act(1), fail("act"), {"advance": 5.0}
    )
    assert sent == [[act_request(0.0, 1)], [], [], [act_request(5.0, 1)], [], [act_request(5.0, 1)], [], []]
    assert robot.uploader.last_act == -1


def test_the_last_act_moves_only_when_an_act_is_answered_200() -> None:
    # spec/uploader.md § 5: refused (409) or failed, t_prev stays -1; handed over (200), it is 1.
    robot = Robot(WINDOW)
    robot.play({"plan": 1}, observe(0), act(1), answer("act", 409))
    assert robot.uploader.last_act == -1
    robot.play(act(1), fail("act"))
    assert robot.uploader.last_act == -1
    robot.play(act(1), OK_ACT)
    assert robot.uploader.last_act == 1


# -- answers (§ 6) ------------------------------------------------------------------------------------------


def test_a_failed_post_is_retried_at_the_start_of_each_window() -> None:
    # UPL-RETRY, UPL-RETRY-BACKOFF, UPL-CLOCK: attempt 1 at 0.0 fails at 0.0; the first retry is due 0.1 later and
    # is sent during the advance that reaches it, at 0.1. Its 503 at 0.3 makes the second retry due at 0.3 + 0.2.
    robot = Robot(EVERY)
    robot.play({"plan": 3}, observe(0))
    assert robot(fail("post")) == []
    assert robot.uploader.next_due() == 0.1
    assert robot({"advance": 0.05}) == []
    retried = post(0.1, {0: {"n": 0}})
    assert robot({"advance": 0.25}) == [retried]
    assert robot.uploader.next_due() is None
    robot.play(observe(1))  # pending while the retry is in flight (UPL-POST-ONE)
    assert robot(answer("post", 503)) == []
    assert robot.uploader.next_due() == 0.3 + 0.2
    assert robot({"advance": 1.0}) == [post(0.3 + 0.2, {0: {"n": 0}})]
    assert robot(OK_POST) == [post(1.3, {1: {"n": 1}})]


def test_after_six_attempts_the_post_is_given_up_and_its_numbers_leave_as_urgent_skips() -> None:
    # UPL-GIVE-UP, UPL-LOST: attempts 1..6 each answered 503; b_k = 0.1, 0.2, 0.4, 0.8, 1.6 after each answer;
    # after the sixth, 0 is lost: never sent again as a frame, declared skipped instead, in one post at once with
    # frame 1, pending meanwhile.
    robot = Robot(EVERY)
    robot.play({"plan": 3}, observe(0))
    attempts = 1
    for backoff in (0.1, 0.2, 0.4, 0.8, 1.6):
        answered = robot.clock
        assert robot(answer("post", 503)) == []
        assert robot({"advance": 2.0}) == [post(answered + backoff, {0: {"n": 0}})]
        attempts += 1
    robot.play(observe(1))
    assert attempts == load_uploader_constants().attempts
    assert robot(answer("post", 503)) == [post(robot.clock, {1: {"n": 1}}, (0,))]
    assert robot.uploader.next_due() is None
    assert robot.play(OK_POST, {"advance": 5.0}, observe(2)) == [[], [], [post(robot.clock, {2: {"n": 2}})]]


LOSSES = ("400", "413", "give-up")
"""The three ways a post is lost (UPL-LOST): refused 400 (UPL-REFUSED), refused 413 (UPL-OVER-LIMIT), or answered
503 at every attempt (UPL-GIVE-UP)."""


def lose(robot: Robot, how: str) -> list[dict[str, Any]]:
    """Makes the post in flight lost in the way `how` names → the requests of the event that lost it. A give-up
    answers each attempt 503 and advances past each retry's window, so the clock moves."""
    if how != "give-up":
        return robot(answer("post", int(how)))
    for _ in range(load_uploader_constants().attempts - 1):
        robot(answer("post", 503))
        assert len(robot({"advance": 2.0})) == 1
    return robot(answer("post", 503))


def test_a_post_answered_400_is_not_retried() -> None:
    # UPL-REFUSED, UPL-LOST: no retry at any time; frame 0 is declared skipped and leaves at once with pending 1.
    robot = Robot(EVERY)
    sent = robot.play({"plan": 3}, observe(0), observe(1), answer("post", 400), {"advance": 5.0}, OK_POST)
    assert sent == [[], [post(0.0, {0: {"n": 0}})], [], [post(0.0, {1: {"n": 1}}, (0,))], [], []]


@pytest.mark.parametrize("how", LOSSES)
def test_a_lost_post_s_numbers_become_urgent_skips(how: str) -> None:
    # UPL-LOST: the lost post carried frame 2 and lazy skips 0, 1: all three join pending as urgent skips and leave
    # at once, with no frame.
    robot = Robot(WINDOW)
    robot.play({"plan": 3}, observe(0), observe(1))
    assert robot(observe(2, {"cam": 2})) == [post(0.0, {2: {"cam": 2}}, (0, 1))]
    assert lose(robot, how) == [post(robot.clock, skipped=(0, 1, 2))]


@pytest.mark.parametrize("how", LOSSES)
def test_a_lost_post_of_skips_only_is_dropped(how: str) -> None:
    # UPL-LOST: the post of skips 0, 1, 2 (from the test above) is lost too: nothing is declared again, nothing
    # retried. Frames pending meanwhile still go in the next post (EVERY: 0 in flight, 1 pending).
    robot = Robot(WINDOW)
    robot.play({"plan": 3}, observe(0), observe(1), observe(2, {"cam": 2}), answer("post", 413))
    assert lose(robot, how) == []
    assert robot.play({"advance": 5.0}, act(3)) == [[], [act_request(robot.clock, 3)]]
    robot = Robot(EVERY)
    robot.play({"plan": 3}, {"drop": 0}, observe(1))
    assert lose(robot, how) == [post(robot.clock, {1: {"n": 1}})]


@pytest.mark.parametrize("how", LOSSES)
def test_a_lost_post_s_skips_leave_with_the_pending_frames(how: str) -> None:
    # UPL-LOST with pending: 0 lost, 1 pending → one post: frame 1, skipped 0.
    robot = Robot(EVERY)
    robot.play({"plan": 4}, observe(0), observe(1))
    assert lose(robot, how) == [post(robot.clock, {1: {"n": 1}}, (0,))]


@pytest.mark.parametrize("to", ["post", "act"])
def test_410_ends_everything(to: str) -> None:
    # UPL-ENDED: a backing-off post is dropped (no retry), pending is dropped, and no later event sends anything,
    # not even an act.
    robot = Robot(EVERY)
    robot.play({"plan": 3}, observe(0), fail("post"), observe(1), act(3))
    if to == "post":
        robot.play({"advance": 0.2})  # the retry of 0 is in flight now
    sent = robot.play(answer(to, 410), {"advance": 5.0}, OK_POST, observe(2), act(3), OK_ACT, {"plan": 5})
    assert sent == [[]] * 7
    assert robot.uploader.ended and robot.uploader.next_due() is None


def test_a_2xx_or_4xx_answer_without_the_format_turns_the_stream_off() -> None:
    # UPL-FORMATS: the 200 lacks Seq-Accept-Formats: pending 1 is dropped, later observations add nothing; acts
    # still go.
    robot = Robot(EVERY)
    robot.play({"plan": 3}, observe(0), observe(1))
    sent = robot.play(answer("post", 200, NO_HEADER), observe(2), act(3), OK_ACT, {"plan": 5}, {"drop": 4})
    assert sent == [[], [], [act_request(0.0, 3)], [], [], []]


@pytest.mark.parametrize(
    ("status", "headers"),
    [(400, NO_HEADER), (413, {"Seq-Accept-Formats": "x-other/1"}), (404, None), (405, None), (409, None)],
)
def test_what_turns_a_post_s_stream_off(status: int, headers: dict[str, Any] | None) -> None:
    # UPL-FORMATS: a 400 or 413 without the format, and any 4xx other than 400, 410, 413 whatever the header.
    robot = Robot(EVERY)
    robot.play({"plan": 3}, observe(0), observe(1))
    assert robot.play(answer("post", status, headers), {"advance": 5.0}, observe(2)) == [[], [], []]


def test_a_5xx_without_the_format_is_a_failure_not_a_statement() -> None:
    # UPL-FORMATS, UPL-RETRY: a proxy's 502 without the header is retried; the stream stays on.
    robot = Robot(EVERY)
    robot.play({"plan": 3}, observe(0))
    assert robot.play(answer("post", 502, NO_HEADER), {"advance": 0.1}) == [[], [post(0.1, {0: {"n": 0}})]]


def test_an_act_answer_without_the_format_turns_the_stream_off_and_drops_a_backing_off_post() -> None:
    # UPL-FORMATS from an act's answer: the backing-off post of 0 is dropped, no retry, no later post.
    robot = Robot(EVERY)
    robot.play({"plan": 2}, observe(0), fail("post"), observe(1), act(2))
    assert robot.play(answer("act", 200, NO_HEADER), {"advance": 5.0}, {"plan": 4}, observe(3)) == [[], [], [], []]
    assert robot.uploader.last_act == 2 and robot.uploader.next_due() is None


def test_an_act_refused_409_with_the_format_leaves_the_stream_on() -> None:
    robot = Robot(EVERY)
    robot.play({"plan": 2}, observe(0), act(2), answer("act", 409))
    assert robot(OK_POST) == []  # nothing pending
    assert robot(observe(1)) == [post(0.0, {1: {"n": 1}})]


def test_the_format_header_is_matched_without_case_and_its_items_trimmed() -> None:
    observe_format = load_spec().contract["observe_format"]
    assert lists_observe_format({"seq-accept-formats": f"x-other/2 ,  {observe_format}"})
    assert lists_observe_format({"SEQ-ACCEPT-FORMATS": observe_format})
    assert lists_observe_format({"Seq-Accept-Formats": f"x-other/2,\t{observe_format}\t"})  # OWS: tabs too
    assert not lists_observe_format({"Seq-Accept-Formats": ""})
    assert not lists_observe_format({"Seq-Accept-Formats": f"{observe_format}x"})
    assert not lists_observe_format({"Other": observe_format})
    robot = Robot(EVERY)
    robot.play({"plan": 3}, observe(0), observe(1))
    assert robot(answer("post", 200, {"seq-accept-formats": f"a/1, {observe_format}"})) == [post(0.0, {1: {"n": 1}})]


def test_an_answer_or_failure_with_nothing_in_flight_is_ignored() -> None:
    # conformance/protocol.md: answered []. A backing-off post is not in flight.
    robot = Robot(EVERY)
    assert robot.play({"plan": 3}, OK_POST, OK_ACT, fail("post"), fail("act")) == [[], [], [], [], []]
    robot.play(observe(0), fail("post"), observe(1))
    assert robot.play(OK_POST, answer("post", 503), {"advance": 0.1}) == [[], [], [post(0.1, {0: {"n": 0}})]]


def test_uploaders_share_no_state() -> None:
    # Two episodes side by side (spec/uploader.md § 9): each uploader answers only its own events.
    first, second = Uploader(EVERY, None, "a"), Uploader(EVERY, None, "b")
    first.event({"plan": 2}, 0.0)
    second.event({"plan": 2}, 0.0)
    assert first.event(observe(0), 0.0)[0]["observe"]["episode_id"] == "a"
    assert second.event(observe(0), 0.0)[0]["observe"]["episode_id"] == "b"
    first.event(fail("post"), 0.0)
    assert first.next_due() == 0.1 and second.next_due() is None

"""The reference keeper beyond the vectors: its error table is spec/stream.md's, its error bodies are valid
StreamError instances, its sizes are the canonical ones, its state stays bounded, and misuse by a caller (a clock
going back, an impossible idle timeout) is told apart from a refusal of a request.

The tests of error bodies and of misuse also judge the keeper's mutants beside the stream vectors (`make
mutation-keeper`, scripts/mutation.py names them): they reach what no vector can.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

import suite_cache
from seq_io.reference import keeper as kp
from seq_io.reference import testee
from seq_io.reference.cases import judge
from seq_io.reference.frame_size import canonical_text, size
from seq_io.reference.keeper import ERRORS, Keeper, Limits, StreamError, check_act, check_observe
from seq_io.reference.spec_data import load_spec
from seq_io.reference.validation import contract

SPEC = load_spec()
PROSE = (SPEC.root / "stream.md").read_text(encoding="utf-8")
ROW = re.compile(r"^\| `(stream\.[a-z-]+)` \| (\d{3}) \| `([a-z_]+)` \|", re.MULTILINE)


def test_the_error_table_is_the_prose_table() -> None:
    in_prose = {rule: (int(status), code) for rule, status, code in ROW.findall(PROSE)}
    assert in_prose == ERRORS


def test_each_error_id_is_named_in_the_prose_and_has_a_reason_in_the_schema() -> None:
    reasons = SPEC.schemas["StreamError"]["properties"]["error"]["properties"]["details"]["properties"]["reason"]
    assert sorted(kp.reason_of(rule) for rule in ERRORS) == sorted(reasons["enum"])
    assert (
        kp.reason_of(kp.FRAMES_MISSING) == "frames_missing"
        and kp.reason_of(kp.FRAMES_OVER_LIMIT) == "frames_over_limit"
    )
    assert set(SPEC.contract["error_codes"]) == {"frames_missing", "frames_over_limit"}


DETAILS: dict[str, dict[str, Any]] = {
    kp.INVALID_BODY: {"issues": [{"path": "$.frames[0].seq", "rule": "minimum"}]},
    kp.FRAMES_MISSING: {"missing": [3, 4]},
    kp.FRAMES_OVER_LIMIT: {"limit": "MAX_STREAM_BYTES"},
    kp.ACT_OVER_LIMIT: {"limit": "MAX_STREAM_FRAMES"},
    kp.ACT_NOT_AFTER_PREVIOUS: {"last_act": 5},
}


@pytest.mark.parametrize("rule", sorted(ERRORS))
def test_every_error_body_is_a_valid_stream_error(rule: str) -> None:
    error = StreamError(rule, "a sentence", **DETAILS.get(rule, {}))
    outcome = contract().validate_value("StreamError", error.body())
    assert outcome.valid, outcome.issues
    assert error.status == ERRORS[rule][0]


def test_a_body_without_its_details_is_refused() -> None:
    outcome = contract().validate_value("StreamError", StreamError(kp.FRAMES_MISSING, "x").body())
    assert [issue.rule for issue in outcome.issues] == ["StreamError.reason-details"]


def test_every_refusal_the_stream_vectors_provoke_has_a_valid_stream_error_body(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """spec/stream.md § 10: the vectors compare a refusal's id, status and details, not the body a worker sends; every
    refusal and failure they provoke, of each error id, is held here to StreamError.json (a message, the code and
    reason of its id, the details its reason needs)."""
    refusals: list[StreamError] = []
    outcome_of = testee._error_outcome

    def recorded(error: StreamError) -> dict[str, Any]:
        refusals.append(error)
        return outcome_of(error)

    monkeypatch.setattr(testee, "_error_outcome", recorded)
    for case in suite_cache.cases()[0]:
        if case.kind == "stream" and any("error" in op.get("expect", {}) for op in case.case.data["operations"]):
            judge("stream", case.case)
    assert {error.rule for error in refusals} == set(ERRORS)
    checker = contract()
    invalid = [error.body() for error in refusals if not checker.validate_value("StreamError", error.body()).valid]
    assert not invalid, invalid[0]


@pytest.mark.parametrize(
    ("type_name", "body"),
    [
        ("ObserveRequest", {"episode_id": "e", "frames": [{"seq": -1, "inputs": 0}], "skipped": [0.5]}),
        ("ObserveRequest", None),
        ("ActRequest", {"seq": 2.5, "inputs": 0, "extra": 1}),
        ("ActRequest", [1]),
    ],
)
def test_a_refused_body_names_the_issues_the_validator_finds_in_it(type_name: str, body: Any) -> None:
    """stream.invalid-body carries in `issues` each path and rule the validator of record (spec/validation.md)
    refuses in that very body, which the vectors do not compare."""
    send = Keeper(None).post if type_name == "ObserveRequest" else Keeper(None).act
    with pytest.raises(StreamError) as refused:
        send(body, 0.0)
    expected = [{"path": issue.path, "rule": issue.rule} for issue in contract().validate_value(type_name, body).issues]
    assert refused.value.rule == kp.INVALID_BODY and refused.value.details["issues"] == expected
    assert contract().validate_value("StreamError", refused.value.body()).valid


def test_the_format_and_its_header_are_the_prose_ones() -> None:
    assert SPEC.contract["observe_format"] == "x-seq-observe/1"
    assert f"**`{kp.FORMATS_HEADER}`**" in PROSE and "`x-seq-observe/1`" in PROSE


def test_a_keeper_refuses_a_clock_that_goes_back_and_an_impossible_idle_timeout() -> None:
    keeper = Keeper(None)
    keeper.tick(5.0)
    for reading in (4.0, float("nan"), float("inf")):
        with pytest.raises(ValueError, match="went back"):
            keeper.post({"episode_id": "e"}, reading)
    for idle in (9, 86401, 10.0, True):
        with pytest.raises(ValueError, match="episode_idle"):
            Keeper(None, episode_idle=idle)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("limits", "name"),
    [
        (Limits(0, 1, 1), "MAX_STREAM_FRAMES"),
        (Limits(1_000_001, 1, 1), "MAX_STREAM_FRAMES"),
        (Limits(1, 0, 1), "MAX_STREAM_BYTES"),
        (Limits(1, 1, 2**53), "MAX_WORKER_STREAM_BYTES"),
        (Limits(1, 1, 1, 0), "MAX_EPISODES"),
        (Limits(1, 1, 1, True), "MAX_EPISODES"),
    ],
)
def test_a_keeper_takes_only_limits_in_their_range(limits: Limits, name: str) -> None:
    """STR-SETUP: MAX_STREAM_FRAMES from 1 to 1,000,000 (SCH-RESULT-BOUND's floor), the others from 1 to 2^53 - 1."""
    with pytest.raises(ValueError, match=name):
        Keeper(None, limits=limits)
    Keeper(None, limits=Limits(1_000_000, 2**53 - 1, 2**53 - 1, 2**53 - 1))
    assert Limits.of_contract().episodes == kp.MAX_EPISODES >= 1024


def test_acts_and_empty_posts_alone_stay_within_the_limits() -> None:
    """spec/stream.md § 6: no quantity is ever above its limit. Acts at every other step and no post (STR-ACT-OWN
    case 3) remember at most MAX_STREAM_FRAMES numbers; acts over a far-reaching window hold at most that many
    frames; empty posts under new ids start at most MAX_EPISODES episodes (STR-LIMIT-EPISODES)."""
    keeper = Keeper(None, limits=Limits(8, 10**6, 10**6, 4))
    for t in range(0, 2000, 2):
        assert keeper.act({"episode_id": "e", "seq": t, "inputs": t}, 0.0).handed == t
    assert keeper._episodes["e"].remembered() == 8
    refused = 0
    for n in range(100):
        try:
            keeper.post({"episode_id": f"x{n}"}, 0.0)
        except StreamError as error:
            assert error.rule == kp.TOO_MANY_EPISODES and error.status == 503
            refused += 1
    assert refused == 97 and len(keeper._episodes) == 4
    window = Keeper.of({"streams": {"cam": {"at": [-1_000_000, 0]}}}, limits=Limits(8, 100, 1000))
    for t in range(500):
        window.act({"episode_id": "e", "seq": t, "inputs": {"cam": t}}, 0.0)
    episode = window._episodes["e"]
    assert len(episode.held) == 8 and episode.bytes <= 100 and episode.through == 499


def test_a_refusal_is_an_exception_with_its_id_never_a_crash() -> None:
    keeper = Keeper.of({"every": 1})
    bodies: list[Any] = [
        {"episode_id": "e", "frames": [{"seq": -1, "inputs": 0}]},
        [],
        None,
        {"episode_id": "e", "skipped": [-1]},
    ]
    for body in bodies:
        with pytest.raises(StreamError) as refused:
            keeper.post(body, 0.0)
        assert refused.value.rule in ERRORS
    with pytest.raises(StreamError) as refused:
        keeper.post({"episode_id": "e", "frames": [{"seq": 0, "inputs": float("nan")}]}, 0.0)
    assert refused.value.rule == kp.INVALID_BODY and refused.value.details["issues"]


def _canonical_bytes(keeper: Keeper) -> int:
    return sum(
        len(canonical_text(value).encode("utf-8")) for e in keeper._episodes.values() for value in e.held.values()
    )


def test_state_stays_bounded_and_bytes_are_the_canonical_sizes() -> None:
    """A robot streaming 20,000 frames with a window [-8, 0] and an act every 5 steps: the episode never holds more
    than the window needs, the heap holds exactly the held numbers, nothing is remembered above through, and the
    byte count is the sum of the canonical sizes of what is held."""
    rng = random.Random(7)
    keeper = Keeper.of({"streams": {"cam": {"at": [-8, 0]}}}, limits=Limits(64, 10**6, 10**6))
    episode_peak = 0
    for t in range(20_000):
        value = {"cam": rng.choice([t, t * 0.5, f"f{t}", [1.0, -0.0, 1e-7]])}
        if t % 5:
            keeper.post({"episode_id": "e", "frames": [{"seq": t, "inputs": value}]}, 0.0)
        else:
            keeper.act({"episode_id": "e", "seq": t, "inputs": value}, 0.0)
        episode = keeper._episodes["e"]
        episode_peak = max(episode_peak, len(episode.held))
        assert len(episode.heap) == len(episode.held) == len(episode.sizes)
    assert episode_peak <= 14 and not episode.marks and episode.through == 19_999
    assert keeper.held_bytes == episode.bytes == _canonical_bytes(keeper)
    assert all(episode.sizes[n] == size(v) for n, v in episode.held.items())


def test_an_ended_episode_gives_its_bytes_back_to_the_worker() -> None:
    keeper = Keeper(None, episode_idle=10)
    keeper.post({"episode_id": "e", "frames": [{"seq": 0, "inputs": "abc"}]}, 0.0)
    keeper.post({"episode_id": "f", "frames": [{"seq": 0, "inputs": [1.5]}]}, 5.0)
    assert keeper.held_bytes == 5 + 5
    keeper.tick(10.5)
    assert keeper.take_events().ended == ["e"] and keeper.held_bytes == 5


def test_a_host_can_measure_and_withdraw_a_waiting_act_and_choose_how_frames_are_held() -> None:
    """What a worker asks of its keeper beyond spec/stream.md: the size of a waiting act's inputs (measured once,
    whether the quick check counted it or not), forgetting a waiting act it refuses for its own bound, and holding
    frames in its own form (`store`, seq_io.reference.held)."""
    keeper = Keeper.of({"every": 1}, store=lambda inputs: ("held", inputs))
    assert keeper.act({"episode_id": "é", "seq": 2, "inputs": [1, 2]}, 0.0).waiting  # not the quick check's id
    assert keeper.waiting_size("é") == keeper.waiting_size("é") == size([1, 2])
    assert keeper.act({"episode_id": "e", "seq": 1, "inputs": {"a": 1}}, 0.0).waiting
    assert keeper.waiting_size("e") == size({"a": 1})
    keeper.withdraw("é")
    assert keeper.act({"episode_id": "é", "seq": 1, "inputs": "o1"}, 1.0).waiting  # neither act-waiting nor behind
    assert keeper.post({"episode_id": "é", "frames": [{"seq": 0, "inputs": "p0"}]}, 2.0) == 0
    assert [(a.episode_id, a.handed) for a in keeper.take_events().answers] == [
        ("é", {"observations": [("held", "p0"), ("held", "o1")], "steps": [0, 1]})
    ]
    pairs = Keeper.of({"streams": {"cam": {"at": [-1, 0]}}}, store=lambda inputs: ("held", inputs))
    assert pairs.act({"episode_id": "e", "seq": 0, "inputs": {"cam": "o0"}}, 0.0).handed is not None
    assert pairs.act({"episode_id": "e", "seq": 1, "inputs": {"cam": "o1"}}, 0.0).handed == {
        "observations": [("held", {"cam": "o0"}), ("held", {"cam": "o1"})],
        "steps": [0, 1],
    }  # the act's own frame is checked into the held form before anything else (check_act)
    keeper.tick(keeper.wait_s + 0.5)
    assert [(a.episode_id, a.error and a.error.rule) for a in keeper.take_events().answers] == [
        ("e", "stream.frames-missing")
    ]


def test_a_call_applies_the_time_before_its_body_is_checked_and_a_checked_body_is_applied_alike() -> None:
    """`post` and `act` tick the clock before the body's check, so a refused body still fails the acts whose wait
    ran out; `post_checked` and `act_checked` (a worker checks bodies elsewhere: check_observe, check_act) tick it
    too."""
    keeper = Keeper.of({"every": 1}, episode_idle=1000)

    def failed() -> list[str]:
        return [answer.episode_id for answer in keeper.take_events().answers if answer.error is not None]

    assert keeper.act({"episode_id": "a", "seq": 1, "inputs": 1}, 0.0).waiting
    with pytest.raises(StreamError):
        keeper.post({"episode_id": "e", "frames": [{"seq": -1, "inputs": 1}]}, keeper.wait_s + 1)
    assert failed() == ["a"]
    assert keeper.act({"episode_id": "b", "seq": 1, "inputs": 1}, 20.0).waiting
    with pytest.raises(StreamError):
        keeper.act({"episode_id": "e", "seq": "one", "inputs": 1}, 40.0)
    assert failed() == ["b"]
    assert keeper.act({"episode_id": "c", "seq": 1, "inputs": 1}, 50.0).waiting
    assert keeper.post_checked(check_observe({"episode_id": "e", "frames": [{"seq": 0, "inputs": 0}]}), 70.0) == 0
    assert failed() == ["c"]
    assert keeper.act({"episode_id": "d", "seq": 1, "inputs": 1}, 80.0).waiting
    handed = keeper.act_checked(check_act({"episode_id": "f", "seq": 0, "inputs": 1}), 100.0).handed
    assert handed == {"observations": [1], "steps": [0]}
    assert failed() == ["d"]
    keeper.tick(2000.0)  # the checked calls kept their episodes' `seen` as the time they came
    assert keeper.take_events().ended == ["a", "b", "c", "d", "e", "f"]

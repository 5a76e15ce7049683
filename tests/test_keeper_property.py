"""Random stream scenarios → the reference keeper (through the reference testee) and the brute-force model of
scripts/seq_io_maint/stream_model.py → the same outcome for every operation.

The model keeps sets of accounted numbers and recomputes `through` from 0 after every post; the keeper keeps a
bounded state and moves `through` incrementally, stages posts, pops a heap on retention and expires from the front
of ordered dicts. Hypothesis draws interleavings of posts (in any order, with duplicates, resends, skipped numbers,
bad bodies), acts (with and without seq, in and out of order), clock advances (ties at the 10 s deadline
included) over a few episodes, declarations and scaled-down limits, and shrinks any disagreement to a short
scenario. Deterministic (derandomized, no database); SEQ_IO_FUZZ_EXAMPLES raises the example count (`make fuzz`
sets 10000).
"""

from __future__ import annotations

import os
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from seq_io.reference.testee import answer
from seq_io_maint.stream_model import play

EXAMPLES = int(os.environ.get("SEQ_IO_FUZZ_EXAMPLES", "300"))
FUZZ = settings(
    max_examples=EXAMPLES,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

DECLARATIONS: list[Any] = [
    None,
    {},
    {"streams": {}},
    {"every": 1},
    {"every": 3, "pad": "drop"},
    {"streams": {"cam": {"at": [-2, 0]}, "st": {}}},
    {"streams": {"cam": {"at": [-3, -1]}}, "pad": "drop"},
    {"streams": {"cam": {"at": [-4, -2, 0]}, "s": {"every": 2}}},
    {"streams": {"s": {"every": 3}, "st": {}}},
]
EPISODES = ["a", "b", "c"]
NUMBERS = st.integers(min_value=0, max_value=14)
VALUES = st.one_of(
    st.integers(-3, 99),
    st.sampled_from(["x", "abc", "", None, True, 1.5, 1e-7, 7.0]),
    st.fixed_dictionaries({"cam": st.integers(0, 9)}, optional={"st": st.just("s"), "s": st.just(2)}),
    st.lists(st.integers(0, 3), max_size=3),
)


@st.composite
def frame(draw: st.DrawFn) -> dict[str, Any]:
    return {"seq": draw(NUMBERS), "inputs": draw(VALUES)}


@st.composite
def post(draw: st.DrawFn) -> dict[str, Any]:
    body: dict[str, Any] = {"episode_id": draw(st.sampled_from(EPISODES))}
    if draw(st.booleans()):
        body["frames"] = draw(st.lists(frame(), max_size=6))
    if draw(st.integers(0, 3)) == 0:
        body["skipped"] = draw(st.lists(st.integers(-1, 14), max_size=4))  # -1: stream.invalid-skipped
    if draw(st.integers(0, 30)) == 0:
        body["frames"] = [{"seq": draw(st.sampled_from([-1, 2.5, "3"])), "inputs": 0}]  # stream.invalid-body
    return {"observe": body}


@st.composite
def act(draw: st.DrawFn) -> dict[str, Any]:
    body: dict[str, Any] = {"inputs": draw(VALUES)}
    if draw(st.integers(0, 9)):
        body["episode_id"] = draw(st.sampled_from(EPISODES))
    if draw(st.integers(0, 9)):
        body["seq"] = draw(st.integers(0, 18))
    return {"act": body}


ADVANCE = st.builds(lambda s: {"advance": s}, st.sampled_from([0, 0.5, 1, 3, 9.5, 10, 10.5, 11, 25]))
OPERATION = st.one_of(post(), post(), act(), act(), ADVANCE)


@st.composite
def scenario(draw: st.DrawFn) -> dict[str, Any]:
    out: dict[str, Any] = {
        "declaration": draw(st.sampled_from(DECLARATIONS)),
        "episode_idle": draw(st.sampled_from([None, 10, 15])),
        "operations": draw(st.lists(OPERATION, min_size=1, max_size=40)),
    }
    limits = draw(
        st.fixed_dictionaries(
            {},
            optional={
                "MAX_STREAM_FRAMES": st.integers(1, 8),
                "MAX_STREAM_BYTES": st.integers(1, 60),
                "MAX_WORKER_STREAM_BYTES": st.integers(1, 100),
                "MAX_EPISODES": st.integers(1, 3),
            },
        )
    )
    if limits:
        out["limits"] = limits
    return out


def keeper_outcomes(given: dict[str, Any]) -> list[Any]:
    reply = answer({"type": "case", "id": "fuzz-0001", "kind": "stream", "input": given})
    assert reply["type"] == "result", reply
    outcomes: list[Any] = reply["result"]["outcomes"]
    return outcomes


@FUZZ
@given(scenario())
def test_keeper_agrees_with_the_brute_force_model(given: dict[str, Any]) -> None:
    ours, model = keeper_outcomes(given), play(given)
    for index, (mine, theirs) in enumerate(zip(ours, model, strict=True)):
        assert mine == theirs, f"operation {index} {given['operations'][index]}: keeper {mine}, model {theirs}"


def test_the_comparison_can_fail() -> None:
    """A keeper and a model that disagreed would be caught: a scenario whose outcome the model computes differently
    when the keeper's limits are not passed on shows the assertion has teeth."""
    given = {
        "declaration": None,
        "limits": {"MAX_STREAM_FRAMES": 1},
        "operations": [{"observe": {"episode_id": "a", "frames": [{"seq": 0, "inputs": 1}, {"seq": 1, "inputs": 2}]}}],
    }
    assert keeper_outcomes(given) != play({**given, "limits": {}})

"""A stream scenario's real-time plan + the times a replay saw → the timing constraints the times do not prove.

WHY: the probe must never blame a worker for the machine's lag (conformance/worker.md, "Time on a real clock").
Under load, a stall can let an act's deadline pass before the probe sends the post that completes it; the act then
fails early, the replay stops at that first departure, and the post is never sent. These tests pin how such a stop
is judged, with no server and no real clock: late enough to be the lag → a violation (the probe retries with a
longer wait); sooner than the deadline could have passed → no violation (the worker answered early: its fault).
"""

from __future__ import annotations

from typing import Any

import suite_cache
from seq_io.probe.plan import Timing, plan_of, violations

SCALE = 0.02
"""Real seconds per virtual second: a test keeper's wait of 0.2 s for STREAM_WAIT_S = 10."""
LATENCY_S = 0.1


def _scenario(case_id: str) -> dict[str, Any]:
    cases, problems = suite_cache.cases()
    assert not problems
    return next(case.case.data for case in cases if case.id == case_id)


def test_the_post_that_completes_a_waiting_act_must_come_before_its_deadline() -> None:
    plan = plan_of(_scenario("str-wait-0006"))  # act at 0 waits; the post of op 1 completes it
    assert plan.waits == {0} and plan.decided == {0: 1}
    assert [(c.op, c.anchor, c.before) for c in plan.constraints] == [(1, 0, True)]


def test_a_replay_stopped_after_the_deadline_passed_is_the_machines_lag() -> None:
    plan = plan_of(_scenario("str-wait-0006"))
    act = {0: Timing(sent=100.0, known=100.01)}
    late = violations(plan, act, SCALE, LATENCY_S, stopped_time=100.5)  # a stall of 0.5 s > the 0.2 s wait
    assert late and "operation 1 was to reach the worker before" in late[0].text
    assert late[0].scale > SCALE, "the retry's scale must cover the lag this run showed"


def test_a_replay_stopped_before_the_deadline_could_pass_blames_the_worker() -> None:
    plan = plan_of(_scenario("str-wait-0006"))
    act = {0: Timing(sent=100.0, known=100.01)}
    assert violations(plan, act, SCALE, LATENCY_S, stopped_time=100.05) == []


def test_operations_sent_in_time_prove_their_constraints() -> None:
    plan = plan_of(_scenario("str-wait-0006"))
    timings = {0: Timing(100.0, 100.01), 1: Timing(100.02, 100.03), 2: Timing(100.04, 100.05)}
    assert violations(plan, timings, SCALE, LATENCY_S) == []
    slow = {**timings, 1: Timing(100.02, 100.30)}  # its answer came 0.3 s after the act was sent
    assert [v.text.split(",")[0] for v in violations(plan, slow, SCALE, LATENCY_S)] == [
        "operation 1 was to reach the worker before the wait of the act at operation 0 (deadline 10.0)"
    ]

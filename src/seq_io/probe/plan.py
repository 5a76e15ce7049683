"""A stream scenario (its operations, their virtual clock and expected outcomes) → the real-time plan of replaying
it over HTTP: each operation's virtual time, the acts that wait and when each is decided, and every **timing
constraint** (a later request that must reach the worker before, or after, a deadline an earlier request set) with
its margin → whether the scenario can be replayed over a real clock at all, and how slowly.

WHY it is shaped this way: a worker's clock is real. A scenario's `advance` becomes a sleep of `seconds * scale`
(scale = the worker's wait / STREAM_WAIT_S), and a request reaches the worker some milliseconds after the probe
sends it. A deadline (an act's wait, STR-ACT-WAIT; an idle episode's end and the end of its memory, STR-IDLE,
STR-ENDED) is set by the worker's clock when it handles the earlier request. The probe therefore needs, for every
later request on the same side of a deadline in the scenario, a real margin larger than its timing noise: a
virtual margin m needs `m * scale` > the latency allowance. The plan lists those margins from the vector's own
expectations (which acts wait, when each is decided, which requests are accepted), so the probe can

- mark a scenario **not applicable** when a request falls exactly on a deadline (a tie of readings, STR-CLOCK:
  `advance 6` onto a deadline of 10.0, or binary64 sums a few ulps either side of it): no real clock reproduces
  equal readings, and a margin of 10^-15 s is below any machine's timing;
- choose a scale large enough for the smallest margin, and afterwards check the real send and receive times
  against every constraint (`violations`), so that a slow moment of a loaded machine is retried, never reported as
  the worker's fault.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from seq_io.reference.keeper import EPISODES, FRAMES_MISSING, WORKER_BYTES, stream_wait_s
from seq_io.runner.kinds import expected_outcome

TIE = 1e-6
"""Virtual seconds: a request closer to a deadline than this is on it (the vectors' binary64 ties are 10^-15 off)."""


@dataclass(frozen=True)
class Constraint:
    """Operation `op` must reach the worker at or before (`before`) or strictly after the deadline that the worker
    set `offset` virtual seconds after handling operation `anchor`."""

    op: int
    anchor: int
    offset: float
    before: bool
    margin: float
    what: str


@dataclass
class Plan:
    times: list[float]
    """The virtual clock at each operation (an advance: the clock after it)."""
    waits: set[int] = field(default_factory=set)
    """Acts expected to wait (answered at a later operation, or still waiting at the end)."""
    decided: dict[int, int] = field(default_factory=dict)
    """Act → the operation during which its answer is expected (absent: still waiting at the end)."""
    constraints: list[Constraint] = field(default_factory=list)
    tie: Constraint | None = None
    requests: list[int] = field(default_factory=list)
    """How many requests (observe, act) come before each operation."""

    @property
    def margin(self) -> float | None:
        """The smallest margin of any constraint, in virtual seconds (None: the scenario has no deadline)."""
        return min((c.margin for c in self.constraints), default=None)

    def scale_needed(self, latency_s: float, request_s: float = 0.0) -> float:
        """The smallest scale (real s per virtual s) that gives every constraint `latency_s` of real margin beyond
        the time its requests in between take (`request_s` each: requests at one virtual time follow one another
        in real time, and a short advance cannot absorb the delay)."""
        needed = 0.0
        for constraint in self.constraints:
            if constraint.margin <= 0:
                return float("inf")
            between = self.requests[constraint.op] - self.requests[constraint.anchor]
            needed = max(needed, (latency_s + between * request_s) / constraint.margin)
        return needed

    @property
    def duration(self) -> float:
        """Virtual seconds from the first operation to the last."""
        return self.times[-1] if self.times else 0.0


def _episode(body: Any) -> str | None:
    return body["episode_id"] if isinstance(body, dict) and isinstance(body.get("episode_id"), str) else None


def _accepted(index: int, operation: dict[str, Any]) -> bool:
    """Whether the vector says the worker accepted this request (it counts as the episode's activity, STR-IDLE)."""
    expect = operation["expect"]
    if "observe" in operation:
        return "through" in expect
    if "act" not in operation:
        return False
    body = operation["act"]
    if not isinstance(body, dict) or body.get("seq") is None:
        return False  # an act without seq is not on the stream (STR-ACT-UNDECLARED) or is refused
    if "handed" in expect or "waiting" in expect:
        return True
    return bool(expect.get("error") == FRAMES_MISSING and expect.get("at", index) != index)


def plan_of(data: dict[str, Any]) -> Plan:
    """The plan of one scenario (its vector data: declaration, episode_idle, limits, operations with expect)."""
    operations: list[dict[str, Any]] = data["operations"]
    wait = stream_wait_s()
    clock = 0.0
    times: list[float] = []
    for operation in operations:
        if "advance" in operation:
            clock = clock + float(operation["advance"])  # one binary64 addition per advance (STR-CLOCK)
        times.append(clock)
    plan = Plan(times)
    count = 0
    for operation in operations:
        plan.requests.append(count)
        count += "advance" not in operation
    for index, operation in enumerate(operations):
        if "act" not in operation:
            continue
        expect = expected_outcome(index, operation)
        if expect.get("waiting") is True:
            plan.waits.add(index)
        elif "at" in expect and expect["at"] != index:
            plan.waits.add(index)
            plan.decided[index] = expect["at"]
    for act in sorted(plan.waits):
        deadline = times[act] + wait
        last = plan.decided.get(act, len(operations) - 1)
        for op in range(act + 1, last + 1):
            fails_here = op == plan.decided.get(act) and "error" in operations[act]["expect"]
            _add(
                plan,
                op,
                act,
                wait,
                deadline,
                before=not fails_here,
                what=f"the wait of the act at operation {act} (deadline {deadline!r})",
            )
    idle = data.get("episode_idle")
    if idle is not None:
        scaled = data.get("limits") or {}
        _idle_constraints(plan, operations, float(idle), shared=bool({WORKER_BYTES, EPISODES} & scaled.keys()))
    return plan


def _idle_constraints(plan: Plan, operations: list[dict[str, Any]], idle: float, *, shared: bool) -> None:
    """Each request against the idle end and the forgetting of its episode (of every episode when the worker-wide
    byte limit or MAX_EPISODES is scaled down, since an ended episode then changes what other episodes may post or
    start: its frames are released, its place freed)."""
    last: dict[str, int] = {}  # episode → the last operation the worker accepted for it
    for index, operation in enumerate(operations):
        if "advance" in operation:
            continue
        episode = _episode(operation.get("observe", operation.get("act")))
        anchors = last.items() if shared else ([(episode, last[episode])] if episode in last else [])
        for name, anchor in list(anchors):
            end = plan.times[anchor] + idle
            _add(
                plan,
                index,
                anchor,
                idle,
                end,
                before=plan.times[index] <= end,
                what=f"the idle end of episode {name!r} (at {end!r})",
            )
            if plan.times[index] > end:
                forget = end + idle
                _add(
                    plan,
                    index,
                    anchor,
                    2 * idle,
                    forget,
                    before=plan.times[index] <= forget,
                    what=f"the end of the memory of episode {name!r} (at {forget!r})",
                )
        if episode is not None and _accepted(index, operation):
            last[episode] = index


def _add(plan: Plan, op: int, anchor: int, offset: float, deadline: float, *, before: bool, what: str) -> None:
    margin = abs(plan.times[op] - deadline)
    constraint = Constraint(op, anchor, offset, before, margin, what)
    if margin < TIE and plan.tie is None:
        plan.tie = constraint
    plan.constraints.append(constraint)


@dataclass(frozen=True)
class Timing:
    """When the probe sent an operation and when it knew the worker had handled it (loop seconds)."""

    sent: float
    known: float


@dataclass(frozen=True)
class Violation:
    """A constraint the real times did not prove, and the scale that would have proved it with `latency_s` to spare
    (the lag this run showed is assumed to stay: it comes from the requests, not from the clock)."""

    text: str
    scale: float


def violations(
    plan: Plan, timings: dict[int, Timing], scale: float, latency_s: float, stopped_time: float | None = None
) -> list[Violation]:
    """The constraints the real times do not prove: the worker handled `anchor` within [sent, known] and `op`
    within [sent, known], so `op` is surely before the deadline when known(op) - sent(anchor) < offset * scale and
    surely after it when sent(op) - known(anchor) > offset * scale.

    A replay that stopped early at `stopped_time` never sent its later operations; each would have reached the
    worker after that time, so a before-constraint on one is checked as if it had been sent then. This is what
    tells a loaded machine from a broken worker when a stall lets a deadline pass first: the act's early failure
    is then the lag's doing, and the scenario is retried with a longer wait instead of being blamed on the worker.
    (An after-constraint cannot be broken by an operation that was never sent.)"""
    found: list[Violation] = []
    for constraint in plan.constraints:
        op, anchor = timings.get(constraint.op), timings.get(constraint.anchor)
        if op is None and anchor is not None and stopped_time is not None and constraint.before:
            op = Timing(stopped_time, stopped_time)
        if op is None or anchor is None:
            continue
        planned = (plan.times[constraint.op] - plan.times[constraint.anchor]) * scale
        lag = (op.known - anchor.sent) - planned if constraint.before else planned - (op.sent - anchor.known)
        slack = constraint.margin * scale - lag
        if slack <= 0:
            side = "before" if constraint.before else "after"
            found.append(
                Violation(
                    f"operation {constraint.op} was to reach the worker {side} {constraint.what}, "
                    f"{constraint.margin:g} virtual s away, but the real times miss that by "
                    f"{-slack:.3f} s",
                    (lag + latency_s) / constraint.margin,
                )
            )
    return found

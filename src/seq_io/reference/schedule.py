"""An Observations declaration (+ the control rate) → a validated `Schedule` in whole steps → for one act at step
t (the previous act at t_prev): which steps it reads and which keys of each (`picks`), which of those must arrive
beforehand (`needed`), which frames may be discarded (`keeps_from`) and which steps between two acts must be
rendered or uploaded (`wanted`). This is the companion of spec/schedule.md; the rule ids it raises are defined there.

WHY it is shaped this way:

- Inputs are JSON values and are checked first (the declaration as spec/validation.md says, the rate, the steps),
  so every refusal is a `ScheduleError` with a stable rule id and never a crash deep inside the arithmetic.
- Everything that depends on the declaration alone is worked out once, when the `Schedule` is built: the keys read
  at the act's own step, the window offsets before it with their keys (already sorted by code point), the fed keys
  grouped by period and the steps a later act's window may reach back to. An act then only walks the steps it
  outputs: a window at t = 2^53 - 1 does not count up to t, and a fed key of period 10^9 with a short gap between
  acts yields one entry. The price of an act grows with its output, never with t or with the gap alone.
- Step arithmetic is exact integer arithmetic. Seconds become steps by rounding the IEEE-754 double product half
  to even (Python's `round` on a float), the one rounding every language can reproduce; a result beyond
  2^53 - 1 is refused because other languages' numbers could not hold it.
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cached_property
from itertools import pairwise
from typing import Any

from seq_io.reference.validation import checking_contract

Keys = tuple[str, ...] | None
"""The keys read at a step, sorted by code point; None: the whole observation."""
Entry = tuple[int, Keys]

MAX_STEP = 2**53 - 1
"""The largest step (and the largest magnitude of a count in steps): the contract's MAX_SAFE_INTEGER."""

INVALID_DECLARATION = "schedule.invalid-declaration"
RATE_REQUIRED = "schedule.rate-required"
INVALID_RATE = "schedule.invalid-rate"
INVALID_STEP = "schedule.invalid-step"
T_PREV_NOT_BEFORE_T = "schedule.t-prev-not-before-t"
STEP_OVERFLOW = "schedule.step-overflow"
RESULT_TOO_LARGE = "schedule.result-too-large"

MAX_RESULT_ENTRIES = 1_000_000
"""This implementation's bound on the entries one picks, needed or wanted call returns (spec/schedule.md § 2): a
gap of a million steps between two acts is over a day at 10 Hz and a quarter of an hour at 1 kHz. A call whose
result would be longer is refused with RESULT_TOO_LARGE, decided from the schedule's arithmetic before any entry is
built; `needed`, derived from `picks`, refuses exactly when `picks` would."""


class ScheduleError(ValueError):
    """A refusal of the schedule, the envelope or rows_of: `rule` is its id in spec/schedule.md."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{message} [{rule}]")
        self.rule = rule
        self.message = message


@dataclass(frozen=True)
class Schedule:
    """A declaration in whole steps. `windows`: key → its offsets (each ≤ 0, distinct, ascending); `fed`: key → its
    period (≥ 1); `alone`: keys read at the act's own step only, in declaration order; `every`: the whole
    observation's period, or None; `whole`: no keys are named (`streams` null); `pad`: "repeat_first" or "drop".

    Built by `of`. Treat it as immutable: the per-act data derived from it is computed once, on the first act.
    """

    windows: dict[str, tuple[int, ...]]
    fed: dict[str, int]
    alone: tuple[str, ...]
    every: int | None
    whole: bool
    pad: str

    @cached_property
    def _plan(self) -> _Plan:
        """The per-act layout, built on the first act that needs it (so `of` costs what building the record costs,
        and a schedule that is never acted on pays nothing more), then kept."""
        return _Plan(self)


def _sorted_union(*groups: tuple[str, ...] | set[str]) -> tuple[str, ...]:
    return tuple(sorted(set().union(*groups)))


def _first_after(t: int, t_prev: int, period: int) -> int:
    """The earliest of t, t - period, t - 2·period, ... that is still after t_prev (t_prev < t)."""
    return t - (t - t_prev - 1) // period * period


_UNIONS_KEPT = 4096


class _Plan:
    """What a Schedule reads, laid out for the per-act functions (see the module docstring)."""

    __slots__ = (
        "drop",
        "every",
        "fed",
        "own",
        "past",
        "past_offsets",
        "reach",
        "reads_past",
        "trail",
        "trail_ends",
        "unions",
        "whole",
    )

    def __init__(self, schedule: Schedule) -> None:
        at_offset: dict[int, set[str]] = {}
        for key, offsets in schedule.windows.items():
            for offset in offsets:
                at_offset.setdefault(offset, set()).add(key)
        by_period: dict[int, set[str]] = {}
        for key, period in schedule.fed.items():
            by_period.setdefault(period, set()).add(key)
        own = _sorted_union(at_offset.pop(0, set()), schedule.alone, set(schedule.fed))
        self.whole = schedule.whole
        self.every = schedule.every
        self.drop = schedule.pad == "drop"
        # The keys read at the act's own step, or () when it is not read; a whole schedule never looks at them.
        self.own: tuple[str, ...] = own
        # Window reads before the act's step: (offset < 0, keys), ascending by offset.
        self.past = tuple((offset, tuple(sorted(keys))) for offset, keys in sorted(at_offset.items()))
        self.past_offsets = [offset for offset, _ in self.past]
        # Fed keys by period: (period, keys), ascending by period.
        self.fed = tuple((period, tuple(sorted(keys))) for period, keys in sorted(by_period.items()))
        furthest = {key: offsets[0] for key, offsets in schedule.windows.items() if offsets}
        self.reach = min([0, *furthest.values()])
        self.trail = self._trail(furthest)
        self.trail_ends = [end for _, end, _ in self.trail]
        self.reads_past = self.reach < 0 or bool(self.fed) or (self.whole and self.every is not None)
        self.unions: dict[tuple[tuple[str, ...], tuple[str, ...]], tuple[str, ...]] = {}

    def merge(self, have: tuple[str, ...], more: tuple[str, ...]) -> tuple[str, ...]:
        """Two key lists read at one step → their sorted union. Acts repeat the same few unions, so they are
        remembered (up to _UNIONS_KEPT of them). Only named keys ever merge: a schedule that reads the whole
        observation names no key, so "the whole observation absorbs any keys" never has to be applied."""
        union = self.unions.get((have, more))
        if union is None:
            if len(self.unions) >= _UNIONS_KEPT:
                self.unions.clear()
            union = self.unions[have, more] = _sorted_union(have, more)
        return union

    @staticmethod
    def _trail(furthest: dict[str, int]) -> tuple[tuple[int, int, tuple[str, ...]], ...]:
        """Between two acts, a window key is wanted at every step d before the next act (d < 0, relative to it)
        with d ≥ its furthest offset: at d it is either read by the next act or may be by a later one. So the keys
        wanted at d are those whose furthest offset is ≤ d, a set that only grows as d rises. This lays them out
        as (first d, last d + 1, keys) segments covering d = min(furthest) .. -1."""
        reaches = sorted({offset for offset in furthest.values() if offset < 0})
        return tuple(
            (start, end, _sorted_union({key for key, offset in furthest.items() if offset <= start}))
            for start, end in pairwise([*reaches, 0])
        )

    def picks(self, t: int, t_prev: int) -> list[Entry]:
        if self.whole:
            if self.every is None:
                return [(t, None)]
            first = _first_after(t, t_prev, self.every)
            if first == t:  # acts back to back, the commonest case: one entry
                return [(t, None)]
            _refuse_beyond((t - first) // self.every + 1)  # pragma: no mutate
            return [(step, None) for step in range(first, t + 1, self.every)]
        # The steps strictly between the two acts; the lines marked `no mutate` compute the result bound only.
        gap = t - t_prev - 1  # pragma: no mutate
        fed_counts = [gap // period for period, _ in self.fed]  # pragma: no mutate
        if fed_counts:  # window entries are few; fed steps are what grows with the gap (plus the own step)
            _refuse_beyond(max(fed_counts) + 1)  # pragma: no mutate
        past = self.past
        head: list[Entry] = []
        if past and t + past[0][0] < 0:
            before = bisect_left(self.past_offsets, -t)  # offsets reaching before step 0
            if not self.drop:
                head = [(0, keys) for _, keys in past[:before]]
            past = past[before:]
        if not self.fed:
            out = head + [(t + offset, keys) for offset, keys in past]
        else:
            steps: dict[int, tuple[str, ...]] = {t + offset: keys for offset, keys in past}
            overlapping = len(head) + len(steps) + sum(fed_counts) + 1 > MAX_RESULT_ENTRIES  # pragma: no mutate
            for period, keys in self.fed:
                for step in range(_first_after(t, t_prev, period), t, period):
                    steps[step] = self.merge(steps[step], keys) if step in steps else keys
                if overlapping:  # only the union's size tells: kept below twice the bound while it grows
                    _refuse_beyond(len(head) + len(steps) + 1)  # pragma: no mutate
            out = head + sorted(steps.items())
        if self.own:
            out.append((t, self.own))
        return out

    def wanted(self, t: int, t_next: int) -> list[Entry]:
        if t_next - t == 1:  # no step in between
            return []
        gap = t_next - t - 1  # pragma: no mutate
        if self.whole:
            if self.every is None:
                return []
            _refuse_beyond(gap // self.every)  # pragma: no mutate
            return [(step, None) for step in range(_first_after(t_next, t, self.every), t_next, self.every)]
        low = t + 1 - t_next  # the earliest wanted step, relative to t_next
        segments = [
            (max(start, low), end, keys) for start, end, keys in self.trail[bisect_right(self.trail_ends, low) :]
        ]  # segments ending after low
        fed_counts = [gap // period for period, _ in self.fed]  # pragma: no mutate
        covered = sum(end - first for first, end, _ in segments if first < end)  # pragma: no mutate
        _refuse_beyond(max([covered, *fed_counts]))  # pragma: no mutate
        overlapping = covered + sum(fed_counts) > MAX_RESULT_ENTRIES  # pragma: no mutate
        block: list[tuple[str, ...]] = []
        for first, end, keys in segments:
            if first < end:
                block += [keys] * (end - first)
        base = t_next - len(block)  # the block covers base .. t_next - 1
        if not self.fed:
            return [(base + index, keys) for index, keys in enumerate(block)]
        earlier: dict[int, tuple[str, ...]] = {}
        for period, keys in self.fed:
            for step in range(_first_after(t_next, t, period), t_next, period):
                if step >= base:
                    block[step - base] = self.merge(block[step - base], keys)
                else:
                    earlier[step] = self.merge(earlier[step], keys) if step in earlier else keys
            if overlapping:
                _refuse_beyond(len(earlier) + len(block))  # pragma: no mutate
        out: list[Entry] = sorted(earlier.items())
        return out + [(base + index, keys) for index, keys in enumerate(block)]


def _refuse_beyond(entries: int) -> None:
    """Refuse a call whose result would hold more than MAX_RESULT_ENTRIES entries (spec/schedule.md § 2).

    B = MAX_RESULT_ENTRIES is this implementation's choice within SCH-RESULT-BOUND's range, so no vector can pin it
    (nor hold a result of a million entries): tests/test_limits.py pins it, and `make mutation`, which judges by the
    vectors alone, leaves the lines that compute the bound unmutated (`# pragma: no mutate`)."""
    if entries > MAX_RESULT_ENTRIES:  # pragma: no mutate
        raise ScheduleError(
            RESULT_TOO_LARGE,
            f"the result would hold {entries:,} or more entries, more than the "
            f"{MAX_RESULT_ENTRIES:,} this implementation returns from one call: ask "
            "about acts closer together",
        )


def _as_step(value: object, name: str, lowest: int) -> int:
    """A step given as a JSON number: an integer in lowest .. 2^53 - 1 (3.0 is the integer 3)."""
    if type(value) is int and lowest <= value <= MAX_STEP:
        return value
    if isinstance(value, float) and value.is_integer() and lowest <= value <= MAX_STEP:
        return int(value)
    raise ScheduleError(INVALID_STEP, f"{name} must be an integer from {lowest} to {MAX_STEP}; got {value!r}")


def _act_steps(later: object, earlier: object, names: tuple[str, str] = ("t", "t_prev")) -> tuple[int, int]:
    """An act's step and the step of the act before it (-1: none yet), checked. The first test decides the usual
    case, two ints in order, at the cost of one comparison chain; anything else takes the step-by-step path, which
    finds the error to report."""
    if type(later) is int and type(earlier) is int and -1 <= earlier < later <= MAX_STEP:
        return later, earlier
    now = _as_step(later, names[0], 0)
    before = _as_step(earlier, names[1], -1)
    if before >= now:
        raise ScheduleError(
            T_PREV_NOT_BEFORE_T,
            f"the earlier act ({names[1]}={before}) must come before the later "
            f"one ({names[0]}={now}); -1 stands for no act yet",
        )
    return now, before


def _validated(declaration: object) -> dict[str, Any]:
    outcome = checking_contract().validate_value("Observations", declaration)
    if not outcome.valid:
        reasons = "; ".join(map(str, outcome.issues))
        raise ScheduleError(INVALID_DECLARATION, f"the declaration is not a valid Observations: {reasons}")
    assert isinstance(declaration, dict)  # a valid Observations is a JSON object
    return declaration


def _usable_rate(rate: object) -> float:
    """The control rate as a positive finite double, for converting seconds."""
    is_number = isinstance(rate, int | float) and not isinstance(rate, bool)
    if rate is None or (is_number and rate == 0):
        raise ScheduleError(
            RATE_REQUIRED,
            "the declaration counts in seconds: the control rate (Hz) of the robot "
            "or benchmark stepping the episode is needed to turn them into steps",
        )
    if not isinstance(rate, int | float) or isinstance(rate, bool):
        raise ScheduleError(INVALID_RATE, f"the control rate must be a number of Hz; got {rate!r}")
    try:
        value = float(rate)
    except OverflowError:  # an integer too large for a double
        value = math.inf
    if not math.isfinite(value) or value < 0:
        raise ScheduleError(INVALID_RATE, f"the control rate must be a finite positive number of Hz; got {rate!r}")
    return value


def _converter(unit: str | None, rate: float | None) -> Callable[[int | float], int]:
    """Counts of the declaration → whole steps (unit absent: steps). The rate is looked at only when a count in
    seconds needs it."""
    if unit != "seconds":
        return int  # validated: a whole number of steps within ±(2^53 - 1)

    def seconds_to_steps(count: int | float) -> int:
        product = float(count) * _usable_rate(rate)
        steps = round(product) if math.isfinite(product) else None
        if steps is None or abs(steps) > MAX_STEP:
            raise ScheduleError(
                STEP_OVERFLOW, f"{count!r} s at {rate!r} Hz is {product!r} steps, beyond {MAX_STEP} steps"
            )
        return steps

    return seconds_to_steps


def of(declaration: object, rate: float | None = None) -> Schedule | None:
    """The Schedule of an Observations declaration (a JSON object), or None when nothing is declared (null).

    `rate`: the control rate in Hz, used only to turn counts in seconds into steps."""
    if declaration is None:
        return None
    observations = _validated(declaration)
    to_steps = _converter(observations.get("unit"), rate)
    streams: Mapping[str, dict[str, Any]] | None = observations.get("streams")
    windows: dict[str, tuple[int, ...]] = {}
    fed: dict[str, int] = {}
    alone: list[str] = []
    for key, stream in (streams or {}).items():
        if stream.get("at") is not None:
            windows[key] = tuple(sorted({min(0, to_steps(offset)) for offset in stream["at"]}))
        elif stream.get("every") is not None:
            fed[key] = max(1, to_steps(stream["every"]))
        else:
            alone.append(key)
    every = observations.get("every")
    return Schedule(
        windows=windows,
        fed=fed,
        alone=tuple(alone),
        every=None if every is None else max(1, to_steps(every)),
        whole=streams is None,
        pad=observations.get("pad", "repeat_first"),
    )


def reads_past_declaration(declaration: object) -> bool:
    """Whether a declaration, read as written (no rate, no rounding), reads any step before the act's own: a
    top-level `every`, a stream's `every`, or a negative `at` offset. Validated first, like `of`."""
    if declaration is None:
        return False
    observations = _validated(declaration)
    if observations.get("every") is not None:
        return True
    return any(
        stream.get("every") is not None or any(offset < 0 for offset in stream.get("at") or ())
        for stream in (observations.get("streams") or {}).values()
    )


def reads_past(schedule: Schedule | None) -> bool:
    """Whether a Schedule reads any step before the act's own: a window offset below 0, a fed key, or the whole
    observation at a period. May differ from `reads_past_declaration`, since rounding can turn -0.01 s into 0."""
    return schedule is not None and schedule._plan.reads_past


def picks(schedule: Schedule | None, t: int, t_prev: int = -1) -> list[Entry]:
    """(step, keys) of each observation the act at step t is handed, ascending by step, its own last when read.
    `t_prev`: the previous act's step (-1: this is the episode's first act)."""
    now, before = _act_steps(t, t_prev)
    if schedule is None:
        return [(now, None)]
    return schedule._plan.picks(now, before)


def needed(schedule: Schedule | None, t: int, t_prev: int = -1) -> list[int]:
    """The steps, ascending and distinct, that the act at t reads besides its own: their frames come beforehand."""
    now, before = _act_steps(t, t_prev)
    if schedule is None:
        return []
    return [step for step in dict.fromkeys(step for step, _ in schedule._plan.picks(now, before)) if step != now]


def keeps_from(schedule: Schedule | None, t: int) -> int:
    """The lowest step any act after the one at t may still read; frames below it may be discarded."""
    now = _as_step(t, "t", 0)
    reach = 0 if schedule is None else schedule._plan.reach
    return max(0, now + 1 + reach)


def wanted(schedule: Schedule | None, t: int, t_next: int) -> list[Entry]:
    """(step, keys) for each step strictly between the act at t (-1: none yet) and the next act at t_next that must
    be rendered or uploaded: the next act reads it, or a later act's window may reach back to it. Ascending."""
    later, earlier = _act_steps(t_next, t, ("t_next", "t"))
    if schedule is None:
        return []
    return schedule._plan.wanted(earlier, later)

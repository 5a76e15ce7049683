"""The numeric keywords of one subschema (`minimum`, `exclusiveMinimum`, `maximum`, `exclusiveMaximum`, the
type, `multipleOf`) → the set of numbers it accepts, as an interval with inclusive or exclusive ends over either
the reals or a grid (the integers, or the multiples of a step); two such sets → whether they are equal, which
contains the other, and a witness: a number only one of them accepts.

WHY sets and not bounds: on an integer-only location `maximum: 100` and `exclusiveMaximum: 101` are two spellings
of the same accepted values, and `minimum: 1` / `exclusiveMinimum: 0` likewise; comparing the bounds as reals calls
that a loosening (spec/compatibility.md, "Deciding a direction by content"). On a grid every end is closed onto the
nearest grid point inside, after which the comparison is exact. Numbers are Fractions, so 0.1 and 1e308 compare
exactly as JSON wrote them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

Number = Fraction


@dataclass(frozen=True)
class NumberSet:
    """The numbers between `low` and `high` (None: unbounded), each end inclusive unless `*_open`; on a grid of
    `step` (None: the reals) the ends are closed grid points."""

    low: Number | None
    low_open: bool
    high: Number | None
    high_open: bool
    step: Number | None

    def __contains__(self, value: Number) -> bool:
        if self.low is not None and (value < self.low or (self.low_open and value == self.low)):
            return False
        if self.high is not None and (value > self.high or (self.high_open and value == self.high)):
            return False
        return self.step is None or (value / self.step).denominator == 1

    @property
    def empty(self) -> bool:
        if self.low is None or self.high is None:
            return False
        return self.low > self.high or (self.low == self.high and (self.low_open or self.high_open))

    def render(self) -> str:
        left = "(-∞" if self.low is None else f"{'(' if self.low_open else '['}{_text(self.low)}"
        right = "∞)" if self.high is None else f"{_text(self.high)}{')' if self.high_open else ']'}"
        grid = "" if self.step is None else " integers" if self.step == 1 else f" multiples of {_text(self.step)}"
        return f"{left}, {right}{grid}"


def _text(value: Number) -> str:
    return str(value.numerator) if value.denominator == 1 else str(float(value))


def number(value: Any) -> Number | None:
    """A JSON number as a Fraction (None for anything else, booleans included)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return Fraction(value) if isinstance(value, int) else Fraction(str(value))


def step_of(core: dict[str, Any], integer_only: bool) -> Number | None:
    """The grid the location's numbers lie on: its `multipleOf`, else 1 when only integers are accepted; both
    together, the integers among the multiples (of 1.5: the multiples of 3)."""
    multiple = number(core.get("multipleOf"))
    if multiple is not None and multiple > 0:
        return Fraction(multiple.numerator) if integer_only else multiple
    return Fraction(1) if integer_only else None


def of(core: dict[str, Any], step: Number | None) -> NumberSet:
    """The set a subschema's bounds accept on the grid `step` (the tighter of each pair of keywords wins)."""
    low, low_open = _end(core, ("minimum", "exclusiveMinimum"), 1)
    high, high_open = _end(core, ("maximum", "exclusiveMaximum"), -1)
    if step is None:
        return NumberSet(low, low_open, high, high_open, None)
    if low is not None:
        grid = math.ceil(low / step) * step
        low = grid + step if low_open and grid == low else grid
    if high is not None:
        grid = math.floor(high / step) * step
        high = grid - step if high_open and grid == high else grid
    return NumberSet(low, False, high, False, step)


def _end(core: dict[str, Any], keys: tuple[str, str], sign: int) -> tuple[Number | None, bool]:
    found = [(value, key.startswith("exclusive")) for key in keys if (value := number(core.get(key))) is not None]
    if not found:
        return None, False
    return max(found, key=lambda end: (sign * end[0], end[1]))


def includes(outer: NumberSet, inner: NumberSet) -> bool:
    """Every number `inner` accepts, `outer` accepts (both on the same grid, or both on the reals)."""
    if inner.empty:
        return True
    if outer.empty:
        return False
    return _end_within(outer.low, outer.low_open, inner.low, inner.low_open, 1) and _end_within(
        outer.high, outer.high_open, inner.high, inner.high_open, -1
    )


def _end_within(outer: Number | None, outer_open: bool, inner: Number | None, inner_open: bool, sign: int) -> bool:
    if outer is None:
        return True
    if inner is None:
        return False
    if inner != outer:
        return sign * inner > sign * outer
    return inner_open or not outer_open


def witness(accepting: NumberSet, refusing: NumberSet) -> Number | None:
    """A number `accepting` accepts and `refusing` refuses, tried at and next to every end (None if none of those
    is one, which for intervals on one grid means there is none)."""
    step = accepting.step or Fraction(1, 2)
    ends = [end for end in (accepting.low, accepting.high, refusing.low, refusing.high) if end is not None]
    tried = [value for end in ends for value in (end, end - step, end + step)] + [Fraction(0)]
    for value in sorted(set(tried), key=lambda v: (abs(v), v)):
        if value in accepting and value not in refusing:
            return value
    return None


def show(value: Number) -> str:
    """A number as JSON writes it."""
    return _text(value)

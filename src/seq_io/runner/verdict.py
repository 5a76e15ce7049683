"""An expectation and an answer's value → the `Difference`s between them as JSON values → a `Verdict`.

WHY it is apart: these are the comparison's building blocks that every kind's judge (`kinds`) and the
protocol-level comparison (`compare`) share, with no knowledge of any particular kind. Values compare as JSON
values (`json_equal`: numbers by value, booleans only equal booleans, object member order ignored, arrays
ordered).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from seq_io.reference.issues import format_path
from seq_io.reference.json_values import json_equal
from seq_io.runner.protocol import Printed

SHOWN = 240
"""Characters of a JSON value shown in a one-line message."""
SHOWN_DIFFERENCES = 10
"""Differences of one case listed in full; the rest are counted."""


class _Absent:
    """Stands for a member or element that is not there."""

    def __repr__(self) -> str:
        return "(absent)"


ABSENT: Any = _Absent()


@dataclass(frozen=True)
class Difference:
    """Where an answer departs from the expectation: a JSON path into the result and the two values there."""

    at: str
    expected: Any
    got: Any
    note: str = ""

    def __str__(self) -> str:
        return f"{self.at}: expected {show(self.expected)}, got {show(self.got)}{self.note}"


@dataclass(frozen=True)
class Verdict:
    """How one case went. `status`: pass, fail, skip (the testee or the runner did not run it) or error (no
    testee could be asked). `detail`: one paragraph; `differences`: where the answer departs from the
    expectation. `rule`: the rule id of an error answer, for the expected-failure list."""

    status: str
    detail: str = ""
    differences: tuple[Difference, ...] = ()
    rule: str | None = None
    printed: Printed | None = None
    more: int = 0
    """Differences beyond those listed in `differences` (SHOWN_DIFFERENCES)."""
    timed_out: bool = False
    """The testee did not answer within the timeout (the early stop counts these)."""
    not_run: bool = False
    """The case was never asked: the run had stopped (no testee, the early stop, `--exitfirst`)."""


def show(value: Any, limit: int = SHOWN) -> str:
    if value is ABSENT:
        return "(absent)"
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=repr)
    return text if len(text) <= limit else text[:limit] + "…"


def _walk(
    expected: Any, got: Any, at: tuple[str | int, ...], found: list[Difference], counted: list[int], limit: int
) -> None:
    """Append to `found` (at most `limit`) every place where `got` is not the same JSON value as `expected`,
    walking the expectation in order; `counted[0]` counts all of them."""

    def add(difference: Difference) -> None:
        counted[0] += 1
        if len(found) < limit:
            found.append(difference)

    if isinstance(expected, list) and isinstance(got, list):
        for index, (want, have) in enumerate(zip(expected, got, strict=False)):
            _walk(want, have, (*at, index), found, counted, limit)
        if len(expected) != len(got):
            index = min(len(expected), len(got))
            add(
                Difference(
                    format_path([*at, index]),
                    expected[index] if index < len(expected) else ABSENT,
                    got[index] if index < len(got) else ABSENT,
                    f" (lengths: expected {len(expected)}, got {len(got)})",
                )
            )
        return
    if isinstance(expected, dict) and isinstance(got, dict):
        for key in [*expected, *(key for key in got if key not in expected)]:
            _walk(expected.get(key, ABSENT), got.get(key, ABSENT), (*at, key), found, counted, limit)
        return
    if expected is ABSENT or got is ABSENT or not json_equal(expected, got):
        add(Difference(format_path(list(at)), expected, got))


def differences(
    expected: Any, got: Any, at: tuple[str | int, ...] = (), limit: int = SHOWN_DIFFERENCES
) -> tuple[list[Difference], int]:
    """(the first `limit` places where `got` departs from `expected`, how many more there are)."""
    found: list[Difference] = []
    counted = [0]
    _walk(expected, got, at, found, counted, limit)
    return found, counted[0] - len(found)


def field_differences(
    result: dict[str, Any], expected: dict[str, Any], names: Sequence[str]
) -> tuple[list[Difference], int]:
    """The differences of the named members of a result from the expectation's: the first
    SHOWN_DIFFERENCES of all of them, and how many more there are."""
    return differences({name: expected[name] for name in names}, {name: result.get(name, ABSENT) for name in names})


def differences_text(found: Sequence[Difference], more: int) -> str:
    text = "; ".join(map(str, found))
    return text + (f"; and {more} more difference{'s' if more > 1 else ''}" if more else "")


def verdict_of(found: tuple[list[Difference], int]) -> Verdict:
    differences, more = found
    if not differences:
        return Verdict("pass")
    return Verdict("fail", differences_text(differences, more), tuple(differences), more=more)

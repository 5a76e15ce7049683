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

from seq_io_ref.beyond_schema import json_equal
from seq_io_ref.issues import format_path

from seq_io_tools.runner.protocol import Printed

SHOWN = 240
"""Characters of a JSON value shown in a one-line message."""


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
    testee could be asked). `rule`: the rule id of an error answer, for the expected-failure list."""

    status: str
    detail: str = ""
    differences: tuple[Difference, ...] = ()
    rule: str | None = None
    printed: Printed | None = None


def show(value: Any) -> str:
    if value is ABSENT:
        return "(absent)"
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=repr)
    return text if len(text) <= SHOWN else text[:SHOWN] + "…"


def first_difference(expected: Any, got: Any, at: tuple[str | int, ...] = ()) -> Difference | None:
    """The first place, walking the expectation, where `got` is not the same JSON value (None: equal)."""
    if isinstance(expected, list) and isinstance(got, list):
        for index, (want, have) in enumerate(zip(expected, got, strict=False)):
            found = first_difference(want, have, (*at, index))
            if found is not None:
                return found
        if len(expected) == len(got):
            return None
        index = min(len(expected), len(got))
        return Difference(format_path([*at, index]), expected[index] if index < len(expected) else ABSENT,
                          got[index] if index < len(got) else ABSENT,
                          f" (lengths: expected {len(expected)}, got {len(got)})")
    if isinstance(expected, dict) and isinstance(got, dict):
        for key in [*expected, *(key for key in got if key not in expected)]:
            found = first_difference(expected.get(key, ABSENT), got.get(key, ABSENT), (*at, key))
            if found is not None:
                return found
        return None
    if expected is ABSENT or got is ABSENT or not json_equal(expected, got):
        return Difference(format_path(list(at)), expected, got)
    return None


def field_differences(result: dict[str, Any], expected: dict[str, Any], names: Sequence[str]
                      ) -> list[Difference]:
    """The differences of each named member of a result from the expectation's."""
    found: list[Difference] = []
    for name in names:
        difference = first_difference(expected[name], result.get(name, ABSENT), (name,))
        if difference is not None:
            found.append(difference)
    return found


def verdict_of(differences: list[Difference]) -> Verdict:
    if not differences:
        return Verdict("pass")
    return Verdict("fail", "; ".join(map(str, differences)), tuple(differences))

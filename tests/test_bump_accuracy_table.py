"""One row of the bump accuracy table (tests/bump_accuracy.py `table`) for a case where the review reported
nothing at all: the reported cell must say "(nothing)".

WHY: the table once printed "the same" whenever the review reported no change, which reads as agreement on
exactly the rows that disagree most (a change the review missed entirely).
"""

from __future__ import annotations

from bump_accuracy import Outcome, table


def _row(outcome: Outcome) -> str:
    return next(line for line in table([outcome], {}).splitlines() if line.startswith(f"| {outcome.name} |"))


def test_a_case_the_review_saw_nothing_in_shows_nothing() -> None:
    missed = Outcome("missed", {("Camera", "$.width"): "new"}, {}, "minor", "none", None, ())
    assert _row(missed).split(" | ")[2] == "(nothing)"


def test_a_case_that_agrees_shows_the_same() -> None:
    right = Outcome("right", {("Camera", "$.width"): "new"}, {("Camera", "$.width"): "new"}, "minor", "minor", None, ())
    assert _row(right).split(" | ")[2] == "the same"


def test_a_case_that_expects_nothing_but_got_a_change_shows_the_change() -> None:
    extra = Outcome("extra", {}, {("Camera", "$.width"): "both"}, "none", "minor", None, ())
    assert _row(extra).split(" | ")[2] == "Camera `$.width` both"

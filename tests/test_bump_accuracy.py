"""The bump review's accuracy on the synthetic spec changes of tests/bump_cases/*.yaml (expectations written
before the review was run on them): every case agrees with its expectation except those whose
`disagrees` says why, and each of those still disagrees (so that a fix removes the mark and updates
the table); tests/bump_cases/accuracy.md is the current table.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bump_accuracy import Outcome, disagreements, outcomes, table

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1800)]
"""One review per case, 150 and more cases, read once by the module fixture inside the first test: a few minutes on a
loaded machine, beyond the suite's 300 s per test; 1800 s still turns a hang into a failure."""

ACCURACY_MD = Path(__file__).parent / "bump_cases" / "accuracy.md"


@pytest.fixture(scope="module")
def results() -> list[Outcome]:
    return outcomes()


def test_there_are_at_least_40_cases(results: list[Outcome]) -> None:
    assert len(results) >= 40


def test_every_case_agrees_but_the_listed_ones_which_still_disagree(results: list[Outcome]) -> None:
    agreeing = {r.name for r in results if r.agrees}
    names = {r.name for r in results}
    assert set(disagreements()) <= names, set(disagreements()) - names
    assert names - agreeing == set(disagreements()), {
        r.name: (r.expected, r.reported, r.expected_bump, r.reported_bump)
        for r in results
        if (r.name in agreeing) == (r.name in disagreements())
    }


def test_the_accuracy_table_is_current(results: list[Outcome]) -> None:
    assert ACCURACY_MD.read_text(encoding="utf-8") == table(results, disagreements()), (
        "regenerate it: python tests/bump_accuracy.py > tests/bump_cases/accuracy.md"
    )

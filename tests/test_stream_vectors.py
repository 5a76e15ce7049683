"""Every stream scenario of conformance/vectors/stream/ → the reference keeper (through the reference testee and
the runner's comparison) and → the brute-force model of scripts/seq_io_tools/stream_model.py: both must give
every operation's expected outcome.

The expectations were derived by hand from spec/stream.md (hand-written files) or by the model (the generated
file); the reference keeper shares no code with the model, so a case passing both is checked twice over. The model
plays declarations in unit "steps" only and needs a keeper to exist: the few scenarios it cannot play (a rate in
seconds, a declaration `of` refuses) are named by `model_plays`, and `test_the_model_plays_nearly_all` keeps that
exception small.
"""

from __future__ import annotations

from typing import Any

import pytest
from seq_io_tools import vectors
from seq_io_tools.reference_cases import judge
from seq_io_tools.runner.kinds import TABLE, expected_outcome, operation_name
from seq_io_tools.runner.suite import SuiteCase, suite_cases
from seq_io_tools.runner.verdict import first_difference
from seq_io_tools.stream_model import play

FILES, PROBLEMS = vectors.load_suite()
CASES = [case for case in suite_cases(FILES) if case.kind == "stream"]


def model_plays(case: SuiteCase) -> bool:
    data: dict[str, Any] = case.case.data
    declaration = data["declaration"]
    in_steps = declaration is None or (isinstance(declaration, dict) and declaration.get("unit") != "seconds")
    return in_steps and "expect" not in data


def test_the_stream_files_load_and_are_many() -> None:
    assert not [p for p in PROBLEMS if "/stream/" in p.file]
    assert len(CASES) >= 200


def test_the_model_plays_nearly_all() -> None:
    unplayed = [case.id for case in CASES if not model_plays(case)]
    assert len(unplayed) <= 8, unplayed


@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_reference_keeper_passes(case: SuiteCase) -> None:
    result = judge("stream", case.case)
    assert result.passed, f"{case.case.file}:{case.case.line}: {result.detail}"


@pytest.mark.parametrize("case", [c for c in CASES if model_plays(c)],
                         ids=[c.id for c in CASES if model_plays(c)])
def test_brute_force_model_agrees(case: SuiteCase) -> None:
    operations = case.case.data["operations"]
    outcomes = play(TABLE["stream"].input(case))
    assert len(outcomes) == len(operations)
    for index, operation in enumerate(operations):
        difference = first_difference(expected_outcome(index, operation), outcomes[index])
        assert difference is None, f"{case.id} operation {index} ({operation_name(operation)}): {difference}"

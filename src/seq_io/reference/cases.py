"""A vector case → the reference testee's answer → the protocol's comparison → pass or fail with a diff a person
can act on.

WHY it is this thin: the conversions between the vectors' JSON forms and the reference API live once, in
`reference_testee.answer`, the protocol's message schemas once, in `runner.protocol.Traffic` (the answer is held to
them, as `make conformance` holds the reference with --validate-traffic), and the comparison rules
(conformance/protocol.md) once, in `runner.compare.compare`; judging a case in process is those steps without a
process between them. Used by tests/test_reference_vectors.py (one test per case) and by the mutation scores, which
judge mutants this way: a mutant of the reference in process, a mutant of the schemas through a Contract built on
the mutant's spec folder.
"""

from __future__ import annotations

from typing import Any

from seq_io.reference.testee import answer
from seq_io.reference.validation import Contract
from seq_io.reference.validation_cases import CaseResult
from seq_io.runner.compare import compare, request
from seq_io.runner.protocol import Traffic
from seq_io.runner.suite import SuiteCase
from seq_io.vectors import Case

REFERENCE_KINDS = ("schedule", "envelope", "rows_of")
_TRAFFIC = Traffic()


def _result(suite_case: SuiteCase, given: dict[str, Any]) -> CaseResult:
    """The answer held to the protocol's schemas (as `make conformance` does with --validate-traffic), then judged."""
    problems = _TRAFFIC.answer_problems(suite_case.kind, given)
    if problems:
        return CaseResult(suite_case.id, False, f"the answer breaks the protocol: {problems[0]}")
    verdict = compare(suite_case, given)
    return CaseResult(suite_case.id, verdict.status == "pass", verdict.detail)


def judge(kind: str, case: Case) -> CaseResult:
    """Run the reference on one case of a `schedule`, `envelope` or `rows_of` file."""
    suite_case = SuiteCase(kind, case, None, str(case.group["group"]), frozenset())
    return _result(suite_case, answer(request(suite_case)))


def judge_validation(type_name: str, case: Case, checker: Contract | None = None) -> CaseResult:
    """Run the reference validation (the repository's Contract, or `checker`) on one case of a validation file."""
    suite_case = SuiteCase("validation", case, type_name, str(case.group["group"]), frozenset())
    return _result(suite_case, answer(request(suite_case), checker))

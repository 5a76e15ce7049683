"""A schedule, envelope or rows_of case → the reference testee's answer → the protocol's comparison → pass or
fail with a diff a person can act on.

WHY it is this thin: the conversions between the vectors' JSON forms and the reference API live once, in
`reference_testee.answer`, and the comparison rules (conformance/protocol.md) live once, in
`runner.compare.compare`; judging a case in process is those two steps without a process between them. Used by
tests/test_reference_vectors.py (one test per case) and by the mutation score, which judges mutants this way.
"""

from __future__ import annotations

from seq_io_tools.reference_testee import answer
from seq_io_tools.runner.compare import compare, request
from seq_io_tools.runner.suite import SuiteCase
from seq_io_tools.validation_cases import CaseResult
from seq_io_tools.vectors import Case

REFERENCE_KINDS = ("schedule", "envelope", "rows_of")


def judge(kind: str, case: Case) -> CaseResult:
    """Run the reference on one case of a `schedule`, `envelope` or `rows_of` file."""
    suite_case = SuiteCase(kind, case, None, str(case.group["group"]), frozenset())
    verdict = compare(suite_case, answer(request(suite_case)))
    return CaseResult(case.id, verdict.status == "pass", verdict.detail)

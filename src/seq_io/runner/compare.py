"""A vector case → its protocol request; a testee's answer + the case's expectation → a `Verdict` (pass, fail or
skip) with the first difference of each compared field.

WHY it is shaped this way: the comparison rules are conformance/protocol.md's, in one place, so that the stdio
runner, the in-process fast path and every report judge the same way. This module decides what every kind
shares (a skipped answer, an error answer against an expected refusal, a result where a refusal was expected);
what a kind sends and compares in a result is its entry in `kinds.TABLE`.
"""

from __future__ import annotations

from typing import Any

from seq_io.runner.kinds import TABLE
from seq_io.runner.suite import SuiteCase
from seq_io.runner.verdict import Difference, Verdict, show


def request(case: SuiteCase) -> dict[str, Any]:
    """The protocol's case request for one vector case, inputs as the vector gives them."""
    return {"type": "case", "id": case.id, "kind": case.kind, "input": TABLE[case.kind].input(case)}


def compare(case: SuiteCase, answer: dict[str, Any]) -> Verdict:
    """Judge an answer (already known to answer this case: `protocol.envelope_problem`)."""
    if answer["type"] == "skipped":
        return Verdict("skip", f"skipped by the testee: {answer.get('reason', '(no reason given)')}")
    expected_error = case.expected_error
    if answer["type"] == "error":
        rule, message = answer["rule"], answer.get("message")
        if rule == expected_error:
            return Verdict("pass", rule=rule)
        said = f"the refusal {rule}" + (f" ({message})" if isinstance(message, str) and message else "")
        if expected_error is not None:
            detail = f"expected the refusal {expected_error}, got {said}"
            difference = Difference("$.error", expected_error, rule)
        else:
            came = {"error": rule} | ({"message": message} if isinstance(message, str) else {})
            difference = Difference("$", _expectation(case), came, " (a result was expected; a refusal came)")
            detail = (
                f'got {said} as an error answer; a validation refusal is a result with "valid": false'
                if case.kind == "validation"
                else f"expected a result, got {said}"
            )
        return Verdict("fail", detail, (difference,), rule=rule)
    if expected_error is not None:
        difference = Difference(
            "$",
            {"error": expected_error},
            {"result": answer["result"]},
            " (a refusal was expected; a result came instead)",
        )
        return Verdict(
            "fail", f"expected the refusal {expected_error}, got the result {show(answer['result'])}", (difference,)
        )
    return TABLE[case.kind].judge(case, answer["result"])


def _expectation(case: SuiteCase) -> dict[str, Any]:
    """What the vector expects, as it writes it: `expect`, or a validation case's valid/normalized/error."""
    data = case.case.data
    if isinstance(data.get("expect"), dict):
        return dict(data["expect"])
    return {name: data[name] for name in ("valid", "normalized", "error") if name in data}

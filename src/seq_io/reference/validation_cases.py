"""A validation case + the reference validator → pass or fail with a reason a person can act on.

The comparison rules are the suite's (conformance/README.md): a valid case passes when the instance is accepted
and its normalized form equals the expected one (or the instance itself when none is given), compared as JSON
values; an invalid case passes when the instance is refused and one reported refusal has the expected path and
rule. Messages are never compared.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from seq_io.reference.json_values import json_equal
from seq_io.reference.validation import Contract, Outcome
from seq_io.reference.wire import parse_json_text
from seq_io.vectors import Case


@dataclass(frozen=True)
class CaseResult:
    case_id: str
    passed: bool
    detail: str = ""


def instance_text(case: dict[str, Any]) -> str:
    """The case's instance as the JSON text a testee receives."""
    if "json" in case:
        return str(case["json"])
    return json.dumps(case["instance"], ensure_ascii=False)


def outcome_of(contract: Contract, type_name: str, case: dict[str, Any]) -> Outcome:
    return contract.validate_text(type_name, instance_text(case))


def judge(case: Case, outcome: Outcome) -> CaseResult:
    data = case.data
    if data["valid"]:
        if not outcome.valid:
            return CaseResult(case.id, False, "expected valid, refused: " + "; ".join(map(str, outcome.issues)))
        expected = data["normalized"] if "normalized" in data else parse_json_text(instance_text(data))[0]
        if not json_equal(outcome.normalized, expected):
            return CaseResult(
                case.id,
                False,
                f"normalized form differs: got {json.dumps(outcome.normalized)}, expected {json.dumps(expected)}",
            )
        return CaseResult(case.id, True)
    want = data["error"]
    if outcome.valid:
        return CaseResult(case.id, False, f"expected a refusal at {want['path']} [{want['rule']}], but it was accepted")
    if any(issue.path == want["path"] and issue.rule == want["rule"] for issue in outcome.issues):
        return CaseResult(case.id, True)
    got = "; ".join(f"{i.path} [{i.rule}]" for i in outcome.issues)
    return CaseResult(case.id, False, f"refused, but not at {want['path']} [{want['rule']}]; reported: {got}")

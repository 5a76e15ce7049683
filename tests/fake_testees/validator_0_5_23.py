"""A validator of contract 0.5.23 as a testee: protocol v1 on stdin/stdout, declaring contract 0.5.23 and the one
kind that contract has (validation); each request judged by the reference's engine on the release snapshot
spec/releases/0.5.23/ (its schemas, its rules), and a valid instance answered as read, because 0.5.23 normalizes
nothing (spec/CHANGELOG.md: the `streaming` fold and the sorting of `at` came with 0.5.25).

WHY it exists: `iospec run` must run an implementation of an older contract against that release's vectors
(conformance/protocol.md, "Handshake"), and only a testee that really is one shows it: the reference testee itself
declares 0.5.25 and normalizes as 0.5.25 does. Run: `python tests/fake_testees/validator_0_5_23.py`.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from seq_io.reference.validation import contract
from seq_io.reference.wire import number_value, parse_json_text

RELEASE = Path(__file__).resolve().parents[2] / "spec" / "releases" / "0.5.23"
HELLO = {
    "type": "hello",
    "protocol": 1,
    "implementation": {"name": "validator-0.5.23", "version": "1"},
    "contract_version": "0.5.23",
    "kinds": ["validation"],
}


def _answer(request: dict[str, Any], checker: Any) -> dict[str, Any]:
    case_id, given = request["id"], request["input"]
    if request.get("kind") != "validation" or given["type_name"] not in checker.type_names:
        return {"type": "skipped", "id": case_id, "reason": "not a type of contract 0.5.23"}
    outcome = checker.validate_text(given["type_name"], given["json"])
    if outcome.issues:
        errors = [{"path": issue.path, "rule": issue.rule} for issue in outcome.issues]
        return {"type": "result", "id": case_id, "result": {"valid": False, "errors": errors}}
    read, _ = parse_json_text(given["json"])
    return {"type": "result", "id": case_id, "result": {"valid": True, "normalized": read}}


def main() -> int:
    checker = contract(RELEASE)
    if not sys.stdin.readline():
        return 0
    print(json.dumps(HELLO), flush=True)
    for line in sys.stdin:
        if line.strip():
            print(json.dumps(_answer(json.loads(line, parse_float=number_value), checker)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

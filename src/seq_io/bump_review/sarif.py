"""A `Review` → a SARIF 2.1.0 log (one run, one result per finding), for code-scanning tools that show findings
on the lines of a pull request.

WHY SARIF: it is the interchange format such tools read (GitHub code scanning among them), and it carries what a
finding needs beyond a line: a rule with its description, a level, a stable fingerprint
(`partialFingerprints`, so a tool tracks one finding across runs), and an accepted finding as a suppression with
its justification, not as a missing result. Results follow `findings.items`; the gate's verdict is one more
result (rule `gate`) without a location, an error when the gate refuses.
"""

from __future__ import annotations

from typing import Any

from seq_io.bump_review.findings import TOOL, Item, items, rule_text
from seq_io.bump_review.review import Review

SCHEMA_URI = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
FINGERPRINT_KEY = "bumpReviewFingerprint/v1"


def _result(item: Item, index: dict[str, int]) -> dict[str, Any]:
    result: dict[str, Any] = {
        "ruleId": item.rule,
        "ruleIndex": index[item.rule],
        "level": item.level,
        "message": {"text": item.message},
        "partialFingerprints": {FINGERPRINT_KEY: item.fingerprint},
    }
    if item.place is not None:
        location: dict[str, Any] = {
            "physicalLocation": {
                "artifactLocation": {"uri": item.place.file},
                "region": {"startLine": item.place.line},
            }
        }
        if item.place.anchor:
            location["logicalLocations"] = [{"fullyQualifiedName": item.place.anchor}]
        result["locations"] = [location]
    if item.accepted is not None:
        result["suppressions"] = [
            {
                "kind": "external",
                "status": "accepted",
                "justification": f"{item.accepted.reason} (approved by {item.accepted.approved_by})",
            }
        ]
    return result


def log(r: Review) -> dict[str, Any]:
    """The SARIF log of one review."""
    found = items(r)
    v = r.verdict
    gate = Item(
        "",
        "gate",
        "note" if v.passed else "error",
        "gate",
        f"Gate {'PASS' if v.passed else 'FAIL'}: required bump {v.required}, actual {v.actual} "
        f"({v.base_version} → {v.head_version})" + "".join(f"; {reason}" for reason in v.reasons),
        None,
    )
    rules = sorted({item.rule for item in [*found, gate]})
    index = {rule: n for n, rule in enumerate(rules)}
    results = [_result(item, index) for item in [*found, gate]]
    results[-1].pop("partialFingerprints")
    return {
        "$schema": SCHEMA_URI,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": TOOL,
                        "rules": [{"id": rule, "shortDescription": {"text": rule_text(rule)}} for rule in rules],
                    }
                },
                "results": results,
                "properties": {
                    "base": {"label": r.base.label, "version": v.base_version},
                    "head": {"label": r.head.label, "version": v.head_version},
                    "gate": {"passed": v.passed, "required": v.required, "actual": v.actual},
                },
            }
        ],
    }

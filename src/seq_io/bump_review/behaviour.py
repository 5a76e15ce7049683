"""The vectors of two versions → the cases whose expected result changed, appeared or disappeared
(`CaseChange`).

A case id names one case for ever (conformance/README.md), so the same id on both sides is the same question
asked of two versions of the contract. Its answer is what the case expects: for a validation case, valid or
refused at (path, rule), and the normalized form; for the other kinds, the whole expectation. Comparing the
expectations of the two versions (instead of running two reference implementations, of which the repository
keeps one) lists every decided behaviour that moved; the data backstop separately runs the valid cases of each
version under the other version's schemas.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from seq_io import vectors
from seq_io.bump_review.snapshot import Snapshot, suite
from seq_io.reference.json_values import json_equal
from seq_io.reference.validation_cases import instance_text
from seq_io.reference.wire import parse_json_text

Movement = Literal["changed", "appeared", "disappeared"]
_NOT_EXPECTATIONS = frozenset({"id", "why", "tags", "upstream"})


@dataclass(frozen=True)
class Expectation:
    """One case as the comparison sees it: what is asked (`question`) and what is expected (`answer`)."""

    case_id: str
    kind: str
    subject: str
    question: Any
    answer: Any
    summary: str


@dataclass(frozen=True)
class CaseChange:
    case_id: str
    kind: str
    subject: str
    movement: Movement
    before: str
    after: str


@dataclass
class Behaviour:
    changes: list[CaseChange] = field(default_factory=list)
    compared: int = 0
    problems: list[str] = field(default_factory=list)
    kinds_on_one_side: dict[str, str] = field(default_factory=dict)


def _parsed(text: str) -> Any:
    value, issues = parse_json_text(text)
    return {"unparsed": text} if issues else value


def _short(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    return text if len(text) <= 90 else text[:87] + "..."


def _validation(case: vectors.Case, type_name: str) -> Expectation:
    data = case.data
    question = _parsed(instance_text(data))
    if data["valid"]:
        normalized = data.get("normalized", question)
        summary = "valid" if "normalized" not in data else f"valid, normalized to {_short(normalized)}"
        answer: Any = {"valid": True, "normalized": normalized}
    else:
        error = data["error"]
        summary = f"refused at {error['path']} [{error['rule']}]"
        answer = {"valid": False, "path": error["path"], "rule": error["rule"]}
    return Expectation(case.id, "validation", type_name, question, answer, summary)


def _other(case: vectors.Case, kind: str) -> Expectation:
    context = {k: v for k, v in case.group.items() if k not in ("group", "why", "cases", "tags", "rules")}
    expectation = {k: v for k, v in case.data.items() if k not in _NOT_EXPECTATIONS}
    question = {"group": context, "input": {k: v for k, v in expectation.items() if k != "expect"}}
    answer = expectation.get("expect", expectation)
    return Expectation(case.id, kind, kind, question, answer, _short(answer))


def expectations(root: Path | None, label: str, problems: list[str]) -> dict[str, Expectation]:
    """Every case of a vectors folder by id (files that cannot be read go to `problems`)."""
    if root is None:
        return {}
    files, found = suite(root)
    problems.extend(f"{label}: {problem}" for problem in found)
    out: dict[str, Expectation] = {}
    for vector_file in files:
        for case in vector_file.cases:
            kind = vector_file.kind
            out[case.id] = (
                _validation(case, str(vector_file.doc["type"])) if kind == "validation" else _other(case, kind)
            )
    return out


def compare(base: Snapshot, head: Snapshot) -> Behaviour:
    """The cases whose expectation moved from `base` to `head` (a kind only one side has is counted only)."""
    result = Behaviour()
    old = expectations(base.vectors_root, base.label, result.problems)
    new = expectations(head.vectors_root, head.label, result.problems)
    old_kinds, new_kinds = {e.kind for e in old.values()}, {e.kind for e in new.values()}
    for kind in sorted(old_kinds ^ new_kinds):
        side, cases = (head, new) if kind in new_kinds else (base, old)
        count = sum(1 for e in cases.values() if e.kind == kind)
        result.kinds_on_one_side[kind] = f"{count} case(s), only in {side.label}"
    for case_id in set(new) - set(old):
        after = new[case_id]
        if after.kind not in result.kinds_on_one_side:
            result.changes.append(CaseChange(case_id, after.kind, after.subject, "appeared", "—", after.summary))
    for case_id in set(old) - set(new):
        before = old[case_id]
        if before.kind not in result.kinds_on_one_side:
            result.changes.append(CaseChange(case_id, before.kind, before.subject, "disappeared", before.summary, "—"))
    for case_id in set(old) & set(new):
        before, after = old[case_id], new[case_id]
        result.compared += 1
        same_question = json_equal(before.question, after.question)
        if not same_question or not json_equal(before.answer, after.answer):
            moved = before.summary if same_question else f"{before.summary} (for another input)"
            result.changes.append(CaseChange(case_id, after.kind, after.subject, "changed", moved, after.summary))
    result.changes.sort(key=lambda change: change.case_id)
    return result

"""A finding (a classified change, a case whose expectation moved, a classifier gap) → its fingerprint: the first
16 hex digits of the SHA-256 of the canonical JSON of its facts.

WHY from facts, not wording: a fingerprint is what an accept list (accepted-changes.yaml), a SARIF viewer and a
pull-request thread remember a finding by. It must stay the same when the report is reworded or reordered, or
when an unrelated part of the spec changes, and must change when the change itself does. The facts are the rule,
the type, the location, the directions it breaks and what each side holds at that location (`places.value_at`),
as spec/compatibility.md ("Reviewing a change in a pull request") states. Two changes that agree in all of these
are one finding and share one fingerprint.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from seq_io.bump_review.backstop import Finding
from seq_io.bump_review.behaviour import CaseChange, Expectation
from seq_io.bump_review.generated_code import CodeChange
from seq_io.bump_review.places import value_at
from seq_io.bump_review.rules import Change, render_location
from seq_io.bump_review.snapshot import Snapshot

LENGTH = 16


def canonical(value: Any) -> str:
    """JSON with sorted keys, no spaces and every character as itself: one text for one value."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def of_facts(rule: str, type_name: str, location: str, directions: list[str], base: Any, head: Any) -> str:
    """The fingerprint of one set of facts (spec/compatibility.md, D14)."""
    facts = [rule, type_name, location, sorted(directions), canonical(base), canonical(head)]
    return hashlib.sha256(canonical(facts).encode("utf-8")).hexdigest()[:LENGTH]


def directions(change: Change) -> list[str]:
    """The readers a change breaks, by name."""
    return [name for name, flag in (("old-readers", change.old_readers), ("new-readers", change.new_readers)) if flag]


def of_change(change: Change, base: Snapshot, head: Snapshot) -> str:
    return of_facts(
        change.rule,
        change.type_name,
        render_location(change.location),
        directions(change),
        value_at(change, base),
        value_at(change, head),
    )


def of_code(change: CodeChange, base: Snapshot, head: Snapshot) -> str:
    """A generated-code finding: its rule, type, location, the bindings it touches (in place of directions) and
    both sides' subschema at the location (titles and `x-enum-varnames` included)."""
    as_change = Change(change.type_name, change.location, change.rule, change.detail, False, False)
    return of_facts(
        change.rule,
        change.type_name,
        render_location(change.location),
        list(change.bindings),
        value_at(as_change, base),
        value_at(as_change, head),
    )


def of_case(change: CaseChange, old: dict[str, Expectation], new: dict[str, Expectation]) -> str:
    """A case whose expectation moved, appeared or disappeared: its kind, id and both sides' question and
    answer."""
    sides = [
        None if e is None else {"question": e.question, "answer": e.answer}
        for e in (old.get(change.case_id), new.get(change.case_id))
    ]
    return of_facts(f"case-{change.movement}", change.kind, change.case_id, [], sides[0], sides[1])


def of_gap(finding: Finding) -> str:
    """A refusal no classified change explains: the case, the type, the direction and the refusals."""
    return of_facts(
        "classifier-gap",
        finding.type_name,
        finding.case_id,
        [finding.direction],
        sorted(finding.refusals),
        sorted(finding.unexplained),
    )

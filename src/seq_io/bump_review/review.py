"""Two snapshots → one `Review`: the classified changes (editorial marks applied), the data backstop, the
behaviour diff, the limits that disagree with the schemas, and the gate.

Every finding gets its fingerprint here (`fingerprint`), and the head's accept list (`accept`) is applied here:
an accepted change stays in every report, marked accepted with its reason, and is left out of what the gate
counts. The parts are computed here in one place, in the order each needs the previous one (the cases whose
expected result moved join the classified changes, the marks reclassify changes before the backstop explains
refusals by them, the gate counts the backstop's gaps and contradictions and the head's limit disagreements), so
the Markdown and JSON reports are two renderings of the same object and can never disagree.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field

from seq_io.bump_review import (
    accept,
    backstop,
    behaviour,
    fingerprint,
    gate,
    generated_code,
    limits,
    marks,
    renames,
    schema_diff,
)
from seq_io.bump_review.backstop import Finding
from seq_io.bump_review.behaviour import CaseChange
from seq_io.bump_review.rules import Change
from seq_io.bump_review.snapshot import Snapshot


@dataclass
class Review:
    base: Snapshot
    head: Snapshot
    diff: schema_diff.Diff
    backstop: backstop.Backstop
    behaviour: behaviour.Behaviour
    verdict: gate.Verdict
    limits: dict[str, list[str]]
    """"base" and "head" → the places where contract.json's limits and the schemas disagree."""
    mark_problems: list[str]
    code: generated_code.CodeAxis
    """The generated-code axis: what the six bindings' generators would emit differently (level `source`)."""
    fingerprints: dict[Change, str] = field(default_factory=dict)
    """Each classified change → its fingerprint (spec/compatibility.md, "Reviewing a change in a pull request")."""
    case_fingerprints: dict[CaseChange, str] = field(default_factory=dict)
    gap_fingerprints: dict[Finding, str] = field(default_factory=dict)
    code_fingerprints: dict[generated_code.CodeChange, str] = field(default_factory=dict)
    accept_list: accept.AcceptList = field(default_factory=accept.AcceptList)
    accepted: dict[str, accept.Entry] = field(default_factory=dict)
    """Fingerprint → the entry of accepted-changes.yaml that accepts it."""
    accept_warnings: list[accept.Warning_] = field(default_factory=list)

    def entry_for(self, change: Change) -> accept.Entry | None:
        """The accept-list entry that accepts this change, if any."""
        return self.accepted.get(self.fingerprints.get(change, ""))

    @property
    def notes(self) -> list[str]:
        return [*self.base.notes, *self.head.notes, *self.mark_problems, *self.code.problems.values()]

    @property
    def problems(self) -> list[str]:
        return sorted({*self.backstop.problems, *self.behaviour.problems})


def review(base: Snapshot, head: Snapshot, today: datetime.date | None = None) -> Review:
    """The review of `head` against `base`; `today` decides which accept-list entries have expired (default: the
    current UTC date). InputError when the head's accept list is malformed."""
    accept_list = accept.load(head)
    named = renames.as_head_names(base, head)
    diff = schema_diff.diff(named, head)
    moved = behaviour.compare(base, head)
    diff.changes, mark_problems = marks.apply([*diff.changes, *behaviour.as_changes(moved)], head)
    crossed = backstop.run(diff, base, head)
    found = {"base": limits.disagreements(base.spec), "head": limits.disagreements(head.spec)}
    code = generated_code.compare(base.spec, head.spec)
    prints = {c: fingerprint.of_change(c, named, head) for c in diff.changes}
    old, new = (behaviour.expectations(s.vectors_root, s.label, []) for s in (base, head))
    cases = {m: fingerprint.of_case(m, old, new) for m in moved.changes}
    by_case = {m.case_id: print_ for m, print_ in cases.items() if m.movement == "changed"}
    for change in diff.changes:  # a behaviour change is one finding with its case: one fingerprint, one acceptance
        if change.rule == behaviour.RULE:
            prints[change] = by_case[behaviour.case_id(change)]
    gaps = {f: fingerprint.of_gap(f) for f in crossed.findings if f.gap}
    code_prints = {c: fingerprint.of_code(c, base, head) for c in code.changes}
    accepted, warnings = accept.judge(
        accept_list, {*prints.values(), *cases.values(), *code_prints.values()}, head.version, today or accept.today()
    )
    counted = [c for c in diff.changes if prints[c] not in accepted]
    counted_code = generated_code.CodeAxis([c for c in code.changes if code_prints[c] not in accepted], code.problems)
    verdict = gate.judge(base, head, counted, crossed, found["head"], counted_code)
    return Review(
        named,
        head,
        diff,
        crossed,
        moved,
        verdict,
        found,
        mark_problems,
        code,
        prints,
        cases,
        gaps,
        code_prints,
        accept_list,
        accepted,
        warnings,
    )

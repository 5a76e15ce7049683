"""Two snapshots → one `Review`: the classified changes (editorial marks applied), the data backstop, the
behaviour diff, the limits that disagree with the schemas, and the gate.

The parts are computed here in one place, in the order each needs the previous one (the marks reclassify
changes before the backstop explains refusals by them, the gate counts the backstop's gaps and the head's limit
disagreements), so the Markdown and JSON reports are two renderings of the same object and can never disagree.
"""

from __future__ import annotations

from dataclasses import dataclass

from seq_io.bump_review import backstop, behaviour, gate, generated_code, limits, marks, schema_diff
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

    @property
    def notes(self) -> list[str]:
        return [*self.base.notes, *self.head.notes, *self.mark_problems, *self.code.problems.values()]

    @property
    def problems(self) -> list[str]:
        return sorted({*self.backstop.problems, *self.behaviour.problems})


def review(base: Snapshot, head: Snapshot) -> Review:
    diff = schema_diff.diff(base, head)
    diff.changes, mark_problems = marks.apply(diff.changes, head)
    crossed = backstop.run(diff, base, head)
    moved = behaviour.compare(base, head)
    found = {"base": limits.disagreements(base.spec), "head": limits.disagreements(head.spec)}
    code = generated_code.compare(base.spec, head.spec)
    verdict = gate.judge(base, head, diff.changes, crossed, found["head"], code)
    return Review(base, head, diff, crossed, moved, verdict, found, mark_problems, code)

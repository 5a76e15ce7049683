"""Two snapshots → one `Review`: the classified changes, the data backstop, the behaviour diff and the gate.

The four parts are computed here in one place, in the order each needs the previous one (the backstop explains
refusals by the classified changes, the gate counts the backstop's gaps), so the Markdown and JSON reports are
two renderings of the same object and can never disagree.
"""

from __future__ import annotations

from dataclasses import dataclass

from seq_io_tools.bump_review import backstop, behaviour, gate, schema_diff
from seq_io_tools.bump_review.snapshot import Snapshot


@dataclass
class Review:
    base: Snapshot
    head: Snapshot
    diff: schema_diff.Diff
    backstop: backstop.Backstop
    behaviour: behaviour.Behaviour
    verdict: gate.Verdict

    @property
    def notes(self) -> list[str]:
        return [*self.base.notes, *self.head.notes]

    @property
    def problems(self) -> list[str]:
        return sorted({*self.backstop.problems, *self.behaviour.problems})


def review(base: Snapshot, head: Snapshot) -> Review:
    diff = schema_diff.diff(base, head)
    crossed = backstop.run(diff, base, head)
    moved = behaviour.compare(base, head)
    return Review(base, head, diff, crossed, moved, gate.judge(base, head, diff.changes, crossed))

"""The head's changelog entry → its editorial marks ("Editorial:" and a list of `location: reason`) → the changes
they name, reclassified as editorial with the reason, unless a witness shows the change breaks.

WHY in the changelog: the mark is part of the release's own record, reviewed with it, and says why; the review
cannot tell a rewording from a change of meaning in prose or in a rule row, so a person has to, in writing.
A mark names a document section (`validation.md § Language-neutral decisions`), an id in backticks (a rule row,
an `x-rule`, a normalization, a contract.json key such as `limits.STREAM_WAIT_S`) or a schema location
(`Camera $.width`). A mark the data contradicts is not honoured: the change keeps its directions and the report
says why; a mark naming nothing is reported. A mark is refused outright on a behaviour change (a vector case whose
expected result moved is one by definition) and on a section of a document while a case of a vector kind that
document governs moved (behaviour.GOVERNED_BY): no reading of the prose can make a moved expectation editorial.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass

from seq_io.bump_review import behaviour
from seq_io.bump_review.rules import Change, render_location
from seq_io.bump_review.snapshot import Snapshot

_START = re.compile(r"^\s*(?:\*\*)?Editorial(?:\*\*)?\s*[:.]?\s*(?:\*\*)?\s*$", re.IGNORECASE)
_ITEM = re.compile(r"^\s*[-*]\s+(.+?:\s+.+?)\s*$")
_SPLIT = re.compile(r":\s+")


def _names(target: str, change: Change) -> bool:
    target = target.strip()
    if "§" in target:
        document, _, section = target.partition("§")
        name = document.strip().rsplit("/", 1)[-1]
        return change.type_name == f"({name})" and change.location == (f"§ {section.strip()}",)
    if target.startswith("`") and target.endswith("`"):
        return f"`{target.strip('`')}`" in change.detail
    type_name, _, location = target.partition(" ")
    return change.type_name == type_name and render_location(change.location) == location.strip()


@dataclass(frozen=True)
class Mark:
    """One item of an `Editorial:` list, `<target>: <reason>`. A section heading may itself hold `: ` (`§ 10. On
    the wire: statuses, …`), so every `: ` is tried as the split, first to last, and the first target that names
    a change decides; `target` and `reason` are those of the first split, for messages."""

    text: str

    def _splits(self) -> list[tuple[str, str]]:
        return [(self.text[: m.start()], self.text[m.end() :]) for m in _SPLIT.finditer(self.text)]

    @property
    def target(self) -> str:
        return self._splits()[0][0]

    @property
    def reason(self) -> str:
        return self._splits()[0][1]

    def reason_for(self, change: Change) -> str | None:
        """The mark's reason when one of its splits names the change, else None."""
        return next((reason for target, reason in self._splits() if _names(target, change)), None)

    def names(self, change: Change) -> bool:
        return self.reason_for(change) is not None


def marks(head: Snapshot) -> list[Mark]:
    """The marks of the head version's changelog entry."""
    found: list[Mark] = []
    inside = False
    for line in head.changelog_entry(head.version).splitlines():
        if _START.match(line):
            inside = True
            continue
        item = _ITEM.match(line) if inside else None
        if item is not None:
            found.append(Mark(item.group(1)))
        elif inside and line.strip() and not line.startswith(" "):
            inside = False
    return found


def _refusal(mark: Mark, change: Change, moved: dict[str, list[str]]) -> str | None:
    """Why a mark that names `change` cannot be honoured whatever the reviewer read, or None: a case whose
    expectation moved is a behaviour change by definition, and a document's section cannot be editorial while a
    case of a kind that document governs moved (spec/compatibility.md, "Editorial marks")."""
    if change.rule == behaviour.RULE:
        return (
            f"`{change.location[0].removeprefix('case ')}` is a case whose expected result moved; an expectation "
            "that moved is a behaviour change by definition"
        )
    document = change.type_name.strip("()")
    if change.location and change.location[0].startswith("§"):
        cases = [case for kind in behaviour.GOVERNED_BY.get(document, ()) for case in moved.get(kind, [])]
        if cases:
            shown = ", ".join(f"`{case}`" for case in cases[:4]) + (f" (+{len(cases) - 4})" if len(cases) > 4 else "")
            return (
                f"{document} decides the expectations of its vector cases, and {len(cases)} of them moved "
                f"({shown}): its prose did not change alone"
            )
    return None


def _not_honoured(change: Change, mark: Mark, where: str, why: str) -> Change:
    said = f"marked editorial ({where}: {mark.reason_for(change)}), but {why}: not honoured"
    return dataclasses.replace(change, note=f"{change.note}; {said}" if change.note else said)


def apply(changes: list[Change], head: Snapshot) -> tuple[list[Change], list[str]]:
    """The changes with the marked ones made editorial, and a sentence for each mark that names nothing, that
    the evidence contradicts or that marks a behaviour change."""
    listed = marks(head)
    moved = behaviour.moved_kinds(changes)
    used: set[Mark] = set()
    out: list[Change] = []
    problems: list[str] = []
    for change in changes:
        mark = next((m for m in listed if m.names(change)), None)
        if mark is None or change.level == "editorial":
            out.append(change)
            used |= {mark} if mark else set()
            continue
        used.add(mark)
        where = f"CHANGELOG.md, entry {head.version}"
        refused = _refusal(mark, change, moved)
        if refused is not None:
            out.append(_not_honoured(change, mark, where, refused))
            problems.append(f"the editorial mark `{mark.target}` is not honoured: {refused}")
            continue
        if change.evidence:
            out.append(_not_honoured(change, mark, where, "a witness shows it breaks"))
            problems.append(f"the editorial mark `{mark.target}` is not honoured: {change.evidence[0]}")
            continue
        out.append(
            dataclasses.replace(
                change,
                old_readers=False,
                new_readers=False,
                editorial=True,
                note=f"marked editorial ({where}): {mark.reason_for(change)}",
            )
        )
    problems += [
        f"the editorial mark `{m.target}` ({head.version}) names no change of this review"
        for m in listed
        if m not in used
    ]
    return out, problems

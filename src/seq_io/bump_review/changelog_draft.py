"""A `Review` → a drafted CHANGELOG.md entry for the change: a heading with the version the gate demands, the
breaking, compatible and editorial changes as lists, and an `Editorial:` skeleton for the undecided ones.

WHY drafted by the review: the gate demands an entry for the new version, and the review already knows every
change, whom it breaks and why; a person then edits the wording instead of re-deriving the list. The skeleton
names each undecided change exactly as an editorial mark must (spec/compatibility.md, "Editorial marks"), but
commented out: a mark is a person's written judgement, so the draft never makes one on its own; uncommenting a
line, with its reason written, is that judgement.
"""

from __future__ import annotations

import re

from seq_io.bump_review.gate import RANK, next_version
from seq_io.bump_review.review import Review
from seq_io.bump_review.rules import Change, render_location

_RULE_ID = re.compile(r"\brule `([^`]+)`")


def demanded_version(r: Review) -> str:
    """The head's version when it moved far enough, else the least version the gate would accept."""
    v = r.verdict
    if v.actual != "downgrade" and RANK[v.actual] >= RANK[v.required]:
        return v.head_version
    return next_version(v.base_version, v.required)


def mark_target(change: Change) -> str:
    """How an editorial mark names this change: `<file> § <heading>`, an id in backticks, or `<Type> <location>`."""
    if change.type_name.startswith("(") and change.type_name.endswith(".md)") and change.location:
        return f"{change.type_name[1:-1]} {change.location[0]}"
    if change.type_name == "(contract.json)":
        return f"`{'.'.join(change.location)}`"
    found = _RULE_ID.search(change.detail)
    if found is not None:
        return f"`{found.group(1)}`"
    return f"{change.type_name} {render_location(change.location)}"


def _whom(change: Change) -> str:
    if change.old_readers and change.new_readers:
        return "breaks old readers of new data and new readers of old data"
    return "breaks old readers of new data" if change.old_readers else "breaks new readers of old data"


def _item(r: Review, change: Change) -> str:
    text = f"- {change.type_name} {render_location(change.location)}: {change.detail}"
    if change.level == "breaking":
        text += f" ({_whom(change)})"
    entry = r.entry_for(change)
    if entry is not None:
        text += f"; accepted ({r.accept_list.file}, approved by {entry.approved_by}): {entry.reason}"
    return text


def draft(r: Review) -> str:
    """The drafted entry, ready to paste under the changelog's title."""
    v = r.verdict
    version = demanded_version(r)
    changes = r.diff.changes
    lines = [
        f"## {version}",
        "",
        f"<!-- Drafted by iospec bump-review, {r.base.label} ({v.base_version}) → {r.head.label}: the changes "
        + ("need no bump" if v.required == "none" else f"demand a {v.required} bump")
        + ". Reword freely; every change below was classified by the review. -->",
        "",
    ]
    for title, level in (("Breaking", "breaking"), ("Compatible", "compatible"), ("Editorial changes", "editorial")):
        listed = [_item(r, c) for c in changes if c.level == level]
        if listed:
            lines += [f"{title}:", "", *listed, ""]
    moved = [m for m in r.behaviour.changes if m.movement == "changed"]
    if moved:
        lines += ["Behaviour (cases whose expected result changed):", ""]
        lines += [f"- {m.kind} case `{m.case_id}`: {m.before} → {m.after}" for m in moved]
        lines.append("")
    undecided = [c for c in changes if c.level == "breaking" and "undecided" in c.note and r.entry_for(c) is None]
    if undecided:
        lines += [
            "<!-- Undecided changes, below. For each one that changes nothing accepted or meant, uncomment its line "
            "and write why; leave the others commented (they stay breaking), or remove the list. -->",
            "",
            "Editorial:",
            "",
        ]
        targets = dict.fromkeys(mark_target(c) for c in undecided)
        lines += [f"<!-- - {target}: <why nothing accepted or meant changes> -->" for target in targets]
        lines.append("")
    if not any(c.level != "editorial" for c in changes) and not moved:
        lines += ["Nothing accepted or meant changed.", ""]
    return "\n".join(lines)

"""A `Review` → one flat list of findings (`Item`), each with its fingerprint, a level, a title, a message and the
place a reviewer reads it in the head: what GitHub's workflow annotations and SARIF both render.

WHY one list: the level of a finding (error, warning, note) and its place are decided here once, so the
annotations in a pull request, the SARIF file a code-scanning tool reads and the Markdown report can never
disagree on what failed. Levels: a breaking change or a generated-code finding no accept-list entry accepts is
an error when the gate refuses the change and a warning when the version moved far enough for it; a classifier
gap is an error (it fails the gate); a case whose expectation changed is a breaking change too, one item read at
its vector file's line; an accept-list entry that accepts nothing is a warning; compatible, editorial and
accepted findings, and cases that appeared or disappeared, are notes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from seq_io.bump_review import behaviour
from seq_io.bump_review.accept import Entry
from seq_io.bump_review.behaviour import CaseChange
from seq_io.bump_review.generated_code import CodeChange
from seq_io.bump_review.places import Place, place, relative_to_root
from seq_io.bump_review.review import Review
from seq_io.bump_review.rules import RULES, Change, render_location
from seq_io.bump_review.snapshot import Snapshot, suite

Level = Literal["error", "warning", "note"]
TOOL = "iospec bump-review"


@dataclass(frozen=True)
class Item:
    fingerprint: str
    rule: str
    level: Level
    title: str
    message: str
    place: Place | None
    accepted: Entry | None = None
    editorial: bool = False
    """Nothing accepted or meant changes (an editorial change)."""


def _whom(change: Change) -> str:
    parts = [
        text
        for text, flag in (
            ("breaks old readers of new data", change.old_readers),
            ("breaks new readers of old data", change.new_readers),
        )
        if flag
    ]
    return "; ".join(parts) or change.level


def _level(r: Review, entry: Entry | None, breaking: bool) -> Level:
    """A breaking finding no entry accepts: an error when the gate refuses, a warning when it passes; else a note."""
    if entry is not None or not breaking:
        return "note"
    return "warning" if r.verdict.passed else "error"


def _accepted_suffix(r: Review, entry: Entry | None) -> str:
    return f". {_accepted(r, entry)}" if entry is not None else ""


def _schema_item(r: Review, fingerprint: str, change: Change, effect: str, breaking: bool) -> Item:
    """A finding at a schema location (a wire change or a generated-code one), read at its keyword in the head."""
    entry = r.accepted.get(fingerprint)
    where = f"{change.type_name} {render_location(change.location)}"
    message = f"{where}: {change.detail} ({change.rule}: {effect})"
    if change.note:
        message += f". {change.note}"
    return Item(
        fingerprint,
        change.rule,
        _level(r, entry, breaking),
        f"{where}: {change.rule}" + (" (accepted)" if entry else ""),
        message + _accepted_suffix(r, entry),
        place(change, r.head, r.base),
        entry,
        change.level == "editorial",
    )


def _change_item(r: Review, change: Change) -> Item:
    return _schema_item(r, r.fingerprints[change], change, _whom(change), change.level == "breaking")


def _case_places(snapshot: Snapshot) -> dict[str, Place]:
    if snapshot.vectors_root is None:
        return {}
    files, _ = suite(snapshot.vectors_root)
    return {
        case.id: Place(relative_to_root(snapshot, vector_file.path), case.line, case.id)
        for vector_file in files
        for case in vector_file.cases
    }


def _case_item(r: Review, moved: CaseChange, places: dict[str, Place]) -> Item:
    fingerprint = r.case_fingerprints[moved]
    entry = r.accepted.get(fingerprint)
    message = f"{moved.kind} case {moved.case_id} {moved.movement}: {moved.before} → {moved.after}"
    return Item(
        fingerprint,
        f"case-{moved.movement}",
        _level(r, entry, moved.movement == "changed"),  # a behaviour change: breaking (spec/compatibility.md)
        f"{moved.kind} case {moved.case_id}: expectation {moved.movement}",
        message + _accepted_suffix(r, entry),
        places.get(moved.case_id),
        entry,
    )


def _code_item(r: Review, change: CodeChange) -> Item:
    as_change = Change(change.type_name, change.location, change.rule, change.detail, False, False)
    effect = f"changes the generated code of {', '.join(change.bindings)}"
    return _schema_item(r, r.code_fingerprints[change], as_change, effect, True)


def _accepted(r: Review, entry: Entry) -> str:
    return f"Accepted ({r.accept_list.file} entry {entry.index}, approved by {entry.approved_by}): {entry.reason}"


def items(r: Review) -> list[Item]:
    """Every finding of the review, in report order: changes, generated-code findings, moved cases, classifier
    gaps, accept warnings."""
    found = [_change_item(r, c) for c in r.diff.changes if c.rule != behaviour.RULE]  # a case: its own item below
    found += [_code_item(r, c) for c in r.code.changes]
    places = _case_places(r.head)
    found += [_case_item(r, m, places) for m in r.behaviour.changes]
    for gap, fingerprint in r.gap_fingerprints.items():
        direction = (
            "valid new data refused by the old version"
            if gap.direction == "old-readers"
            else ("valid old data refused by the new version")
        )
        found.append(
            Item(
                fingerprint,
                "classifier-gap",
                "error",
                f"{gap.type_name}: classifier gap ({gap.case_id})",
                f"{gap.case_id} ({direction}): {', '.join(gap.unexplained)}; no classified change explains it, so "
                "it counts as breaking",
                places.get(gap.case_id),
            )
        )
    for warning in r.accept_warnings:
        entry = warning.entry
        found.append(
            Item(
                entry.fingerprint,
                f"accept-{warning.status}",
                "warning",
                f"accept list: entry {entry.index} accepts nothing ({warning.status})",
                f"Entry {entry.index} ({entry.fingerprint}, approved by {entry.approved_by}) {warning.sentence}",
                Place(r.accept_list.file, entry.line),
            )
        )
    return found


def rule_text(rule: str) -> str:
    """A sentence for a rule id (the classification rules of spec/compatibility.md, and the review's own)."""
    if rule in RULES:
        return RULES[rule].statement
    return {
        "case-changed": "A case both versions carry expects something else: a behaviour change.",
        "case-appeared": "A case only the head carries.",
        "case-disappeared": "A case only the base carries.",
        "classifier-gap": "A refusal shown by the vectors that no classified change explains; counts as breaking.",
        "accept-stale": "An accept-list entry that matches no finding of the review.",
        "accept-expired": "An accept-list entry past its expiry date: it accepts nothing.",
        "accept-other-version": "An accept-list entry for another contract version: it accepts nothing here.",
        "gate": "The version bump and the changelog against what the changes demand.",
    }.get(rule, rule)

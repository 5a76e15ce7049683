"""A `Review`'s behaviour diff and its vectors' contradictions → the Markdown section and the JSON members that
show them: each case whose expected result changed with both sides in full and every JSON path where they
differ, the cases that appeared or disappeared, and each case a version's own rules decide otherwise.

WHY a module of its own: a behaviour change is judged by reading it, so its rendering is more than a table row
(the whole case on each side, as JSON, and the paths that moved), and the classification table of report.py stays
one line per change. The columns say "base" and "head", never two version numbers that may be equal; the
versions are in the section's opening line.
"""

from __future__ import annotations

from typing import Any

from seq_io.bump_review.backstop import Contradiction, Side
from seq_io.bump_review.behaviour import CaseChange, Difference, shown
from seq_io.bump_review.review import Review


def _code(text: str) -> str:
    """Inline code that survives any backtick inside, in a table cell (pipes escaped, as Markdown tables need)."""
    fence = "``" if "`" in text else "`"
    pad = " " if "`" in text else ""
    return f"{fence}{pad}{text}{pad}{fence}".replace("|", "\\|")


def _side(present: bool, value: Any) -> str:
    return _code(shown(value)) if present else "(absent)"


def _breaks(change: CaseChange) -> str:
    old = "breaks" if change.old_readers else "does not break"
    new = "breaks" if change.new_readers else "does not break"
    return f"{old} old readers of new data, {new} new readers of old data"


def difference_lines(change: CaseChange) -> list[str]:
    """A changed case's differing JSON paths as a table, base and head side by side, with a line when cut."""
    lines = [
        f"{change.differences_total} differing JSON path(s):",
        "",
        "| JSON path | base | head |",
        "|---|---|---|",
    ]
    lines += [
        f"| {_code(d.path)} | {_side(d.in_base, d.base)} | {_side(d.in_head, d.head)} |" for d in change.differences
    ]
    if change.differences_total > len(change.differences):
        lines += ["", f"(the first {len(change.differences)} of {change.differences_total} paths are listed)"]
    return [*lines, ""]


def _accepted(r: Review, fingerprint: str) -> list[str]:
    entry = r.accepted.get(fingerprint)
    if entry is None:
        return []
    return [
        f"- **accepted** ({r.accept_list.file} entry {entry.index}, approved by {entry.approved_by}): {entry.reason}"
    ]


def _changed(r: Review, change: CaseChange) -> list[str]:
    of = f", {change.subject}" if change.kind == "validation" else ""
    fingerprint = r.case_fingerprints.get(change, "")
    return [
        f"### `{change.case_id}` ({change.kind}{of}): expected result changed",
        "",
        f"- {change.file}:{change.line} (head); fingerprint `{fingerprint}`",
        *_accepted(r, fingerprint),
        *([f"- {change.before} → {change.after}"] if change.kind == "validation" else []),
        f"- {_breaks(change)}: {change.note}",
        "",
        *difference_lines(change),
        "base:",
        "",
        "```json",
        shown(change.base),
        "```",
        "",
        "head:",
        "",
        "```json",
        shown(change.head),
        "```",
        "",
    ]


def _listed(changes: list[CaseChange], movement: str) -> list[str]:
    ids = [c for c in changes if c.movement == movement]
    if not ids:
        return []
    kinds = sorted({c.kind for c in ids})
    by_kind = "; ".join(f"{kind}: " + ", ".join(c.case_id for c in ids if c.kind == kind) for kind in kinds)
    return [f"Cases that {movement} ({len(ids)}, no level of their own): {by_kind}", ""]


def markdown(r: Review) -> list[str]:
    """The "Behaviour changes" section: every changed case in full, then the ids that appeared or disappeared."""
    moved = r.behaviour.changes
    changed = [c for c in moved if c.movement == "changed"]
    count = {m: sum(c.movement == m for c in moved) for m in ("changed", "appeared", "disappeared")}
    lines = [
        "## Behaviour changes",
        "",
        f"Base {r.base.version} ({r.base.label}) → head {r.head.version} ({r.head.label}): the expected results of "
        f"the {r.behaviour.compared} case id(s) both carry, compared case by case: {count['changed']} changed, "
        f"{count['appeared']} appeared, {count['disappeared']} disappeared. A changed expectation is a behaviour "
        'change, breaking (spec/compatibility.md, "Behaviour changes").',
        "",
    ]
    for change in changed:
        lines += _changed(r, change)
    return lines + _listed(moved, "appeared") + _listed(moved, "disappeared")


def contradiction_lines(r: Review) -> list[str]:
    """The backstop's lines for the cases each version's own rules decide otherwise (the head's fail the gate)."""
    lines: list[str] = []
    sides: tuple[tuple[Side, str], ...] = (("head", "the gate fails"), ("base", "listed"))
    for side, consequence in sides:
        found = r.backstop.contradicting(side)
        if found:
            lines.append(f"- the {side} contradicts its own vectors ({len(found)} case(s); {consequence}):")
            lines += [f"  - {c}" for c in found]
    return lines


def _difference_json(difference: Difference) -> dict[str, Any]:
    out: dict[str, Any] = {"path": difference.path}
    if difference.in_base:
        out["base"] = difference.base
    if difference.in_head:
        out["head"] = difference.head
    return out


def _change_json(change: CaseChange) -> dict[str, Any]:
    return {
        "case": change.case_id,
        "kind": change.kind,
        "subject": change.subject,
        "movement": change.movement,
        "file": change.file,
        "line": change.line,
        "summary": {"base": change.before, "head": change.after},
        "base": change.base,
        "head": change.head,
        "breaks_old_readers_of_new_data": change.old_readers,
        "breaks_new_readers_of_old_data": change.new_readers,
        "note": change.note,
        "differences": [_difference_json(d) for d in change.differences],
        "differences_total": change.differences_total,
        "differences_cut": change.differences_total > len(change.differences),
    }


def _contradiction_json(c: Contradiction) -> dict[str, Any]:
    return {"side": c.side, "case": c.case_id, "type": c.type_name, "declared": c.declared, "found": c.found}


def as_json(r: Review) -> dict[str, Any]:
    """The JSON report's `behaviour` member: a case absent on one side has null there; a path's `base` or `head`
    is left out where that side has nothing."""
    return {
        "compared": r.behaviour.compared,
        "kinds_on_one_side": r.behaviour.kinds_on_one_side,
        "changes": [_change_json(c) for c in r.behaviour.changes],
    }


def contradictions_json(r: Review) -> list[dict[str, Any]]:
    """The JSON report's `backstop.contradictions`."""
    return [_contradiction_json(c) for c in r.backstop.contradictions]

"""A `Review` → the Markdown report for a person (summary table first, then details per type) and the JSON one
for tools.

Every finding carries its fingerprint (a column of the Markdown tables, a member of the JSON), and a finding the
head's accept list accepts says so with the entry's reason. Both are built from the same rows (`summary_rows`),
so a tool reading the JSON sees exactly the counts a reviewer reads in the table. Wording follows
spec/compatibility.md: "old readers of new data" and "new readers of old data", never "forward"/"backward", which
people read both ways round.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from seq_io.bump_review import behaviour, behaviour_report
from seq_io.bump_review.accept import Entry
from seq_io.bump_review.backstop import Finding
from seq_io.bump_review.review import Review
from seq_io.bump_review.rules import Change, render_location
from seq_io.bump_review.snapshot import Snapshot

OLD = "breaks old readers of new data"
NEW = "breaks new readers of old data"


@dataclass
class Row:
    """One line of the summary table: a type (or `(wire)`, `(contract.json)`)."""

    type_name: str
    status: str
    old_readers: int
    new_readers: int
    compatible: int
    editorial: int
    via: list[str] = field(default_factory=list)
    refused_new_data: int = 0
    refused_old_data: int = 0
    gaps: int = 0
    moved: Counter[str] = field(default_factory=Counter)


def _status(r: Review, name: str, changes: list[Change]) -> str:
    if name in r.diff.added_types:
        return "added"
    if name in r.diff.removed_types:
        return "removed"
    if any(c.level != "editorial" for c in changes):
        return "changed"
    if changes:
        return "edited"
    return "affected" if any(v.type_name == name for v in r.diff.via) else "unchanged"


def summary_rows(r: Review) -> list[Row]:
    names = sorted({*r.base.spec.schemas, *r.head.spec.schemas})
    names += sorted({c.type_name for c in r.diff.changes} - set(names))
    names += sorted({m.subject for m in r.behaviour.changes} - set(names))
    rows = []
    for name in names:
        changes = r.diff.for_type(name)
        findings = [f for f in r.backstop.findings if f.type_name == name]
        row = Row(
            name,
            _status(r, name, changes),
            sum(c.old_readers for c in changes),
            sum(c.new_readers for c in changes),
            sum(c.level == "compatible" for c in changes),
            sum(c.level == "editorial" for c in changes),
            [v.detail.split("`")[1] for v in r.diff.via if v.type_name == name],
            sum(f.direction == "old-readers" for f in findings),
            sum(f.direction == "new-readers" for f in findings),
            sum(f.gap for f in findings),
            Counter(m.movement for m in r.behaviour.changes if m.subject == name),
        )
        rows.append(row)
    return rows


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _ids(ids: list[str], limit: int = 4) -> str:
    shown = ", ".join(ids[:limit])
    return shown + (f" (+{len(ids) - limit})" if len(ids) > limit else "") if ids else "—"


def _gate_lines(r: Review) -> list[str]:
    v = r.verdict
    head = (
        f"**Gate: {'PASS' if v.passed else 'FAIL'}**: required bump **{v.required}**, actual "
        f"**{v.actual}** ({v.base_version} → {v.head_version}); changelog: {v.changelog}."
    )
    lines = [head, *[f"- {reason}" for reason in v.reasons]]
    if r.accepted:
        counted = sum(1 for c in r.diff.changes if r.entry_for(c) is not None)
        lines.append(f"- {counted} accepted change(s) not counted ({r.accept_list.file}, below)")
    return [*lines, ""]


def _accepted_note(entry: Entry | None, file: str) -> str:
    if entry is None:
        return ""
    return f" **accepted** ({file} entry {entry.index}, approved by {entry.approved_by}): {entry.reason}"


def _accept_section(r: Review) -> list[str]:
    """The accept list: what it accepted and each entry that accepts nothing (a warning, never a failure)."""
    if not r.accept_list.entries:
        return []
    file = r.accept_list.file
    lines = [
        f"## Accept list ({file})",
        "",
        f"- {len(r.accept_list.entries)} entr{'y' if len(r.accept_list.entries) == 1 else 'ies'}; "
        f"{len(r.accepted)} accept(s) a finding of this review; {len(r.accept_warnings)} accept(s) nothing",
    ]
    for entry in sorted(r.accepted.values(), key=lambda e: e.index):
        lines.append(f"- entry {entry.index} (line {entry.line}) accepts `{entry.fingerprint}`: {_cell(entry.reason)}")
    for warning in r.accept_warnings:
        e = warning.entry
        lines.append(f"- **warning**: entry {e.index} (line {e.line}, `{e.fingerprint}`) {warning.sentence}")
    return [*lines, ""]


def _summary_table(r: Review) -> list[str]:
    """The rows of the types (and documents, contract.json, wire rules) that changed or are affected; the
    unchanged ones are counted in one line."""
    rows = summary_rows(r)
    shown = [
        row
        for row in rows
        if row.status != "unchanged"
        or row.refused_new_data
        or row.refused_old_data
        or row.gaps
        or sum(row.moved.values())
    ]
    lines = [
        "| type | status | breaks old readers of new data | breaks new readers of old data | compatible | "
        "editorial | affected through | vectors refused: new data by old / old data by new | gaps | "
        "vectors changed / appeared / disappeared |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for row in shown:
        moved = f"{row.moved['changed']} / {row.moved['appeared']} / {row.moved['disappeared']}"
        lines.append(
            f"| {row.type_name} | {row.status} | {row.old_readers} | {row.new_readers} | {row.compatible} | "
            f"{row.editorial} | {', '.join(row.via) or '—'} | {row.refused_new_data} / "
            f"{row.refused_old_data} | {row.gaps} | {moved} |"
        )
    rest = len(rows) - len(shown)
    if not shown:
        lines = ["Nothing changed."]
    if rest:
        lines += ["", f"{rest} other type(s) unchanged."]
    return [*lines, ""]


def _yes(flag: bool) -> str:
    return "breaks" if flag else "—"


def _editorial(c: Change) -> str:
    return " (editorial: nothing accepted or meant changes)" if c.editorial and "marked editorial" not in c.note else ""


def _type_details(r: Review, name: str) -> list[str]:
    changes = r.diff.for_type(name)
    via = [v for v in r.diff.via if v.type_name == name]
    gaps = [f for f in r.backstop.findings if f.type_name == name and f.gap]
    if not (changes or via or gaps):
        return []
    lines = [f"### {name}", ""]
    if changes:
        lines += [
            "| rule | location | change | old readers of new data | new readers of old data "
            "| shown by vectors "
            "| note | fingerprint |",
            "|---|---|---|---|---|---|---|---|",
        ]
        for c in changes:
            note = c.note + (" (meaning only)" if c.meaning_only else "") + _editorial(c)
            note += _accepted_note(r.entry_for(c), r.accept_list.file)
            lines.append(
                f"| `{c.rule}` | `{render_location(c.location)}` | {_cell(c.detail)} | {_yes(c.old_readers)} "
                f"| {_yes(c.new_readers)} | {_ids(r.backstop.evidence(c))} | "
                f"{_cell(note.lstrip())} | `{r.fingerprints.get(c, '')}` |"
            )
        lines.append("")
        for c in changes:
            lines += [f"- witness for `{render_location(c.location)}`: {_cell(w)}" for w in c.evidence]
        if any(c.evidence for c in changes):
            lines.append("")
        for c in (c for c in changes if c.excerpt):
            lines += [f"`{render_location(c.location)}` ({c.detail}):", "", "```diff", *c.excerpt, "```", ""]
    lines += [f"- affected through `{v.detail.split('`')[1]}` (`via-reference`): {_cell(v.detail)}" for v in via]
    lines += [
        f"- **classifier gap**: {f.case_id} ({_gap_direction(f)}): {', '.join(f.unexplained)} "
        f"(`{r.gap_fingerprints.get(f, '')}`)"
        for f in gaps
    ]
    if via or gaps:
        lines.append("")
    return lines


def _gap_direction(finding: Finding) -> str:
    return (
        "valid new data refused by the old version"
        if finding.direction == "old-readers"
        else "valid old data refused by the new version"
    )


def _side(snapshot: Snapshot) -> str:
    return f"{snapshot.version}, {snapshot.label}"


def _limits(r: Review) -> list[str]:
    lines = ["## Contract limits against the schemas", ""]
    for side in ("head", "base"):
        found = r.limits[side]
        lines += [f"- {side}: " + (f"{len(found)} disagreement(s)" if found else "contract.json and the schemas agree")]
        lines += [f"  - {text}" for text in found]
    return [*lines, ""]


def _backstop(r: Review) -> list[str]:
    b = r.backstop
    lines = [
        "## Data backstop",
        "",
        f"- {b.checked['new-readers']} valid vector(s) of the base ({_side(r.base)}) validated under the head "
        f"({_side(r.head)}): {sum(f.direction == 'new-readers' for f in b.findings)} refused (old data new readers "
        "cannot read)",
        f"- {b.checked['old-readers']} valid vector(s) of the head ({_side(r.head)}) validated under the base "
        f"({_side(r.base)}): {sum(f.direction == 'old-readers' for f in b.findings)} refused (new data old readers "
        "cannot read)",
        f"- classifier gaps (a refusal no classified change explains): {len(b.gaps) or 'none'}",
    ]
    if b.not_checked:
        lines.append(
            "- not crossed, the type exists on one side only: "
            + ", ".join(f"{name} ({count})" for name, count in sorted(b.not_checked.items()))
        )
    lines += behaviour_report.contradiction_lines(r)
    breaking_unshown = [
        c
        for c in r.diff.changes
        if c.level == "breaking" and not c.meaning_only and c.rule != behaviour.RULE and not b.evidence(c)
    ]
    if breaking_unshown:
        lines.append(
            f"- breaking changes no vector demonstrates (predicted by the rules only): {len(breaking_unshown)}"
        )
    return [*lines, ""]


def _generated_code(r: Review) -> list[str]:
    """The generated-code axis: one row per finding, with the bindings it touches (spec/compatibility.md)."""
    if not r.code.changes:
        return []
    lines = [
        "## Generated code",
        "",
        "What the generators of the six bindings would emit otherwise, whatever the wire does: level `source`, "
        "which needs the bump of a breaking change.",
        "",
        "| type | location | rule | bindings | change | fingerprint |",
        "|---|---|---|---|---|---|",
    ]
    lines += [
        f"| {c.type_name} | `{render_location(c.location)}` | `{c.rule}` | {', '.join(c.bindings)} | "
        f"{_cell(c.detail + _accepted_note(r.accepted.get(r.code_fingerprints.get(c, '')), r.accept_list.file))} "
        f"| `{r.code_fingerprints.get(c, '')}` |"
        for c in r.code.changes
    ]
    return [*lines, ""]


def markdown(r: Review) -> str:
    lines = [
        f"# Contract bump review: {r.base.version} → {r.head.version}",
        "",
        f"Base: {r.base.label} (contract {r.base.version}). "
        f"Head: {r.head.label} (contract {r.head.version}). "
        "Rules: spec/compatibility.md.",
        "",
        *_gate_lines(r),
        *_accept_section(r),
        "## Summary",
        "",
        *_summary_table(r),
        "## Details per type",
        "",
    ]
    for row in summary_rows(r):
        lines += _type_details(r, row.type_name)
    lines += _generated_code(r)
    lines += behaviour_report.markdown(r)
    lines += _backstop(r)
    lines += _limits(r)
    if r.behaviour.kinds_on_one_side:
        lines += ["## Other vector kinds", ""]
        lines += [
            f"- `{kind}`: {text} (not compared case by case)"
            for kind, text in sorted(r.behaviour.kinds_on_one_side.items())
        ]
        lines.append("")
    if r.notes or r.problems:
        lines += ["## Notes", "", *[f"- {note}" for note in [*r.notes, *r.problems]], ""]
    return "\n".join(lines)


def _change_json(r: Review, c: Change) -> dict[str, Any]:
    return {
        "type": c.type_name,
        "location": render_location(c.location),
        "rule": c.rule,
        "level": c.level,
        "detail": c.detail,
        "breaks_old_readers_of_new_data": c.old_readers,
        "breaks_new_readers_of_old_data": c.new_readers,
        "meaning_only": c.meaning_only,
        "note": c.note,
        "editorial": c.level == "editorial",
        "fingerprint": r.fingerprints.get(c, ""),
        "accepted": _entry_json(r.entry_for(c)),
        "witnesses": list(c.evidence),
        "diff": list(c.excerpt),
        "shown_by": r.backstop.evidence(c),
    }


def _entry_json(entry: Entry | None) -> dict[str, Any] | None:
    if entry is None:
        return None
    return {
        "entry": entry.index,
        "line": entry.line,
        "reason": entry.reason,
        "approved_by": entry.approved_by,
        "expires": None if entry.expires is None else entry.expires.isoformat(),
        "version": entry.version,
    }


def _behaviour_json(r: Review) -> dict[str, Any]:
    """behaviour_report's member, each case with its fingerprint and the accept-list entry that accepts it."""
    out = behaviour_report.as_json(r)
    for moved, item in zip(r.behaviour.changes, out["changes"], strict=True):
        fingerprint = r.case_fingerprints.get(moved, "")
        item.update(fingerprint=fingerprint, accepted=_entry_json(r.accepted.get(fingerprint)))
    return out


def as_json(r: Review) -> dict[str, Any]:
    v = r.verdict
    index = {id(c): n for n, c in enumerate(r.diff.changes)}
    return {
        "base": {"label": r.base.label, "version": r.base.version},
        "head": {"label": r.head.label, "version": r.head.version},
        "gate": {
            "passed": v.passed,
            "required": v.required,
            "actual": v.actual,
            "changelog": v.changelog,
            "reasons": v.reasons,
        },
        "summary": [
            {
                "type": row.type_name,
                "status": row.status,
                "breaks_old_readers_of_new_data": row.old_readers,
                "breaks_new_readers_of_old_data": row.new_readers,
                "compatible": row.compatible,
                "editorial": row.editorial,
                "affected_through": row.via,
                "new_data_refused_by_old": row.refused_new_data,
                "old_data_refused_by_new": row.refused_old_data,
                "gaps": row.gaps,
                "vectors": dict(row.moved),
            }
            for row in summary_rows(r)
        ],
        "changes": [_change_json(r, c) for c in r.diff.changes],
        "generated_code": [
            {
                "type": c.type_name,
                "location": render_location(c.location),
                "rule": c.rule,
                "level": c.level,
                "bindings": list(c.bindings),
                "detail": c.detail,
                "fingerprint": r.code_fingerprints.get(c, ""),
                "accepted": _entry_json(r.accepted.get(r.code_fingerprints.get(c, ""))),
            }
            for c in r.code.changes
        ],
        "via": [
            {
                "type": c.type_name,
                "detail": c.detail,
                "breaks_old_readers_of_new_data": c.old_readers,
                "breaks_new_readers_of_old_data": c.new_readers,
            }
            for c in r.diff.via
        ],
        "backstop": {
            "checked": r.backstop.checked,
            "not_checked": r.backstop.not_checked,
            "own_refusals": r.backstop.own_refusals,
            "contradictions": behaviour_report.contradictions_json(r),
            "findings": [
                {
                    "case": f.case_id,
                    "type": f.type_name,
                    "direction": f.direction,
                    "refusals": list(f.refusals),
                    "explained_by": [index[id(c)] for c in f.explained_by],
                    "unexplained": list(f.unexplained),
                    "fingerprint": r.gap_fingerprints.get(f),
                }
                for f in r.backstop.findings
            ],
        },
        "behaviour": _behaviour_json(r),
        "accept_list": {
            "file": r.accept_list.file,
            "present": r.accept_list.present,
            "entries": len(r.accept_list.entries),
            "accepted": sorted(r.accepted),
            "warnings": [
                {
                    "entry": w.entry.index,
                    "line": w.entry.line,
                    "fingerprint": w.entry.fingerprint,
                    "status": w.status,
                    "message": w.sentence,
                }
                for w in r.accept_warnings
            ],
        },
        "limits": r.limits,
        "notes": r.notes,
        "problems": r.problems,
    }

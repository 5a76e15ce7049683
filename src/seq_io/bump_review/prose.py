"""The Markdown documents of two versions (spec/*.md but the changelog) → one change per section that was added,
removed or edited, with the section's diff, so that a reviewer sees every change to normative prose.

WHY by section: a heading is the unit a reader cites ("validation.md § Language-neutral decisions") and the
unit an editorial mark names; a whole-file diff would bury a tightened sentence in the rows the review already
compares. Those rows (the wire-rule, beyond-schema and normalization tables of validation.md) are left out here,
since they are compared by rule id. The review cannot read prose: an edited section of a normative document is
`prose-changed`, undecided both ways unless the changelog marks it editorial; a document only the head has is
`document-added` (a new document specifies something new; one that constrains existing types must say so in the
changelog); a document whose opening says it is informative only changes annotations.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterator

from seq_io.bump_review.rules import Change, make
from seq_io.bump_review.snapshot import TABLES, Snapshot

MAX_DIFF_LINES = 40
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_ROW = re.compile(r"^\|\s*`[^`]+`\s*\|")


def informative(text: str) -> bool:
    """Whether a document's opening (its first ten lines) declares it informative."""
    return bool(re.search(r"^\s*Informative\b", "\n".join(text.splitlines()[:10]), re.MULTILINE | re.IGNORECASE))


def sections(text: str) -> dict[str, list[str]]:
    """`§ heading` → the section's lines (without the rule rows of validation.md's tables); the text before the
    first heading is `§ (start)`. A heading used twice gets its position: `§ Examples (2)`."""
    out: dict[str, list[str]] = {}
    current, in_table, fenced = "§ (start)", False, False
    out[current] = []
    for line in text.splitlines():
        if line.startswith("```"):
            fenced = not fenced
        heading = None if fenced else _HEADING.match(line)
        if heading is not None:
            name, count = f"§ {heading.group(2)}", 2
            while name in out:
                name, count = f"§ {heading.group(2)} ({count})", count + 1
            current, in_table = name, heading.group(2) in TABLES and len(heading.group(1)) == 2
            out[current] = []
            continue
        if in_table and _ROW.match(line):
            continue
        out[current].append(line)
    if not any(line.strip() for line in out["§ (start)"]):
        del out["§ (start)"]
    return out


def _diff(before: list[str], after: list[str]) -> tuple[str, ...]:
    lines = [line for line in difflib.unified_diff(before, after, "base", "head", n=1, lineterm="")][2:]
    if len(lines) > MAX_DIFF_LINES:
        lines = [*lines[:MAX_DIFF_LINES], f"… {len(lines) - MAX_DIFF_LINES} more diff lines"]
    return tuple(lines)


def changes(base: Snapshot, head: Snapshot) -> Iterator[Change]:
    old, new = dict(base.documents), dict(head.documents)
    for name in sorted(set(old) | set(new)):
        owner = f"({name})"
        before, after = sections(old.get(name, "")), sections(new.get(name, ""))
        if name not in old or name not in new:  # listed by section; the document itself is the diff
            text = new.get(name) or old[name]
            for section in after if name not in old else before:
                if informative(text):
                    yield make(
                        "annotation-changed",
                        owner,
                        (section,),
                        f"informative {name} {'is new' if name not in old else 'is gone'}: section "
                        f"{'added' if name not in old else 'removed'}",
                    )
                elif name not in old:
                    yield make("document-added", owner, (section,), f"{name} is new: section added")
                else:
                    yield make(
                        "document-removed",
                        owner,
                        (section,),
                        f"{name} is gone: section removed",
                        note="undecided: the review cannot read prose, so both directions are assumed",
                    )
            continue
        editorial_only = informative(new[name]) and informative(old[name])
        for section in [*before, *(s for s in after if s not in before)]:
            was, now = before.get(section), after.get(section)
            if was == now:
                continue
            what = "added" if was is None else "removed" if now is None else "edited"
            excerpt = _diff(was or [], now or [])
            if editorial_only:
                yield make("annotation-changed", owner, (section,), f"informative text {what}", excerpt=excerpt)
            else:
                yield make(
                    "prose-changed",
                    owner,
                    (section,),
                    f"normative text {what}",
                    excerpt=excerpt,
                    note="undecided: the review cannot read prose, so both directions are assumed; mark "
                    "a rewording editorial in the changelog (spec/compatibility.md)",
                )

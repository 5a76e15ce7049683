"""The Markdown documents of two versions (spec/*.md but the changelog) → one change per section that was added,
removed or edited, with the section's diff, so that a reviewer sees every change to normative prose; and the
values a piece of prose carries (numbers, quoted strings, code spans), for descriptions.

WHY by section: a heading is the unit a reader cites ("validation.md § Language-neutral decisions") and the
unit an editorial mark names; a whole-file diff would bury a tightened sentence in the rows the review already
compares. Those rows (the wire-rule, beyond-schema and normalization tables of validation.md) are left out here,
since they are compared by rule id. The review cannot read prose: an edited section of a normative document is
`prose-changed`, undecided both ways unless the changelog marks it editorial; a document only the head has is
`document-added` (a new document specifies something new; one that constrains existing types must say so in the
changelog). Three things it can tell without reading (spec/compatibility.md): a document whose opening says it is
informative, or a section whose heading ends with "(informative)" or whose first line says "Informative" (and
the sections nested under it), only changes annotations; a section whose words and comparisons stay the same
once comparison words are normalised (`relations`) is editorial; blank lines at a section's ends are layout.
"""

from __future__ import annotations

import difflib
import re
from collections import Counter
from collections.abc import Iterator

from seq_io.bump_review import relations
from seq_io.bump_review.rules import Change, make
from seq_io.bump_review.snapshot import TABLES, Snapshot

MAX_DIFF_LINES = 40
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_ROW = re.compile(r"^\|\s*`[^`]+`\s*\|")
_INFORMATIVE_LINE = re.compile(r"^\W*Informative\b", re.IGNORECASE)
_INFORMATIVE_HEADING = re.compile(r"\(informative\)$", re.IGNORECASE)
_CODE_SPAN = re.compile(r"`+([^`]*)`+")
_QUOTED = re.compile(r'"([^"]*)"|“([^”]*)”')
_NUMBER = re.compile(r"(?<!\w)[-\u2212+]?\d+(?:[.,]\d+)*(?:[eE][-+]?\d+)?")


def informative(text: str) -> bool:
    """Whether a document's opening (its first ten lines) declares it informative."""
    return bool(re.search(r"^\s*Informative\b", "\n".join(text.splitlines()[:10]), re.MULTILINE | re.IGNORECASE))


def carried_values(text: str) -> Counter[str]:
    """The values a text states, as a multiset: its code spans, its quoted strings and its numbers (outside
    those), each as written (a minus sign read as `-`)."""
    values: Counter[str] = Counter(f"`{span}`" for span in _CODE_SPAN.findall(text))
    text = _CODE_SPAN.sub(" ", text)
    values.update(f'"{a or b}"' for a, b in _QUOTED.findall(text))
    text = _QUOTED.sub(" ", text)
    values.update(number.replace("\u2212", "-") for number in _NUMBER.findall(text))
    return values


def sections(text: str) -> dict[str, list[str]]:
    """`§ heading` → the section's lines (without the rule rows of validation.md's tables); the text before the
    first heading is `§ (start)`. A heading used twice gets its position: `§ Examples (2)`."""
    return {name: lines for name, (lines, _) in _sections(text).items()}


def informative_sections(text: str) -> set[str]:
    """The sections of a document that are informative: every one when its opening says so, else those whose
    heading ends with "(informative)" or whose first line says "Informative", and the sections nested under
    them."""
    found = _sections(text)
    return set(found) if informative(text) else {name for name, (_, flag) in found.items() if flag}


def _sections(text: str) -> dict[str, tuple[list[str], bool]]:
    """`§ heading` → (its lines, whether it is informative by its heading, its first line or its parent's)."""
    out: dict[str, list[str]] = {"§ (start)": []}
    marked: dict[str, bool] = {"§ (start)": False}
    current, in_table, fenced = "§ (start)", False, False
    informative_levels: list[int] = []  # heading levels of the informative sections enclosing this one
    level = 0
    for line in text.splitlines():
        if line.startswith("```"):
            fenced = not fenced
        heading = None if fenced else _HEADING.match(line)
        if heading is not None:
            level = len(heading.group(1))
            informative_levels = [at for at in informative_levels if at < level]
            name, count = f"§ {heading.group(2)}", 2
            while name in out:
                name, count = f"§ {heading.group(2)} ({count})", count + 1
            current, in_table = name, heading.group(2) in TABLES and level == 2
            out[current] = []
            marked[current] = bool(informative_levels) or bool(_INFORMATIVE_HEADING.search(heading.group(2)))
            if marked[current]:
                informative_levels.append(level)
            continue
        if in_table and _ROW.match(line):
            continue
        if not any(entry.strip() for entry in out[current]) and line.strip() and _INFORMATIVE_LINE.match(line):
            if not marked[current]:
                informative_levels.append(level)
            marked[current] = True
        out[current].append(line)
    if not any(line.strip() for line in out["§ (start)"]):
        del out["§ (start)"]
    return {name: (lines, marked[name]) for name, lines in out.items()}


def _trimmed(lines: list[str]) -> list[str]:
    start, end = 0, len(lines)
    while start < end and not lines[start].strip():
        start += 1
    while end > start and not lines[end - 1].strip():
        end -= 1
    return lines[start:end]


def _diff(before: list[str], after: list[str]) -> tuple[str, ...]:
    lines = [line for line in difflib.unified_diff(before, after, "base", "head", n=1, lineterm="")][2:]
    if len(lines) > MAX_DIFF_LINES:
        lines = [*lines[:MAX_DIFF_LINES], f"… {len(lines) - MAX_DIFF_LINES} more diff lines"]
    return tuple(lines)


def _whole_document(name: str, before: str | None, after: str | None) -> Iterator[Change]:
    """A document only one side has: each of its sections, listed."""
    owner, text = f"({name})", after if after is not None else before or ""
    quiet = informative_sections(text)
    for section in sections(text):
        what, verb = ("is new", "added") if before is None else ("is gone", "removed")
        if section in quiet:
            kind = "informative" if informative(text) else "an informative section of"
            yield make("annotation-changed", owner, (section,), f"{kind} {name} {what}: section {verb}")
        elif before is None:
            yield make("document-added", owner, (section,), f"{name} is new: section added")
        else:
            yield make(
                "document-removed",
                owner,
                (section,),
                f"{name} is gone: section removed",
                note="undecided: the review cannot read prose, so both directions are assumed",
            )


def changes(base: Snapshot, head: Snapshot) -> Iterator[Change]:
    old, new = dict(base.documents), dict(head.documents)
    for name in sorted(set(old) | set(new)):
        if name not in old or name not in new:  # listed by section; the document itself is the diff
            yield from _whole_document(name, old.get(name), new.get(name))
            continue
        owner = f"({name})"
        before, after = sections(old[name]), sections(new[name])
        quiet = (informative_sections(old[name]), informative_sections(new[name]))
        for section in [*before, *(s for s in after if s not in before)]:
            was, now = before.get(section), after.get(section)
            if was == now or (was is not None and now is not None and _trimmed(was) == _trimmed(now)):
                continue  # the same lines, blank lines at the ends apart: layout
            what = "added" if was is None else "removed" if now is None else "edited"
            excerpt = _diff(was or [], now or [])
            if (was is None or section in quiet[0]) and (now is None or section in quiet[1]):
                yield make("annotation-changed", owner, (section,), f"informative text {what}", excerpt=excerpt)
            elif was is not None and now is not None and relations.same_statement("\n".join(was), "\n".join(now)):
                yield make(
                    "prose-changed",
                    owner,
                    (section,),
                    "normative text reworded",
                    excerpt=excerpt,
                    old_readers=False,
                    new_readers=False,
                    editorial=True,
                    note='the same words and comparisons once comparison words are normalised ("≤" = "at '
                    'most", spec/compatibility.md): editorial',
                )
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

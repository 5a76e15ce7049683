"""An expected-failure list (a JSON file, conformance/schema/xfail.schema.json) + each case's verdict → the
case's outcome (pass, fail, xfail, xpass, skip, error) and whether the run may still succeed; and, for
`--fix`, the list rewritten so that it matches the run.

WHY it is shaped this way: like protobuf's conformance failure lists, the list is strict in both directions.
A case that starts to pass while listed fails the run until its entry is removed, so a fixed bug cannot hide
behind a stale entry; an entry with `error` pins how the case fails, so a regression from one refusal to
another is noticed too. An entry names one case (`id`), the cases of a group pattern (`group`) or a whole kind
(`kind`), so that a testee that does not implement a kind yet needs one line, not hundreds; the most specific
entry governs a case (id, then group, then kind). Entries are kept in a fixed order (kinds, groups, then ids
sorted) so that rewrites give small diffs.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from functools import cache
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator

from seq_io.reference.issues import format_path
from seq_io.reference.wire import parse_json_text
from seq_io.runner.kinds import KINDS
from seq_io.runner.suite import SuiteCase
from seq_io.runner.verdict import Verdict
from seq_io.vectors import CONFORMANCE

XFAIL_SCHEMA = CONFORMANCE / "schema" / "xfail.schema.json"
NEW_REASON = "TODO: explain"


class XfailError(Exception):
    """An expected-failure list that cannot be used: the message names the file and the JSON path."""


@dataclass(frozen=True)
class Entry:
    """One entry: exactly one of `id`, `group` (a shell-style pattern, as `--group` takes) or `kind`."""

    id: str | None
    reason: str
    error: str | None = None
    kind: str | None = None
    group: str | None = None

    @property
    def label(self) -> str:
        """How a message names the entry: the id, `kind rows_of` or `group schedule/windows/*`."""
        if self.kind is not None:
            return f"kind {self.kind}"
        if self.group is not None:
            return f"group {self.group}"
        return str(self.id)

    def covers(self, case: SuiteCase) -> bool:
        if self.kind is not None:
            return case.kind == self.kind
        if self.group is not None:
            return fnmatchcase(case.group, self.group) or fnmatchcase(case.group.rsplit("/", 1)[-1], self.group)
        return case.id == self.id

    def as_json(self) -> dict[str, str]:
        name = "kind" if self.kind is not None else "group" if self.group is not None else "id"
        out = {name: str(self.kind or self.group or self.id), "reason": self.reason}
        if self.error is not None:
            out["error"] = self.error
        return out


@dataclass
class ExpectedFailures:
    """A loaded list: its case entries by id, its kind and group entries (`patterns`, in file order), and the
    file's other members (`$schema`, `description`)."""

    entries: dict[str, Entry] = field(default_factory=dict)
    header: dict[str, Any] = field(default_factory=dict)
    patterns: list[Entry] = field(default_factory=list)

    def entry_for(self, case: SuiteCase) -> Entry | None:
        """The entry that governs `case`: its id's, else the first group entry covering it, else its kind's."""
        if case.id in self.entries:
            return self.entries[case.id]
        groups = [entry for entry in self.patterns if entry.group is not None and entry.covers(case)]
        kinds = [entry for entry in self.patterns if entry.kind is not None and entry.covers(case)]
        found = groups or kinds
        return found[0] if found else None

    def stale(self, suite: Sequence[SuiteCase]) -> list[str]:
        """Labels of the entries that name no case of the suite."""
        known = {case.id for case in suite}
        return [e.label for e in self.patterns if not any(e.covers(case) for case in suite)] + sorted(
            i for i in self.entries if i not in known
        )

    def all_entries(self) -> list[Entry]:
        """Every entry in the file's order: kinds, groups, then ids sorted."""
        kinds = [e for e in self.patterns if e.kind is not None]
        groups = [e for e in self.patterns if e.group is not None]
        return [*kinds, *groups, *(entry for _, entry in sorted(self.entries.items()))]


@cache
def _validator() -> Draft202012Validator:
    return Draft202012Validator(json.loads(XFAIL_SCHEMA.read_text(encoding="utf-8")))


def load(path: Path) -> ExpectedFailures:
    """Read and check a list; XfailError with file and JSON path when it is unusable."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise XfailError(f"{path}: cannot read the expected-failure list: {error}") from None
    value, issues = parse_json_text(text)
    if issues:
        raise XfailError(f"{path}: {issues[0].path}: {issues[0].message}")
    errors = sorted(_validator().iter_errors(value), key=lambda e: list(e.absolute_path))
    if errors:
        first = errors[0]
        raise XfailError(
            f"{path}: {format_path(list(first.absolute_path))}: {first.message} "
            f"(schema: {XFAIL_SCHEMA.relative_to(CONFORMANCE.parent)})"
        )
    loaded = ExpectedFailures(header={key: item for key, item in value.items() if key != "entries"})
    seen: set[str] = set()
    for index, item in enumerate(value["entries"]):
        entry = Entry(item.get("id"), item["reason"], item.get("error"), item.get("kind"), item.get("group"))
        if entry.kind is not None and entry.kind not in KINDS:
            raise XfailError(
                f"{path}: $.entries[{index}].kind: {entry.kind!r} is not a case kind; the kinds are {', '.join(KINDS)}"
            )
        if entry.label in seen:
            member = "kind" if entry.kind is not None else "group" if entry.group is not None else "id"
            raise XfailError(f"{path}: $.entries[{index}].{member}: {entry.label} is listed twice")
        seen.add(entry.label)
        if entry.id is not None:
            loaded.entries[entry.id] = entry
        else:
            loaded.patterns.append(entry)
    return loaded


def outcome(verdict: Verdict, entry: Entry | None) -> tuple[str, bool, str]:
    """(outcome, acceptable to the run, a note for the report) of one case. A skip is a failure unless an
    entry expects it: unlisted it is the outcome `skip`, not acceptable; listed it is an `xfail`."""
    if verdict.status == "error":
        return "error", False, ""
    if verdict.status == "pass":
        if entry is None:
            return "pass", True, ""
        return (
            "xpass",
            False,
            (
                f"unexpected pass: the expected-failure entry {entry.label} says "
                f"{entry.reason!r}; remove the entry (or narrow it)"
            ),
        )
    if entry is None:
        if verdict.status == "skip":
            return "skip", False, "skipped, and not in the expected-failure list (a skip is a failure unless expected)"
        return "fail", False, ""
    if entry.error is not None and (verdict.status != "fail" or verdict.rule != entry.error):
        how = (
            f"the refusal {verdict.rule}"
            if verdict.rule
            else ("a skip" if verdict.status == "skip" else "another failure")
        )
        return (
            "fail",
            False,
            (f"listed ({entry.label}) as failing with the refusal {entry.error}, but it failed with {how}"),
        )
    return "xfail", True, f"expected ({entry.label}): {entry.reason}"


def _expects(entry: Entry, verdict: Verdict) -> bool:
    """Whether `verdict` is the failure `entry` expects."""
    return verdict.status in ("fail", "skip") and (entry.error is None or verdict.rule == entry.error)


def _pinned(case_id: str, reason: str, verdict: Verdict | None, error: str | None) -> Entry:
    """A case entry for a failing (or not run) case: the refusal it failed with now, else `error`."""
    if verdict is not None and verdict.status in ("fail", "skip"):
        error = verdict.rule if verdict.status == "fail" else None
    return Entry(case_id, reason, error)


def _common_reason(entries: Iterable[Entry]) -> str:
    reasons = {entry.reason for entry in entries}
    return reasons.pop() if len(reasons) == 1 else NEW_REASON


def fixed(
    expected: ExpectedFailures, verdicts: Iterable[tuple[SuiteCase, Verdict]], suite: Sequence[SuiteCase]
) -> ExpectedFailures:
    """The list matching these verdicts.

    Passing cases leave it and failing ones join it (a new one with NEW_REASON, a kept one with its reason);
    cases not run and cases not judged (`error`) stay as they were; entries naming no case go. A group or kind
    entry stays while every case it governs that ran failed as it expects; otherwise it is replaced by case
    entries for the cases still failing (and those not run), keeping its reason. When every case of a kind ran
    and none passed, one kind entry replaces the case and group entries of that kind."""
    run = {case.id: verdict for case, verdict in verdicts if verdict.status != "error"}
    stale = set(expected.stale(suite))
    entries = {i: e for i, e in expected.entries.items() if i not in stale}
    before = ExpectedFailures(entries, patterns=[e for e in expected.patterns if e.label not in stale])
    patterns: list[Entry] = []
    for entry in before.patterns:
        governed = [case for case in suite if before.entry_for(case) is entry]
        if all(_expects(entry, run[case.id]) for case in governed if case.id in run):
            patterns.append(entry)
            continue
        for case in governed:
            verdict = run.get(case.id)
            if verdict is None or verdict.status != "pass":
                entries[case.id] = _pinned(case.id, entry.reason, verdict, entry.error)
    current = ExpectedFailures(entries, dict(expected.header), patterns)
    for case in suite:
        verdict = run.get(case.id)
        if verdict is None:
            continue
        governing = current.entry_for(case)
        if verdict.status == "pass":
            entries.pop(case.id, None)
        elif governing is None or governing.id is not None:
            kept = entries.get(case.id)
            entries[case.id] = _pinned(case.id, kept.reason if kept else NEW_REASON, verdict, None)
    for kind in KINDS:
        cases = [case for case in suite if case.kind == kind]
        if not cases or not all(case.id in run and run[case.id].status in ("fail", "skip") for case in cases):
            continue
        ids = {case.id for case in cases}
        replaced = [entries.pop(i) for i in sorted(ids & entries.keys())]
        inside = [e for e in patterns if all(c.id in ids for c in suite if e.covers(c))]
        replaced += inside
        patterns = [e for e in patterns if e not in inside]
        if not any(e.kind == kind for e in patterns):
            patterns.append(Entry(None, _common_reason(replaced), None, kind=kind))
    return ExpectedFailures(dict(sorted(entries.items())), dict(expected.header), patterns)


@cache
def schema_id() -> str:
    """The list schema's `$id`, which a new list names as its `$schema`: stable wherever the package is installed,
    where a path to conformance/schema/ would point into one virtualenv's site-packages."""
    return str(json.loads(XFAIL_SCHEMA.read_text(encoding="utf-8"))["$id"])


def dump(expected: ExpectedFailures) -> str:
    """The file's text: header members first (the file's own, kept as they are), then the entries (kinds, groups,
    ids sorted); a new file's header is `$schema`, the schema's `$id`."""
    header = dict(expected.header) or {"$schema": schema_id()}
    document = header | {"entries": [entry.as_json() for entry in expected.all_entries()]}
    return json.dumps(document, ensure_ascii=False, indent=1) + "\n"

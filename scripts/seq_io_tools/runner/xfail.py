"""An expected-failure list (a JSON file, conformance/schema/xfail.schema.json) + each case's verdict → the
case's outcome (pass, fail, xfail, xpass, skip, error) and whether the run may still succeed; and, for
`--fix`, the list rewritten so that it matches the run.

WHY it is shaped this way: like protobuf's conformance failure lists, the list is strict in both directions.
A case that starts to pass while listed fails the run until its entry is removed, so a fixed bug cannot hide
behind a stale entry; an entry with `error` pins how the case fails, so a regression from one refusal to
another is noticed too. Entries are kept sorted by id so that rewrites give small diffs.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from seq_io_ref.issues import format_path
from seq_io_ref.wire import parse_json_text

from seq_io_tools.runner.verdict import Verdict
from seq_io_tools.vectors import CONFORMANCE

XFAIL_SCHEMA = CONFORMANCE / "schema" / "xfail.schema.json"
NEW_REASON = "TODO: explain"


class XfailError(Exception):
    """An expected-failure list that cannot be used: the message names the file and the JSON path."""


@dataclass(frozen=True)
class Entry:
    id: str
    reason: str
    error: str | None = None

    def as_json(self) -> dict[str, str]:
        out = {"id": self.id, "reason": self.reason}
        if self.error is not None:
            out["error"] = self.error
        return out


@dataclass
class ExpectedFailures:
    """A loaded list: its entries by id, and the file's other members (`$schema`, `description`)."""

    entries: dict[str, Entry] = field(default_factory=dict)
    header: dict[str, Any] = field(default_factory=dict)

    def stale(self, known_ids: Iterable[str]) -> list[str]:
        """Listed ids that name no case of the suite."""
        known = set(known_ids)
        return sorted(i for i in self.entries if i not in known)


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
        raise XfailError(f"{path}: {format_path(list(first.absolute_path))}: {first.message} "
                         f"(schema: {XFAIL_SCHEMA.relative_to(CONFORMANCE.parent)})")
    entries: dict[str, Entry] = {}
    for index, item in enumerate(value["entries"]):
        if item["id"] in entries:
            raise XfailError(f"{path}: $.entries[{index}].id: {item['id']} is listed twice")
        entries[item["id"]] = Entry(item["id"], item["reason"], item.get("error"))
    return ExpectedFailures(entries, {key: item for key, item in value.items() if key != "entries"})


def outcome(verdict: Verdict, entry: Entry | None) -> tuple[str, bool, str]:
    """(outcome, acceptable to the run, a note for the report) of one case."""
    if verdict.status == "error":
        return "error", False, ""
    if verdict.status == "pass":
        if entry is None:
            return "pass", True, ""
        return "xpass", False, (f"unexpected pass: the expected-failure list says {entry.reason!r}; "
                                "remove the entry")
    if entry is None:
        if verdict.status == "skip":
            return "fail", False, "skipped, and not in the expected-failure list"
        return "fail", False, ""
    if entry.error is not None and (verdict.status != "fail" or verdict.rule != entry.error):
        how = f"the refusal {verdict.rule}" if verdict.rule else ("a skip" if verdict.status == "skip" else
                                                                   "another failure")
        return "fail", False, f"listed as failing with the refusal {entry.error}, but it failed with {how}"
    return ("skip" if verdict.status == "skip" else "xfail"), True, f"expected: {entry.reason}"


def fixed(expected: ExpectedFailures, verdicts: Iterable[tuple[str, Verdict]], known_ids: Iterable[str]
          ) -> ExpectedFailures:
    """The list matching these verdicts: passing cases leave it, failing ones join it (a new one with
    NEW_REASON, a kept one with its reason), cases not run and cases not judged (`error`) stay as they were,
    ids naming no case go."""
    stale = set(expected.stale(known_ids))
    entries = {i: e for i, e in expected.entries.items() if i not in stale}
    for case_id, verdict in verdicts:
        if verdict.status == "pass":
            entries.pop(case_id, None)
        elif verdict.status in ("fail", "skip"):
            kept = entries.get(case_id)
            entries[case_id] = Entry(case_id, kept.reason if kept else NEW_REASON,
                                     verdict.rule if verdict.status == "fail" else None)
    return ExpectedFailures(dict(sorted(entries.items())), dict(expected.header))


def dump(expected: ExpectedFailures, path: Path) -> str:
    """The file's text: header members first, then the entries sorted by id; `$schema` for a new file."""
    header = dict(expected.header) or {"$schema": os.path.relpath(XFAIL_SCHEMA, path.resolve().parent)}
    document = header | {"entries": [entry.as_json() for _, entry in sorted(expected.entries.items())]}
    return json.dumps(document, ensure_ascii=False, indent=1) + "\n"

"""accepted-changes.yaml at the head's repository root → the entries that accept findings by fingerprint, and a
warning for each entry that accepts nothing (stale, expired, or for another contract version).

WHY a file in the repository: an intentional break is approved once, in review, by the people the entry names,
and stays approved while the finding's facts stay the same (its fingerprint, `fingerprint`); the approval is
versioned with the change it approves. The file's shape is the JSON Schema that ships beside this module
(accepted-changes.schema.json), and a file that does not meet it stops the review (exit 2) with its file, line,
JSON path and the rule it breaks, because a typo in an approval must never pass silently. An entry that matches no
finding is a warning only: the finding it approved has gone, which is good news, and the entry can be removed.
"""

from __future__ import annotations

import datetime
import functools
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from jsonschema import Draft202012Validator

from seq_io.bump_review.places import repository_root
from seq_io.bump_review.snapshot import InputError, Snapshot
from seq_io.reference.issues import format_path
from seq_io.strict_yaml import YamlError, load_file

FILE_NAME = "accepted-changes.yaml"
SCHEMA = Path(__file__).with_name("accepted-changes.schema.json")
Status = Literal["stale", "expired", "other-version"]


@dataclass(frozen=True)
class Entry:
    """One approved finding, with the line it stands on."""

    index: int
    line: int
    fingerprint: str
    reason: str
    approved_by: str
    expires: datetime.date | None = None
    version: str | None = None


@dataclass(frozen=True)
class Warning_:
    """An entry that accepts nothing in this review, and why."""

    entry: Entry
    status: Status

    @property
    def sentence(self) -> str:
        e = self.entry
        return {
            "stale": f"matches no finding of this review (remove it: the finding {e.fingerprint} has gone)",
            "expired": f"expired on {e.expires}: it accepts nothing any more",
            "other-version": f"is for contract {e.version}, not this head's: it accepts nothing here",
        }[self.status]


@dataclass
class AcceptList:
    """The head's accept list (`file` relative to the head's repository root; no entries when it has none)."""

    file: str = FILE_NAME
    entries: list[Entry] = field(default_factory=list)
    present: bool = False


@functools.cache
def _validator() -> Draft202012Validator:
    return Draft202012Validator(json.loads(SCHEMA.read_text(encoding="utf-8")))


def _problem(file: str, line: int, path: list[str | int], rule: str, message: str) -> InputError:
    return InputError(f"{file}:{line}: {format_path(path)}: {rule}: {message}")


def parse(path: Path, file: str) -> list[Entry]:
    """Read and check one accept list; InputError (file, line, JSON path, rule, sentence) when it is malformed."""
    try:
        loaded = load_file(path)
    except YamlError as error:
        raise _problem(file, error.line, [], "yaml", error.message) from None
    except (OSError, UnicodeDecodeError) as error:
        raise _problem(file, 1, [], "readable", f"cannot read the file: {error}") from None
    value: Any = loaded.value
    errors = sorted(_validator().iter_errors(value), key=lambda e: (list(map(str, e.absolute_path)), e.validator))
    if errors:
        first = errors[0]
        where = list(first.absolute_path)
        if first.validator == "additionalProperties" and isinstance(first.instance, dict):
            known = first.schema.get("properties", {})
            where += sorted(key for key in first.instance if key not in known)[:1]  # the line of the unknown member
        raise _problem(file, loaded.line_of(tuple(where)), where, str(first.validator), first.message)
    entries: list[Entry] = []
    seen: dict[str, int] = {}
    for index, item in enumerate(value["accepted"]):
        line = loaded.line_of(("accepted", index))
        expires = None
        if "expires" in item:
            try:
                expires = datetime.date.fromisoformat(item["expires"])
            except ValueError:
                where = ["accepted", index, "expires"]
                raise _problem(
                    file, loaded.line_of(tuple(where)), where, "format", f"{item['expires']!r} is not a date"
                ) from None
        if item["fingerprint"] in seen:
            where = ["accepted", index, "fingerprint"]
            raise _problem(
                file,
                loaded.line_of(tuple(where)),
                where,
                "unique-fingerprint",
                f"{item['fingerprint']} is already accepted by entry {seen[item['fingerprint']]}",
            )
        seen[item["fingerprint"]] = index
        entries.append(
            Entry(index, line, item["fingerprint"], item["reason"], item["approved_by"], expires, item.get("version"))
        )
    return entries


def load(head: Snapshot) -> AcceptList:
    """The accept list at the head's repository root (`places.repository_root`), or an empty one."""
    root = repository_root(head)
    path = root / FILE_NAME
    if not path.is_file():
        return AcceptList()
    return AcceptList(FILE_NAME, parse(path, FILE_NAME), True)


def today() -> datetime.date:
    return datetime.datetime.now(datetime.UTC).date()


def judge(
    accept_list: AcceptList, fingerprints: set[str], version: str, on: datetime.date
) -> tuple[dict[str, Entry], list[Warning_]]:
    """The entries that accept a finding of this review (by fingerprint) and a warning for every other entry."""
    accepted: dict[str, Entry] = {}
    warnings: list[Warning_] = []
    for entry in accept_list.entries:
        if entry.version is not None and entry.version != version:
            warnings.append(Warning_(entry, "other-version"))
        elif entry.expires is not None and entry.expires < on:
            warnings.append(Warning_(entry, "expired"))
        elif entry.fingerprint not in fingerprints:
            warnings.append(Warning_(entry, "stale"))
        else:
            accepted[entry.fingerprint] = entry
    return accepted, warnings

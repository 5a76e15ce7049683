"""A failing case of a report → what the page shows of it: the request the runner sent, the vector's `why`,
expected against got, and the run's own detail; whatever the report lacks is looked up in the vector file it
names, loaded once per file.

WHY a lookup rather than asking the report to hold everything: a report stays small (only what went wrong), and
the vectors are the one place where a case's input and reason are written; a report from another machine whose
vector file is not here still shows what it holds, with the lookup's failure said in words.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from seq_io import locate
from seq_io.runner.compare import request
from seq_io.runner.kinds import TABLE
from seq_io.runner.suite import SuiteCase, suite_cases
from seq_io.vectors import load_vector_file

MAX_SHOWN_CHARS = 4000
"""A value longer than this (as JSON text) is cut, with the number of characters left out said."""


@dataclass(frozen=True)
class Shown:
    """A failing case as the page and the comparison show it: every field is plain text, not yet escaped."""

    id: str
    kind: str
    group: str
    outcome: str
    where: str
    why: str
    request: str
    differences: list[tuple[str, str, str]]
    detail: str
    note: str


def as_text(value: Any) -> str:
    """A JSON value as indented text, cut at MAX_SHOWN_CHARS."""
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, indent=1, sort_keys=True)
    if len(text) > MAX_SHOWN_CHARS:
        return f"{text[:MAX_SHOWN_CHARS]}… ({len(text) - MAX_SHOWN_CHARS} more characters)"
    return text


class Vectors:
    """The vector cases named by reports, read file by file on first need."""

    def __init__(self) -> None:
        self._files: dict[Path, dict[str, SuiteCase] | str] = {}

    def _file(self, name: str) -> dict[str, SuiteCase] | str:
        root = locate.data_root().resolve()
        path = (root / name).resolve()
        if not path.is_relative_to(root) or path.suffix != ".yaml":
            return f"{name} is not a vector file of this package"
        if path not in self._files:
            if not path.is_file():
                self._files[path] = f"{name} is not in this package (a report from another version?)"
            else:
                loaded, problems = load_vector_file(path)
                if loaded is None:
                    self._files[path] = f"{name} cannot be read: {problems[0]}"
                else:
                    self._files[path] = {c.case.id: c for c in suite_cases([loaded])}
        return self._files[path]

    def lookup(self, case: dict[str, Any]) -> tuple[str, str]:
        """The case's `why` and the request the runner sends for it, or a sentence why they are not known."""
        found = self._file(str(case["file"]))
        if isinstance(found, str):
            return found, found
        suite_case = found.get(str(case["id"]))
        if suite_case is None:
            missing = f"{case['id']} is not in {case['file']} here (a report from another version?)"
            return missing, missing
        if suite_case.kind not in TABLE:
            return suite_case.why, "(a kind this runner does not know)"
        return suite_case.why, as_text(request(suite_case))


def shown(case: dict[str, Any], vectors: Vectors) -> Shown:
    """What the page shows of one case: the report's own fields first, the vector's for what it lacks."""
    why, sent = (case.get("why"), case.get("request", case.get("request_excerpt")))
    if not isinstance(why, str) or sent is None:
        found_why, found_request = vectors.lookup(case)
        why = why if isinstance(why, str) else found_why
        sent = found_request if sent is None else sent
    differences = [
        (
            str(d.get("at", "$")),
            as_text(d["expected"]) if "expected" in d else str(d.get("expected_excerpt", "(absent)")),
            as_text(d["got"]) if "got" in d else str(d.get("got_excerpt", "(absent)")),
        )
        for d in case.get("differences", [])
        if isinstance(d, dict)
    ]
    extra = case.get("more_differences")
    if isinstance(extra, int):
        differences.append(("…", f"{extra} more differences", ""))
    detail = str(case.get("detail", ""))
    output = case.get("testee_output")
    if isinstance(output, dict):
        detail += "".join(f"\n{k}: {as_text(v)}" for k, v in output.items() if v)
    entry = case.get("expected_failure")
    note = str(case.get("note", ""))
    if isinstance(entry, dict) and entry.get("reason"):
        note = f"{note} (listed: {entry['reason']})".strip()
    return Shown(
        id=str(case["id"]),
        kind=str(case["kind"]),
        group=str(case["group"]),
        outcome=str(case["outcome"]),
        where=f"{case['file']}:{case.get('line', 1)}",
        why=why,
        request=sent if isinstance(sent, str) else as_text(sent),
        differences=differences,
        detail=as_text(detail) if detail else "",
        note=as_text(note) if note else "",
    )

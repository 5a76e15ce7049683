"""A finished run (`Report`: one `Record` per case + run-level problems) → the human summary, JUnit XML,
TAP 14 and the JSON report (conformance/schema/report.schema.json).

WHY it is shaped this way: each format is a pure function of the same `Report`, so they cannot disagree, and
the run's verdict is one number: `failed` counts the cases that are not acceptable (fail, xpass, an unlisted
skip, error) plus each run-level problem (a vector file that could not be read, an expected-failure entry naming
no case, a testee that did not end cleanly); the exit code is 0 exactly when it is 0. The summary reads like
pytest's: the failures in full first (fail, xpass, error), then the skips and the cases not run, each kind of
those in one line however many there are, and a last line counting every outcome that occurred and the run's
wall time ("3 failed, 40 passed, 2 xfailed in 1.20 s"). Text from a testee can hold anything, so it is cut to
size, in XML stripped of what XML 1.0 cannot carry, and on the console written with its control characters
escaped (`printable`).
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any
from xml.etree import ElementTree

from seq_io.runner.kinds import KINDS
from seq_io.runner.protocol import PROTOCOL, Printed
from seq_io.runner.suite import SuiteCase
from seq_io.runner.verdict import ABSENT, Difference, Verdict, differences_text, show
from seq_io.runner.xfail import Entry

OUTCOMES = ("pass", "fail", "xfail", "xpass", "skip", "error")
EXCERPT = 2000
"""Characters of a value's JSON text the JSON report carries for one difference."""
REPORT_VERSION = 1
_STDERR_LINES = 12
REQUEST_SHOWN = 500
"""Characters of the request a failure shows in the summary (the JSON report carries EXCERPT)."""
_LISTED_IDS = 3
"""Ids named in the one line that stands for many skipped (or not run) cases."""


@dataclass(frozen=True)
class Record:
    """One case's verdict judged against the expected-failure list."""

    case: SuiteCase
    verdict: Verdict
    outcome: str
    ok: bool
    note: str = ""
    entry: Entry | None = None
    seconds: float = 0.0
    request: dict[str, Any] | None = None
    """The message sent to the testee (None: none was); the reports show it for an unacceptable case."""


@dataclass(frozen=True)
class Problem:
    """Something wrong with the run as a whole. `source`: suite, expected-failures or session."""

    source: str
    message: str


@dataclass
class Report:
    contract_version: str
    command: list[str] | None
    implementation: tuple[str, str] | None
    kinds: tuple[str, ...]
    expected_failures: str | None
    records: list[Record] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    seconds: float = 0.0
    not_in_contract: tuple[str, ...] = ()
    """The kinds the runner knows that `contract_version` does not have (its release has no vectors of them):
    not run, and not failures."""

    @property
    def passed(self) -> int:
        return sum(record.outcome == "pass" for record in self.records)

    @property
    def failed(self) -> int:
        return sum(not record.ok for record in self.records) + len(self.problems)

    @property
    def ok(self) -> bool:
        return self.failed == 0

    def label(self) -> str:
        name = " ".join(self.implementation) if self.implementation else "(no handshake)"
        return name if self.command is None else f"{name}: {' '.join(self.command)}"


def counts(records: Iterable[Record]) -> dict[str, int]:
    tally = Counter(record.outcome for record in records)
    return {"cases": sum(tally.values()), **{name: tally[name] for name in OUTCOMES}}


def _by(records: list[Record], key: str) -> dict[str, list[Record]]:
    out: dict[str, list[Record]] = {}
    for record in records:
        name = record.case.kind if key == "kind" else record.case.group
        out.setdefault(name, []).append(record)
    return out


def _printed_text(printed: Printed | None) -> str:
    if not printed:
        return ""
    parts = []
    if printed.exit:
        parts.append(f"the testee ended: {printed.exit}")
    if printed.stdout:
        parts.append(f"testee stdout: {printed.stdout!r}")
    if printed.stderr:
        parts.append("testee stderr (tail):\n" + printed.stderr)
    return "\n".join(parts)


def _own_detail(verdict: Verdict) -> str:
    """The verdict's sentence when it says more than its list of differences ("" when it does not)."""
    if verdict.differences and verdict.detail == differences_text(verdict.differences, verdict.more):
        return ""
    return verdict.detail


def _diff_lines(difference: Difference) -> list[str]:
    return [
        f"  at {difference.at}{difference.note}",
        f"    expected: {show(difference.expected)}",
        f"    got:      {show(difference.got)}",
    ]


def _differences_lines(verdict: Verdict) -> list[str]:
    lines = [line for difference in verdict.differences for line in _diff_lines(difference)]
    if verdict.more:
        lines.append(
            f"  … and {verdict.more} more difference{'s' if verdict.more > 1 else ''} "
            f"(the first {len(verdict.differences)} are shown)"
        )
    return lines


def failure_text(record: Record) -> str:
    """Everything a person needs about a case that is not acceptable, as plain text."""
    verdict = record.verdict
    lines = [line for line in (record.note, _own_detail(verdict)) if line]
    lines += _differences_lines(verdict)
    printed = _printed_text(verdict.printed)
    return "\n".join([*lines, printed] if printed else lines)


# -- human summary ------------------------------------------------------------------------------------------


def _row(name: str, width: int, tally: dict[str, int]) -> str:
    return f"{name:<{width}}{tally['cases']:>7}" + "".join(f"{tally[n]:>7}" for n in OUTCOMES)


def _failure_block(record: Record) -> list[str]:
    case = record.case
    lines = [f"{record.outcome.upper()} {case.id}  [{case.group}]  {case.where}"]
    if case.why:
        lines.append(f"  why: {case.why}")
    if record.request is not None:
        lines.append(f"  request: {show(record.request, REQUEST_SHOWN)}")
    if record.note:
        lines.append(f"  {record.note}")
    if _own_detail(record.verdict):
        lines.append(f"  {record.verdict.detail}")
    lines += _differences_lines(record.verdict)
    printed = record.verdict.printed
    if printed:
        if printed.exit:
            lines.append(f"  the testee ended: {printed.exit}")
        if printed.stdout:
            lines.append(f"  testee stdout: {printed.stdout[:400]!r}")
        if printed.stderr:
            tail = printed.stderr.rstrip("\n").splitlines()[-_STDERR_LINES:]
            lines += ["  testee stderr (last lines):", *(f"  | {line}" for line in tail)]
    return lines


_UNPRINTABLE = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]")


def printable(text: str) -> str:
    """`text` safe for a terminal: control characters (NUL, BEL, ESC, C1 controls, line separators) and bidi
    controls written as \\xNN / \\uNNNN escapes, so that a testee's output cannot move the cursor, ring the
    bell, recolour or reorder what follows."""

    def escaped(match: re.Match[str]) -> str:
        code = ord(match.group())
        return f"\\x{code:02x}" if code < 256 else f"\\u{code:04x}"

    return _UNPRINTABLE.sub(escaped, text)


_LISTED_FIRST = {"fail": 0, "xpass": 1, "error": 2}
"""The order failures are listed in: wrong answers first, then unexpected passes, then cases that could not be
asked. Skips and cases not run follow, one line per reason (`_in_one_line`)."""


def _in_one_line(label: str, records: list[Record]) -> list[str]:
    """Records that share a reason (a skipped kind, the reason the run stopped) → one line per reason."""
    by_reason: dict[str, list[Record]] = {}
    for record in records:
        by_reason.setdefault(record.verdict.detail.removeprefix("not run: "), []).append(record)
    lines = []
    for reason, alike in by_reason.items():
        ids = ", ".join(record.case.id for record in alike[:_LISTED_IDS])
        more = f" and {len(alike) - _LISTED_IDS} more" if len(alike) > _LISTED_IDS else ""
        lines.append(f"{label} {len(alike)} case{'s' if len(alike) > 1 else ''} ({ids}{more}): {reason}")
    return lines


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def final_line(report: Report) -> str:
    """The summary's last line, as pytest writes it: every outcome that occurred, in pytest's order, and the
    wall time ("1 failed, 40 passed, 3 skipped, 2 xfailed, 1 xpassed, 2 errors, 5 not run, 1 run problem in
    1.20 s"); "no cases ran" when there was nothing."""
    tally = Counter("not run" if r.verdict.not_run else r.outcome for r in report.records)
    parts = [
        f"{tally['fail']} failed" if tally["fail"] else "",
        f"{tally['pass']} passed" if tally["pass"] else "",
        f"{tally['skip']} skipped" if tally["skip"] else "",
        f"{tally['xfail']} xfailed" if tally["xfail"] else "",
        f"{tally['xpass']} xpassed" if tally["xpass"] else "",
        _plural(tally["error"], "error") if tally["error"] else "",
        f"{tally['not run']} not run" if tally["not run"] else "",
        _plural(len(report.problems), "run problem") if report.problems else "",
    ]
    counted = ", ".join(part for part in parts if part) or "no cases ran"
    return f"{counted} in {report.seconds:.2f} s"


def _tables(report: Report) -> list[str]:
    records = report.records
    lines = [
        f"iospec run: {report.label()}",
        f"protocol {PROTOCOL}, contract {report.contract_version}, {len(records)} cases"
        + (f", expected failures: {report.expected_failures}" if report.expected_failures else ""),
    ]
    if report.not_in_contract:
        absent = ", ".join(report.not_in_contract)
        lines.append(f"not in contract {report.contract_version} (not run, not failures): {absent}")
    kinds = _by(records, "kind")
    header = f"{'kind':<12}{'cases':>7}" + "".join(f"{n:>7}" for n in OUTCOMES)
    lines += [
        "",
        header,
        *(_row(kind, 12, counts(kinds[kind])) for kind in KINDS if kind in kinds),
        _row("all", 12, counts(records)),
    ]
    unlisted = set(kinds) - set(report.kinds) if report.kinds else set()  # their groups: the kind's row says it
    groups = {name: group for name, group in _by(records, "group").items() if group[0].case.kind not in unlisted}
    uneven = {name: group for name, group in groups.items() if any(r.outcome != "pass" for r in group)}
    if unlisted:
        lines.append(f"(kinds the testee does not list, so not sent: {', '.join(k for k in KINDS if k in unlisted)})")
    if uneven:
        width = max(12, *(len(name) + 2 for name in uneven))
        lines += [
            "",
            f"{'group':<{width}}{'cases':>7}" + "".join(f"{n:>7}" for n in OUTCOMES),
            *(_row(name, width, counts(group)) for name, group in uneven.items()),
        ]
    if len(groups) > len(uneven):
        passed = len(groups) - len(uneven)
        lines.append(f"({passed} {'other ' if uneven else ''}group{'s' if passed > 1 else ''}: every case passed)")
    return lines


def summary(report: Report, show_failures: int = 20, *, quiet: bool = False) -> str:
    """The text printed at the end of a run: the counts by kind and by group (not with `quiet`), the failures
    in full (at most `show_failures`), skips and cases not run one line per reason, the run problems, and
    `final_line`."""
    records = report.records
    lines = [] if quiet else _tables(report)
    bad = sorted(
        (r for r in records if not r.ok and r.outcome in _LISTED_FIRST and not r.verdict.not_run),
        key=lambda r: _LISTED_FIRST[r.outcome],
    )
    if bad:
        shown = bad[: max(0, show_failures)]
        lines += [
            "",
            f"first {len(shown)} of {len(bad)} failing cases (--show N for more):"
            if len(shown) < len(bad)
            else f"{len(bad)} failing case(s):",
        ]
        for record in shown:
            lines += _failure_block(record)
    skipped = [r for r in records if r.outcome == "skip"]
    not_run = [r for r in records if r.verdict.not_run]
    if skipped or not_run:
        lines += ["", *_in_one_line("SKIPPED", skipped), *_in_one_line("NOT RUN", not_run)]
    if report.problems:
        lines += [
            "",
            "run problems (each counts as one failure):",
            *(f"  {problem.source}: {problem.message}" for problem in report.problems),
        ]
    if skipped and not quiet:
        lines += [
            "",
            f"{len(skipped)} skipped case(s) count as failures: a skip is a failure unless the expected-"
            "failure list names it (--xfail FILE --fix writes the list)",
        ]
    lines += ["", final_line(report)]
    return "\n".join(printable(line) for line in lines).lstrip("\n") + "\n"


# -- JUnit XML ----------------------------------------------------------------------------------------------

_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _xml(text: str) -> str:
    """Text XML 1.0 can carry: other characters become \\xNN / \\uNNNN."""

    def escaped(match: re.Match[str]) -> str:
        code = ord(match.group())
        return f"\\x{code:02x}" if code < 256 else f"\\u{code:04x}"

    return _NOT_XML.sub(escaped, text)


def _first_line(text: str, limit: int = 200) -> str:
    line = text.strip().split("\n", 1)[0]
    return line if len(line) <= limit else line[:limit] + "…"


def _suite_attributes(records: list[Record], name: str) -> dict[str, str]:
    tally = counts(records)
    return {
        "name": _xml(name),
        "tests": str(tally["cases"]),
        "failures": str(tally["fail"] + tally["xpass"] + tally["skip"]),
        "errors": str(tally["error"]),
        "skipped": str(tally["xfail"]),
        "time": f"{sum(r.seconds for r in records):.3f}",
    }


def _testcase(parent: ElementTree.Element, record: Record) -> None:
    case = record.case
    element = ElementTree.SubElement(
        parent,
        "testcase",
        {
            "name": case.id,
            "classname": _xml(case.group.replace("/", ".")),
            "file": _xml(case.case.file),
            "line": str(case.case.line),
            "time": f"{record.seconds:.3f}",
        },
    )
    text = _xml(failure_text(record))
    if record.outcome in ("fail", "xpass", "skip"):  # an unlisted skip fails the run, so CI must see it fail
        failure = ElementTree.SubElement(element, "failure", {"type": record.outcome, "message": _first_line(text)})
        failure.text = text
    elif record.outcome == "error":
        error = ElementTree.SubElement(element, "error", {"type": "error", "message": _first_line(text)})
        error.text = text
    elif record.outcome == "xfail":
        ElementTree.SubElement(element, "skipped", {"type": "xfail", "message": _xml(_first_line(record.note))})
    printed = record.verdict.printed
    if printed and printed.stderr:
        ElementTree.SubElement(element, "system-err").text = _xml(printed.stderr)


def junit(report: Report) -> str:
    """JUnit XML: a <testsuite> per vector file, a <testcase> per case, run problems in a suite apart."""
    root = ElementTree.Element("testsuites", _suite_attributes(report.records, "iospec run"))
    root.set("failures", str(int(root.get("failures", "0")) + len(report.problems)))
    by_file: dict[str, list[Record]] = {}
    for record in report.records:
        by_file.setdefault(record.case.case.file, []).append(record)
    for file, records in by_file.items():
        suite = ElementTree.SubElement(root, "testsuite", _suite_attributes(records, file))
        for record in records:
            _testcase(suite, record)
    if report.problems:
        total = str(len(report.problems))
        suite = ElementTree.SubElement(
            root,
            "testsuite",
            {"name": "run problems", "tests": total, "failures": total, "errors": "0", "skipped": "0", "time": "0"},
        )
        for index, problem in enumerate(report.problems, 1):
            element = ElementTree.SubElement(
                suite, "testcase", {"name": f"problem-{index}", "classname": f"run.{problem.source}"}
            )
            failure = ElementTree.SubElement(
                element, "failure", {"type": problem.source, "message": _xml(_first_line(problem.message))}
            )
            failure.text = _xml(problem.message)
    ElementTree.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ElementTree.tostring(root, encoding="unicode") + "\n"


# -- TAP 14 -------------------------------------------------------------------------------------------------


def _directive_text(text: str) -> str:
    return " ".join(text.split()).replace("\\", "\\\\").replace("#", "\\#")


def _yaml_block(values: dict[str, Any]) -> list[str]:
    """A TAP diagnostic block; every value is written as JSON, which YAML reads unchanged."""
    return ["  ---", *(f"  {key}: {json.dumps(value, ensure_ascii=False)}" for key, value in values.items()), "  ..."]


def tap(report: Report) -> str:
    lines = ["TAP version 14", f"1..{len(report.records) + len(report.problems)}"]
    for number, record in enumerate(report.records, 1):
        case = record.case
        title = f"{case.id} - {_directive_text(case.group)}"
        if record.outcome == "pass":
            lines.append(f"ok {number} - {title}")
        elif record.outcome == "xfail":
            lines.append(f"not ok {number} - {title} # TODO {_directive_text(record.note)}")
        else:
            lines.append(f"not ok {number} - {title}")
            lines += _yaml_block(
                {"outcome": record.outcome, "message": failure_text(record), "at": f"{case.case.file}:{case.case.line}"}
            )
    for number, problem in enumerate(report.problems, len(report.records) + 1):
        lines.append(f"not ok {number} - run problem ({problem.source})")
        lines += _yaml_block({"message": problem.message})
    return "\n".join(lines) + "\n"


# -- JSON ---------------------------------------------------------------------------------------------------


def _value_json(out: dict[str, Any], name: str, value: Any) -> None:
    """`value` under `name`, or, when its JSON text is longer than EXCERPT, the start of that text under
    `<name>_excerpt` (a failure report must not grow with a testee's answer)."""
    if value is ABSENT:
        return
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=repr)
    if len(text) <= EXCERPT:
        out[name] = value
    else:
        out[f"{name}_excerpt"] = text[:EXCERPT] + "…"


def _difference_json(difference: Difference) -> dict[str, Any]:
    out: dict[str, Any] = {"at": difference.at}
    _value_json(out, "expected", difference.expected)
    _value_json(out, "got", difference.got)
    if difference.note:
        out["note"] = difference.note.strip(" ()")
    return out


def _case_json(record: Record) -> dict[str, Any]:
    case, verdict = record.case, record.verdict
    out: dict[str, Any] = {
        "id": case.id,
        "kind": case.kind,
        "file": case.case.file,
        "line": case.case.line,
        "group": case.group,
        "status": verdict.status,
        "outcome": record.outcome,
        "ok": record.ok,
        "seconds": round(record.seconds, 6),
    }
    if verdict.detail:
        out["detail"] = verdict.detail
    if not record.ok and case.why:
        out["why"] = case.why
    if record.request is not None and not record.ok:
        _value_json(out, "request", record.request)
    if record.note:
        out["note"] = record.note
    if verdict.rule is not None:
        out["rule"] = verdict.rule
    if record.entry is not None:
        out["expected_failure"] = record.entry.as_json()
    if verdict.differences:
        out["differences"] = [_difference_json(d) for d in verdict.differences]
    if verdict.more:
        out["more_differences"] = verdict.more
    if verdict.printed:
        printed = verdict.printed
        out["testee_output"] = {"stdout": printed.stdout, "stderr": printed.stderr}
        if printed.exit:
            out["testee_output"]["exit"] = printed.exit
    return out


def as_json(report: Report) -> dict[str, Any]:
    """The JSON report (conformance/schema/report.schema.json)."""
    kinds, groups = _by(report.records, "kind"), _by(report.records, "group")
    return {
        "report_version": REPORT_VERSION,
        "protocol": PROTOCOL,
        "contract_version": report.contract_version,
        "testee": {
            "command": report.command,
            "name": report.implementation[0] if report.implementation else None,
            "version": report.implementation[1] if report.implementation else None,
            "kinds": list(report.kinds),
        },
        "expected_failures": report.expected_failures,
        **({"not_in_contract": list(report.not_in_contract)} if report.not_in_contract else {}),
        "seconds": round(report.seconds, 3),
        "ok": report.ok,
        "passed": report.passed,
        "failed": report.failed,
        "totals": counts(report.records),
        "kinds": [{"kind": kind, **counts(kinds[kind])} for kind in KINDS if kind in kinds],
        "groups": [
            {"group": name, "kind": group[0].case.kind, "file": group[0].case.case.file, **counts(group)}
            for name, group in groups.items()
        ],
        "cases": [_case_json(record) for record in report.records],
        "problems": [{"source": problem.source, "message": problem.message} for problem in report.problems],
    }


def json_text(report: Report) -> str:
    return json.dumps(as_json(report), ensure_ascii=False, indent=1, default=repr) + "\n"

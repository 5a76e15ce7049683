"""A finished run (`Report`) → what a GitHub Actions job shows of it: one `::error` workflow command per case that is
not acceptable, at its vector's file and line (`--annotations github`), and a Markdown summary for the job's
summary page (`--summary-md FILE`, or $GITHUB_STEP_SUMMARY).

WHY it is shaped this way: a CI engineer reads a failing run on the pull request, not in the log. GitHub shows only
the first few error annotations of a step (10 today), so the cases that failed come before the skips, which a
partial implementation without an expected-failure list has by the hundred. An annotation names a file relative to
the folder the run started from (the checkout, where GitHub finds it); a vector outside it (the installed wheel's)
gets no file, its path in the message instead. The escaping is the one rule of seq_io.workflow_commands. The
summary is bounded (`SUMMARY_BYTES`; GitHub refuses a step summary over 1 MiB) and every text from a testee or a
vector in it is a code span or escaped, so it cannot turn into markup.
"""

from __future__ import annotations

import re
from pathlib import Path

from seq_io.runner.kinds import KINDS
from seq_io.runner.reports import OUTCOMES, Record, Report, counts, failure_text, printable
from seq_io.runner.suite import openable
from seq_io.runner.verdict import show
from seq_io.workflow_commands import command

SUMMARY_BYTES = 256 * 1024
"""The most the Markdown summary takes (GitHub's cap for a whole step is 1 MiB, shared with the step's other
commands); the failing cases that do not fit are counted, not listed."""
MESSAGE_CHARS = 3000
"""The most an annotation's message takes: the first lines of a failure say what matters."""
CODE_CHARS = 160
"""The most a value takes in the summary (the JSON report has it whole)."""
_FIRST = {"fail": 0, "error": 0, "xpass": 0}
"""Outcomes shown before the others (skips): what an implementation did wrong, not what it has not done yet."""


def _rank(record: Record) -> int:
    return _FIRST.get(record.outcome, 1)


def unacceptable(report: Report) -> list[Record]:
    """The cases that fail the run, those that failed before those skipped (otherwise in run order)."""
    return sorted((record for record in report.records if not record.ok), key=_rank)


def annotation_file(file: str) -> str | None:
    """A vector file as GitHub finds it: relative to the current folder (the checkout), or None when it lies
    outside (`openable` then names it absolute)."""
    path = openable(file)
    return None if Path(path).is_absolute() else Path(path).as_posix()


def _message(record: Record, file: str | None) -> str:
    case = record.case
    lines = [f"{record.outcome.upper()} {case.id} [{case.group}]"]
    if file is None:
        lines.append(f"vector: {case.where}")
    lines += [failure_text(record)[:MESSAGE_CHARS]]
    if case.why:
        lines.append(f"why: {case.why.strip()}")
    return "\n".join(printable(line) for text in lines for line in text.split("\n") if line)


def error_commands(report: Report) -> str:
    """One `::error` line per case that is not acceptable, then one per run-level problem."""
    lines = []
    for record in unacceptable(report):
        file = annotation_file(record.case.case.file)
        title = f"iospec run: {record.case.id} {record.outcome}"
        line = record.case.case.line if file else None
        lines.append(command("error", _message(record, file), file=file, line=line, title=title))
    lines += [
        command("error", printable(problem.message), title=f"iospec run: run problem ({problem.source})")
        for problem in report.problems
    ]
    return "".join(line + "\n" for line in lines)


# -- Markdown -----------------------------------------------------------------------------------------------

_MARKUP = re.compile(r"([\\`*_\[\]<>#|~!&])")


def _text(text: str) -> str:
    """Plain text in Markdown: one line, every character that could start markup escaped."""
    return _MARKUP.sub(r"\\\1", printable(" ".join(text.split())))


def _code(text: str, limit: int = CODE_CHARS) -> str:
    """A code span holding `text` on one line, cut to `limit` characters; its fence outlasts any backticks inside."""
    flat = printable(" ".join(text.split()))
    flat = flat if len(flat) <= limit else flat[:limit] + "…"
    fence = "`" * (max((len(run) for run in re.findall(r"`+", flat)), default=0) + 1)
    return f"{fence} {flat} {fence}" if flat.startswith("`") or flat.endswith("`") else f"{fence}{flat}{fence}"


def _table(report: Report) -> list[str]:
    header = ["kind", "cases", *OUTCOMES]
    rows = [
        "| " + " | ".join(header) + " |",
        "|---|" + "---:|" * (len(header) - 1),
    ]
    for kind in KINDS:
        records = [record for record in report.records if record.case.kind == kind]
        if records:
            tally = counts(records)
            rows.append(f"| {kind} | {tally['cases']} | " + " | ".join(str(tally[o]) for o in OUTCOMES) + " |")
    tally = counts(report.records)
    rows.append(f"| **all** | {tally['cases']} | " + " | ".join(str(tally[o]) for o in OUTCOMES) + " |")
    return rows


def _case_lines(record: Record) -> list[str]:
    case, verdict = record.case, record.verdict
    lines = [f"- **{record.outcome}** {_code(case.id)} ({_code(case.where)})"]
    for difference in verdict.differences[:3]:
        lines.append(
            f"  - at {_code(difference.at)}: expected {_code(show(difference.expected))}, "
            f"got {_code(show(difference.got))}"
        )
    if verdict.more:
        lines.append(f"  - … and {verdict.more} more difference(s)")
    said = "; ".join(text for text in (record.note, verdict.detail) if text)
    if said and not verdict.differences:
        lines.append(f"  - {_code(said, 400)}")
    if case.why:
        lines.append(f"  - why: {_text(case.why[:600])}")
    return lines


def summary_markdown(report: Report, limit: int = SUMMARY_BYTES) -> str:
    """The run for a job summary: the verdict, counts per kind, then the cases that fail it (as many as `limit`
    bytes hold) and the run-level problems."""
    name = " ".join(report.implementation) if report.implementation else "(no handshake)"
    verdict = "passed" if report.ok else "FAILED"
    lines = [
        f"## iospec run: {_text(name)} — contract {report.contract_version}: {verdict}",
        "",
        f"**{report.passed} passed, {report.failed} failed**"
        + (f" (expected failures: {_code(report.expected_failures)})" if report.expected_failures else ""),
        "",
        *_table(report),
    ]
    if report.not_in_contract:
        absent = ", ".join(report.not_in_contract)
        lines += ["", f"Not in contract {report.contract_version} (not run, not failures): {absent}."]
    tail: list[str] = []
    if report.problems:
        tail += ["", "### Run problems (each counts as one failure)", ""]
        tail += [f"- {problem.source}: {_code(problem.message, 600)}" for problem in report.problems]
    bad = unacceptable(report)
    if bad:
        lines += ["", f"### Cases that fail the run ({len(bad)})", ""]
    used = len("\n".join(lines + tail).encode("utf-8")) + 200  # the closing line's room
    shown = 0
    for record in bad:
        block = _case_lines(record)
        size = len("\n".join(block).encode("utf-8")) + 1
        if used + size > limit:
            break
        lines += block
        used += size
        shown += 1
    if shown < len(bad):
        lines.append(f"- … and {len(bad) - shown} more, not listed here (the JSON report, `--json`, has every case)")
    return "\n".join(lines + tail) + "\n"

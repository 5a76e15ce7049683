"""`iospec run`: argv → the vector files and the expected-failure list → the selected cases through `run.run_cases`
against a testee started from `--impl` → summary, JUnit, TAP and JSON reports (and, with `--fix`, the list
rewritten) → exit code 0 only when every case is acceptable (with `--fix`: acceptable to the rewritten list), 1
when one is not, 2 when the command was used wrongly (a filter that selects nothing is such a mistake).

WHY it is apart from the loop: the command's checks of its own arguments (exit 2), where reports go and how the
list is rewritten are the command's business; `run` stays the one loop both testees share.
"""

from __future__ import annotations

import argparse
import re
import shlex
import sys
import time
from pathlib import Path

from seq_io.reference.spec_data import load_spec
from seq_io.runner import reports, xfail
from seq_io.runner.kinds import KINDS
from seq_io.runner.protocol import Traffic, runner_hello
from seq_io.runner.reports import Problem, Report
from seq_io.runner.run import DEFAULT_TIMEOUT, MAX_TIMEOUTS, START_TIMEOUT, StdioTestee, rejudged, run_cases
from seq_io.runner.suite import SuiteCase, load_cases, select
from seq_io.runner.xfail import ExpectedFailures, XfailError
from seq_io.vector_index import Filters
from seq_io.vectors import VECTORS_DIR, relative
from seq_io.vectors import Problem as SuiteProblem


def _positive(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not value > 0:
        raise argparse.ArgumentTypeError("a timeout must be more than 0 seconds")
    return value


def _count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 0:
        raise argparse.ArgumentTypeError("a count cannot be negative")
    return value


def _kind(text: str) -> str:
    """A kind as the protocol spells it; the folder's spelling (`rows-of`) is accepted for `rows_of`."""
    kind = text.replace("-", "_")
    if kind not in KINDS:
        raise argparse.ArgumentTypeError(f"{text!r} is not a case kind; the kinds are {', '.join(KINDS)}")
    return kind


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--impl",
        required=True,
        metavar="COMMAND",
        help="the testee's command line, split like a POSIX shell, run in the current folder "
        '(e.g. "python -m seq_io.reference.testee")',
    )
    parser.add_argument(
        "--vectors",
        type=Path,
        default=VECTORS_DIR,
        metavar="DIR",
        help="the folder of vector files (default: conformance/vectors)",
    )
    parser.add_argument(
        "--id",
        action="append",
        default=[],
        metavar="ID",
        help="run the cases whose id matches this pattern (shell-style; repeatable)",
    )
    parser.add_argument(
        "--group",
        action="append",
        default=[],
        metavar="G",
        help="run the groups matching this pattern: kind folder/file/group, e.g. "
        "'schedule/windows/*', or a bare group name (repeatable)",
    )
    parser.add_argument(
        "--tag",
        action="append",
        default=[],
        metavar="T",
        help="run the cases carrying this tag (theirs or their group's; repeatable)",
    )
    parser.add_argument(
        "--kind",
        action="append",
        default=[],
        type=_kind,
        metavar="K",
        help=f"run the cases of this kind: {', '.join(KINDS)} (the folder spelling, rows-of, is "
        "accepted too; repeatable)",
    )
    parser.add_argument(
        "--timeout",
        type=_positive,
        default=DEFAULT_TIMEOUT,
        metavar="S",
        help=f"seconds to wait for each answer (default {DEFAULT_TIMEOUT:g})",
    )
    parser.add_argument(
        "--start-timeout",
        type=_positive,
        default=START_TIMEOUT,
        metavar="S",
        help=f"seconds to wait for the testee's hello (default {START_TIMEOUT:g})",
    )
    parser.add_argument(
        "--max-timeouts",
        type=_count,
        default=MAX_TIMEOUTS,
        metavar="N",
        help=f"stop the run when the testee has not answered N cases in a row within the "
        f"timeout; the rest are recorded as not run (default {MAX_TIMEOUTS}; 0: never stop)",
    )
    parser.add_argument(
        "--xfail",
        type=Path,
        metavar="FILE",
        help="the expected-failure list (JSON; conformance/schema/xfail.schema.json)",
    )
    parser.add_argument(
        "--fix",
        action="store_true",
        help="rewrite the --xfail list to match this run (created when missing); the exit "
        "code then judges the run against the rewritten list",
    )
    parser.add_argument(
        "--validate-traffic",
        action="store_true",
        help="check every message against its schema in conformance/protocol/",
    )
    parser.add_argument("--junit", type=Path, metavar="F", help="write a JUnit XML report")
    parser.add_argument("--tap", type=Path, metavar="F", help="write a TAP 14 report")
    parser.add_argument(
        "--json", type=Path, metavar="F", help="write the JSON report (conformance/schema/report.schema.json)"
    )
    parser.add_argument("--show", type=int, default=20, metavar="N", help="failing cases shown in full (default 20)")


def _announce(text: str) -> None:
    print(f"iospec run: {text}", file=sys.stderr, flush=True)


def _expected(args: argparse.Namespace) -> ExpectedFailures:
    if args.xfail is None:
        return ExpectedFailures()
    if args.fix and not args.xfail.exists():
        return ExpectedFailures()
    return xfail.load(args.xfail)


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8", errors="backslashreplace")


def _fix(args: argparse.Namespace, expected: ExpectedFailures, report: Report, suite: list[SuiteCase]) -> Report:
    """Rewrite the list to match the run; the run judged against the rewritten list (without the problems of
    entries naming no case, which the rewrite removed)."""
    new = xfail.fixed(expected, [(r.case, r.verdict) for r in report.records], suite)
    old_entries = {e.label: e for e in expected.all_entries()}
    new_entries = {e.label: e for e in new.all_entries()}
    added = new_entries.keys() - old_entries.keys()
    removed = old_entries.keys() - new_entries.keys()
    changed = [label for label in new_entries.keys() & old_entries.keys() if new_entries[label] != old_entries[label]]
    _write(args.xfail, xfail.dump(new))
    print(
        f"wrote {args.xfail}: {len(new_entries)} entries ({len(added)} added, {len(removed)} removed, "
        f"{len(changed)} changed); the summary below judges the run against it"
    )
    fixed = rejudged(report, new)
    fixed.problems = [p for p in fixed.problems if p.source != "expected-failures"]
    return fixed


def _no_match_hint(suite: list[SuiteCase]) -> list[str]:
    """The id prefixes of the suite, by folder, with what each file is."""
    by_folder: dict[str, list[str]] = {}
    for case in suite:
        folder = case.group.split("/", 1)[0]
        prefix = case.id.rsplit("-", 1)[0] + "-"
        if prefix not in by_folder.setdefault(folder, []):
            by_folder[folder].append(prefix)
    return [
        "case ids are <id_prefix>-NNNN, the prefix set by each vector file (conformance/README.md, "
        '"Case ids"); the prefixes:',
        *(f"  {folder}/: {', '.join(prefixes)}" for folder, prefixes in sorted(by_folder.items())),
    ]


def _suggestion(pattern: str, suite: list[SuiteCase]) -> str:
    """`--id 'rows-*'` for `--id 'rows-of-*'`: the ids of the file or folder whose name the pattern starts with."""
    head = re.split(r"[*?\[]", pattern, maxsplit=1)[0].rstrip("-").replace("_", "-")
    for case in suite:
        stem = case.group.rsplit("/", 1)[0]
        if head and head in (stem, *stem.split("/"), case.kind.replace("_", "-")):
            prefix = case.id.rsplit("-", 1)[0]
            return (
                f"did you mean --id '{prefix}-*' (ids of {case.case.file}), --group '{stem}/*' or --kind {case.kind}?"
            )
    return ""


def _selection_problems(args: argparse.Namespace, suite: list[SuiteCase]) -> list[str]:
    """A sentence for each filter that matches no case of the suite (a typo, or a wrong guess at the ids)."""
    found: list[str] = []
    for pattern in args.id:
        if not select(suite, ids=[pattern]):
            found += [f"--id {pattern!r} matches no case id", *filter(None, [_suggestion(pattern, suite)])]
    for pattern in args.group:
        if not select(suite, groups=[pattern]):
            stems = sorted({case.group.rsplit("/", 1)[0] for case in suite})
            found.append(
                f"--group {pattern!r} matches no group; a group is <folder>/<file>/<group> or a bare "
                f"group name, the files are: {', '.join(stems[:12])}"
                + (f" and {len(stems) - 12} more" if len(stems) > 12 else "")
            )
    for tag in args.tag:
        if not select(suite, tags=[tag]):
            tags = sorted({tag for case in suite for tag in case.tags})
            found.append(f"--tag {tag!r} is carried by no case; the tags are {', '.join(tags)}")
    if found and args.id:
        found += _no_match_hint(suite)
    return found


def _empty_selection(args: argparse.Namespace, unreadable: list[SuiteProblem]) -> list[str]:
    """Why the selection is empty: the vector files that cannot be read (each as itself: file, line, path, what is
    wrong), else each filter that matches nothing in the whole suite; nothing when the suite has no case at all
    (the run then fails on its own)."""
    if unreadable:
        return [
            f"{len(unreadable)} problem(s) in the vector files, so no case could be selected:",
            *map(str, unreadable),
        ]
    suite, _ = load_cases(args.vectors)
    if not suite:
        return []
    return _selection_problems(args, suite) or ["the filters (--id, --group, --tag, --kind) together select no case"]


def shared_argument_problem(args: argparse.Namespace) -> str | None:
    """What is wrong with the arguments `iospec run` and `iospec probe` share (`--fix`, `--xfail`, `--vectors`)."""
    if args.fix and args.xfail is None:
        return "--fix needs --xfail FILE (the list to rewrite)"
    if not args.vectors.is_dir():
        return f"{args.vectors} is not a folder of vector files"
    return None


def command_words(text: str, flag: str) -> list[str] | str:
    """A command line given as one flag's value (`--impl`, `--start`), split as a POSIX shell would; or what is wrong
    with it."""
    try:
        words = shlex.split(text)
    except ValueError as error:
        return f"{flag} cannot be split into words: {error}"
    return words if words else f"{flag} is empty"


def _run(args: argparse.Namespace) -> int:
    began = time.monotonic()
    argv = command_words(args.impl, "--impl")
    if isinstance(argv, str):
        print(f"iospec run: {argv}", file=sys.stderr)
        return 2
    problem = shared_argument_problem(args)
    if problem is not None:
        print(f"iospec run: {problem}", file=sys.stderr)
        return 2
    try:
        expected = _expected(args)
    except XfailError as error:
        print(f"iospec run: {error}", file=sys.stderr)
        return 2
    filters = Filters(args.id, args.group, args.tag, args.kind)
    # An expected-failure list is judged against every case (entries naming none are stale), so it reads them all.
    cases, unreadable = load_cases(args.vectors, None if args.xfail else filters)
    chosen = [case for case in cases if filters.wanted(case.id, case.group, case.tags, case.kind)]
    if not chosen and (mistakes := _empty_selection(args, unreadable)):
        print("\n".join(f"iospec run: {line}" for line in mistakes), file=sys.stderr)
        return 2
    traffic = Traffic() if args.validate_traffic else None
    version = load_spec().contract_version
    if traffic is not None and (problems := traffic.problems("runner-hello", runner_hello(version))):
        print(f"iospec run: the runner's own hello breaks the protocol: {problems[0]}", file=sys.stderr)
        return 2
    testee = StdioTestee(
        argv, version, timeout=args.timeout, start_timeout=args.start_timeout, traffic=traffic, announce=_announce
    )
    report = run_cases(
        chosen,
        testee,
        expected,
        traffic=traffic,
        command=argv,
        expected_failures=relative(args.xfail) if args.xfail else None,
        max_timeouts=args.max_timeouts,
    )
    report.seconds = time.monotonic() - began  # the whole command's time, reading the vectors included
    stale = [Problem("expected-failures", f"{label} names no case of the suite") for label in expected.stale(cases)]
    report.problems[:0] = [Problem("suite", str(problem)) for problem in unreadable] + stale
    sys.stdout.reconfigure(errors="backslashreplace")  # type: ignore[union-attr]  # a TextIOWrapper
    try:
        if args.fix:
            report = _fix(args, expected, report, cases)
        for path, render in ((args.junit, reports.junit), (args.tap, reports.tap), (args.json, reports.json_text)):
            if path is not None:
                _write(path, render(report))
    except OSError as error:
        print(f"iospec run: cannot write a report: {error}", file=sys.stderr)
        return 2
    print(reports.summary(report, args.show), end="")
    return 0 if report.ok else 1


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "run",
        help="run the conformance vectors against an implementation (testee protocol v1, conformance/protocol.md)",
    )
    add_arguments(parser)
    parser.set_defaults(func=_run)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="iospec run", description=(__doc__ or "").split("\n")[0])
    add_arguments(parser)
    return _run(parser.parse_args(argv))

"""`iospec uploader-check --sdk CMD`: argv → the uploader vectors and the expected-failure list → the selected
scenarios played over real HTTP against the SDK (`run.check`) → the summary, JUnit, TAP and JSON reports of
`iospec run` (and, with `--fix`, the list rewritten) → exit code 0 only when every case is acceptable, 1 when one
is not, 2 when the command was used wrongly.

WHY it reuses the runner's command: an SDK author checks the same cases, with the same filters, expected-failure
list and reports, in-process (`iospec run`, kind `uploader`) and over HTTP; only the testee differs.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from seq_io.runner import reports, xfail
from seq_io.runner.cli import (
    _count,
    _fix,
    _kind,
    _positive,
    _selection_problems,
    _write,
    command_words,
    shared_argument_problem,
)
from seq_io.runner.reports import Problem
from seq_io.runner.suite import load_cases, select
from seq_io.runner.xfail import ExpectedFailures, XfailError
from seq_io.uploader_check.engine import MAX_TOLERANCE, TOLERANCE, Settings
from seq_io.uploader_check.run import DEFAULT_TIMEOUT, JOBS, MAX_TIMEOUTS, START_TIMEOUT, check
from seq_io.vectors import VECTORS_DIR, relative

NAME = "iospec uploader-check"


def _jobs(text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= 16:
        raise argparse.ArgumentTypeError("--jobs is an integer from 1 to 16")
    return int(text)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--sdk",
        required=True,
        metavar="COMMAND",
        help="the SDK's driver command line, split like a POSIX shell, run in the current folder "
        '(e.g. "python -m seq_io.reference.uploader_driver"; conformance/uploader-http.md)',
    )
    parser.add_argument("--vectors", type=Path, default=VECTORS_DIR, metavar="DIR", help="the folder of vector files")
    parser.add_argument("--id", action="append", default=[], metavar="ID", help="case id pattern (repeatable)")
    parser.add_argument("--group", action="append", default=[], metavar="G", help="group pattern (repeatable)")
    parser.add_argument("--tag", action="append", default=[], metavar="T", help="cases carrying this tag")
    parser.add_argument(
        "--kind", action="append", default=[], type=_kind, metavar="K", help="only `uploader` cases are played"
    )
    parser.add_argument(
        "--timeout",
        type=_positive,
        default=DEFAULT_TIMEOUT,
        metavar="S",
        help=f"seconds to wait for each acknowledgement of the SDK (default {DEFAULT_TIMEOUT:g})",
    )
    parser.add_argument(
        "--start-timeout",
        type=_positive,
        default=START_TIMEOUT,
        metavar="S",
        help=f"seconds to wait for the SDK's hello (default {START_TIMEOUT:g})",
    )
    parser.add_argument(
        "--max-timeouts",
        type=_count,
        default=MAX_TIMEOUTS,
        metavar="N",
        help=f"stop when the SDK timed out in N cases in a row (default {MAX_TIMEOUTS}; 0: never)",
    )
    parser.add_argument(
        "--tolerance",
        type=_positive,
        default=TOLERANCE,
        metavar="S",
        help=f"real seconds a request's time may be off its expectation before the lag measured widens it "
        f"(default {TOLERANCE:g}; widened at most to {MAX_TOLERANCE:g})",
    )
    parser.add_argument(
        "--jobs",
        type=_jobs,
        default=JOBS,
        metavar="N",
        help=f"SDK processes playing scenarios at once (1 to 16, default {JOBS})",
    )
    parser.add_argument("--xfail", type=Path, metavar="FILE", help="the expected-failure list (JSON)")
    parser.add_argument("--fix", action="store_true", help="rewrite the --xfail list to match this run")
    parser.add_argument("--junit", type=Path, metavar="F", help="write a JUnit XML report")
    parser.add_argument("--tap", type=Path, metavar="F", help="write a TAP 14 report")
    parser.add_argument("--json", type=Path, metavar="F", help="write the JSON report")
    parser.add_argument("--show", type=int, default=20, metavar="N", help="failing cases shown in full (default 20)")


def _announce(text: str) -> None:
    print(f"{NAME}: {text}", file=sys.stderr, flush=True)


def _run(args: argparse.Namespace) -> int:
    argv = command_words(args.sdk, "--sdk")
    if isinstance(argv, str):
        print(f"{NAME}: {argv}", file=sys.stderr)
        return 2
    problem = shared_argument_problem(args)
    if problem is None and args.tolerance > MAX_TOLERANCE:
        problem = f"--tolerance is at most {MAX_TOLERANCE:g} s"
    if problem is not None:
        print(f"{NAME}: {problem}", file=sys.stderr)
        return 2
    try:
        expected = (
            ExpectedFailures()
            if args.xfail is None or (args.fix and not args.xfail.exists())
            else xfail.load(args.xfail)
        )
    except XfailError as error:
        print(f"{NAME}: {error}", file=sys.stderr)
        return 2
    cases, unreadable = load_cases(args.vectors)
    suite = select(cases, kinds=["uploader"])
    chosen = select(suite, ids=args.id, groups=args.group, tags=args.tag, kinds=args.kind)
    if suite and not chosen:
        mistakes = _selection_problems(args, suite) or ["the filters (--id, --group, --tag, --kind) select no case"]
        print("\n".join(f"{NAME}: {line}" for line in mistakes), file=sys.stderr)
        return 2
    report = check(
        chosen,
        argv,
        expected,
        settings=Settings(tolerance=args.tolerance),
        jobs=args.jobs,
        timeout=args.timeout,
        start_timeout=args.start_timeout,
        max_timeouts=args.max_timeouts,
        expected_failures=relative(args.xfail) if args.xfail else None,
        announce=_announce,
    )
    stale = [Problem("expected-failures", f"{label} names no case of the suite") for label in expected.stale(suite)]
    report.problems[:0] = [Problem("suite", str(problem)) for problem in unreadable] + stale
    sys.stdout.reconfigure(errors="backslashreplace")  # type: ignore[union-attr]  # a TextIOWrapper
    try:
        if args.fix:
            report = _fix(args, expected, report, suite)
        for path, render in ((args.junit, reports.junit), (args.tap, reports.tap), (args.json, reports.json_text)):
            if path is not None:
                _write(path, render(report))
    except OSError as error:
        print(f"{NAME}: cannot write a report: {error}", file=sys.stderr)
        return 2
    print(NAME + reports.summary(report, args.show).removeprefix("iospec run"), end="")
    return 0 if report.ok else 1


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "uploader-check",
        help="play the uploader vectors over real HTTP against a robot SDK's driver (conformance/uploader-http.md)",
    )
    add_arguments(parser)
    parser.set_defaults(func=_run)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog=NAME, description=(__doc__ or "").split("\n")[0])
    add_arguments(parser)
    return _run(parser.parse_args(argv))

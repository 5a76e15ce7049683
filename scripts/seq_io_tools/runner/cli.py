"""`iospec run`: argv → the vector files and the expected-failure list → the selected cases through `run.run_cases`
against a testee started from `--impl` → summary, JUnit, TAP and JSON reports (and, with `--fix`, the list
rewritten) → exit code 0 only when every case is acceptable.

WHY it is apart from the loop: the command's checks of its own arguments (exit 2), where reports go and how the
list is rewritten are the command's business; `run` stays the one loop both testees share.
"""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path

from seq_io_ref.spec_data import load_spec

from seq_io_tools.runner import reports, xfail
from seq_io_tools.runner.kinds import KINDS
from seq_io_tools.runner.protocol import Traffic, runner_hello
from seq_io_tools.runner.reports import Problem, Report
from seq_io_tools.runner.run import DEFAULT_TIMEOUT, START_TIMEOUT, StdioTestee, run_cases
from seq_io_tools.runner.suite import load_cases, select
from seq_io_tools.runner.xfail import ExpectedFailures, XfailError
from seq_io_tools.vectors import VECTORS_DIR, relative


def _positive(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not value > 0:
        raise argparse.ArgumentTypeError("a timeout must be more than 0 seconds")
    return value


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--impl", required=True, metavar="COMMAND",
                        help="the testee's command line, split like a POSIX shell, run in the current folder "
                             '(e.g. "python -m seq_io_tools.reference_testee")')
    parser.add_argument("--vectors", type=Path, default=VECTORS_DIR, metavar="DIR",
                        help="the folder of vector files (default: conformance/vectors)")
    parser.add_argument("--id", action="append", default=[], metavar="ID",
                        help="run the cases whose id matches this pattern (shell-style; repeatable)")
    parser.add_argument("--group", action="append", default=[], metavar="G",
                        help="run the groups matching this pattern: kind folder/file/group, e.g. "
                             "'schedule/windows/*', or a bare group name (repeatable)")
    parser.add_argument("--tag", action="append", default=[], metavar="T",
                        help="run the cases carrying this tag (theirs or their group's; repeatable)")
    parser.add_argument("--kind", action="append", default=[], choices=KINDS,
                        help="run the cases of this kind (repeatable)")
    parser.add_argument("--timeout", type=_positive, default=DEFAULT_TIMEOUT, metavar="S",
                        help=f"seconds to wait for each answer (default {DEFAULT_TIMEOUT:g})")
    parser.add_argument("--start-timeout", type=_positive, default=START_TIMEOUT, metavar="S",
                        help=f"seconds to wait for the testee's hello (default {START_TIMEOUT:g})")
    parser.add_argument("--xfail", type=Path, metavar="FILE",
                        help="the expected-failure list (JSON; conformance/schema/xfail.schema.json)")
    parser.add_argument("--fix", action="store_true",
                        help="rewrite the --xfail list to match this run (created when missing)")
    parser.add_argument("--validate-traffic", action="store_true",
                        help="check every message against its schema in conformance/protocol/")
    parser.add_argument("--junit", type=Path, metavar="F", help="write a JUnit XML report")
    parser.add_argument("--tap", type=Path, metavar="F", help="write a TAP 14 report")
    parser.add_argument("--json", type=Path, metavar="F",
                        help="write the JSON report (conformance/schema/report.schema.json)")
    parser.add_argument("--show", type=int, default=20, metavar="N",
                        help="failing cases shown in full (default 20)")


def _expected(args: argparse.Namespace) -> ExpectedFailures:
    if args.xfail is None:
        return ExpectedFailures()
    if args.fix and not args.xfail.exists():
        return ExpectedFailures()
    return xfail.load(args.xfail)


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8", errors="backslashreplace")


def _fix(args: argparse.Namespace, expected: ExpectedFailures, report: Report, known: list[str]) -> None:
    new = xfail.fixed(expected, [(r.case.id, r.verdict) for r in report.records], known)
    added = sorted(new.entries.keys() - expected.entries.keys())
    removed = sorted(expected.entries.keys() - new.entries.keys())
    changed = [i for i in sorted(new.entries.keys() & expected.entries.keys())
               if new.entries[i] != expected.entries[i]]
    _write(args.xfail, xfail.dump(new, args.xfail))
    print(f"wrote {args.xfail}: {len(new.entries)} entries ({len(added)} added, {len(removed)} removed, "
          f"{len(changed)} changed); rerun without --fix to check it")


def _run(args: argparse.Namespace) -> int:
    try:
        argv = shlex.split(args.impl)
    except ValueError as error:
        print(f"iospec run: --impl cannot be split into words: {error}", file=sys.stderr)
        return 2
    if not argv:
        print("iospec run: --impl is empty", file=sys.stderr)
        return 2
    if args.fix and args.xfail is None:
        print("iospec run: --fix needs --xfail FILE (the list to rewrite)", file=sys.stderr)
        return 2
    if not args.vectors.is_dir():
        print(f"iospec run: {args.vectors} is not a folder of vector files", file=sys.stderr)
        return 2
    try:
        expected = _expected(args)
    except XfailError as error:
        print(f"iospec run: {error}", file=sys.stderr)
        return 2
    cases, unreadable = load_cases(args.vectors)
    chosen = select(cases, ids=args.id, groups=args.group, tags=args.tag, kinds=args.kind)
    traffic = Traffic() if args.validate_traffic else None
    version = load_spec().contract_version
    if traffic is not None and (problems := traffic.problems("runner-hello", runner_hello(version))):
        print(f"iospec run: the runner's own hello breaks the protocol: {problems[0]}", file=sys.stderr)
        return 2
    testee = StdioTestee(argv, version, timeout=args.timeout, start_timeout=args.start_timeout,
                         traffic=traffic)
    report = run_cases(chosen, testee, expected, traffic=traffic, command=argv,
                       expected_failures=relative(args.xfail) if args.xfail else None)
    known = [case.id for case in cases]
    stale = [Problem("expected-failures", f"{case_id} names no case of the suite")
             for case_id in expected.stale(known)]
    report.problems[:0] = [Problem("suite", str(problem)) for problem in unreadable] + stale
    sys.stdout.reconfigure(errors="backslashreplace")  # type: ignore[union-attr]  # a TextIOWrapper
    try:
        for path, render in ((args.junit, reports.junit), (args.tap, reports.tap),
                             (args.json, reports.json_text)):
            if path is not None:
                _write(path, render(report))
        if args.fix:
            _fix(args, expected, report, known)
    except OSError as error:
        print(f"iospec run: cannot write a report: {error}", file=sys.stderr)
        return 2
    print(reports.summary(report, args.show), end="")
    return 0 if report.ok else 1


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser("run", help="run the conformance vectors against an implementation "
                                             "(testee protocol v1, conformance/protocol.md)")
    add_arguments(parser)
    parser.set_defaults(func=_run)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="iospec run", description=(__doc__ or "").split("\n")[0])
    add_arguments(parser)
    return _run(parser.parse_args(argv))


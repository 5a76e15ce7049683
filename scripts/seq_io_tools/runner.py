"""`iospec run`: vector files → the selected cases → one request each to a testee (a child process speaking
the testee protocol v1, conformance/protocol.md; or the Python reference in process) → verdicts → judged
against an expected-failure list → summary, JUnit, TAP and JSON reports → exit code 0 only when every case is
acceptable.

WHY it is shaped this way: one loop (`run_cases`) serves both testees, so the in-process fast path used by our
own tests judges exactly as the stdio run does, and the stdio details (timeouts, restarts) stay in
`StdioTestee`. A testee that crashes, hangs, prints garbage or answers another id fails that one case (with
what it printed) and is restarted for the next; a testee that cannot be (re)started or is refused at the
handshake ends the run, and every case not run is recorded as an error, because a conformance run must never
hang or quietly shrink. Request inputs come from the vector files unchanged (runner_compare.request).
"""

from __future__ import annotations

import argparse
import shlex
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

from seq_io_ref.spec_data import load_spec

from seq_io_tools import reference_testee, runner_protocol, runner_reports, runner_xfail
from seq_io_tools.runner_compare import KINDS, SuiteCase, Verdict, compare, load_cases, request, select
from seq_io_tools.runner_protocol import Broken, Hello, Session, Traffic, envelope_problem, runner_hello
from seq_io_tools.runner_reports import Problem, Record, Report
from seq_io_tools.runner_xfail import ExpectedFailures, XfailError
from seq_io_tools.vectors import VECTORS_DIR, relative

DEFAULT_TIMEOUT = 10.0
START_TIMEOUT = 30.0
SHUTDOWN_GRACE = 5.0


class Testee(Protocol):
    """What answers case requests: `hello` starts it when needed (`Broken` when it cannot be used)."""

    def hello(self) -> Hello: ...

    def ask(self, message: dict[str, Any]) -> dict[str, Any]: ...

    def close(self) -> list[str]: ...


class StdioTestee:
    """A child process per session, restarted after any failure that breaks the conversation."""

    def __init__(self, argv: list[str], contract_version: str, *, timeout: float = DEFAULT_TIMEOUT,
                 start_timeout: float = START_TIMEOUT, shutdown_grace: float = SHUTDOWN_GRACE,
                 traffic: Traffic | None = None) -> None:
        self.argv, self.contract_version, self.traffic = argv, contract_version, traffic
        self.timeout, self.start_timeout, self.shutdown_grace = timeout, start_timeout, shutdown_grace
        self._session: Session | None = None
        self._hello: Hello | None = None
        self.starts = 0

    def hello(self) -> Hello:
        if self._session is None or self._hello is None:
            self.starts += 1
            session = Session(self.argv, Path.cwd())
            try:
                self._hello, message = session.handshake(self.contract_version, self.start_timeout)
                problems = self.traffic.problems("testee-hello", message) if self.traffic else []
                if problems:
                    raise Broken(f"handshake refused: {problems[0]}", session.printed())
            except Broken:
                session.kill()
                raise
            self._session = session
        return self._hello

    def ask(self, message: dict[str, Any]) -> dict[str, Any]:
        assert self._session is not None, "hello() starts the session"
        try:
            return self._session.exchange(message, self.timeout)
        except Broken:
            self._session.kill()
            self._session = None
            raise

    def close(self) -> list[str]:
        session, self._session = self._session, None
        return session.close(self.shutdown_grace) if session is not None else []


class InProcessTestee:
    """The Python reference called directly: the same requests and answers, no process and no pipes."""

    def hello(self) -> Hello:
        return Hello(reference_testee.NAME, reference_testee.version(), reference_testee.KINDS)

    def ask(self, message: dict[str, Any]) -> dict[str, Any]:
        answer = reference_testee.answer(message)
        problem = envelope_problem(answer, message["id"])
        if problem is not None:
            raise Broken(problem)
        return answer

    def close(self) -> list[str]:
        return []


def _one(case: SuiteCase, testee: Testee, traffic: Traffic | None) -> Verdict:
    """Ask the testee one case and judge the answer; `Broken` only when no testee can be started."""
    hello = testee.hello()
    if case.kind not in hello.kinds:
        return Verdict("skip", f"kind not supported: the testee does not list {case.kind!r} in its hello")
    message = request(case)
    try:
        runner_protocol.encode(message)
    except ValueError as error:
        return Verdict("error", f"the vector holds a value JSON cannot carry, so it cannot be sent: {error}")
    problems = traffic.problems("case", message) if traffic else []
    if problems:
        return Verdict("error", f"the runner's request breaks the protocol: {problems[0]}")
    try:
        answer = testee.ask(message)
    except Broken as broken:
        return Verdict("fail", broken.detail, printed=broken.printed)
    problems = traffic.answer_problems(case.kind, answer) if traffic else []
    if problems:
        return Verdict("fail", f"the answer breaks the protocol: {problems[0]}", rule=answer.get("rule"))
    return compare(case, answer)


def run_cases(cases: Sequence[SuiteCase], testee: Testee, expected: ExpectedFailures | None = None, *,
              traffic: Traffic | None = None, command: list[str] | None = None,
              expected_failures: str | None = None) -> Report:
    """Every case through `testee`, one at a time, judged against `expected` (the expected-failure list)."""
    expected = expected or ExpectedFailures()
    started = time.monotonic()
    report = Report(load_spec().contract_version, command, None, (), expected_failures)
    unusable: Broken | None = None
    hello: Hello | None = None
    if cases:
        try:  # started before the first case, so that no case's time includes the start-up
            hello = testee.hello()
        except Broken as broken:
            unusable = broken
    for index, case in enumerate(cases):
        begun = time.monotonic()
        if unusable is None:
            try:
                verdict = _one(case, testee, traffic)
            except Broken as broken:
                unusable = broken
                verdict = Verdict("error", f"no testee to ask: {broken.detail}", printed=broken.printed)
        else:  # the testee's output is shown once, on the first case it could not run
            verdict = Verdict("error", f"not run: no testee to ask ({unusable.detail})",
                              printed=unusable.printed if index == 0 else None)
        entry = expected.entries.get(case.id)
        outcome, ok, note = runner_xfail.outcome(verdict, entry)
        report.records.append(Record(case, verdict, outcome, ok, note, entry, time.monotonic() - begun))
    if hello is not None:
        report.implementation, report.kinds = (hello.name, hello.version), hello.kinds
    report.problems += [Problem("session", text) for text in testee.close()]
    if not cases:
        report.problems.append(Problem("suite", "no case was selected: check the filters (--id, --group, "
                                                "--tag, --kind) and the vectors folder"))
    report.seconds = time.monotonic() - started
    return report


def run_in_process(cases: Sequence[SuiteCase], expected: ExpectedFailures | None = None, *,
                   validate_traffic: bool = False) -> Report:
    """The fast path: the same loop, requests and comparison, answered by the reference without a process."""
    return run_cases(cases, InProcessTestee(), expected, traffic=Traffic() if validate_traffic else None)


# -- the command --------------------------------------------------------------------------------------------


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
    return runner_xfail.load(args.xfail)


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8", errors="backslashreplace")


def _fix(args: argparse.Namespace, expected: ExpectedFailures, report: Report, known: list[str]) -> None:
    new = runner_xfail.fixed(expected, [(r.case.id, r.verdict) for r in report.records], known)
    added = sorted(new.entries.keys() - expected.entries.keys())
    removed = sorted(expected.entries.keys() - new.entries.keys())
    changed = [i for i in sorted(new.entries.keys() & expected.entries.keys())
               if new.entries[i] != expected.entries[i]]
    _write(args.xfail, runner_xfail.dump(new, args.xfail))
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
        for path, render in ((args.junit, runner_reports.junit), (args.tap, runner_reports.tap),
                             (args.json, runner_reports.json_text)):
            if path is not None:
                _write(path, render(report))
        if args.fix:
            _fix(args, expected, report, known)
    except OSError as error:
        print(f"iospec run: cannot write a report: {error}", file=sys.stderr)
        return 2
    print(runner_reports.summary(report, args.show), end="")
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


if __name__ == "__main__":
    sys.exit(main())

"""The run loop: the selected cases → one request each to a testee (a child process speaking
the testee protocol v1, conformance/protocol.md; or the Python reference in process) → verdicts → judged
against an expected-failure list → summary, JUnit, TAP and JSON reports → exit code 0 only when every case is
acceptable.

WHY it is shaped this way: one loop (`run_cases`) serves both testees, so the in-process fast path used by our
own tests judges exactly as the stdio run does, and the stdio details (timeouts, restarts) stay in
`StdioTestee`. A testee that crashes, hangs, prints garbage or answers another id fails that one case (with
what it printed) and is restarted for the next; output that answers nothing is charged to the case whose answer
it followed (`protocol.Stray`), which may mean changing a verdict already recorded. A testee that cannot be
(re)started, is refused at the handshake, or times out on `max_timeouts` cases in a row ends the run (so does
the first unacceptable case with `exitfirst`), and every case not run is recorded as an error marked `not_run`,
because a conformance run must never hang, take hours or quietly shrink. Request inputs come from the vector
files unchanged (compare.request); an unacceptable case's record keeps the request sent, for its report.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol

from seq_io.reference import testee as reference_testee
from seq_io.reference.spec_data import load_spec
from seq_io.runner import processes, protocol, xfail
from seq_io.runner.compare import compare, request
from seq_io.runner.protocol import Broken, Hello, Printed, Session, Stray, Traffic, envelope_problem
from seq_io.runner.reports import Problem, Record, Report
from seq_io.runner.suite import SuiteCase
from seq_io.runner.verdict import Verdict
from seq_io.runner.xfail import ExpectedFailures

DEFAULT_TIMEOUT = 10.0
START_TIMEOUT = 30.0
SHUTDOWN_GRACE = 2.0
MAX_TIMEOUTS = 3
"""Cases in a row without an answer in time after which the run stops (the rest are errors: not run)."""


class Testee(Protocol):
    """What answers case requests: `hello` starts it when needed (`Broken` when it cannot be used)."""

    def hello(self) -> Hello: ...

    def ask(self, message: dict[str, Any]) -> dict[str, Any]: ...

    def strays(self) -> list[Stray]: ...

    def close(self) -> list[str]: ...


class StdioTestee:
    """A child process per session, restarted after any failure that breaks the conversation."""

    def __init__(
        self,
        argv: list[str],
        contract_version: str,
        *,
        timeout: float = DEFAULT_TIMEOUT,
        start_timeout: float = START_TIMEOUT,
        shutdown_grace: float = SHUTDOWN_GRACE,
        traffic: Traffic | None = None,
        announce: Callable[[str], None] | None = None,
        carried: Sequence[str] = (),
    ) -> None:
        """`contract_version`: the newest the runner carries, announced in its hello; `carried`: every version it
        carries (empty: only `contract_version`). The first session's declared version holds for the run."""
        self.argv, self.contract_version, self.traffic = argv, contract_version, traffic
        self.carried = tuple(carried)
        self.timeout, self.start_timeout, self.shutdown_grace = timeout, start_timeout, shutdown_grace
        self.announce = announce
        self.token = processes.new_token()
        """Marks every process of this run's testees (processes.MARK), so that none outlives the run."""
        self._session: Session | None = None
        self._hello: Hello | None = None
        self._strays: list[Stray] = []
        self.starts = 0

    def start(self) -> None:
        """Start the testee's process without waiting for its hello, so that it starts up while the runner reads
        the vector files; `hello` then makes the handshake. `Broken` when the command cannot be started."""
        if self._session is None:
            self.starts += 1
            self._session = Session(self.argv, Path.cwd(), self.token)

    def hello(self) -> Hello:
        """The handshake of a running session (of the one `start` began, first); a new session when there is
        none, or when the last one ended after its answer (which is charged to the case it answered)."""
        handshaken = self._session is not None and self._hello is not None  # not one `start` began
        if handshaken and self._session is not None and (how := self._session.ended()) is not None:
            session, self._session = self._session, None
            printed = session.printed()
            self._strays.append(Stray(session.last_answered, printed.stdout, f"ended ({how})"))
            session.kill()
        if self._session is None or self._hello is None:
            self.start()  # unless `start` already did
            fresh, self._session = self._session, None
            assert fresh is not None
            try:
                hello, message = fresh.handshake(self.contract_version, self.start_timeout, self.carried)
                problems = self.traffic.problems("testee-hello", message) if self.traffic else []
                if problems:
                    raise Broken(f"handshake refused: {problems[0]}", fresh.printed())
                if self._hello is not None and hello.contract != self._hello.contract:
                    raise Broken(
                        f"handshake refused: the restarted testee declares contract {hello.contract}, its first "
                        f"session {self._hello.contract}",
                        fresh.printed(),
                    )
                self._hello = hello
            except Broken:
                fresh.kill()
                raise
            self._session = fresh
        return self._hello

    def ask(self, message: dict[str, Any]) -> dict[str, Any]:
        session = self._session
        assert session is not None, "hello() starts the session"
        try:
            return session.exchange(message, self.timeout)
        except Broken:
            session.kill()
            self._session = None
            raise
        finally:
            self._strays += session.take_strays()

    def strays(self) -> list[Stray]:
        strays, self._strays = self._strays, []
        return strays

    def close(self) -> list[str]:
        session, self._session = self._session, None
        if session is None:
            return []
        problems = session.close(self.shutdown_grace, self.announce)
        self._strays += session.take_strays()
        return problems


class InProcessTestee:
    """The Python reference called directly: the same requests and answers, no process and no pipes."""

    def hello(self) -> Hello:
        return Hello(
            reference_testee.NAME, reference_testee.version(), reference_testee.KINDS, load_spec().contract_version
        )

    def ask(self, message: dict[str, Any]) -> dict[str, Any]:
        answer = reference_testee.answer(message)
        problem = envelope_problem(answer, message["id"])
        if problem is not None:
            raise Broken(problem)
        return answer

    def strays(self) -> list[Stray]:
        return []

    def close(self) -> list[str]:
        return []


def _one(case: SuiteCase, testee: Testee, traffic: Traffic | None) -> tuple[Verdict, dict[str, Any] | None]:
    """Ask the testee one case and judge the answer: the verdict and the request sent (None: none was);
    `Broken` only when no testee can be started."""
    hello = testee.hello()
    if case.kind not in hello.kinds:
        return Verdict("skip", f"kind not supported: the testee does not list {case.kind!r} in its hello"), None
    message = request(case)
    try:
        protocol.encode(message)
    except ValueError as error:
        return Verdict("error", f"the vector holds a value JSON cannot carry, so it cannot be sent: {error}"), None
    problems = traffic.problems("case", message) if traffic else []
    if problems:
        return Verdict("error", f"the runner's request breaks the protocol: {problems[0]}"), message
    try:
        answer = testee.ask(message)
    except Broken as broken:
        return Verdict("fail", broken.detail, printed=broken.printed, timed_out=broken.timed_out), message
    problems = traffic.answer_problems(case.kind, answer) if traffic else []
    if problems:
        return Verdict("fail", f"the answer breaks the protocol: {problems[0]}", rule=answer.get("rule")), message
    return compare(case, answer), message


def with_stray(verdict: Verdict, stray: Stray) -> Verdict:
    """`verdict` failed by what the testee did besides answering (protocol.md: exactly one line per request,
    then nothing until the next request)."""
    when = "after its answer" if stray.after is not None else "before its answer"
    detail = f"{when} the testee {stray.what}" + (
        f"; and: {verdict.detail}" if verdict.status == "fail" and verdict.detail else ""
    )
    printed = verdict.printed or Printed()
    shown = Printed((stray.stdout + printed.stdout)[-protocol.KEPT :], printed.stderr, printed.exit)
    return Verdict("fail", detail, verdict.differences, verdict.rule, shown, verdict.more, verdict.timed_out)


def _record(
    case: SuiteCase, verdict: Verdict, expected: ExpectedFailures, seconds: float, sent: dict[str, Any] | None
) -> Record:
    entry = expected.entry_for(case)
    outcome, ok, note = xfail.outcome(verdict, entry)
    return Record(case, verdict, outcome, ok, note, entry, seconds, sent)


def _taking_strays(verdict: Verdict, strays: list[Stray], charge: Callable[[Stray], None]) -> Verdict:
    """`verdict` failed by the output that came before its answer; other output `charge`d to its case."""
    for stray in strays:
        if stray.after is None and verdict.status != "error":
            verdict = with_stray(verdict, stray)
        else:
            charge(stray)
    return verdict


def _no_testee(broken: Broken) -> Broken:
    """Why the cases after `broken` are not run: no testee to ask, with what it printed."""
    return Broken(f"no testee to ask ({broken.detail})", broken.printed)


def run_cases(
    cases: Sequence[SuiteCase],
    testee: Testee,
    expected: ExpectedFailures | None = None,
    *,
    traffic: Traffic | None = None,
    command: list[str] | None = None,
    expected_failures: str | None = None,
    max_timeouts: int = MAX_TIMEOUTS,
    exitfirst: bool = False,
) -> Report:
    """Every case through `testee`, one at a time, judged against `expected` (the expected-failure list).
    `max_timeouts` (0: never) cases in a row without an answer in time end the run; with `exitfirst`, so does
    the first case that is not acceptable."""
    expected = expected or ExpectedFailures()
    started = time.monotonic()
    report = Report(load_spec().contract_version, command, None, (), expected_failures)
    position: dict[str, int] = {}

    def charge(stray: Stray) -> None:
        at = position.get(stray.after or "")
        if at is not None:
            old = report.records[at]
            report.records[at] = _record(old.case, with_stray(old.verdict, stray), expected, old.seconds, old.request)

    stop: Broken | None = None  # why the cases from here on are not run
    hello: Hello | None = None
    if cases:
        try:  # started before the first case, so that no case's time includes the start-up
            hello = testee.hello()
        except Broken as broken:
            stop = _no_testee(broken)
    in_a_row = 0
    for index, case in enumerate(cases):
        begun = time.monotonic()
        sent: dict[str, Any] | None = None
        if stop is None:
            try:
                verdict, sent = _one(case, testee, traffic)
            except Broken as broken:
                stop = _no_testee(broken)
                verdict = Verdict("error", f"no testee to ask: {broken.detail}", printed=broken.printed)
            verdict = _taking_strays(verdict, testee.strays(), charge)
            in_a_row = in_a_row + 1 if verdict.timed_out else 0
            if max_timeouts and in_a_row >= max_timeouts:
                stop = _no_testee(
                    Broken(
                        f"the testee did not answer {in_a_row} cases in a row within the timeout; the "
                        f"run stopped (--max-timeouts {max_timeouts})"
                    )
                )
        else:  # the testee's output is shown once, on the first case it could not run
            printed = stop.printed if index == 0 else None
            verdict = Verdict("error", f"not run: {stop.detail}", printed=printed, not_run=True)
        position[case.id] = len(report.records)
        report.records.append(_record(case, verdict, expected, time.monotonic() - begun, sent))
        if exitfirst and stop is None and not report.records[-1].ok:
            stop = Broken("the run stopped after the first unacceptable case (--exitfirst)")
    if hello is not None:
        report.implementation, report.kinds = (hello.name, hello.version), hello.kinds
        report.contract_version = hello.contract or report.contract_version
    report.problems += [Problem("session", text) for text in testee.close()]
    for stray in testee.strays():
        charge(stray)
    if not cases:
        report.problems.append(
            Problem(
                "suite", "no case was selected: check the filters (--id, --group, --tag, --kind) and the vectors folder"
            )
        )
    report.seconds = time.monotonic() - started
    return report


def rejudged(report: Report, expected: ExpectedFailures) -> Report:
    """The same run judged against another expected-failure list (after `--fix` rewrote it)."""
    records = [_record(r.case, r.verdict, expected, r.seconds, r.request) for r in report.records]
    return Report(
        report.contract_version,
        report.command,
        report.implementation,
        report.kinds,
        report.expected_failures,
        records,
        list(report.problems),
        report.seconds,
        report.not_in_contract,
    )


def run_in_process(
    cases: Sequence[SuiteCase], expected: ExpectedFailures | None = None, *, validate_traffic: bool = False
) -> Report:
    """The fast path: the same loop, requests and comparison, answered by the reference without a process."""
    return run_cases(cases, InProcessTestee(), expected, traffic=Traffic() if validate_traffic else None)

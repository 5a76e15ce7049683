"""The selected uploader scenarios + an SDK command line → each scenario played over HTTP (`engine.Player`), by
`jobs` SDK processes at once → records judged against the expected-failure list → the runner's `Report`, in the
order of the cases.

WHY it is shaped this way: it is the loop of `iospec run` (`seq_io.runner.run.run_cases`) for a testee that is
played rather than asked, with the same rules, so that an SDK author reads the same reports: an SDK that breaks
the conversation fails that case and is restarted for the next; one that cannot be started or handshaken ends the
run, and one that does not acknowledge in time in `max_timeouts` cases in a row is taken to hang; every case not
played is then recorded as an error ("not run"), never silently left out. Most of a scenario's time is its
`advance`s slept, so several SDK processes (`jobs`, each a thread with its own SDK, all served by one recording
worker) play scenarios side by side, the longest first; each scenario still has an SDK and a port of its own. A
scenario the HTTP mode does not play is recorded with its reason, as `iospec probe` records one (an expected
failure carrying the reason, in every report).
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from seq_io.reference.spec_data import load_spec
from seq_io.runner import xfail
from seq_io.runner.protocol import Broken
from seq_io.runner.reports import Problem, Record, Report
from seq_io.runner.suite import SuiteCase
from seq_io.runner.uploader_judge import uploader_case_data
from seq_io.runner.verdict import Verdict
from seq_io.runner.xfail import ExpectedFailures
from seq_io.uploader_check.engine import Player, Settings, not_applicable, sleeps
from seq_io.uploader_check.sdk import Sdk
from seq_io.uploader_check.worker import RecordingWorker

DEFAULT_TIMEOUT = 10.0
START_TIMEOUT = 30.0
MAX_TIMEOUTS = 3
JOBS = 4
"""SDK processes playing scenarios at once, by default."""


@dataclass
class _Shared:
    """What the jobs of one run share, under `lock`."""

    expected: ExpectedFailures
    max_timeouts: int
    records: dict[int, Record] = field(default_factory=dict)
    unusable: Broken | None = None
    hello: tuple[str, str] | None = None
    replayed: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)


def _record(case: SuiteCase, verdict: Verdict, expected: ExpectedFailures, seconds: float) -> Record:
    entry = expected.entry_for(case)
    outcome, ok, note = xfail.outcome(verdict, entry)
    return Record(case, verdict, outcome, ok, note, entry, seconds)


def _job(work: queue.SimpleQueue[tuple[int, SuiteCase]], shared: _Shared, player: Player) -> None:
    """Play cases from `work` until it is empty, with one SDK (started on the first case, restarted as needed)."""
    in_a_row = 0
    while True:
        try:
            index, case = work.get_nowait()
        except queue.Empty:
            return
        begun = time.monotonic()
        with shared.lock:
            unusable = shared.unusable
        if unusable is not None:
            verdict = Verdict("error", f"not run: no SDK to drive ({unusable.detail})")
        else:
            try:
                hello = player.sdk.hello()
                verdict = player.verdict(case)
            except Broken as broken:
                with shared.lock:
                    shared.unusable = shared.unusable or broken
                verdict = Verdict("error", f"no SDK to drive: {broken.detail}", printed=broken.printed)
            else:
                with shared.lock:
                    shared.hello = shared.hello or (hello.name, hello.version)
            in_a_row = in_a_row + 1 if verdict.timed_out else 0
            if shared.max_timeouts and in_a_row >= shared.max_timeouts:
                with shared.lock:
                    shared.unusable = shared.unusable or Broken(
                        f"the SDK did not acknowledge in time in {in_a_row} cases in a row; the run stopped "
                        f"(--max-timeouts {shared.max_timeouts})"
                    )
        with shared.lock:
            shared.records[index] = _record(case, verdict, shared.expected, time.monotonic() - begun)


def check(
    cases: Sequence[SuiteCase],
    argv: list[str],
    expected: ExpectedFailures | None = None,
    *,
    settings: Settings | None = None,
    jobs: int = JOBS,
    timeout: float = DEFAULT_TIMEOUT,
    start_timeout: float = START_TIMEOUT,
    max_timeouts: int = MAX_TIMEOUTS,
    expected_failures: str | None = None,
    announce: Callable[[str], None] | None = None,
) -> Report:
    """Every case played through SDKs that `argv` starts, judged against `expected`."""
    shared = _Shared(expected or ExpectedFailures(), max_timeouts)
    version = load_spec().contract_version
    started = time.monotonic()
    work: queue.SimpleQueue[tuple[int, SuiteCase]] = queue.SimpleQueue()
    for index, case in sorted(enumerate(cases), key=lambda item: -sleeps(uploader_case_data(item[1]))):
        reason = not_applicable(uploader_case_data(case))
        if reason is None:
            work.put((index, case))
        else:
            shared.records[index] = Record(case, Verdict("skip", reason), "xfail", True, reason, None, 0.0)
    worker = RecordingWorker(str(load_spec().contract["observe_format"]))
    players = [
        Player(
            Sdk(argv, version, timeout=timeout, start_timeout=start_timeout, announce=announce),
            worker,
            settings,
            announce,
        )
        for _ in range(max(1, min(jobs, work.qsize())))
    ]
    threads = [threading.Thread(target=_job, args=(work, shared, player), daemon=True) for player in players]
    problems: list[str] = []
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        for player in players:
            problems += player.sdk.close()
        worker.close()
    report = Report(version, argv, shared.hello, ("uploader",), expected_failures)
    report.records = [shared.records[index] for index in sorted(shared.records)]
    report.problems = [Problem("session", text) for text in dict.fromkeys(problems)]
    if not cases:
        report.problems.append(
            Problem("suite", "no uploader case was selected: check the filters (--id, --group, --tag) and the vectors")
        )
    report.seconds = time.monotonic() - started
    return report

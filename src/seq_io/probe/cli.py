"""`iospec probe --worker URL`: argv → the selected stream vectors and the expected-failure list → the worker's
configuration (`GET /stream/info`, or `--worker-config`) → every scenario replayed over HTTP (`probe.run`) → the
summary, JUnit, TAP and JSON reports of `iospec run` → exit 0 only when every case is acceptable.

The whole run is bounded by `--max-run-s`, and every request by `--timeout` through `probe.call`: a worker that
breaks a budget of the probe's own requests (GET /stream/info, the test keepers) or the run's is one line, "cannot
use the worker at URL: ...", and exit 2 (conformance/worker.md, "Time budgets and the answer cap").

WHY it reuses the runner: a worker author reads the same reports, filters and expected-failure list as an SDK
author running `iospec run`, and a case that fails names the same case id, file and line.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import queue
import signal
import subprocess
import sys
import threading
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

from seq_io.reference.spec_data import load_spec
from seq_io.reference.wire import parse_json_text
from seq_io.runner import reports, xfail
from seq_io.runner.cli import command_words, shared_argument_problem
from seq_io.runner.reports import Problem, Report
from seq_io.runner.suite import SuiteCase, load_cases, select
from seq_io.runner.xfail import ExpectedFailures, XfailError
from seq_io.vector_index import Filters
from seq_io.vectors import VECTORS_DIR, relative

EXTRA_HINT = "pip install 'sequences-io-spec[http]'"
NOT_APPLICABLE = "not applicable over HTTP"  # the note of such records begins so (probe.run)
START_TIMEOUT = 30.0
STOP_TIMEOUT = 15.0
KEEPALIVE_S = 1.0
"""Seconds a pooled connection to the worker may stay idle before the probe drops it (below any sane keep-alive)."""


def _seconds_up_to(most: float) -> Callable[[str], float]:
    """An argparse type: a number of seconds above 0 and at most `most`."""

    def seconds(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
        if not 0 < value <= most:
            raise argparse.ArgumentTypeError(f"seconds from more than 0 to {most:g}")
        return value

    return seconds


_seconds = _seconds_up_to(600)
_run_seconds = _seconds_up_to(86400)


def _jobs(text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= 64:
        raise argparse.ArgumentTypeError("--jobs is an integer from 1 to 64")
    return int(text)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--worker", metavar="URL", help="the worker's base URL, e.g. http://127.0.0.1:8080")
    where.add_argument(
        "--start",
        metavar="COMMAND",
        help="start this worker command (split like a POSIX shell), read the line `listening on URL` "
        'it prints, probe it, then stop it with SIGTERM (e.g. "iospec worker --testing")',
    )
    parser.add_argument(
        "--vectors",
        type=Path,
        default=VECTORS_DIR,
        metavar="DIR",
        help="the folder of vector files (default: conformance/vectors; only stream cases are sent)",
    )
    parser.add_argument("--id", action="append", default=[], metavar="ID", help="as for iospec run (repeatable)")
    parser.add_argument("--group", action="append", default=[], metavar="G", help="as for iospec run (repeatable)")
    parser.add_argument("--tag", action="append", default=[], metavar="T", help="as for iospec run (repeatable)")
    parser.add_argument("--xfail", type=Path, metavar="FILE", help="the expected-failure list, as for iospec run")
    parser.add_argument("--fix", action="store_true", help="rewrite the --xfail list to match this run")
    parser.add_argument("--junit", type=Path, metavar="F", help="write a JUnit XML report")
    parser.add_argument("--tap", type=Path, metavar="F", help="write a TAP 14 report")
    parser.add_argument("--json", type=Path, metavar="F", help="write the JSON report")
    parser.add_argument("--show", type=int, default=20, metavar="N", help="failing cases shown in full (default 20)")
    parser.add_argument(
        "--worker-config",
        type=Path,
        metavar="FILE",
        help="a JSON file stating the worker's configuration, for a worker without GET /stream/info "
        "(conformance/worker.md)",
    )
    parser.add_argument(
        "--wait-s",
        type=_seconds,
        metavar="S",
        help="the worker's act wait in real seconds, when its configuration does not say it",
    )
    parser.add_argument(
        "--timeout",
        type=_seconds,
        default=5.0,
        metavar="S",
        help="seconds one request may take, from connecting to the last byte of its answer, beyond the worker's "
        "wait for an act (default 5)",
    )
    parser.add_argument(
        "--max-run-s",
        type=_run_seconds,
        default=3600.0,
        metavar="S",
        help="real seconds the whole probe may take (default 3600); past it, exit 2",
    )
    parser.add_argument(
        "--latency",
        type=_seconds,
        default=0.1,
        metavar="S",
        help="real seconds every deadline margin must exceed (default 0.1)",
    )
    parser.add_argument(
        "--max-scenario-s",
        type=_seconds,
        default=12.0,
        metavar="S",
        help="real seconds a scenario's advances may take (default 12); longer silences with no "
        "deadline near are compressed, scenarios that cannot fit are not applicable",
    )
    parser.add_argument(
        "--max-wait-s",
        type=_seconds,
        default=6.0,
        metavar="S",
        help="the longest act wait a test keeper is given (default 6): scenarios whose margins "
        "need more are not applicable",
    )
    parser.add_argument(
        "--jobs", type=_jobs, default=8, metavar="N", help="scenarios replayed at once on test keepers (default 8)"
    )


async def _worker_info(client: Any, url: str, args: argparse.Namespace) -> dict[str, Any]:
    from seq_io.probe.call import CallFailed, Unusable, call

    if args.worker_config is not None:
        try:
            info, issues = parse_json_text(args.worker_config.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError) as error:
            raise Unusable(f"cannot read {args.worker_config}: {error}") from None
        if issues or not isinstance(info, dict):
            raise Unusable(f"{args.worker_config}: not a JSON object: {issues[0] if issues else type(info).__name__}")
    else:
        try:
            answer = await call(client, "GET", url + "/stream/info", deadline_s=args.timeout)
        except CallFailed as error:
            raise Unusable(f"cannot use the worker at {url}: {error}") from None
        info, issues = parse_json_text(answer.text) if answer.status_code == 200 else (None, [])
        if answer.status_code != 200 or issues or not isinstance(info, dict):
            raise Unusable(
                f"the worker at {url} does not state its configuration at GET /stream/info (status "
                f"{answer.status_code}); describe it with --worker-config FILE (conformance/worker.md)"
            )
    if args.wait_s is not None:
        info["wait_s"] = args.wait_s
    if not isinstance(info.get("wait_s"), int | float) or isinstance(info.get("wait_s"), bool):
        raise Unusable("the worker's configuration does not state wait_s (its act wait in real seconds); give --wait-s")
    return info


async def _probe(args: argparse.Namespace, expected: ExpectedFailures) -> tuple[Report, list[str], list[SuiteCase]]:
    import httpx

    from seq_io.probe.replay import Settings
    from seq_io.probe.run import ProbeSettings, WorkerConfig, probe_cases

    url = args.worker.rstrip("/")
    # A pooled connection is dropped after KEEPALIVE_S idle, well before a worker's own keep-alive timeout ends it
    # (the reference worker's is 5 s, --keep-alive): a request sent on a connection the worker is closing at that
    # moment would fail with no answer, through no fault of the worker.
    limits = httpx.Limits(
        max_connections=args.jobs * 6 + 4, max_keepalive_connections=args.jobs * 6 + 4, keepalive_expiry=KEEPALIVE_S
    )
    async with httpx.AsyncClient(limits=limits, trust_env=False) as client, _run_budget(url, args.max_run_s):
        info = await _worker_info(client, url, args)  # first: a worker that cannot be used is known in a second
        # Only the files that can hold a selected stream case are read, unless a list's entries are to be judged
        # against every case (entries naming none are stale).
        needed_for = None if args.xfail else Filters(args.id, args.group, args.tag, ["stream"])
        cases, unreadable = load_cases(args.vectors, needed_for)
        chosen = select(cases, ids=args.id, groups=args.group, tags=args.tag, kinds=["stream"])
        config = WorkerConfig.of(info)
        settings = ProbeSettings(
            latency_s=args.latency,
            max_wait_s=args.max_wait_s,
            jobs=args.jobs,
            max_scenario_s=args.max_scenario_s,
            http=Settings(timeout_s=args.timeout),
        )
        implementation = info.get("implementation") or {}
        report = Report(
            load_spec().contract_version,
            [url],
            (str(implementation.get("name", "worker")), str(implementation.get("version", "?"))),
            ("stream",),
            relative(args.xfail) if args.xfail else None,
        )
        begun = asyncio.get_running_loop().time()
        records, prober = await probe_cases(client, url, config, chosen, expected, settings)
        report.records = records
        report.seconds = asyncio.get_running_loop().time() - begun
    report.problems += [Problem("suite", str(problem)) for problem in unreadable]
    report.problems += [
        Problem("expected-failures", f"{label} names no case of the suite") for label in expected.stale(cases)
    ]
    if not chosen:
        report.problems.append(Problem("suite", "no stream case was selected: check the filters and the vectors"))
    needed = [f"  {len(ids)} case(s), e.g. {ids[0]}: {need}" for need, ids in prober.needed.items()]
    return report, needed, cases


@contextlib.asynccontextmanager
async def _run_budget(url: str, seconds: float) -> AsyncIterator[None]:
    """The block within `--max-run-s`; past it, the run is cut short and the worker declared unusable."""
    from seq_io.probe.call import Unusable

    try:
        async with asyncio.timeout(seconds):
            yield
    except TimeoutError:
        raise Unusable(
            f"cannot use the worker at {url}: the probe did not finish within --max-run-s {seconds:g} s"
        ) from None


def _run(args: argparse.Namespace) -> int:
    try:
        import httpx  # noqa: F401  # the extra's presence, checked before anything else
    except ImportError as error:
        print(f"iospec probe: needs the HTTP extra ({error.name} is missing): {EXTRA_HINT}", file=sys.stderr)
        return 2
    from seq_io.probe.call import Unusable

    problem = shared_argument_problem(args)
    if problem is not None:
        print(f"iospec probe: {problem}", file=sys.stderr)
        return 2
    if args.start is not None:
        return _with_started_worker(args)
    if not args.worker.startswith(("http://", "https://")):
        print(f"iospec probe: --worker is a URL such as http://127.0.0.1:8080, not {args.worker!r}", file=sys.stderr)
        return 2
    try:
        expected = (
            ExpectedFailures()
            if args.xfail is None or (args.fix and not args.xfail.exists())
            else xfail.load(args.xfail)
        )
        report, needed, known = asyncio.run(_probe(args, expected))
    except (XfailError, Unusable) as error:
        print(f"iospec probe: {error}", file=sys.stderr)
        return 2
    sys.stdout.reconfigure(errors="backslashreplace")  # type: ignore[union-attr]  # a TextIOWrapper
    accounted = False
    try:
        for path, render in ((args.junit, reports.junit), (args.tap, reports.tap), (args.json, reports.json_text)):
            if path is not None:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(render(report), encoding="utf-8", errors="backslashreplace")
        if args.fix:
            judged = [(r.case, r.verdict) for r in report.records if not r.note.startswith(NOT_APPLICABLE + ":")]
            fixed = xfail.fixed(expected, judged, known)
            args.xfail.write_text(xfail.dump(fixed), encoding="utf-8")
            print(f"wrote {args.xfail}: {len(fixed.all_entries())} entries; rerun without --fix to check it")
            accounted = all(xfail.outcome(verdict, fixed.entry_for(case))[1] for case, verdict in judged)
    except OSError as error:
        print(f"iospec probe: cannot write a report: {error}", file=sys.stderr)
        return 2
    not_applicable = [r for r in report.records if r.note.startswith(NOT_APPLICABLE + ":")]
    lines = [
        f"not applicable over HTTP: {len(not_applicable)} case(s) (conformance/worker.md, § What the probe "
        "cannot replay):",
        *(f"  {r.case.id}: {r.verdict.detail.split(': ', 1)[-1]}" for r in not_applicable),
    ]
    if needed:
        lines += ["scenarios this worker's configuration cannot run, by the configuration they need:", *needed]
    print("\n".join(lines))
    print("iospec probe" + reports.summary(report, args.show).removeprefix("iospec run"), end="")
    if args.fix:  # the rewritten list accounts for every case: the next run without --fix passes
        return 0 if accounted and not report.problems else 1
    return 0 if report.ok else 1


def _with_started_worker(args: argparse.Namespace) -> int:
    """`--start`: the command as a child process for the length of the probe; stopped and reaped whatever happens."""
    argv = command_words(args.start, "--start")
    if isinstance(argv, str):
        print(f"iospec probe: {argv}", file=sys.stderr)
        return 2
    try:
        process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=None, text=True)
    except OSError as error:
        print(f"iospec probe: cannot start {argv[0]!r}: {error}", file=sys.stderr)
        return 2
    try:
        url = _listening(process)
        if url is None:
            print(
                f"iospec probe: the worker did not print `listening on URL` within {START_TIMEOUT:g} s", file=sys.stderr
            )
            return 2
        args.worker, args.start = url, None
        return _run(args)
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
        try:
            process.wait(STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)
            print(
                f"iospec probe: the worker did not stop within {STOP_TIMEOUT:g} s of SIGTERM; killed it",
                file=sys.stderr,
            )


def _listening(process: subprocess.Popen[str]) -> str | None:
    """The URL of the first `listening on URL` line the process prints, read by a thread (bounded wait)."""
    stdout = process.stdout
    assert stdout is not None
    found: queue.Queue[str | None] = queue.Queue()

    def read() -> None:
        for line in stdout:
            if line.startswith("listening on "):
                found.put(line.removeprefix("listening on ").strip())
        found.put(None)

    threading.Thread(target=read, daemon=True).start()
    try:
        return found.get(timeout=START_TIMEOUT)
    except queue.Empty:
        return None


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "probe", help="replay the stream vectors against a live worker over HTTP (conformance/worker.md)"
    )
    add_arguments(parser)
    parser.set_defaults(func=_run)

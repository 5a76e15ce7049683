"""Benchmark of the conformance runner: the vector suite → cases per second, per kind and in all, through the
stdio protocol for the Python reference testee (and for each --impl given, e.g. the JavaScript testee), beside
the in-process baseline measured in the same run (the same cases and comparison, answered by a function
call) → a table of rates and of ratios to that baseline.

WHY it is shaped this way: absolute times on a shared machine mean little, so every row is also a ratio to a
baseline taken minutes apart at most; each figure is the best of --repeat runs. Start-up (the handshake) is
shown apart and left out of the rates, since it is paid once per session, not per case. The per-kind rates
come from each case's own time, so a slow kind does not hide the protocol's cost on the cheap ones.
A third table is the start-up of one case, the whole `iospec run --id ID` command as a user types it, wall and CPU
(the runner's and the testee's), beside the same command made to read every vector file (with an empty
expected-failure list, which is judged against every case): the ratio is what reading only the files a selection
needs saves.
Run: `make bench-runner`, or `python scripts/bench_runner.py --impl "node implementations/js/src/testee.js"`; with
`--write-docs`, both tables also go, as Markdown with the date and the load average, into section `bench_runner` of
docs/performance.md (seq_io_maint/perf_doc.py).
"""

from __future__ import annotations

import argparse
import json
import resource
import shlex
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from seq_io.reference.spec_data import load_spec
from seq_io.runner.kinds import KINDS
from seq_io.runner.protocol import Broken
from seq_io.runner.reports import Report
from seq_io.runner.run import StdioTestee, run_cases, run_in_process
from seq_io.runner.suite import SuiteCase, load_cases, select
from seq_io_maint import perf_doc

REFERENCE = f"{shlex.quote(sys.executable)} -m seq_io.reference.testee"
IOSPEC = str(Path(sys.executable).parent / "iospec")
STARTUP_CASE = "sch-windows-0001"
"""The case whose start-up is measured: one of the larger files (schedule/windows.yaml)."""


@dataclass(frozen=True)
class Row:
    label: str
    start: float
    report: Report

    @property
    def cases_run(self) -> float:
        """Seconds spent on the cases themselves (start-up excluded)."""
        return sum(record.seconds for record in self.report.records)

    def rate(self, kind: str | None = None) -> float:
        records = [r for r in self.report.records if kind is None or r.case.kind == kind]
        seconds = sum(record.seconds for record in records)
        return len(records) / seconds if seconds else 0.0


def best(runs: int, once: Callable[[], Row]) -> Row:
    return min((once() for _ in range(runs)), key=lambda row: row.cases_run)


def in_process(cases: list[SuiteCase]) -> Row:
    return Row("in process (baseline)", 0.0, run_in_process(cases))


def through_stdio(label: str, command: str, cases: list[SuiteCase], timeout: float) -> Row:
    testee = StdioTestee(shlex.split(command), load_spec().contract_version, timeout=timeout)
    began = time.monotonic()
    try:
        testee.hello()
    except Broken as broken:
        raise SystemExit(f"bench_runner: {command}: {broken.detail}\n{broken.printed.stderr}") from None
    start = time.monotonic() - began
    return Row(label, start, run_cases(cases, testee, command=shlex.split(command)))


def table(rows: list[Row], kinds: list[str]) -> str:
    base = rows[0]
    width = max(len(row.label) for row in rows) + 2
    head = (
        f"{'implementation':<{width}}{'failed':>7}{'start s':>9}"
        + "".join(f"{k:>12}" for k in kinds)
        + f"{'all':>10}{'x slower':>10}"
    )
    lines = ["cases per second (start-up excluded); x slower: the baseline's rate over this row's", head]
    for row in rows:
        rates = "".join(f"{row.rate(kind):>12.0f}" for kind in kinds)
        slower = base.rate() / row.rate() if row.rate() else float("inf")
        lines.append(
            f"{row.label:<{width}}{row.report.failed:>7}{row.start:>9.2f}{rates}{row.rate():>10.0f}{slower:>10.1f}"
        )
    lines += [
        "",
        "per kind, x slower than the baseline:",
        f"{'implementation':<{width}}" + "".join(f"{k:>12}" for k in kinds),
    ]
    for row in rows[1:]:
        ratios = "".join(f"{base.rate(k) / row.rate(k) if row.rate(k) else float('inf'):>12.1f}" for k in kinds)
        lines.append(f"{row.label:<{width}}{ratios}")
    return "\n".join(lines)


def markdown_tables(rows: list[Row], kinds: list[str]) -> list[perf_doc.Table]:
    """The two tables of `table`, as perf_doc tables: rates per kind, then each row's ratio to the baseline."""
    base = rows[0]

    def ratio(row: Row, kind: str | None = None) -> str:
        return perf_doc.times(base.rate(kind) / row.rate(kind)) if row.rate(kind) else "n/a"

    rates = perf_doc.Table(
        "Cases per second through the stdio protocol (start-up apart: `start s` is the handshake), beside the "
        "in-process baseline (the same cases and comparison, answered by a function call); `slower`: the "
        "baseline's rate over the row's.",
        ["implementation", "cases", "failed", "start s", *kinds, "all", "slower"],
        [
            [
                row.label,
                f"{len(row.report.records):,}",
                f"{row.report.failed}",
                f"{row.start:.2f}",
                *(f"{row.rate(kind):,.0f}" for kind in kinds),
                f"{row.rate():,.0f}",
                ratio(row),
            ]
            for row in rows
        ],
    )
    per_kind = perf_doc.Table(
        "Per kind, how many times slower than the baseline.",
        ["implementation", *kinds],
        [[row.label, *(ratio(row, kind) for kind in kinds)] for row in rows[1:]],
    )
    return [rates, per_kind]


@dataclass(frozen=True)
class Startup:
    label: str
    wall: float
    cpu: float
    """Seconds of CPU of the command and its children (the testee), user and system."""


def one_command(argv: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds of one command run to its end (it must pass its one case)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True, timeout=300, check=False)
    wall = time.perf_counter() - began
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"bench_runner: {shlex.join(argv)} exited {done.returncode}:\n{done.stdout}{done.stderr}")
    return wall, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def startup(case_id: str, runs: int) -> list[Startup]:
    """`iospec run --id` for one case through the reference testee, and the same reading every file; the best (by
    wall time) of `runs` each, taken in turns so that a busy moment of the machine weighs on both alike."""
    with tempfile.TemporaryDirectory() as folder:
        empty = Path(folder) / "empty.json"
        empty.write_text(json.dumps({"entries": []}), encoding="utf-8")
        command = [IOSPEC, "run", "--impl", REFERENCE, "--id", case_id]
        rows = {
            f"iospec run --id {case_id}, its one file read": command,
            f"iospec run --id {case_id}, every vector file read (baseline: an empty --xfail list)": [
                *command,
                "--xfail",
                str(empty),
            ],
        }
        best: dict[str, tuple[float, float]] = {}
        for _ in range(runs):
            for label, argv in rows.items():
                timing = one_command(argv)
                best[label] = min(best.get(label, timing), timing)
    return [Startup(label, *best[label]) for label in reversed(rows)]


def startup_table(rows: list[Startup]) -> perf_doc.Table:
    base = rows[0]
    return perf_doc.Table(
        "Start-up of one case: the whole command, wall and CPU (the runner's and the testee's), beside the same "
        "command reading every vector file; `faster`: the baseline's time over the row's.",
        ["command", "wall s", "CPU s", "faster (wall)", "faster (CPU)"],
        [
            [
                row.label,
                f"{row.wall:.2f}",
                f"{row.cpu:.2f}",
                perf_doc.times(base.wall / row.wall),
                perf_doc.times(base.cpu / row.cpu),
            ]
            for row in rows
        ],
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument(
        "--impl",
        action="append",
        default=[],
        metavar="COMMAND",
        help="another testee's command line to measure (repeatable)",
    )
    parser.add_argument("--kind", action="append", default=[], choices=KINDS, help="measure only this kind")
    parser.add_argument("--repeat", type=int, default=3, help="runs per row; the best is shown (default 3)")
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds per answer (default 30)")
    perf_doc.add_option(parser)
    args = parser.parse_args(argv)
    run = perf_doc.begin("bench_runner", argv, args.write_docs)
    cases, problems = load_cases()
    if problems:
        print("\n".join(map(str, problems)), file=sys.stderr)
    cases = select(cases, kinds=args.kind)
    kinds = [kind for kind in KINDS if any(case.kind == kind for case in cases)]
    print(f"{len(cases)} cases ({', '.join(kinds)}), best of {args.repeat} run(s) each")
    rows = [best(args.repeat, partial(in_process, cases))]
    for label, command in [("python reference (stdio)", REFERENCE), *((c, c) for c in args.impl)]:
        rows.append(best(args.repeat, partial(through_stdio, label, command, cases, args.timeout)))
    print(table(rows, kinds))
    started = startup(STARTUP_CASE, args.repeat)
    print("\nstart-up of one case (best of each):")
    print("\n".join(f"  {row.label}: {row.wall:.2f} s wall, {row.cpu:.2f} s CPU" for row in started))
    run.write(
        [*markdown_tables(rows, kinds), startup_table(started)],
        [f"{len(cases):,} cases ({', '.join(kinds)}), best of {args.repeat} run(s) each."],
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

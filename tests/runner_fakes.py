"""The small suite and the fake testees (tests/fake_testees/) the runner tests share: write the suite, start a
fake, run it, and read the reports back.

The fakes serve a small suite written here (rows_of cases whose rows are the answer itself, schedule cases
with nothing declared), so that a failure is always the one the test asked for.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import sys
import time
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator

from seq_io.reference.spec_data import load_spec
from seq_io.runner import run
from seq_io.runner.reports import Report, as_json
from seq_io.runner.suite import load_cases
from seq_io.runner.xfail import ExpectedFailures
from seq_io.vectors import CONFORMANCE

FAKES = Path(__file__).parent / "fake_testees"
REPORT_SCHEMA = Draft202012Validator(json.loads((CONFORMANCE / "schema" / "report.schema.json").read_text()))
CLOSING_LINE = re.compile(r"^(?P<counts>.+) in (?P<seconds>\d+\.\d\d) s$")
COUNTED = re.compile(r"^(\d+) (failed|passed|skipped|xfailed|xpassed|errors?|not run|run problems?)$")

ROWS_FILE = """$schema: ../../schema/vector-file.schema.json
kind: rows_of
id_prefix: fake
groups:
  - group: echo
    why: Declared with actions {}, every element of the answer is a row and all of them play.
    tags: [typical]
    cases:
{cases}
"""
ROWS_CASE = """      - id: fake-{n:04d}
        why: The rows are the answer itself.
        answer: [[{n}], [{n}, {n}]]
        actions: {{}}
        expect: {{rows: [[{n}], [{n}, {n}]]}}
"""
SCHEDULE_FILE = """$schema: ../../schema/vector-file.schema.json
kind: schedule
id_prefix: fakesch
groups:
  - group: nothing-declared
    why: With nothing declared an act reads its own step whole and keeps nothing older.
    declaration: null
    reads_past: {declaration: false, schedule: false}
    cases:
      - id: fakesch-0001
        t: 4
        t_prev: 1
        expect: {picks: [[4, null]], needed: [], wanted: [], keeps_from: 5}
"""


def make_suite(root: Path) -> Path:
    """The small suite the fakes serve: four rows_of cases (fake-0001…4) and one schedule case (fakesch-0001)."""
    (root / "rows-of").mkdir(parents=True)
    (root / "schedule").mkdir()
    cases = "".join(ROWS_CASE.format(n=n) for n in range(1, 5))
    (root / "rows-of" / "fake.yaml").write_text(ROWS_FILE.replace("{cases}", cases.rstrip("\n")))
    (root / "schedule" / "fake.yaml").write_text(SCHEDULE_FILE)
    return root


def fake(name: str, *args: str) -> list[str]:
    return [sys.executable, str(FAKES / f"{name}.py"), *args]


def run_fake(
    suite_dir: Path,
    argv: list[str],
    *,
    timeout: float = 5.0,
    start_timeout: float = 10.0,
    grace: float = 2.0,
    expected: ExpectedFailures | None = None,
    max_timeouts: int = run.MAX_TIMEOUTS,
    announced: list[str] | None = None,
) -> tuple[Report, float, int]:
    """(report, seconds taken, sessions started) of the small suite through a fake testee."""
    cases, problems = load_cases(suite_dir)
    assert not problems, problems
    testee = run.StdioTestee(
        argv,
        load_spec().contract_version,
        timeout=timeout,
        start_timeout=start_timeout,
        shutdown_grace=grace,
        announce=None if announced is None else announced.append,
    )
    began = time.monotonic()
    report = run.run_cases(cases, testee, expected, command=argv, max_timeouts=max_timeouts)
    return report, time.monotonic() - began, testee.starts


def by_id(report: Report) -> dict[str, Any]:
    return {record.case.id: record for record in report.records}


def assert_valid_report(report: Report) -> dict[str, Any]:
    document: dict[str, Any] = json.loads(json.dumps(as_json(report)))
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in REPORT_SCHEMA.iter_errors(document)]
    assert not errors, errors
    return document


def final_counts(text: str) -> dict[str, int]:
    """The summary's last line ("2 failed, 3 passed, 1 run problem in 0.52 s") → {"failed": 2, "passed": 3,
    "run problem": 1}; an outcome that did not occur is absent (and the line must name at least one)."""
    match = CLOSING_LINE.match(text.rstrip("\n").splitlines()[-1])
    assert match, text[-300:]
    if match["counts"] == "no cases ran":
        return {}
    found = [COUNTED.match(part) for part in match["counts"].split(", ")]
    assert all(found), text[-300:]
    return {m[2].rstrip("s") if m[2].startswith(("error", "run problem")) else m[2]: int(m[1]) for m in found if m}


def closing_line(text: str) -> tuple[int, int]:
    """(cases passed, cases and run problems not acceptable) as the summary's last line counts them."""
    counted = final_counts(text)
    return counted.pop("passed", 0), sum(n for outcome, n in counted.items() if outcome != "xfailed")


def gone(pid: int, within: float = 3.0) -> bool:
    """Whether the process `pid` is dead (gone, or a zombie) within `within` seconds: a SIGKILL takes effect
    a moment after it is sent."""
    deadline = time.monotonic() + within
    while True:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                return True
            state = "?"  # no /proc: the process exists
        if state in ("Z", "X"):
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)


def cli(suite_dir: Path, argv: list[str], *args: str) -> list[str]:
    return ["--impl", shlex.join(argv), "--vectors", str(suite_dir), *args]

"""The runner's sessions with testees that misbehave between and around their answers: output after an answer
is charged to the case it followed, a testee that keeps timing out stops the run early, nothing the testee
started outlives the run (a grandchild in a session of its own included), the close says what it waits for,
and what the testee wrote reaches the terminal escaped. Also: every difference of a failing case is reported
(bounded), in the summary and in the JSON report, and the protocol's wire facts that protocol.md states.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import pytest

import suite_cache
from runner_fakes import (
    ROWS_CASE,
    ROWS_FILE,
    assert_valid_report,
    by_id,
    cli,
    closing_line,
    fake,
    gone,
    run_fake,
)
from seq_io import runner
from seq_io.reference.spec_data import load_spec
from seq_io.runner import protocol, run
from seq_io.runner.compare import compare, request
from seq_io.runner.protocol import Stray
from seq_io.runner.reports import summary
from seq_io.runner.suite import SuiteCase, load_cases
from seq_io.vectors import CONFORMANCE, Case

GRACE_S = 30.0
"""The close's grace for a testee to exit: long, so that a close measured below it proves the grace was not
waited out, however loaded the machine."""

# -- output that answers nothing ----------------------------------------------------------------------------


@pytest.mark.parametrize("wait", [0.0, 0.3])
def test_a_line_printed_after_an_answer_is_charged_to_that_case_not_the_next(suite_dir: Path, wait: float) -> None:
    """With wait 0.3 the extra line reaches the runner after it sent the next request: still the case whose
    answer it followed is charged, and the next case passes on its own answer."""
    report, _, starts = run_fake(suite_dir, fake("chatty", "--on", "fake-0002", "--wait", str(wait)))
    records = by_id(report)
    chatty = records["fake-0002"]
    assert chatty.outcome == "fail", chatty.verdict
    assert chatty.verdict.detail.startswith("after its answer the testee printed output that answers nothing")
    assert chatty.verdict.printed is not None and "done with the case" in chatty.verdict.printed.stdout
    assert [records[i].outcome for i in ("fake-0001", "fake-0003", "fake-0004", "fakesch-0001")] == ["pass"] * 4
    assert starts == 1 and closing_line(summary(report)) == (4, 1)
    assert_valid_report(report)


def test_a_second_answer_is_charged_to_the_case_it_repeats(suite_dir: Path) -> None:
    report, _, _ = run_fake(suite_dir, fake("chatty", "--on", "fake-0003", "--how-chatty", "twice", "--wait", "0.2"))
    records = by_id(report)
    repeated = records["fake-0003"]
    assert repeated.outcome == "fail" and "a second answer to fake-0003" in repeated.verdict.detail
    assert records["fake-0004"].outcome == "pass"


def test_a_line_printed_after_the_last_answer_is_charged_to_the_last_case(suite_dir: Path) -> None:
    report, _, _ = run_fake(suite_dir, fake("chatty", "--on", "fakesch-0001", "--wait", "0.1"))
    last = by_id(report)["fakesch-0001"]
    assert last.outcome == "fail" and last.verdict.detail.startswith("after its answer the testee printed")
    assert report.passed == 4 and not report.problems


@pytest.mark.realclock
def test_a_testee_found_gone_after_an_answer_charges_that_case_and_is_restarted(suite_dir: Path) -> None:
    """The exit is only seen when it happened before the next request is sent (the wait for it makes sure here,
    bounded, however loaded the machine); later, it cannot be told from a crash on the next case, which is then
    charged."""
    cases = load_cases(suite_dir)[0]
    testee = run.StdioTestee(fake("quit", "--on", "fake-0001"), load_spec().contract_version)
    testee.hello()
    assert testee.ask(request(cases[0]))["type"] == "result"
    session, give_up = testee._session, time.monotonic() + 30
    while session is not None and session.ended() is None:
        assert time.monotonic() < give_up, "the quitting testee did not exit within 30 s"
        time.sleep(0.02)
    testee.hello()
    assert testee.strays() == [Stray("fake-0001", "", "ended (exit status 0)")] and testee.starts == 2
    assert testee.ask(request(cases[1]))["type"] == "result"
    assert testee.close() == []


# -- early stop ---------------------------------------------------------------------------------------------


@pytest.mark.realclock
def test_a_testee_that_keeps_timing_out_stops_the_run_early(suite_dir: Path) -> None:
    every = [arg for n in range(1, 5) for arg in ("--on", f"fake-{n:04d}")] + ["--on", "fakesch-0001"]
    report, seconds, starts = run_fake(suite_dir, fake("hang", *every), timeout=0.3, max_timeouts=2)
    outcomes = [r.outcome for r in report.records]
    assert outcomes == ["fail", "fail", "error", "error", "error"], outcomes
    assert [r.verdict.timed_out for r in report.records[:2]] == [True, True]
    assert (
        "did not answer 2 cases in a row within the timeout; the run stopped (--max-timeouts 2)"
        in report.records[2].verdict.detail
    )
    assert starts == 2 and seconds < 60  # stopped, not 5 timeouts and a restart each (generous: a loaded machine)
    report, _, _ = run_fake(suite_dir, fake("hang", *every), timeout=0.2, max_timeouts=0)
    assert [r.outcome for r in report.records] == ["fail"] * 5  # 0: never stop


@pytest.mark.realclock
def test_an_answer_between_timeouts_starts_the_count_again(suite_dir: Path) -> None:
    report, _, _ = run_fake(
        suite_dir,
        fake("hang", "--on", "fake-0001", "--on", "fake-0003", "--on", "fake-0004"),
        timeout=0.3,
        max_timeouts=2,
    )
    assert [r.outcome for r in report.records] == ["fail", "pass", "fail", "fail", "error"]


def test_the_default_early_stop_is_documented_and_the_flag_exists(capsys: pytest.CaptureFixture[str]) -> None:
    text = (CONFORMANCE / "protocol.md").read_text()
    assert f"`--max-timeouts`, default {runner.run.MAX_TIMEOUTS}" in text
    with pytest.raises(SystemExit):
        runner.main(["--help"])
    assert "--max-timeouts N" in capsys.readouterr().out


# -- nothing outlives the run -------------------------------------------------------------------------------


def _pids(path: Path) -> list[int]:
    return [int(pid) for pid in path.read_text().split()]


@pytest.mark.realclock
@pytest.mark.parametrize(
    ("spawn", "keeps_stdout"), [("setsid", True), ("setsid", False), ("orphan", False), ("plain", True)]
)
def test_what_the_testee_started_is_killed_at_the_close(
    suite_dir: Path, tmp_path: Path, spawn: str, keeps_stdout: bool
) -> None:
    """A grandchild in a session of its own (setsid), one whose parent already exited (orphan), one in the
    testee's group: none outlives the run; a grandchild holding the testee's stdout open does not make the
    close wait out its grace; the report names what was left behind."""
    pids = tmp_path / "pids"
    pids.write_text("")
    args = ["--spawn", spawn, "--pid-file", str(pids)] + (["--spawn-stdout"] if keeps_stdout else [])
    began = time.monotonic()
    report, _, _ = run_fake(suite_dir, fake("spawner", *args), grace=GRACE_S)
    closed_in = time.monotonic() - began
    testee, grandchild = _pids(pids)
    assert gone(testee) and gone(grandchild), "a process the testee started outlived the run"
    assert report.passed == 5 and closed_in < GRACE_S, f"the close waited out its grace: {closed_in:.1f} s"
    assert [p.message for p in report.problems] == [
        f"the testee left 1 process(es) running after it exited, killed now: pid {grandchild} (python3)"
    ] or re.fullmatch(
        rf"the testee left 1 process\(es\) running after it exited, killed now: pid {grandchild} "
        r"\(python[0-9.]*\)",
        report.problems[0].message,
    ), report.problems


@pytest.mark.realclock
def test_a_testee_killed_after_a_timeout_takes_its_setsid_grandchild_along(suite_dir: Path, tmp_path: Path) -> None:
    pids = tmp_path / "pids"
    pids.write_text("")
    report, _, starts = run_fake(
        suite_dir,
        fake("spawner", "--spawn", "setsid", "--spawn-on", "fake-0002", "--on", "fake-0002", "--pid-file", str(pids)),
        timeout=0.5,
    )
    assert by_id(report)["fake-0002"].verdict.timed_out and starts == 2
    first_testee, grandchild, second_testee = _pids(pids)
    assert gone(first_testee) and gone(grandchild) and gone(second_testee)


def test_the_processes_module_never_picks_the_runner_or_an_unrelated_process() -> None:
    import os
    import subprocess
    import sys

    from seq_io.runner import processes

    stranger = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(20)"], start_new_session=True)
    try:
        found = processes.started_by(stranger.pid, processes.new_token())
        assert [p.pid for p in found] == [stranger.pid]  # by session: only itself
        assert all(p.pid != os.getpid() for p in processes.started_by(os.getpid(), processes.new_token()))
    finally:
        stranger.kill()
        stranger.wait(5)


# -- what reaches the terminal ------------------------------------------------------------------------------


def test_the_summary_escapes_control_characters_from_the_testee(suite_dir: Path) -> None:
    noise = r"bell\x07 nul\x00 \x1b[2J\x1b[31mred\x1b[0m \x9b rtl\u202e end\n"
    report, _, _ = run_fake(suite_dir, fake("noisy", "--on", "fake-0002", "--stderr", noise, "--wrong", "fake-0002"))
    text = summary(report)
    assert not re.search("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202e]", text), repr(text)
    assert r"bell\x07 nul\x00 \x1b[2J\x1b[31mred\x1b[0m \x9b rtl\u202e end" in text
    assert closing_line(text) == (4, 1)


def test_an_error_message_from_the_testee_is_escaped_too(suite_dir: Path) -> None:
    case = load_cases(suite_dir)[0][0]
    verdict = compare(case, {"type": "error", "id": case.id, "rule": "x\x1b[31m", "message": "m\x07"})
    assert verdict.status == "fail"
    from seq_io.runner.reports import printable

    assert printable(verdict.detail) == verdict.detail.replace("\x1b", "\\x1b").replace("\x07", "\\x07")


# -- differences --------------------------------------------------------------------------------------------


def _rows_case(expected_rows: list[Any]) -> SuiteCase:
    data = {"id": "t-0001", "answer": [], "actions": {}, "expect": {"rows": expected_rows}}
    return SuiteCase("rows_of", Case("t-0001", "x.yaml", 1, {"group": "g", "why": "w"}, data), None, "x/g", frozenset())


def test_every_differing_path_is_reported_up_to_ten_with_a_count_of_the_rest() -> None:
    case = _rows_case([[n] for n in range(25)])
    got = [[n] if n % 2 == 0 else ["x"] for n in range(24)]  # 12 differ, and one row is missing
    verdict = compare(case, {"type": "result", "id": "t-0001", "result": {"rows": got}})
    assert [d.at for d in verdict.differences] == [f"$.rows[{n}][0]" for n in range(1, 20, 2)]
    assert verdict.more == 3  # two more differing rows and the missing 25th
    assert verdict.detail.endswith("; and 3 more differences")


def test_the_summary_and_the_json_report_show_all_differences(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / "vectors" / "rows-of"
    root.mkdir(parents=True)
    big = ROWS_CASE.format(n=1).replace("[[1], [1, 1]]", json.dumps([[n] for n in range(3000)]))
    (root / "big.yaml").write_text(ROWS_FILE.replace("{cases}", big.rstrip("\n")))
    (root / "one.yaml").write_text(
        ROWS_FILE.replace("id_prefix: fake", "id_prefix: two").replace(
            "{cases}", ROWS_CASE.format(n=2).replace("fake-0002", "two-0002").rstrip("\n")
        )
    )
    out = tmp_path / "r.json"
    argv = fake("echo", "--wrong", "fake-0001", "--wrong", "two-0002")
    code = runner.main(cli(root.parent, argv, "--json", str(out)))
    assert code == 1
    text = capsys.readouterr().out
    assert '  at $.rows[0][0]\n    expected: 0\n    got:      "wrong"' in text
    assert "  at $.rows[1] (lengths: expected 3000, got 1)\n    expected: [1]\n    got:      (absent)" in text
    assert "  at $.rows[1] (lengths: expected 2, got 1)\n    expected: [2,2]\n    got:      (absent)" in text
    document = json.loads(out.read_text())
    two = next(case for case in document["cases"] if case["id"] == "two-0002")
    assert two["differences"] == [
        {"at": "$.rows[0][0]", "expected": 2, "got": "wrong"},
        {"at": "$.rows[1]", "expected": [2, 2], "note": "lengths: expected 2, got 1"},
    ]


def test_a_value_too_long_for_the_json_report_is_an_excerpt(tmp_path: Path) -> None:
    case = _rows_case([list(range(2000))])
    verdict = compare(case, {"type": "result", "id": "t-0001", "result": {"rows": "no"}})
    from seq_io.runner.reports import _difference_json

    shown = _difference_json(verdict.differences[0])
    assert (
        "expected" not in shown
        and shown["expected_excerpt"].startswith("[[0,1,2,")
        and len(shown["expected_excerpt"]) == 2001
        and shown["got"] == "no"
    )


def test_a_result_where_a_refusal_was_expected_shows_the_result() -> None:
    data = {"id": "t-0001", "answer": [], "actions": {}, "expect": {"error": "rows_of.no-rows"}}
    case = SuiteCase("rows_of", Case("t-0001", "x.yaml", 1, {"group": "g", "why": "w"}, data), None, "x/g", frozenset())
    verdict = compare(case, {"type": "result", "id": "t-0001", "result": {"rows": [[7]]}})
    assert verdict.differences[0].at == "$"
    assert verdict.differences[0].expected == {"error": "rows_of.no-rows"}
    assert verdict.differences[0].got == {"result": {"rows": [[7]]}}
    from seq_io.runner.reports import Record, _failure_block

    lines = _failure_block(Record(case, verdict, "fail", False))
    assert '    got:      {"result":{"rows":[[7]]}}' in lines, lines


# -- the wire facts protocol.md states ----------------------------------------------------------------------


def test_requests_are_compact_ascii_json_with_big_integers_in_full(tmp_path: Path) -> None:
    text = (CONFORMANCE / "protocol.md").read_text()
    assert "separators `,` and `:` with no spaces" in text and "301-digit integer" in text
    line = protocol.encode({"type": "case", "id": "a-0001", "input": {"s": "é\ud800", "n": 10**300, "f": 3.0}})
    assert line == (b'{"type":"case","id":"a-0001","input":{"s":"\\u00e9\\ud800","n":1' + b"0" * 300 + b',"f":3.0}}\n')
    cases, problems = suite_cache.cases()
    assert not problems
    overflow = next(c for c in cases if c.id == "sch-invalid-0065")  # rate: 1.0e+300 in the file
    sent = protocol.encode(request(overflow)).decode()
    assert '"rate":1' + "0" * 300 + "," in sent


def test_the_schedule_result_schema_does_not_call_needed_a_set() -> None:
    schema = (CONFORMANCE / "protocol" / "result-schedule.schema.json").read_text()
    assert "compared as a set" not in schema and "compared in order, not as a set" in schema

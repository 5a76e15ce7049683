"""The conformance runner against testees that misbehave on purpose (tests/fake_testees/) and against the
reference: every wait bounded, each failure recorded with what the testee printed, restarts, the strict
expected-failure list and `--fix`, the reports (JUnit parses, TAP has its plan, JSON matches its schema), and
the comparison rules of conformance/protocol.md. The small suite and the fakes: tests/runner_fakes.py.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import pytest

import suite_cache
from runner_fakes import (
    REPORT_SCHEMA,
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
from seq_io.reference import cases as reference_cases
from seq_io.reference import testee as reference_testee
from seq_io.reference import validation_cases
from seq_io.reference.spec_data import load_spec
from seq_io.runner import run, xfail
from seq_io.runner.compare import compare, request
from seq_io.runner.protocol import Traffic
from seq_io.runner.reports import Report, junit, summary, tap
from seq_io.runner.suite import SuiteCase, load_cases, select
from seq_io.runner.verdict import Verdict
from seq_io.runner.xfail import Entry, ExpectedFailures
from seq_io.vectors import Case

# -- testees that misbehave ---------------------------------------------------------------------------------


def test_a_well_behaved_testee_passes_everything(suite_dir: Path) -> None:
    report, _, starts = run_fake(suite_dir, fake("echo"))
    assert [r.outcome for r in report.records] == ["pass"] * 5 and not report.problems
    assert starts == 1 and report.implementation == ("fake", "0")
    assert closing_line(summary(report)) == (5, 0)


def test_a_crash_fails_that_case_with_the_last_words_and_the_run_goes_on(suite_dir: Path) -> None:
    report, _, starts = run_fake(suite_dir, fake("crash", "--on", "fake-0002"))
    records = by_id(report)
    crashed = records["fake-0002"]
    assert crashed.outcome == "fail" and "exited without answering" in crashed.verdict.detail
    assert crashed.verdict.printed is not None
    assert "about to die on fake-0002" in crashed.verdict.printed.stderr
    assert crashed.verdict.printed.exit == "exit status 3"
    others = ("fake-0001", "fake-0003", "fake-0004", "fakesch-0001")
    assert [records[i].outcome for i in others] == ["pass"] * 4
    assert starts == 2
    text = summary(report)
    assert "about to die on fake-0002" in text and closing_line(text) == (4, 1)


@pytest.mark.realclock
def test_a_hang_costs_one_timeout_and_the_process_is_killed(suite_dir: Path, tmp_path: Path) -> None:
    pids = tmp_path / "pids"
    report, seconds, starts = run_fake(
        suite_dir, fake("hang", "--on", "fake-0003", "--pid-file", str(pids)), timeout=0.5
    )
    hung = by_id(report)["fake-0003"]
    assert hung.outcome == "fail" and hung.verdict.detail == "no answer within 0.5 s"
    assert report.passed == 4 and starts == 2
    assert seconds < 60, f"the run waited for the hang: {seconds:.1f} s"  # generous: the machine may be loaded
    assert all(gone(int(pid)) for pid in pids.read_text().split()), "a testee process was left running"


@pytest.mark.realclock
def test_a_testee_that_stops_reading_cannot_block_a_large_request(tmp_path: Path) -> None:
    root = tmp_path / "vectors" / "rows-of"
    root.mkdir(parents=True)
    big = ROWS_CASE.format(n=1).replace("[[1], [1, 1]]", json.dumps([[n] for n in range(20_000)]))
    (root / "big.yaml").write_text(ROWS_FILE.replace("{cases}", big.rstrip("\n")))
    report, seconds, _ = run_fake(root.parent, fake("hang", "--deaf"), timeout=0.5)
    assert report.records[0].verdict.detail == "no answer within 0.5 s" and seconds < 60


@pytest.mark.realclock
def test_garbage_is_recorded_with_what_was_printed(suite_dir: Path) -> None:
    report, _, starts = run_fake(suite_dir, fake("garbage", "--on", "fake-0001"), timeout=0.5)
    record = by_id(report)["fake-0001"]
    assert record.outcome == "fail" and "not a protocol message" in record.verdict.detail
    assert record.verdict.detail.startswith("no answer within 0.5 s; before that it printed output that answers")
    assert record.verdict.printed is not None and "this is not JSON" in record.verdict.printed.stdout
    assert report.passed == 4 and starts == 2
    xml = junit(report)  # the NUL and escape bytes must not make the XML unreadable
    assert ElementTree.fromstring(xml.encode()).find(".//failure") is not None


def test_an_answer_with_another_id_fails_and_restarts(suite_dir: Path) -> None:
    report, _, starts = run_fake(suite_dir, fake("wrong_id", "--on", "fake-0004"))
    record = by_id(report)["fake-0004"]
    detail = record.verdict.detail
    assert record.outcome == "fail" and '"fake-9999"' in detail and '"fake-0004"' in detail
    assert report.passed == 4 and starts == 2


@pytest.mark.realclock
def test_a_slow_answer_past_the_timeout_fails_then_the_run_goes_on(suite_dir: Path) -> None:
    report, seconds, _ = run_fake(suite_dir, fake("slow", "--on", "fake-0001", "--delay", "60"), timeout=0.3)
    assert by_id(report)["fake-0001"].verdict.detail == "no answer within 0.3 s"
    assert report.passed == 4 and seconds < 60  # it did not wait for the late answer
    report, _, _ = run_fake(suite_dir, fake("slow", "--on", "fake-0001", "--delay", "0.1"), timeout=5)
    assert report.passed == 5


@pytest.mark.realclock
@pytest.mark.parametrize(
    ("how", "words"),
    [
        ("protocol", "speaks protocol 2; this runner speaks 1"),
        ("version", 'implements contract "0.0.1"'),
        ("garbage", "not a protocol message"),
        ("no-kinds", "`kinds` must be a list"),
        ("type", "the first line must be a hello"),
        ("exit", "exited without answering"),
        ("silent", "no answer within 0.5 s"),
    ],
)
def test_a_bad_handshake_ends_the_run_with_every_case_an_error(suite_dir: Path, how: str, words: str) -> None:
    report, seconds, starts = run_fake(suite_dir, fake("bad_handshake", "--how", how), start_timeout=0.5)
    assert [r.outcome for r in report.records] == ["error"] * 5
    assert words in report.records[0].verdict.detail, report.records[0].verdict.detail
    assert all("not run" in r.verdict.detail for r in report.records[1:])
    assert starts == 1 and seconds < 60 and report.failed == 5 and report.implementation is None
    if how == "exit":
        printed = report.records[0].verdict.printed
        assert printed is not None and "cannot start, giving up" in printed.stderr
    assert_valid_report(report)


def test_a_testee_that_cannot_start_is_an_error_not_a_traceback(suite_dir: Path) -> None:
    report, _, _ = run_fake(suite_dir, ["/no/such/testee"])
    first = report.records[0]
    assert first.outcome == "error" and "cannot start the testee" in first.verdict.detail


@pytest.mark.realclock
def test_a_testee_that_lingers_after_stdin_closes_is_killed_and_reported(suite_dir: Path) -> None:
    announced: list[str] = []
    report, seconds, _ = run_fake(suite_dir, fake("echo", "--linger"), grace=1.0, announced=announced)
    assert report.passed == 5 and seconds < 60  # the lingering testee was killed, not waited for
    assert [p.message for p in report.problems] == [
        "the testee did not exit within 1 s after its stdin was closed; it was killed"
    ]
    assert closing_line(summary(report)) == (5, 1)
    assert len(announced) == 1 and re.fullmatch(
        r"waiting up to 1 s for the testee \(pid \d+\) to exit after its "
        r"stdin was closed",
        announced[0],
    ), announced


def test_a_testee_ending_with_a_bad_status_is_reported(suite_dir: Path) -> None:
    report, _, _ = run_fake(suite_dir, fake("echo", "--exit-status", "4"))
    assert len(report.problems) == 1 and "exit status 4" in report.problems[0].message and not report.ok


def test_kinds_the_testee_does_not_list_are_counted_as_skips_that_fail_unless_listed(suite_dir: Path) -> None:
    """Unlisted, a skip is the outcome `skip` (its own column), and it fails the run; listed, it is an expected
    failure (xfail), as protocol.md says."""
    report, _, _ = run_fake(suite_dir, fake("echo", "--kinds", "rows_of", "--skip", "fake-0002"))
    for case_id, words in (("fakesch-0001", "kind not supported"), ("fake-0002", "skipped by the testee")):
        skipped = by_id(report)[case_id]
        assert skipped.verdict.status == "skip" and skipped.outcome == "skip" and not skipped.ok
        assert words in skipped.verdict.detail
    text = summary(report)
    assert re.search(r"^all +5 +3 +0 +0 +0 +2 +0$", text, re.MULTILINE), text
    assert "2 skipped case(s) count as failures" in text and closing_line(text) == (3, 2)
    assert assert_valid_report(report)["totals"]["skip"] == 2
    root = ElementTree.fromstring(junit(report).encode())
    assert root.get("failures") == "2" and len(root.findall(".//failure[@type='skip']")) == 2
    assert sum(line.startswith("not ok") for line in tap(report).splitlines()) == 2
    listed = ExpectedFailures(
        {
            "fakesch-0001": Entry("fakesch-0001", "no schedule yet"),
            "fake-0002": Entry("fake-0002", "skipped on purpose"),
        }
    )
    report, _, _ = run_fake(suite_dir, fake("echo", "--kinds", "rows_of", "--skip", "fake-0002"), expected=listed)
    assert [by_id(report)[i].outcome for i in ("fakesch-0001", "fake-0002")] == ["xfail", "xfail"] and report.ok


def test_validate_traffic_catches_a_result_of_the_wrong_shape(suite_dir: Path) -> None:
    cases = load_cases(suite_dir)[0]
    argv = fake("echo", "--bad-shape", "fake-0002")
    testee = run.StdioTestee(argv, load_spec().contract_version, traffic=Traffic())
    report = run.run_cases(cases, testee, traffic=Traffic())
    detail = by_id(report)["fake-0002"].verdict.detail
    assert "protocol/result-rows_of.schema.json" in detail and "$.rows" in detail
    assert report.passed == 4


# -- the expected-failure list ------------------------------------------------------------------------------


def test_expected_failures_are_strict(suite_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    listed = tmp_path / "xfail.json"
    listed.write_text(
        json.dumps(
            {
                "entries": [
                    {"id": "fake-0001", "reason": "listed, but it passes"},
                    {"id": "fake-0002", "reason": "wrong rows, as expected"},
                    {"id": "fake-0003", "reason": "refused, but not as listed", "error": "rows_of.ragged"},
                    {"id": "fake-0004", "reason": "refused as listed", "error": "rows_of.mixed"},
                    {"id": "fake-0099", "reason": "names no case"},
                ]
            }
        )
    )
    argv = fake(
        "echo", "--wrong", "fake-0002", "--refuse", "fake-0003=rows_of.mixed", "--refuse", "fake-0004=rows_of.mixed"
    )
    assert runner.main(cli(suite_dir, argv, "--xfail", str(listed), "--show", "10")) == 1
    out = capsys.readouterr().out
    assert "XPASS fake-0001" in out and "unexpected pass" in out
    assert "FAIL fake-0003" in out
    assert (
        "listed (fake-0003) as failing with the refusal rows_of.ragged, but it failed with the refusal rows_of.mixed"
    ) in out
    assert "fake-0002" not in out.split("failing case")[1] and "fake-0004" not in out.split("failing case")[1]
    assert "fake-0099 names no case of the suite" in out
    assert closing_line(out) == (1, 3)  # fakesch-0001 passes; xpass, failed differently, stale entry


def test_fix_rewrites_the_list_then_the_run_passes(
    suite_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    listed = tmp_path / "xfail.json"
    listed.write_text(
        json.dumps(
            {
                "description": "the echo fake",
                "entries": [
                    {"id": "fake-0001", "reason": "passes now"},
                    {"id": "fake-0003", "reason": "keep this reason"},
                    {"id": "fake-0099", "reason": "names no case"},
                ],
            }
        )
    )
    argv = fake("echo", "--wrong", "fake-0002", "--refuse", "fake-0003=rows_of.mixed", "--skip", "fake-0004")
    assert runner.main(cli(suite_dir, argv, "--xfail", str(listed), "--fix")) == 0  # judged by the new list
    out = capsys.readouterr().out
    assert "wrote" in out and "names no case" not in out and closing_line(out) == (2, 0)
    rewritten = json.loads(listed.read_text())
    assert rewritten == {
        "description": "the echo fake",
        "entries": [
            {"id": "fake-0002", "reason": xfail.NEW_REASON},
            {"id": "fake-0003", "reason": "keep this reason", "error": "rows_of.mixed"},
            {"id": "fake-0004", "reason": xfail.NEW_REASON},
        ],
    }
    assert runner.main(cli(suite_dir, argv, "--xfail", str(listed))) == 0
    assert closing_line(capsys.readouterr().out) == (2, 0)


def test_fix_creates_a_missing_list_that_validates(
    suite_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    listed = tmp_path / "lists" / "new.json"
    argv = fake("echo", "--wrong", "fake-0001")
    assert runner.main(cli(suite_dir, argv, "--xfail", str(listed), "--fix")) == 0
    loaded = xfail.load(listed)
    assert list(loaded.entries) == ["fake-0001"]
    # The schema's own `$id`, never a path into the package's install folder (a user's virtualenv).
    assert loaded.header == {"$schema": json.loads(xfail.XFAIL_SCHEMA.read_text())["$id"]}
    capsys.readouterr()


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ('{"entries": [{"id": "fake-0001"}]}', "$.entries[0]: 'reason' is a required property"),
        (
            '{"entries": [{"id": "fake-0001", "reason": "a"}, {"id": "fake-0001", "reason": "b"}]}',
            "$.entries[1].id: fake-0001 is listed twice",
        ),
        ('{"entries": [], "entries": []}', "duplicate"),
        ("[", "not valid JSON"),
    ],
)
def test_an_unusable_list_is_a_usage_error_naming_file_and_path(
    suite_dir: Path, tmp_path: Path, text: str, words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    listed = tmp_path / "bad.json"
    listed.write_text(text)
    assert runner.main(cli(suite_dir, fake("echo"), "--xfail", str(listed))) == 2
    err = capsys.readouterr().err
    assert str(listed) in err and words in err and "Traceback" not in err


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--impl", "'unbalanced", "--fix"], "cannot be split"),
        (["--impl", "echo", "--fix"], "--fix needs --xfail"),
        (["--impl", "echo", "--vectors", "/no/such/folder"], "is not a folder"),
    ],
)
def test_usage_errors_exit_2(args: list[str], words: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert runner.main(args) == 2
    assert words in capsys.readouterr().err


def test_a_filter_that_selects_nothing_is_a_usage_error_with_a_hint(
    suite_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert runner.main(cli(suite_dir, fake("echo"), "--id", "nothing-*")) == 2
    err = capsys.readouterr().err
    assert "--id 'nothing-*' matches no case id" in err
    assert "rows-of/: fake-" in err and "schedule/: fakesch-" in err  # the prefixes, by folder
    assert runner.main(cli(suite_dir, fake("echo"), "--id", "rows-of-*")) == 2
    assert "did you mean --id 'fake-*' (ids of " in capsys.readouterr().err
    assert runner.main(cli(suite_dir, fake("echo"), "--group", "no-such-group")) == 2
    assert "--group 'no-such-group' matches no group" in capsys.readouterr().err
    assert runner.main(cli(suite_dir, fake("echo"), "--id", "fake-0001", "--kind", "schedule")) == 2
    assert "together select no case" in capsys.readouterr().err


def test_an_empty_suite_fails_the_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "empty").mkdir()
    assert runner.main(cli(tmp_path / "empty", fake("echo"))) == 1
    out = capsys.readouterr().out
    assert "no case was selected" in out and closing_line(out) == (0, 1)


def test_filters_select_by_id_group_tag_and_kind(suite_dir: Path) -> None:
    cases = load_cases(suite_dir)[0]
    assert [c.id for c in select(cases, ids=["fake-000[12]"])] == ["fake-0001", "fake-0002"]
    assert [c.id for c in select(cases, groups=["schedule/*"])] == ["fakesch-0001"]
    assert len(select(cases, groups=["echo"])) == 4
    assert len(select(cases, tags=["typical"])) == 4
    assert [c.id for c in select(cases, kinds=["schedule"])] == ["fakesch-0001"]


# -- reports ------------------------------------------------------------------------------------------------


def test_reports_are_written_and_valid(suite_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    listed = tmp_path / "xfail.json"
    listed.write_text(
        json.dumps(
            {"entries": [{"id": "fake-0002", "reason": "wrong rows"}, {"id": "fake-0004", "reason": "no rows_of yet"}]}
        )
    )
    argv = fake("crash", "--on", "fake-0003", "--wrong", "fake-0002", "--skip", "fake-0004")
    out_dir = tmp_path / "reports"
    code = runner.main(
        cli(
            suite_dir,
            argv,
            "--xfail",
            str(listed),
            "--junit",
            str(out_dir / "r.xml"),
            "--tap",
            str(out_dir / "r.tap"),
            "--json",
            str(out_dir / "r.json"),
        )
    )
    assert code == 1
    assert closing_line(capsys.readouterr().out) == (2, 1)
    root = ElementTree.parse(out_dir / "r.xml").getroot()
    assert root.tag == "testsuites" and root.get("tests") == "5" and root.get("failures") == "1"
    assert len(root.findall(".//testcase")) == 5 and len(root.findall(".//skipped[@type='xfail']")) == 2
    failure = root.find(".//testcase[@name='fake-0003']/failure")
    assert failure is not None and "about to die" in (failure.text or "")
    tap_lines = (out_dir / "r.tap").read_text().splitlines()
    assert tap_lines[:2] == ["TAP version 14", "1..5"]
    points = [line for line in tap_lines if re.match(r"(not )?ok \d+ - ", line)]
    assert len(points) == 5
    assert any(line.startswith("not ok") and "# TODO" in line and "fake-0002" in line for line in points)
    assert any(line.startswith("not ok") and "# TODO" in line and "fake-0004" in line for line in points)
    document = json.loads((out_dir / "r.json").read_text())
    assert not [e.message for e in REPORT_SCHEMA.iter_errors(document)]
    assert document["totals"] == {"cases": 5, "pass": 2, "fail": 1, "xfail": 2, "xpass": 0, "skip": 0, "error": 0}
    assert (document["passed"], document["failed"], document["ok"]) == (2, 1, False)
    crashed = next(case for case in document["cases"] if case["id"] == "fake-0003")
    assert "about to die" in crashed["testee_output"]["stderr"]


def test_the_report_schema_refuses_what_the_runner_never_writes(suite_dir: Path) -> None:
    report, _, _ = run_fake(suite_dir, fake("echo", "--wrong", "fake-0001"))
    document = assert_valid_report(report)
    document["cases"][0]["ok"] = True  # a failing case marked acceptable
    document["kinds"][0]["extra"] = 1
    assert len(list(REPORT_SCHEMA.iter_errors(document))) == 2


def test_the_summary_shows_a_readable_diff(suite_dir: Path) -> None:
    report, _, _ = run_fake(suite_dir, fake("echo", "--wrong", "fake-0001"))
    text = summary(report)
    assert "FAIL fake-0001  [rows-of/fake/echo]" in text
    assert '  at $.rows[0][0]\n    expected: 1\n    got:      "wrong"' in text
    assert "rows-of/fake/echo" in text.split("group")[1]  # the group's counts row
    assert closing_line(text) == (4, 1)
    assert tap(report).splitlines()[1] == "1..5"


# -- the comparison rules -----------------------------------------------------------------------------------


def case_of(
    kind: str, data: dict[str, Any], group: dict[str, Any] | None = None, type_name: str | None = None
) -> SuiteCase:
    group = {"group": "g", "why": "a test group", **(group or {})}
    return SuiteCase(kind, Case(data["id"], "x.yaml", 1, group, data), type_name, "x/g", frozenset())


def result(value: dict[str, Any]) -> dict[str, Any]:
    return {"type": "result", "id": "t-0001", "result": value}


SCHEDULE = case_of(
    "schedule",
    {
        "id": "t-0001",
        "t": 5,
        "expect": {"picks": [[2, ["a"]], [5, ["a", "b"]]], "needed": [2, 3], "wanted": [], "keeps_from": 3},
    },
    {"declaration": None, "reads_past": {"declaration": True, "schedule": True}},
)
SCHEDULE_RESULT = {
    "picks": [[2, ["a"]], [5, ["a", "b"]]],
    "needed": [2, 3],
    "wanted": [],
    "keeps_from": 3,
    "reads_past": {"declaration": True, "schedule": True},
}


@pytest.mark.parametrize(
    ("change", "status"),
    [
        ({}, "pass"),
        ({"needed": [3, 2]}, "fail"),  # ascending (SCH-NEEDED)
        ({"needed": [2, 2.0, 3]}, "fail"),  # distinct
        ({"needed": [2.0, 3]}, "pass"),  # numbers by value
        ({"needed": [2]}, "fail"),
        ({"keeps_from": 3.0}, "pass"),  # 3 equals 3.0
        ({"picks": [[5, ["a", "b"]], [2, ["a"]]]}, "fail"),  # ordered
        ({"picks": [[2, ["a"]], [5, ["b", "a"]]]}, "fail"),
        ({"reads_past": {"declaration": 1, "schedule": True}}, "fail"),  # booleans only equal booleans
        ({"extra": "ignored"}, "pass"),
    ],
)
def test_schedule_results_compare_as_protocol_md_says(change: dict[str, Any], status: str) -> None:
    assert compare(SCHEDULE, result(SCHEDULE_RESULT | change)).status == status


def test_a_missing_field_is_a_difference_not_a_crash() -> None:
    verdict = compare(SCHEDULE, result({k: v for k, v in SCHEDULE_RESULT.items() if k != "wanted"}))
    assert verdict.status == "fail" and "$.wanted: expected [], got (absent)" in verdict.detail


def test_reads_past_is_compared_only_when_the_group_gives_it() -> None:
    group = {"declaration": None}
    bare = case_of("schedule", SCHEDULE.case.data, group)
    other = {"reads_past": {"declaration": False, "schedule": 0}}
    assert compare(bare, result(SCHEDULE_RESULT | other)).status == "pass"


def test_error_answers_pass_only_on_the_same_rule() -> None:
    refused = case_of("rows_of", {"id": "t-0001", "answer": [], "actions": {}, "expect": {"error": "rows_of.no-rows"}})
    assert compare(refused, {"type": "error", "id": "t-0001", "rule": "rows_of.no-rows", "message": "m"}) == Verdict(
        "pass", rule="rows_of.no-rows"
    )
    other = compare(refused, {"type": "error", "id": "t-0001", "rule": "rows_of.mixed", "message": "m"})
    assert other.status == "fail" and other.rule == "rows_of.mixed"
    assert compare(refused, result({"rows": []})).status == "fail"
    assert compare(refused, {"type": "skipped", "id": "t-0001", "reason": "later"}).status == "skip"


VALID = case_of(
    "validation", {"id": "t-0001", "why": "w", "json": '{"at": [0, -1.0]}', "valid": True}, type_name="Stream"
)
INVALID = case_of(
    "validation",
    {
        "id": "t-0001",
        "why": "w",
        "instance": {"at": [1]},
        "valid": False,
        "error": {"path": "$.at[0]", "rule": "maximum"},
    },
    type_name="Stream",
)


@pytest.mark.parametrize(
    ("case", "value", "status"),
    [
        (VALID, {"valid": True, "normalized": {"at": [0, -1]}}, "pass"),  # the instance itself, numbers by value
        (VALID, {"valid": True, "normalized": {"at": [-1, 0]}}, "fail"),
        (VALID, {"valid": True}, "fail"),
        (VALID, {"valid": False, "errors": [{"path": "$", "rule": "x"}]}, "fail"),
        (VALID, {"valid": "yes"}, "fail"),
        (
            INVALID,
            {"valid": False, "errors": [{"path": "$", "rule": "x"}, {"path": "$.at[0]", "rule": "maximum"}]},
            "pass",
        ),
        (INVALID, {"valid": False, "errors": [{"path": "$.at[0]", "rule": "minimum"}]}, "fail"),
        (INVALID, {"valid": False}, "fail"),
        (INVALID, {"valid": True, "normalized": {"at": [1]}}, "fail"),
    ],
)
def test_validation_results_compare_as_protocol_md_says(case: SuiteCase, value: dict[str, Any], status: str) -> None:
    assert compare(case, result(value)).status == status


def test_a_validation_refusal_sent_as_an_error_answer_fails() -> None:
    verdict = compare(INVALID, {"type": "error", "id": "t-0001", "rule": "maximum", "message": "m"})
    assert verdict.status == "fail" and 'a result with "valid": false' in verdict.detail


def test_requests_carry_the_vector_inputs_unchanged() -> None:
    assert request(VALID)["input"] == {"type_name": "Stream", "json": '{"at": [0, -1.0]}'}
    assert request(INVALID)["input"]["json"] == '{"at": [1]}'
    with_rate = case_of(
        "schedule", {"id": "t-0001", "t": 3.0, "expect": {"error": "x"}}, {"declaration": {"every": 1}, "rate": -0.0}
    )
    sent = request(with_rate)
    assert sent["input"] == {"declaration": {"every": 1}, "rate": -0.0, "t": 3.0, "t_prev": -1}
    assert json.dumps(sent["input"]) == '{"declaration": {"every": 1}, "rate": -0.0, "t": 3.0, "t_prev": -1}'
    assert "rate" not in request(SCHEDULE)["input"]


# -- the reference through the protocol ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def real_cases() -> list[SuiteCase]:
    cases, problems = suite_cache.cases()
    assert not problems, "\n".join(map(str, problems))
    return cases


@pytest.fixture(scope="module")
def in_process(real_cases: list[SuiteCase]) -> Report:
    return run.run_in_process(real_cases, validate_traffic=True)


@pytest.mark.slow
def test_in_process_judges_every_case_like_the_vector_judges(in_process: Report) -> None:
    """The protocol's comparison and the reference judges (validation_cases, reference_cases) agree case by
    case, whatever the reference's current state: a disagreement is a bug of one of the comparisons."""
    report = in_process
    assert_valid_report(report)
    contract = reference_testee._contract(False)
    for record in report.records:
        case = record.case
        if case.kind == "validation":
            outcome = validation_cases.outcome_of(contract, str(case.type_name), case.case.data)
            judged = validation_cases.judge(case.case, outcome)
        else:
            judged = reference_cases.judge(case.kind, case.case)
        assert "breaks the protocol" not in record.verdict.detail, record.verdict.detail
        assert (record.verdict.status == "pass") == judged.passed, (case.id, record.verdict.detail, judged.detail)


@pytest.mark.slow
def test_the_reference_testee_over_stdio_agrees_with_in_process(
    real_cases: list[SuiteCase], in_process: Report
) -> None:
    argv = [sys.executable, "-m", "seq_io.reference.testee"]
    testee = run.StdioTestee(argv, load_spec().contract_version, traffic=Traffic())
    report = run.run_cases(real_cases, testee, traffic=Traffic(), command=argv)
    assert testee.starts == 1 and not report.problems
    assert [(r.case.id, r.verdict.status, r.verdict.detail) for r in report.records] == [
        (r.case.id, r.verdict.status, r.verdict.detail) for r in in_process.records
    ]
    assert report.implementation is not None and report.implementation[0] == "seq-io-ref"

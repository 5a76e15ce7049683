"""The expected-failure list with entries for a whole kind or a group pattern, `--fix` writing one entry per
kind that fails whole instead of one per case, and the exit code of a `--fix` run (0 when the rewritten list
accounts for every case). Also the kind's folder spelling as an alias of `--kind`.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from runner_fakes import by_id, cli, closing_line, fake, run_fake
from seq_io import runner
from seq_io.runner import xfail
from seq_io.runner.suite import load_cases
from seq_io.runner.xfail import Entry, ExpectedFailures

SCHEMA = Draft202012Validator(json.loads(xfail.XFAIL_SCHEMA.read_text()))


def write(path: Path, entries: list[dict[str, str]]) -> Path:
    path.write_text(json.dumps({"entries": entries}))
    return path


def test_a_kind_entry_expects_every_case_of_the_kind(
    suite_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    listed = write(tmp_path / "x.json", [{"kind": "schedule", "reason": "no schedule yet"}])
    argv = fake("echo", "--kinds", "rows_of")
    assert runner.main(cli(suite_dir, argv, "--xfail", str(listed))) == 0
    out = capsys.readouterr().out
    assert closing_line(out) == (4, 0) and "kind not supported" not in out.split("\n\n")[-1]
    loaded = xfail.load(listed)
    report, _, _ = run_fake(suite_dir, argv, expected=loaded)
    record = by_id(report)["fakesch-0001"]
    assert record.outcome == "xfail" and record.note == "expected (kind schedule): no schedule yet"


def test_a_kind_entry_whose_case_passes_is_an_xpass(suite_dir: Path, tmp_path: Path) -> None:
    loaded = xfail.load(write(tmp_path / "x.json", [{"kind": "rows_of", "reason": "later"}]))
    report, _, _ = run_fake(suite_dir, fake("echo", "--wrong", "fake-0001"), expected=loaded)
    outcomes = [by_id(report)[f"fake-{n:04d}"].outcome for n in range(1, 5)]
    assert outcomes == ["xfail", "xpass", "xpass", "xpass"] and not report.ok


def test_the_most_specific_entry_governs(suite_dir: Path, tmp_path: Path) -> None:
    loaded = xfail.load(
        write(
            tmp_path / "x.json",
            [
                {"kind": "rows_of", "reason": "kind"},
                {"group": "rows-of/fake/*", "reason": "group", "error": "rows_of.mixed"},
                {"id": "fake-0002", "reason": "case"},
            ],
        )
    )
    cases = {case.id: case for case in load_cases(suite_dir)[0]}
    entries = [loaded.entry_for(cases[i]) for i in ("fake-0001", "fake-0002")]
    assert [entry.reason if entry else None for entry in entries] == ["group", "case"]
    report, _, _ = run_fake(
        suite_dir,
        fake("echo", "--wrong", "fake-0002", "--refuse", "fake-0001=rows_of.mixed", "--wrong", "fake-0003"),
        expected=loaded,
    )
    outcomes = {case_id: record.outcome for case_id, record in by_id(report).items()}
    assert outcomes == {
        "fake-0001": "xfail",
        "fake-0002": "xfail",
        "fake-0003": "fail",
        "fake-0004": "xpass",
        "fakesch-0001": "pass",
    }
    assert "listed (group rows-of/fake/*) as failing with the refusal rows_of.mixed" in by_id(report)["fake-0003"].note


def test_entries_naming_no_case_or_no_kind(suite_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    listed = write(
        tmp_path / "x.json",
        [{"kind": "envelope", "reason": "none in this suite"}, {"group": "nowhere/*", "reason": "no such group"}],
    )
    assert runner.main(cli(suite_dir, fake("echo"), "--xfail", str(listed))) == 1
    out = capsys.readouterr().out
    assert "kind envelope names no case of the suite" in out and "group nowhere/* names no case" in out
    write(listed, [{"kind": "row_of", "reason": "a typo"}])
    assert runner.main(cli(suite_dir, fake("echo"), "--xfail", str(listed))) == 2
    assert "$.entries[0].kind: 'row_of' is not a case kind; the kinds are validation," in capsys.readouterr().err


@pytest.mark.parametrize(
    ("entry", "valid"),
    [
        ({"id": "a-0001", "reason": "r"}, True),  # the entries of lists written before kinds and groups
        ({"id": "a-0001", "reason": "r", "error": "x.y"}, True),
        ({"kind": "rows_of", "reason": "r"}, True),
        ({"group": "schedule/windows/*", "reason": "r", "error": "x.y"}, True),
        ({"id": "a-0001", "kind": "rows_of", "reason": "r"}, False),
        ({"reason": "r"}, False),
        ({"kind": "rows_of"}, False),
    ],
)
def test_the_list_schema_takes_old_lists_and_one_kind_of_name_per_entry(entry: dict[str, str], valid: bool) -> None:
    assert SCHEMA.is_valid({"entries": [entry]}) == valid


def test_fix_writes_one_entry_for_a_kind_that_fails_whole_and_the_run_exits_0(
    suite_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    listed = tmp_path / "x.json"
    argv = fake("echo", "--kinds", "schedule", "--wrong", "fakesch-0001")
    assert runner.main(cli(suite_dir, argv, "--xfail", str(listed), "--fix")) == 0
    out = capsys.readouterr().out
    assert "wrote" in out and closing_line(out) == (0, 0)
    document = json.loads(listed.read_text())
    assert document["entries"] == [
        {"kind": "schedule", "reason": xfail.NEW_REASON},
        {"kind": "rows_of", "reason": xfail.NEW_REASON},
    ]
    assert SCHEMA.is_valid(document)
    assert runner.main(cli(suite_dir, argv, "--xfail", str(listed))) == 0
    assert closing_line(capsys.readouterr().out) == (0, 0)


def test_fix_dissolves_a_kind_entry_once_a_case_of_it_passes(
    suite_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    listed = write(tmp_path / "x.json", [{"kind": "rows_of", "reason": "rows_of is being written"}])
    argv = fake("echo", "--wrong", "fake-0002", "--refuse", "fake-0003=rows_of.mixed", "--skip", "fake-0004")
    assert runner.main(cli(suite_dir, argv, "--xfail", str(listed))) == 1  # fake-0001 passes: an xpass
    capsys.readouterr()
    assert runner.main(cli(suite_dir, argv, "--xfail", str(listed), "--fix")) == 0
    capsys.readouterr()
    assert json.loads(listed.read_text())["entries"] == [
        {"id": "fake-0002", "reason": "rows_of is being written"},
        {"id": "fake-0003", "reason": "rows_of is being written", "error": "rows_of.mixed"},
        {"id": "fake-0004", "reason": "rows_of is being written"},
    ]


def test_fix_keeps_a_kind_entry_for_cases_that_did_not_run(suite_dir: Path) -> None:
    cases = load_cases(suite_dir)[0]
    listed = ExpectedFailures(patterns=[Entry(None, "later", kind="rows_of")])
    from seq_io.runner.verdict import Verdict

    ran = [(case, Verdict("fail")) for case in cases if case.id == "fake-0001"]
    assert xfail.fixed(listed, ran, cases).all_entries() == [Entry(None, "later", kind="rows_of")]
    ran = [(case, Verdict("pass" if case.id == "fake-0001" else "fail")) for case in cases if case.id < "fake-0003"]
    assert [e.as_json() for e in xfail.fixed(listed, ran, cases).all_entries()] == [
        {"id": "fake-0002", "reason": "later"},
        {"id": "fake-0003", "reason": "later"},
        {"id": "fake-0004", "reason": "later"},
    ]


def test_a_fix_run_still_exits_1_for_what_a_list_cannot_fix(
    suite_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    listed = tmp_path / "x.json"
    argv = fake("echo", "--wrong", "fake-0001", "--exit-status", "4")  # a testee that does not end cleanly
    assert runner.main(cli(suite_dir, argv, "--xfail", str(listed), "--fix")) == 1
    out = capsys.readouterr().out
    assert "exit status 4" in out and closing_line(out) == (4, 1)
    assert [e["id"] for e in json.loads(listed.read_text())["entries"]] == ["fake-0001"]


def test_the_kind_may_be_spelt_as_its_folder(suite_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert runner.main(cli(suite_dir, fake("echo"), "--kind", "rows-of")) == 0
    assert closing_line(capsys.readouterr().out) == (4, 0)
    with pytest.raises(SystemExit):
        runner.main(cli(suite_dir, fake("echo"), "--kind", "rowsof"))
    assert (
        "'rowsof' is not a case kind; the kinds are validation, schedule, envelope, rows_of" in capsys.readouterr().err
    )


def test_the_real_suite_explains_rows_of_ids(capsys: pytest.CaptureFixture[str]) -> None:
    assert runner.main(["--collect-only", "--id", "rows-of-*"]) == 2  # the same hint as a run gives
    err = capsys.readouterr().err
    assert "--id 'rows-of-*' matches no case id" in err
    assert "did you mean --id 'rows-*' (ids of conformance/vectors/rows-of/rows-of.yaml)" in err
    assert "rows-of/: rows-" in err and "validation/: val-act-request-edge-, val-act-request-," in err

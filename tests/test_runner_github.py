"""`iospec run` in GitHub Actions: one `::error` workflow command per case that fails the run, at its vector's file
and line and escaped as GitHub reads it (`--annotations github`, the default when GITHUB_ACTIONS is true), and a
bounded Markdown summary (`--summary-md FILE`, else appended to $GITHUB_STEP_SUMMARY). Real fake testees
(tests/fake_testees) over the small suite of tests/runner_fakes.py.
"""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest

from runner_fakes import fake, make_suite, run_fake
from seq_io.runner import cli as runner
from seq_io.runner import github
from seq_io.runner.reports import OUTCOMES

WRONG = ["--wrong", "fake-0002", "--kinds", "rows_of"]
"""fake-0002 answered wrongly, the schedule case skipped: one fail and one unlisted skip."""


def _run(suite: Path, *args: str, testee: list[str] | None = None) -> int:
    argv = testee or fake("echo", *WRONG)
    return runner.main(["--impl", shlex.join(argv), "--vectors", str(suite), *args])


def _commands(out: str) -> list[str]:
    return [line for line in out.splitlines() if line.startswith("::")]


def _line_of(file: Path, case_id: str) -> int:
    return next(n for n, line in enumerate(file.read_text().splitlines(), 1) if line.strip() == f"- id: {case_id}")


def test_each_case_that_fails_the_run_is_an_error_at_its_file_and_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    suite = make_suite(tmp_path / "we,ird:suite")
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)
    assert _run(suite, "--json", "report.json", "--annotations", "github") == 1
    failed, skipped = _commands(capsys.readouterr().out)
    report = json.loads((tmp_path / "report.json").read_text())
    assert sum(not case["ok"] for case in report["cases"]) == 2  # one command per case not acceptable
    rows, schedule = suite / "rows-of" / "fake.yaml", suite / "schedule" / "fake.yaml"
    assert failed.startswith(  # the comma and the colon of the folder's name escaped in the property
        f"::error file=we%2Cird%3Asuite/rows-of/fake.yaml,line={_line_of(rows, 'fake-0002')},"
        "title=iospec run%3A fake-0002 fail::FAIL fake-0002 [rows-of/fake/echo]%0A"
    )
    assert '%0A    expected: 2%0A    got:      "wrong"' in failed
    assert failed.endswith("why: The rows are the answer itself.")
    assert skipped.startswith(  # the failure before the skip, though the skip's file comes first
        f"::error file=we%2Cird%3Asuite/schedule/fake.yaml,line={_line_of(schedule, 'fakesch-0001')},"
        "title=iospec run%3A fakesch-0001 skip::"
    )


def test_percent_and_newlines_in_a_message_are_escaped(
    suite_dir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(suite_dir)
    testee = fake("echo", "--kinds", "rows_of,schedule", "--refuse", "fake-0003=100%\r\nsure")
    assert _run(suite_dir, "--annotations", "github", testee=testee) == 1
    (command,) = _commands(capsys.readouterr().out)
    assert command.startswith("::error file=rows-of/fake.yaml,") and '"100%25\\r\\nsure"' in command
    assert "%0A" in command and "\r" not in command  # the message's lines, on one line
    assert re.findall(r"%(..)", command.split("::", 2)[2]) and all(
        code in ("25", "0A", "0D") for code in re.findall(r"%(..)", command.split("::", 2)[2])
    )


def test_annotations_follow_github_actions_unless_told(
    suite_dir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(suite_dir)
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    assert _run(suite_dir) == 1
    assert _commands(capsys.readouterr().out) == []
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    assert _run(suite_dir) == 1
    assert len(_commands(capsys.readouterr().out)) == 2
    assert _run(suite_dir, "--annotations", "none") == 1
    assert _commands(capsys.readouterr().out) == []


def test_a_failed_handshake_is_annotated_and_summarized(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    suite = make_suite(tmp_path / "suite")
    step = tmp_path / "step.md"
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(step))
    assert _run(suite, testee=fake("bad_handshake", "--how", "version")) == 2
    (command,) = _commands(capsys.readouterr().out)
    assert command.startswith("::error title=iospec run%3A run problem (handshake)::the testee's hello was refused")
    assert "### Run problems" in step.read_text() and "FAILED" in step.read_text()


def test_the_markdown_summary_counts_what_the_report_counts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    suite = make_suite(tmp_path / "suite")
    monkeypatch.chdir(tmp_path)
    step = tmp_path / "step.md"
    step.write_text("an earlier command's summary\n")
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(step))
    assert _run(suite, "--json", "report.json", "--summary-md", "summary.md") == 1
    assert step.read_text() == "an earlier command's summary\n"  # --summary-md names the file instead
    written = (tmp_path / "summary.md").read_text()
    assert _run(suite, "--json", "report.json") == 1
    appended = step.read_text()
    assert appended.startswith("an earlier command's summary\n## iospec run: fake 0 — contract ")
    assert appended.endswith(written)
    capsys.readouterr()
    report = json.loads((tmp_path / "report.json").read_text())
    totals = report["totals"]
    row = f"| **all** | {totals['cases']} | " + " | ".join(str(totals[o]) for o in OUTCOMES) + " |"
    assert row in written and f"**{report['passed']} passed, {report['failed']} failed**" in written
    for kind in report["kinds"]:
        assert f"| {kind['kind']} | {kind['cases']} | " in written
    assert "- **fail** `fake-0002` (`suite/rows-of/fake.yaml:" in written
    assert '  - at `$.rows[0][0]`: expected `2`, got `"wrong"`' in written
    assert "  - why: The rows are the answer itself." in written
    assert written.index("`fake-0002`") < written.index("`fakesch-0001`")


def test_the_summary_is_bounded_and_counts_what_it_leaves_out(suite_dir: Path) -> None:
    testee = fake("echo", "--kinds", "rows_of", *(f"--wrong=fake-000{n}" for n in range(1, 5)))
    report, _, _ = run_fake(suite_dir, testee)
    whole = github.summary_markdown(report)
    assert all(f"`fake-000{n}`" in whole for n in range(1, 5))
    short = github.summary_markdown(report, limit=len(whole.encode()) - 200)
    assert len(short.encode()) <= len(whole.encode()) - 200
    listed = len(re.findall(r"^- \*\*", short, re.MULTILINE))
    assert 0 < listed < 5 and f"- … and {5 - listed} more, not listed here" in short


def test_testee_text_cannot_become_markup() -> None:
    assert github._code("a`b") == "``a`b``"
    assert github._code("`x`") == "`` `x` ``"
    assert github._code("line\none\x1b[31m") == "`line one\\x1b[31m`"
    assert github._text("<script>*x*</script> | [a](b)") == "\\<script\\>\\*x\\*\\</script\\> \\| \\[a\\](b)"

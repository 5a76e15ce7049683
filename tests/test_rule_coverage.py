"""`iospec rules`: every normative rule of the prose has a vector, and the check notices when one does not."""

from __future__ import annotations

from pathlib import Path

from seq_io_tools import rule_coverage, vectors


def test_no_rule_without_a_vector(suite: list[vectors.VectorFile]) -> None:
    report = rule_coverage.coverage(suite)
    assert len(report.defined) >= 42
    assert report.ok, (report.unexercised, report.defined_twice, sorted(report.listed_undefined))


def test_an_untested_or_doubled_rule_is_caught(tmp_path: Path, suite: list[vectors.VectorFile]) -> None:
    prose = "**[SCH-NEEDED]** once\n**[SCH-NEW-RULE]** untested\n**[SCH-NEEDED]** again\n"
    (tmp_path / "schedule.md").write_text(prose)
    report = rule_coverage.coverage(suite, tmp_path)
    assert report.unexercised == ["SCH-NEW-RULE"]
    assert report.defined_twice == ["SCH-NEEDED"]
    assert "SCH-PICKS-WINDOW" in report.listed_undefined
    assert not report.ok

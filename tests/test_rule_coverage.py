"""`iospec rules`: every normative rule of spec/schedule.md, spec/stream.md and spec/uploader.md has a vector, and
the check notices when one does not."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from seq_io import rule_coverage, vectors


def test_no_rule_without_a_vector(suite: list[vectors.VectorFile]) -> None:
    report = rule_coverage.coverage(suite)
    assert len(report.defined) >= 42
    assert report.ok, (report.unexercised, report.defined_twice, sorted(report.listed_undefined))


def test_an_untested_or_doubled_rule_is_caught(tmp_path: Path, suite: list[vectors.VectorFile]) -> None:
    prose = "**[SCH-NEEDED]** once\n**[SCH-NEW-RULE]** untested\n**[SCH-NEEDED]** again\n"
    (tmp_path / "schedule.md").write_text(prose)
    (tmp_path / "stream.md").write_text("**[STR-THROUGH]** tested\n**[STR-NEW-RULE]** untested\n")
    (tmp_path / "uploader.md").write_text("")
    report = rule_coverage.coverage(suite, tmp_path)
    assert report.unexercised == ["SCH-NEW-RULE", "STR-NEW-RULE"]
    assert report.defined_twice == ["SCH-NEEDED"]
    assert report.cases["STR-THROUGH"] > 0
    assert {"SCH-PICKS-WINDOW", "STR-ACT-WAIT"} <= report.listed_undefined
    assert not report.ok


def test_both_documents_and_case_level_rules_count(suite: list[vectors.VectorFile]) -> None:
    report = rule_coverage.coverage(suite)
    assert any(rule.startswith("STR-") for rule in report.defined)
    assert any(rule.startswith("SCH-") for rule in report.defined)
    by_group_alone: Counter[str] = Counter(
        rule for f in suite for g in f.doc["groups"] for rule in g.get("rules", []) for _ in g["cases"]
    )
    raised = [rule for rule in report.defined if report.cases[rule] > by_group_alone[rule]]
    assert raised, "a case's own `rules` must add to the count of the rules its group does not list"

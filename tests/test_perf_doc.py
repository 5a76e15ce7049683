"""docs/performance.md and the benchmarks that keep it current: each scripts/bench_*.py → its marked section, checked
to exist and be well formed; perf_doc's replacement → only the text between one section's markers, a missing marker
refused; each script's `--write-docs`, its timing replaced by constants → its tables in a copy of the document, every
byte outside its markers kept.

WHY this shape: the hand-written analysis of docs/performance.md sits beside blocks the scripts rewrite, so a writer
that strays past a marker destroys text nobody regenerates; that boundary is what these tests hold. The benchmarks'
timing functions are replaced by constants because a run at full size takes minutes and its figures are not under
test here: what is, is that the flag writes the script's tables into its own section, with the date and the load
average, and leaves the script's own output as it was.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import bench_hostile
import bench_runner
import bench_schedule
import bench_stream
import bench_validation
import bench_worker
from seq_io.runner.run import run_in_process
from seq_io.runner.suite import load_cases
from seq_io_maint import perf_doc
from seq_io_maint.perf_doc import MarkerError, begin_marker, end_marker, replace_section, sections

REPO_ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = REPO_ROOT / "scripts"
DOC = REPO_ROOT / "docs" / "performance.md"
BENCHMARKS = sorted(path.stem for path in SCRIPTS.glob("bench_*.py"))


def test_every_benchmark_script_has_a_marked_section_and_every_section_a_script() -> None:
    assert BENCHMARKS, "no scripts/bench_*.py found"
    found = sections(DOC.read_text(encoding="utf-8"), "docs/performance.md")
    assert sorted(set(BENCHMARKS) - set(found)) == [], "add a marked section to docs/performance.md for each"
    assert sorted(set(found) - set(BENCHMARKS)) == [], "a section of docs/performance.md names no benchmark script"


@pytest.mark.parametrize("name", BENCHMARKS)
def test_each_begin_marker_has_exactly_one_end_after_it(name: str) -> None:
    text = DOC.read_text(encoding="utf-8")
    assert text.count(begin_marker(name)) == 1 and text.count(end_marker(name)) == 1
    start, stop = text.index(begin_marker(name)), text.index(end_marker(name))
    assert start < stop
    assert "<!--" not in text[start + len(begin_marker(name)) : stop], "a marker inside the section"
    assert text[start - 1] == "\n" and text[stop + len(end_marker(name))] == "\n", "markers on lines of their own"


def test_the_markers_of_the_whole_document_are_well_formed() -> None:
    sections(DOC.read_text(encoding="utf-8"), "docs/performance.md")  # raises MarkerError otherwise


TWO_SECTIONS = """# Title

Prose before, naming bench_a in passing.

<!-- begin: bench_a -->
old table of a
<!-- end: bench_a -->

Analysis of a, by hand.

<!-- begin: bench_b -->
old table of b
<!-- end: bench_b -->
Trailing prose."""


def test_replace_changes_only_the_text_between_the_markers() -> None:
    done = replace_section(TWO_SECTIONS, "bench_a", "\n| new | table |\n|---|---|\n")
    assert done == TWO_SECTIONS.replace("old table of a", "| new | table |\n|---|---|")
    again = replace_section(done, "bench_a", "| new | table |\n|---|---|")
    assert again == done, "replacing with the same body changes nothing"
    assert replace_section(done, "bench_b", "") == done.replace("old table of b\n", "\n")


def test_replace_can_empty_and_refill_a_section() -> None:
    empty = replace_section(TWO_SECTIONS, "bench_b", "")
    assert replace_section(empty, "bench_b", "old table of b") == TWO_SECTIONS


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (TWO_SECTIONS.replace("<!-- begin: bench_a -->\n", ""), "<!-- end: bench_a --> without its"),
        (TWO_SECTIONS.replace("<!-- end: bench_a -->\n", ""), "inside the open section 'bench_a'"),
        (TWO_SECTIONS.replace("<!-- end: bench_b -->", ""), "<!-- begin: bench_b --> has no <!-- end: bench_b -->"),
        (TWO_SECTIONS + "\n<!-- begin: bench_a -->\nx\n<!-- end: bench_a -->\n", "a second section 'bench_a'"),
        (
            TWO_SECTIONS.replace("old table of a", "<!-- begin: bench_c -->\n<!-- end: bench_c -->"),
            "<!-- begin: bench_c --> inside the open section 'bench_a'",
        ),
    ],
    ids=["begin missing", "end missing", "last end missing", "doubled", "nested"],
)
def test_malformed_markers_are_refused_naming_the_marker(text: str, message: str) -> None:
    with pytest.raises(MarkerError, match=r"^doc\.md:") as refused:
        replace_section(text, "bench_a", "new", where="doc.md")
    assert message in str(refused.value)


def test_a_missing_section_is_refused_saying_what_to_add() -> None:
    with pytest.raises(MarkerError) as refused:
        replace_section(TWO_SECTIONS, "bench_missing", "new", where="docs/performance.md")
    assert str(refused.value) == (
        "docs/performance.md: no section 'bench_missing': <!-- begin: bench_missing --> and "
        "<!-- end: bench_missing --> not found; add <!-- begin: bench_missing --> and <!-- end: bench_missing --> "
        "on lines of their own where its tables belong"
    )


def test_write_section_leaves_the_file_as_it_was_on_a_refusal(tmp_path: Path) -> None:
    path = tmp_path / "performance.md"
    path.write_text(TWO_SECTIONS, encoding="utf-8")
    with pytest.raises(MarkerError, match=str(path)):
        perf_doc.write_section("bench_c", "new", path)
    assert path.read_text(encoding="utf-8") == TWO_SECTIONS
    assert [p.name for p in tmp_path.iterdir()] == ["performance.md"], "no temporary file left behind"
    perf_doc.write_section("bench_b", "new", path)
    assert path.read_text(encoding="utf-8") == TWO_SECTIONS.replace("old table of b", "new")


def test_a_table_is_written_as_markdown_and_a_short_row_refused() -> None:
    table = perf_doc.Table("What is timed against what.", ["a", "b|c"], [["1", "x|y"]])
    assert table.markdown() == "What is timed against what.\n\n| a | b\\|c |\n|---|---|\n| 1 | x\\|y |"
    with pytest.raises(ValueError, match="a row of 1 cells under 2 headings"):
        perf_doc.Table("t", ["a", "b"], [["1"]]).markdown()
    assert perf_doc.times(3.14159) == "3.1\N{MULTIPLICATION SIGN}"
    assert perf_doc.times(0.6149, 2) == "0.61\N{MULTIPLICATION SIGN}"


def test_the_stamp_names_the_command_without_the_flag_and_the_load() -> None:
    assert perf_doc.command_line("bench_x", ["--kind", "stream", "--write-docs", "copy.md", "--repeat", "1"]) == (
        "python scripts/bench_x.py --kind stream --repeat 1"
    )
    assert perf_doc.command_line("bench_x", ["--write-docs", "--repeat", "1"]) == "python scripts/bench_x.py --repeat 1"
    assert perf_doc.command_line("bench_x", ["--write-docs=a.md"]) == "python scripts/bench_x.py"
    start = perf_doc.Moment(load=(1.0, 2.5, 3.25))
    body = perf_doc.section_body("bench_x", ["--impl", "node t.js"], start, [], ["A note."])
    assert body.startswith("*Written by `python scripts/bench_x.py --impl 'node t.js' --write-docs` on 2")
    assert "load average (1 / 5 / 15 min) 1.00 / 2.50 / 3.25 at the start of the run" in body
    assert body.endswith("\n\nA note.")
    assert perf_doc.Moment(load=None).load_text() == "unavailable"


# -- each script's --write-docs, on a copy of the document, its timing replaced by constants ---------------------


def outside(text: str, name: str) -> str:
    """The document without what lies between the markers of `name`."""
    start = text.index(begin_marker(name)) + len(begin_marker(name))
    return text[:start] + text[text.index(end_marker(name), start) :]


def written(tmp_path: Path, name: str, run: Callable[[list[str]], int], *args: str) -> tuple[str, int]:
    """Run a benchmark's `main` with `--write-docs COPY`; the new section, after checking that nothing outside it
    changed and that it carries the stamp; and the exit code."""
    copy = tmp_path / "performance.md"
    shutil.copyfile(DOC, copy)
    code = run([*args, "--write-docs", str(copy)])
    before, after = DOC.read_text(encoding="utf-8"), copy.read_text(encoding="utf-8")
    assert outside(after, name) == outside(before, name)
    section = after[after.index(begin_marker(name)) : after.index(end_marker(name))]
    if section != before[before.index(begin_marker(name)) : before.index(end_marker(name))]:
        assert f"*Written by `python scripts/{name}.py" in section and "load average" in section
    return section, code


def separators(section: str) -> int:
    """How many Markdown tables a section holds."""
    return sum(line.startswith("|---") for line in section.splitlines())


def test_a_file_without_the_section_is_refused_before_the_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def never(*_: Any, **__: Any) -> tuple[float, float]:
        raise AssertionError("the benchmark ran")

    path = tmp_path / "performance.md"
    path.write_text("# No sections\n", encoding="utf-8")
    monkeypatch.setattr(bench_schedule, "best_pair", never)
    with pytest.raises(SystemExit, match=r"^bench_schedule: --write-docs: .*: no section 'bench_schedule'"):
        bench_schedule.main(["--write-docs", str(path)])
    with pytest.raises(SystemExit, match=r"^bench_schedule: --write-docs: .*No such file"):
        bench_schedule.main(["--write-docs", str(tmp_path / "absent.md")])


def test_bench_schedule_writes_its_four_tables(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(bench_schedule, "best_pair", lambda first, second, rounds=7: (1e-6, 3e-6))
    section, code = written(tmp_path, "bench_schedule", bench_schedule.main)
    assert code == 0 and separators(section) == 4
    assert "| 64 keys (windows, fed, alone) | 8 | 16 | 1.00 | 3.00 | 3.0\N{MULTIPLICATION SIGN} |" in section
    out = capsys.readouterr().out
    assert out.startswith("Per act: picks(t, t_prev) + wanted(t_prev, t), t = 10^6\n")
    assert "\nAn episode: of + N acts (picks + wanted), from the figures above; upstream/ours\n" in out


def test_bench_hostile_writes_its_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    small = [
        bench_hostile.Hostile(
            "integer of 4,301 digits",
            "ObserveFrame",
            '{"seq": 0, "inputs": 1' + "0" * 4300 + "}",
            "$.inputs",
            "wire.integer-too-long",
        ),
        bench_hostile.Hostile(
            "nested 1,000 deep", "ActRequest", '{"inputs": ' + "[" * 1000 + "]" * 1000 + "}", "$", "wire.too-deep"
        ),
    ]
    monkeypatch.setattr(bench_hostile, "documents", lambda: small)
    monkeypatch.setattr(bench_hostile, "best_seconds", lambda call, repeat=3: 1e-3)
    section, code = written(tmp_path, "bench_hostile", bench_hostile.main)
    assert code == 0 and separators(section) == 1
    assert (
        "| nested 1,000 deep | 0.00 | `wire.too-deep` | 1.000 | 1.000 | 1.0\N{MULTIPLICATION SIGN} | 1.000 | yes |"
        in (section)
    )
    assert "Every document was refused within the target." in section
    assert "every document refused within the target" in capsys.readouterr().out


def test_bench_validation_writes_its_two_tables(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bench_validation, "best_of", lambda calls, rounds=9: [1e-5] * len(calls))
    section, code = written(tmp_path, "bench_validation", bench_validation.main)
    assert code == 0 and separators(section) == 2
    assert "| ActRequest | 1.5\N{MULTIPLICATION SIGN} | 1.00\N{MULTIPLICATION SIGN} |" in section


def test_bench_stream_writes_its_three_tables(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bench_stream, "posts_needed", lambda size: 3)
    monkeypatch.setattr(bench_stream, "timed_posts", lambda held, size, count: (4e-5, 2e-6, 1e-5))
    monkeypatch.setattr(bench_stream, "timed_act", lambda gap, declaration: (1e-5, 1e-6, gap + 1))
    section, code = written(tmp_path, "bench_stream", bench_stream.main)
    assert code == 0 and separators(section) == 3
    assert "| 1,024 | 25,000 | 40.0 | 0.0 | 0.0 | 20.0x | 0.0 | 4.0x |" in section


def test_bench_runner_writes_its_three_tables(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, suite_dir: Path) -> None:
    monkeypatch.setattr(bench_runner, "load_cases", lambda: load_cases(suite_dir))
    monkeypatch.setattr(
        bench_runner,
        "through_stdio",
        lambda label, command, cases, timeout: bench_runner.Row(label, 0.25, run_in_process(cases)),
    )
    timings = iter([(2.0, 1.0), (8.0, 6.0)])  # the one-file command, then the every-file one
    monkeypatch.setattr(bench_runner, "one_command", lambda argv: next(timings))
    section, code = written(tmp_path, "bench_runner", bench_runner.main, "--repeat", "1", "--impl", "node t.js")
    assert code == 0 and separators(section) == 3
    assert "--repeat 1 --impl 'node t.js' --write-docs`" in section
    assert "| node t.js | 5 | " in section and "| in process (baseline) | 5 | " in section
    faster = f"{perf_doc.times(4.0)} | {perf_doc.times(6.0)}"  # the baseline's 8 s wall and 6 s CPU over 2 and 1
    assert f"| iospec run --id sch-windows-0001, its one file read | 2.00 | 1.00 | {faster} |" in section


class _Process:
    pid = 0


def test_bench_worker_writes_its_table_and_not_after_a_mismatch(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def load(url: str, count: int, seconds: float, **_: Any) -> tuple[Any, list[Any], float]:
        totals = bench_worker.Totals(frames=170, requests=20, observe_ms=[1.0, 3.0], act_ms=[2.0])
        return totals, [bench_worker.Episode(f"e{n}") for n in range(count)], 1.0

    monkeypatch.setattr(bench_worker, "REPO", tmp_path)  # where it writes the policy file
    monkeypatch.setattr(bench_worker, "start", lambda argv: (_Process(), "http://127.0.0.1:1"))
    monkeypatch.setattr(bench_worker, "stop", lambda process: None)
    monkeypatch.setattr(bench_worker, "peak_rss_mib", lambda pid: 50.0)
    monkeypatch.setattr(bench_worker, "load", load)
    monkeypatch.setattr(bench_worker, "replay_mismatches", lambda episodes, limit_frames: [])
    section, code = written(tmp_path, "bench_worker", bench_worker.main, "--episodes", "1,4", "--faults", "0")
    assert code == 0 and separators(section) == 1
    assert "| 4 | 170 | 20 | 20 | 1.00 | 2.0 / 3.0 | 2.0 / 2.0 | 50 |" in section
    monkeypatch.setattr(bench_worker, "replay_mismatches", lambda episodes, limit_frames: ["e0 request 0: differs"])
    unchanged, code = written(tmp_path, "bench_worker", bench_worker.main, "--episodes", "1", "--faults", "0")
    text = DOC.read_text(encoding="utf-8")
    assert code == 1
    assert unchanged == text[text.index(begin_marker("bench_worker")) : text.index(end_marker("bench_worker"))], (
        "a run whose answers did not check out is not written"
    )

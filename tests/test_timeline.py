"""`iospec timeline` against the schedule vectors → the drawing (model, SVG and text) marks exactly the cells
the vectors' hand-derived picks and wanted name; plus the worked example, wide timelines and bad input.

The vectors' expectations were derived by hand from spec/schedule.md, so comparing the drawing with them
checks the tool (and the reference under it) against the spec, not against itself.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from seq_io import timeline as tl
from seq_io import vectors

REPO_ROOT = Path(__file__).resolve().parents[1]
"""The checkout these tests run in."""

SVG = "{http://www.w3.org/2000/svg}"
W = {"streams": {"cam": {"at": [-15, 0]}, "state": {}}}
"""The worked example of spec/schedule.md § 11 and of spec/timeline-example.md."""
EXAMPLE_ARGS = ['{"streams": {"cam": {"at": [-15, 0]}, "state": {}}}', "--acts", "0,5,12,20"]

Pair = tuple[int, str | None]


def pairs(entries: list[list[Any]]) -> Counter[Pair]:
    """[step, keys] entries (JSON form) → how many entries read each (step, key); None: the whole row."""
    counted: Counter[Pair] = Counter()
    for step, keys in entries:
        for key in [None] if keys is None else keys:
            counted[step, key] += 1
    return counted


def row_keys(declaration: Any) -> list[str | None]:
    """The rows a timeline of this declaration has, in order: the declared keys, or the whole observation."""
    if declaration is None or declaration.get("streams") is None:
        return [None]
    return list(declaration["streams"])


def acts_of(data: dict[str, Any]) -> list[int]:
    """A case's two acts [t_prev, t], or [t] alone when the case's act is the episode's first."""
    t, t_prev = int(data["t"]), int(data.get("t_prev", -1))  # 3.0 is the step 3
    return [t] if t_prev < 0 else [t_prev, t]


def drawable_cases(suite: list[vectors.VectorFile]) -> list[vectors.Case]:
    """Every schedule case with a result (not a refusal) whose timeline is small enough to draw."""
    return [
        case
        for f in suite
        if f.kind == "schedule"
        for case in f.cases
        if "error" not in case.data["expect"]
        and max(1, len(row_keys(case.group["declaration"]))) * (case.data["t"] + 1) <= tl.MAX_CELLS
    ]


@pytest.fixture(scope="module")
def cases(suite: list[vectors.VectorFile]) -> list[vectors.Case]:
    return drawable_cases(suite)


def draw(case: vectors.Case) -> tl.Timeline:
    return tl.build(case.group["declaration"], case.group.get("rate"), acts_of(case.data))


def test_enough_vector_cases_are_drawn(cases: list[vectors.Case]) -> None:
    assert len(cases) > 400
    assert sum(c.data.get("t_prev", -1) >= 0 for c in cases) > 250
    assert sum(any(s == 0 for s, _ in c.data["expect"]["picks"]) and c.data["t"] > 0 for c in cases) > 30


def test_the_model_shows_what_the_vectors_say(cases: list[vectors.Case]) -> None:
    """Cells read by the case's act are its picks (with how many entries each); cells uploaded before it are
    its wanted; the act's line carries its needed and keeps_from."""
    for case in cases:
        timeline = draw(case)
        expect, last = case.data["expect"], len(timeline.acts) - 1
        keys = [row.key for row in timeline.rows]
        assert keys == row_keys(case.group["declaration"]), case.id
        read: Counter[Pair] = Counter(
            {
                (step, keys[row]): n
                for (row, step), cell in timeline.cells.items()
                for act, n in cell.reads
                if act == last
            }
        )
        uploaded = {(step, keys[row]) for (row, step), cell in timeline.cells.items() if cell.upload_before == last}
        assert read == pairs(expect["picks"]), case.id
        assert uploaded == set(pairs(expect["wanted"])), case.id
        act = timeline.acts[last]
        assert (act.needed, act.keeps_from, len(act.picks)) == (
            expect["needed"],
            expect["keeps_from"],
            len(expect["picks"]),
        ), case.id


def svg_cells(document: str) -> dict[tuple[str | None, int], tuple[Counter[int], str, str]]:
    """The grid cells of an SVG timeline, each folded range spread out: (key, step) → (reads by act index,
    act uploaded before or "", category). A cell drawn twice is an error."""
    root = ET.fromstring(document)
    found: dict[tuple[str | None, int], tuple[Counter[int], str, str]] = {}
    for group in root.iter(SVG + "g"):
        classes = group.get("class", "").split()
        if "cell" not in classes:
            continue
        key = None if group.get("data-whole") == "true" else group.get("data-key")
        reads = Counter(
            {int(act): int(n) for act, n in (item.split(":") for item in group.get("data-reads", "").split())}
        )
        for step in range(int(group.get("data-first", "")), int(group.get("data-last", "")) + 1):
            assert (key, step) not in found, (key, step)
            found[key, step] = (reads, group.get("data-upload-before", ""), classes[1])
    return found


@pytest.mark.slow
def test_the_svg_shows_what_the_vectors_say(cases: list[vectors.Case]) -> None:
    """The same check on the picture: every cell of steps 0..t is drawn once, and its data attributes agree
    with the case's picks and wanted."""
    for case in cases:
        timeline = draw(case)
        expect, last = case.data["expect"], len(timeline.acts) - 1
        cells = svg_cells(tl.render_svg(timeline))
        keys = [tl.shown(key) if key is not None else None for key in row_keys(case.group["declaration"])]
        assert set(cells) == {(key, step) for key in keys for step in range(timeline.last + 1)}, case.id
        read = Counter({where: reads[last] for where, (reads, _, _) in cells.items() if reads[last]})
        uploaded = {where for where, (_, before, _) in cells.items() if before == str(last)}
        assert read == Counter(
            {(None if key is None else tl.shown(key), step): n for (step, key), n in pairs(expect["picks"]).items()}
        ), case.id
        assert uploaded == {(None if key is None else tl.shown(key), step) for step, key in pairs(expect["wanted"])}, (
            case.id
        )


def summary_line(text: str, label: str) -> list[str]:
    """The fields of an act's line in the summary table: t, t_prev, entries, needed, wanted, keeps_from."""
    match = re.search(rf"^{label}\s+(\d+)\s+(-?\d+)\s+(\d+)\s+(.+?)\s+(\d+)\s+(\d+)$", text, re.MULTILINE)
    assert match, text
    return list(match.groups())


def needed_text(needed: list[int]) -> str:
    return "-" if not needed else ",".join(map(str, needed))


def test_the_text_shows_what_the_vectors_say(cases: list[vectors.Case]) -> None:
    """The act's summary line gives the case's numbers; where the grid fits one line, each cell after the
    previous act shows the act's letter when the act reads it, + when it is only uploaded, . otherwise."""
    gridded = 0
    for case in cases:
        timeline = draw(case)
        text = tl.render_text(timeline)
        expect, (t_prev, t) = case.data["expect"], [-1, *acts_of(case.data)][-2:]
        letter = "A" if t_prev < 0 else "B"
        fields = summary_line(text, letter)
        assert fields[:3] == [str(t), str(t_prev), str(len(expect["picks"]))], case.id
        assert fields[4:] == [str(len(expect["wanted"])), str(expect["keeps_from"])], case.id
        if len(expect["needed"]) <= 6:
            assert fields[3] == needed_text(expect["needed"]), case.id
        else:
            assert fields[3].endswith(f",{expect['needed'][-1]} ({len(expect['needed'])})"), case.id
        lines = text.splitlines()
        if sum(line.startswith("step ") for line in lines) != 1 or "~" in text:
            continue  # folded or wrapped: the cell positions are not simply the last t+1 characters
        gridded += 1
        grid = lines[[line.startswith("act ") for line in lines].index(True) + 1 :]
        read, wanted = pairs(expect["picks"]), pairs(expect["wanted"])
        for index, key in enumerate(row_keys(case.group["declaration"])):
            cells = grid[index][-(t + 1) :]
            for step in range(t_prev + 1, t + 1):
                want = letter if read[step, key] else "+" if wanted[step, key] else "."
                assert cells[step] == want, (case.id, key, step, grid[index])
    assert gridded > 300


def test_the_worked_example_as_text() -> None:
    text = tl.render_text(tl.build(W, None, [0, 5, 12, 20]))
    assert text.splitlines()[0] == (
        "iospec timeline: 4 acts (A-D) at 0, 5, 12, 20; pad repeat_first; reads earlier steps: yes"
    )
    assert "step             <0 0    5      12      20\n" in text
    assert "act                 A    B      C       D\n" in text
    assert "cam    at -15,0  *  *++++*++++++C+++++++D\n" in text
    assert "state  alone        A....B......C.......D\n" in text
    assert summary_line(text, "D") == ["20", "12", "2", "5", "7", "6"]
    assert "  A (t=0): -15 cam\n  B (t=5): -10 cam\n  C (t=12): -3 cam\n" in text
    assert "  cam @0: A (t=0) x2, B (t=5), C (t=12)\n  cam @5: B (t=5), D (t=20)\n" in text
    assert text.index("legend:") < text.index("step ")


def test_the_spec_page_shows_the_current_output() -> None:
    page = (REPO_ROOT / "spec" / "timeline-example.md").read_text(encoding="utf-8")
    assert tl.render_text(tl.build(W, None, [0, 5, 12, 20])) in page
    assert "iospec timeline '" + EXAMPLE_ARGS[0] + "' --acts 0,5,12,20" in page


def test_the_worked_example_as_svg() -> None:
    document = tl.render_svg(tl.build(W, None, [0, 5, 12, 20]))
    root = ET.fromstring(document)
    assert root.tag == SVG + "svg" and root.get("role") == "img"
    assert [child.tag for child in root][:2] == [SVG + "title", SVG + "desc"]
    groups = list(root.iter(SVG + "g"))
    grid = [g for g in groups if "cell" in g.get("class", "").split()]
    assert len(grid) == 2 * 21
    assert all(g.find(SVG + "title") is not None and g.find(SVG + "rect") is not None for g in grid)
    pads = [g for g in groups if g.get("class") == "pad"]
    assert [(g.get("data-key"), g.get("data-asked")) for g in pads] == [("cam", "0:-15 1:-10 2:-3")]
    assert [g.get("data-step") for g in groups if g.get("class") == "act"] == ["0", "5", "12", "20"]
    cells = svg_cells(document)
    assert cells["cam", 0] == (Counter({0: 2, 1: 1, 2: 1}), "", "carried")
    assert cells["cam", 5] == (Counter({1: 1, 3: 1}), "", "carried")
    assert cells["cam", 13] == (Counter(), "3", "upload")
    assert cells["state", 13] == (Counter(), "", "dropped")
    assert sum(category == "upload" for _, _, category in cells.values()) == 4 + 6 + 7
    legend = [g.get("data-category") for g in groups if g.get("data-category")]
    assert legend == ["carried", "upload", "dropped", "padded"]
    assert "href" not in document and "url(" not in document and "<script" not in document


def test_a_read_between_acts_is_drawn_as_read_and_uploaded() -> None:
    timeline = tl.build({"streams": {"s": {"every": 3}}}, None, [2, 10])
    cells = svg_cells(tl.render_svg(timeline))
    assert [step for (_, step), (reads, _, _) in cells.items() if reads[1]] == [4, 7, 10]
    assert cells["s", 7] == (Counter({1: 1}), "1", "read")
    assert "s  every 3  ..A.B..B..B\n" in tl.render_text(timeline)


def test_drop_pad_and_whole_observation_and_nothing() -> None:
    window = {"streams": {"cam": {"at": [-3, -2, -1, 0]}}, "pad": "drop"}
    dropped = tl.render_text(tl.build(window, None, [1, 4]))
    assert "cam  at -3,-2,-1,0  x  A*BBB\n" in dropped and "  A (t=1): -2 cam; -1 cam\n" in dropped
    whole = tl.render_text(tl.build({"every": 2}, None, [3, 9]))
    assert "(whole observation)  every 2  .A.A.B.B.B\n" in whole
    nothing = tl.render_text(tl.build(None, None, [2, 4]))
    assert "(whole observation)  nothing declared  ..A.B\n" in nothing
    empty = tl.render_text(tl.build({"streams": {}}, None, [1, 3]))
    assert "every act is handed nothing" in empty
    assert summary_line(empty, "B") == ["3", "1", "0", "-", "0", "4"]


def test_a_wide_timeline_folds_and_fits_in_100_columns() -> None:
    timeline = tl.build(W, None, [0, 1000, 1003, 5000])
    text = tl.render_text(timeline)
    assert max(map(len, text.splitlines())) <= 100
    assert "cam    at -15,0  A  A.~.B++C+~+B++C.~.D+~+D\n" in text
    cells = svg_cells(tl.render_svg(timeline))
    assert len(cells) == 2 * 5001
    assert cells["cam", 985][0] == Counter({1: 1}) and cells["cam", 990][1] == "1"


def test_a_wide_timeline_that_cannot_fold_wraps() -> None:
    text = tl.render_text(tl.build({"streams": {"s": {"every": 2}}}, None, [0, 150]))
    lines = text.splitlines()
    assert max(map(len, lines)) <= 100
    assert sum(line.startswith("step ") for line in lines) == 2
    rows = [line[len("s  every 2  ") :] for line in lines if line.startswith("s  every 2")]
    assert "".join(rows) == "A" + ".B" * 75


def test_odd_keys_stay_on_their_line_and_in_well_formed_xml() -> None:
    declaration = {"streams": {"a\u0001b\nc": {"at": [-1, 0]}, "\U0001f600\uff41": {}}}
    timeline = tl.build(declaration, None, [0, 3])
    text = tl.render_text(timeline)
    assert "a\\u0001b\\u000ac  at -1,0  A  A.BB\n" in text
    assert "\U0001f600\uff41             alone       A..B\n" in text
    cells = svg_cells(tl.render_svg(timeline))
    assert cells["a\\u0001b\\u000ac", 2] == (Counter({1: 1}), "1", "read")
    assert cells["\U0001f600\uff41", 3] == (Counter({1: 1}), "", "carried")


def test_main_writes_the_svg_and_register_wires_the_subcommand(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "t.svg"
    assert tl.main([*EXAMPLE_ARGS, "--svg", str(out)]) == 0
    printed = capsys.readouterr().out
    assert printed == tl.render_text(tl.build(W, None, [0, 5, 12, 20])) + f"wrote {out}\n"
    assert len(svg_cells(out.read_text(encoding="utf-8"))) == 42
    parser = argparse.ArgumentParser(prog="iospec")
    tl.register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(["timeline", "null", "--acts", "3", "--rate", "10"])
    assert (args.func, args.acts, args.rate, args.svg) == (tl.run, "3", "10", None)


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "seq_io.timeline", *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        cwd=cwd,
    )


@pytest.mark.parametrize(
    ("args", "code", "words"),
    [
        (('{"streams": {"a": {}}, "every": 4}', "--acts", "0,3"), 1, "[schedule.invalid-declaration]"),
        (('{"streams": {"a": {"at": []}}}', "--acts", "0"), 1, "[schedule.invalid-declaration]"),
        (('{"unit": "seconds", "every": 1}', "--acts", "0,3"), 2, "give the control rate with --rate HZ"),
        (('{"unit": "seconds", "every": 1}', "--acts", "0,3", "--rate", "-5"), 2, "[schedule.invalid-rate]"),
        (('{"unit": "seconds", "every": 1}', "--acts", "0,3", "--rate", "nan"), 2, "[schedule.invalid-rate]"),
        (('{"unit": "seconds", "every": 9e15}', "--acts", "0", "--rate", "10"), 1, "[schedule.step-overflow]"),
        (("null", "--acts", "0,3", "--rate", "fast"), 2, "'fast' is not a number of Hz"),
        (("null", "--acts", "5,3"), 2, "strictly increasing; 3 follows 5"),
        (("null", "--acts", "0,0"), 2, "strictly increasing; 0 follows 0"),
        (("null", "--acts", "0,-1"), 2, "-1 is negative"),
        (("null", "--acts", "0,2.5"), 2, "'2.5' is not a whole number"),
        (("null", "--acts", ""), 2, "'' is not a whole number"),
        (("null", "--acts", ",".join(map(str, range(53)))), 2, "at most 52"),
        (("null", "--acts", "0,60000"), 2, "60001 cells"),
        (("/no/such/declaration.json", "--acts", "0"), 2, "cannot read /no/such/declaration.json"),
        (('{"streams": ', "--acts", "0"), 1, "[wire.json-syntax]"),
        (('{"every": NaN}', "--acts", "0"), 1, "[wire.json-syntax]"),
        (('{"every": 1, "every": 2}', "--acts", "0"), 1, "[wire.duplicate-key]"),
        (("null", "--acts", "0", "--svg", "/no/such/folder/t.svg"), 2, "cannot write /no/such/folder/t.svg"),
    ],
)
def test_bad_input_is_one_line_and_an_exit_code(args: tuple[str, ...], code: int, words: str) -> None:
    done = run(*args)
    assert done.returncode == code, done.stderr
    assert done.stdout == ""
    assert done.stderr.startswith("iospec timeline: ") and done.stderr.count("\n") == 1
    assert words in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize(
    ("content", "code", "words"),
    [
        ('{"streams": {"cam": {"at": [-1, 0]}}\n  "pad": "drop"}', 1, "expected ',' or '}' at line 2"),
        ("\xff{}", 2, "cannot read"),
        ('{"streams": {"cam": {"at": [1]}}}', 1, "[schedule.invalid-declaration]"),
    ],
)
def test_a_bad_declaration_file_is_one_line(tmp_path: Path, content: str, code: int, words: str) -> None:
    path = tmp_path / "decl.json"
    path.write_bytes(content.encode("latin-1"))
    done = run(str(path), "--acts", "0,3")
    assert (done.returncode, done.stdout) == (code, "")
    assert done.stderr.startswith(f"iospec timeline: {path}") or "cannot read" in done.stderr
    assert done.stderr.count("\n") == 1 and words in done.stderr and "Traceback" not in done.stderr


def test_a_declaration_file_is_read(tmp_path: Path) -> None:
    path = tmp_path / "2024-decl.json"  # starts like a number: the existing file still wins
    path.write_text(EXAMPLE_ARGS[0], encoding="utf-8")
    done = run(path.name, *EXAMPLE_ARGS[1:], cwd=tmp_path)
    assert done.returncode == 0 and done.stderr == ""
    assert done.stdout == tl.render_text(tl.build(W, None, [0, 5, 12, 20]))

"""`iospec timeline`: an Observations declaration (+ rate) and a list of act steps → the reference schedule
asked act by act (picks, needed, wanted, keeps_from) → a grid of steps by keys saying which act reads each
cell, which cells travel between acts and which are dropped, as terminal text and, on request, an SVG picture.

WHY it is shaped this way:

- Every mark on the grid comes from the reference functions in seq_io.reference.schedule, called exactly as the
  conformance vectors call them (`picks(s, t, t_prev)`, `wanted(s, t_prev, t)`); the tool never re-derives the
  rule, so what it draws is what the spec's companion implementation says. The one thing `picks` cannot tell,
  the step before 0 that a padded entry stands for, is read off the schedule's windows, for the "<0" column.
- The drawing is split from the reading: `build` returns a plain `Timeline` (cells with their readers and the
  act they are uploaded before) that tests can compare with the vectors' expectations, and `render_text` /
  `render_svg` only lay it out. The SVG carries the same facts as data-* attributes on each cell, so a test
  can check the picture, not just the model.
- Wide timelines stay readable: runs of identical columns are folded into one "~" column (text: only when the
  grid does not fit the line; SVG: beyond a few hundred steps), keeping the folded step range, and text wraps
  at 100 columns. A timeline is bounded (52 acts, 50,000 cells) so a mistyped step cannot make it hang.
- Bad input is a one-line message and an exit code (1: the declaration was refused; 2: the command was used
  wrongly: acts, rate, a file that cannot be read or written), as everywhere in `iospec`.
"""

from __future__ import annotations

import argparse
import math
import re
import string
import sys
import textwrap
import unicodedata
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from seq_io.reference import schedule as sch
from seq_io.reference.schedule import Entry, ScheduleError
from seq_io.reference.wire import parse_json_text

LETTERS = string.ascii_uppercase + string.ascii_lowercase
"""Act labels, in act order: A is the first act drawn."""
MAX_CELLS = 50_000
"""The most cells (rows x steps 0 .. last act) a timeline draws."""
WIDTH = 100
"""Text lines are at most this wide."""
SVG_FULL_STEPS = 300
"""Beyond this many steps the SVG folds runs of identical columns, as the text does when it does not fit."""
_LABEL_MAX = 40
_FOLD_MIN_RUN = 4

_USAGE_RULES = {sch.RATE_REQUIRED, sch.INVALID_RATE}
"""Schedule refusals that point at a command-line argument (exit 2), not at the declaration (exit 1)."""


class TimelineError(Exception):
    """A refusal of the command's input: a one-line message and the exit code it gives."""

    def __init__(self, message: str, code: int) -> None:
        super().__init__(message)
        self.code = code


# ------------------------------------------------------------------------------------------------ the model


@dataclass(frozen=True)
class Row:
    """One row of the grid: a declared key, or None for the whole observation, with how it is read."""

    key: str | None
    kind: str


@dataclass(frozen=True)
class Act:
    """One act drawn, with what the reference says about it."""

    index: int
    t: int
    t_prev: int
    picks: list[Entry]
    needed: list[int]
    wanted: list[Entry]
    """wanted(s, t_prev, t): what travels between the previous act and this one."""
    keeps_from: int
    before_zero: dict[int, tuple[str, ...]]
    """Steps below 0 the act's windows ask for → their keys (read as step 0 under repeat_first, or not)."""

    @property
    def label(self) -> str:
        return LETTERS[self.index]


@dataclass(frozen=True)
class Cell:
    """One step of one row: which acts read it and how many entries each takes of it, and the act it is
    uploaded (or rendered) before, when it travels between acts."""

    reads: tuple[tuple[int, int], ...] = ()
    upload_before: int | None = None


_EMPTY = Cell()


@dataclass(frozen=True)
class Timeline:
    """Everything drawn: the rows, the acts, and the cells of steps 0 .. last act that are read or travel."""

    rows: list[Row]
    acts: list[Act]
    pad: str | None
    """The schedule's pad, None when nothing is declared."""
    reads_past: bool
    cells: dict[tuple[int, int], Cell]
    """(row index, step) → Cell, for the cells that are read or travel; every other cell is `_EMPTY`."""

    @property
    def last(self) -> int:
        return self.acts[-1].t

    def cell(self, row: int, step: int) -> Cell:
        return self.cells.get((row, step), _EMPTY)

    def act_at(self, step: int) -> Act | None:
        return next((act for act in self.acts if act.t == step), None)


def _steps_text(steps: Sequence[int]) -> str:
    """A list of steps, short: `-` when empty, the first and last few when long."""
    if not steps:
        return "-"
    if len(steps) <= 6:
        return ",".join(map(str, steps))
    return f"{steps[0]},{steps[1]},{steps[2]},...,{steps[-1]} ({len(steps)})"


def _rows(declaration: object, schedule: sch.Schedule | None) -> list[Row]:
    if schedule is None:
        return [Row(None, "nothing declared")]
    if schedule.whole:
        return [Row(None, "at the act" if schedule.every is None else f"every {schedule.every}")]
    assert isinstance(declaration, dict)  # a valid Observations naming keys
    rows = []
    for key in declaration["streams"]:  # declaration order, as the user wrote it
        if key in schedule.windows:
            rows.append(Row(key, "at " + _steps_text(schedule.windows[key])))
        elif key in schedule.fed:
            rows.append(Row(key, f"every {schedule.fed[key]}"))
        else:
            rows.append(Row(key, "alone"))
    return rows


def _before_zero(schedule: sch.Schedule | None, t: int) -> dict[int, tuple[str, ...]]:
    asked: dict[int, set[str]] = {}
    for key, offsets in (schedule.windows if schedule else {}).items():
        for offset in offsets:
            if t + offset < 0:
                asked.setdefault(t + offset, set()).add(key)
    return {step: tuple(sorted(keys)) for step, keys in sorted(asked.items())}


def _row_keys(keys: tuple[str, ...] | None) -> tuple[str | None, ...]:
    return (None,) if keys is None else keys


def build(declaration: object, rate: float | None, acts: Sequence[int]) -> Timeline:
    """The timeline of a declaration (JSON value) at the given act steps (strictly increasing, from 0).

    Raises ScheduleError when the reference refuses the declaration or the rate, TimelineError when the
    timeline would be too large to draw."""
    schedule = sch.of(declaration, rate)
    rows = _rows(declaration, schedule)
    cells_drawn = max(1, len(rows)) * (acts[-1] + 1)
    if cells_drawn > MAX_CELLS:
        raise TimelineError(
            f"the timeline would have {cells_drawn} cells ({len(rows)} row(s) x steps 0 to "
            f"{acts[-1]}); at most {MAX_CELLS} are drawn: give acts at smaller steps",
            2,
        )
    row_of = {row.key: index for index, row in enumerate(rows)}
    reads: dict[tuple[int, int], Counter[int]] = {}
    upload: dict[tuple[int, int], int] = {}
    drawn: list[Act] = []
    for index, t in enumerate(acts):
        t_prev = acts[index - 1] if index else -1
        act = Act(
            index,
            t,
            t_prev,
            sch.picks(schedule, t, t_prev),
            sch.needed(schedule, t, t_prev),
            sch.wanted(schedule, t_prev, t),
            sch.keeps_from(schedule, t),
            _before_zero(schedule, t),
        )
        for step, keys in act.picks:
            for key in _row_keys(keys):
                reads.setdefault((row_of[key], step), Counter())[index] += 1
        for step, keys in act.wanted:
            for key in _row_keys(keys):
                upload[row_of[key], step] = index
        drawn.append(act)
    cells = {
        where: Cell(tuple(sorted(reads.get(where, Counter()).items())), upload.get(where))
        for where in reads.keys() | upload.keys()
    }
    return Timeline(rows, drawn, None if schedule is None else schedule.pad, sch.reads_past(schedule), cells)


# ---------------------------------------------------------------------------------------------- the columns


@dataclass(frozen=True)
class Column:
    """A column of the drawing: "pad" (steps before 0), "step" (one step) or "run" (steps first..last folded
    because their cells and act marks are all alike)."""

    kind: str
    first: int
    last: int


def _signature(timeline: Timeline, step: int) -> tuple[object, ...]:
    return (timeline.act_at(step), *(timeline.cell(row, step) for row in range(len(timeline.rows))))


def _columns(timeline: Timeline, fold: bool) -> list[Column]:
    """The columns to draw: the pad column when some act asks for a step before 0, then the steps 0 .. last
    act, with runs of at least _FOLD_MIN_RUN alike steps (no act among them) folded to first, "~", last when
    `fold`."""
    columns = [Column("pad", -1, -1)] if any(act.before_zero for act in timeline.acts) else []
    step = 0
    while step <= timeline.last:
        end = step
        if fold and timeline.act_at(step) is None:
            alike = _signature(timeline, step)
            while end < timeline.last and _signature(timeline, end + 1) == alike:
                end += 1
        if end - step + 1 >= _FOLD_MIN_RUN:
            columns += [Column("step", step, step), Column("run", step + 1, end - 1), Column("step", end, end)]
        else:
            columns += [Column("step", s, s) for s in range(step, end + 1)]
        step = end + 1
    return columns


# ------------------------------------------------------------------------------------------------ the words


def shown(key: str | None) -> str:
    """A key as it is printed: characters that are not printable (controls, lone surrogates, odd spaces)
    become \\uXXXX escapes, so a key never breaks a line of text nor an XML document."""
    if key is None:
        return "(whole observation)"
    return "".join(ch if ch.isprintable() else f"\\u{ord(ch):04x}" for ch in key)


def _width(text: str) -> int:
    """Terminal columns taken by `text` (wide East Asian characters take two, combining marks none)."""
    return sum(0 if unicodedata.combining(ch) else 2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _fit(text: str, width: int) -> str:
    """`text` cut to `width` terminal columns ("..." marks a cut) and padded to exactly that width."""
    if _width(text) > width:
        while _width(text) > width - 3:
            text = text[:-1]
        text += "..."
    return text + " " * (width - _width(text))


def _row_labels(timeline: Timeline) -> list[str]:
    """Each row's key, then how it is read, in aligned columns."""
    keys = [shown(row.key) for row in timeline.rows]
    key_width = min(_LABEL_MAX // 2, max(map(_width, keys), default=0))
    return [f"{_fit(key, key_width)}  {row.kind}" for key, row in zip(keys, timeline.rows, strict=True)]


def _readers(timeline: Timeline, cell: Cell) -> str:
    """`A x2, B (t=5)`-style list of the acts reading a cell."""
    return ", ".join(
        f"{timeline.acts[i].label} (t={timeline.acts[i].t})" + (f" x{n}" if n > 1 else "") for i, n in cell.reads
    )


def _header(timeline: Timeline) -> str:
    acts = timeline.acts
    labels = acts[0].label if len(acts) == 1 else f"{acts[0].label}-{acts[-1].label}"
    pad = "nothing declared" if timeline.pad is None else f"pad {timeline.pad}"
    steps = ", ".join(str(act.t) for act in acts)
    return (
        f"iospec timeline: {len(acts)} act{'s' if len(acts) > 1 else ''} ({labels}) at {steps}; {pad}; "
        f"reads earlier steps: {'yes' if timeline.reads_past else 'no'}"
    )


def _summary(timeline: Timeline) -> list[str]:
    table = [("act", "t", "t_prev", "entries", "needed", "wanted", "keeps_from")]
    table += [
        (
            a.label,
            str(a.t),
            str(a.t_prev),
            str(len(a.picks)),
            _steps_text(a.needed),
            str(len(a.wanted)),
            str(a.keeps_from),
        )
        for a in timeline.acts
    ]
    widths = [max(len(line[i]) for line in table) for i in range(len(table[0]))]
    return ["  ".join(value.ljust(width) for value, width in zip(line, widths, strict=True)).rstrip() for line in table]


def _capped(lines: list[str], most: int = 20) -> list[str]:
    return lines if len(lines) <= most else [*lines[:most], f"  ... and {len(lines) - most} more"]


def _notes(timeline: Timeline) -> list[str]:
    """The facts a one-character cell cannot hold: steps before 0, cells read by several acts or twice."""
    notes: list[str] = []
    padded = [
        f"  {a.label} (t={a.t}): "
        + "; ".join(f"{step} {','.join(map(shown, keys))}" for step, keys in a.before_zero.items())
        for a in timeline.acts
        if a.before_zero
    ]
    if padded:
        how = "each is read as step 0, its own entry" if timeline.pad == "repeat_first" else "dropped: no entry"
        notes += ["", f"steps before 0 asked (pad {timeline.pad}: {how}):", *_capped(padded)]
    several = [
        f"  {shown(timeline.rows[row].key)} @{step}: {_readers(timeline, cell)}"
        for (row, step), cell in sorted(timeline.cells.items())
        if len(cell.reads) > 1 or any(n > 1 for _, n in cell.reads)
    ]
    if several:
        notes += ["", "cells read by several acts, or more than once:", *_capped(several)]
    return notes


# ------------------------------------------------------------------------------------------------- the text


def _char(timeline: Timeline, row: int, column: Column) -> str:
    if column.kind == "run":
        return "~"
    if column.kind == "pad":
        key = timeline.rows[row].key
        askers = [a for a in timeline.acts if any(key in keys for keys in a.before_zero.values())]
        if not askers:
            return " "
        if timeline.pad == "drop":
            return "x"
        return askers[0].label if len(askers) == 1 else "*"
    cell = timeline.cell(row, column.first)
    if len(cell.reads) > 1:
        return "*"
    if cell.reads:
        return LETTERS[cell.reads[0][0]]
    return "." if cell.upload_before is None else "+"


def _legend(timeline: Timeline, columns: list[Column]) -> list[str]:
    acts = timeline.acts
    first, last = acts[0].label, acts[-1].label
    letters = first if first == last else f"{first}-{last}"
    lines = [f"legend: {letters:<5} read by that act (a step between acts that an act reads is uploaded before it)"]
    chars = {_char(timeline, row, column) for row in range(len(timeline.rows)) for column in columns}
    for char, meaning in [
        ("*", "read by several acts (listed below)"),
        ("+", "uploaded/rendered between acts for a later act; read by no act drawn"),
        (".", "neither read nor uploaded: dropped"),
        ("x", "a step before 0, dropped (pad drop)"),
        ("~", "a run of columns like the ones either side, left out"),
    ]:
        if char in chars:
            lines.append(f"        {char:<5} {meaning}")
    if columns and columns[0].kind == "pad":
        lines.append("        <0    steps before 0 that an act's window asks for (listed below)")
    return lines


def _chunks(columns: list[Column], room: int) -> Iterator[list[Column]]:
    chunk: list[Column] = []
    used = 0
    for column in columns:
        size = 3 if column.kind == "pad" else 1
        if chunk and used + size > room:
            yield chunk
            chunk, used = [], 0
        chunk.append(column)
        used += size
    if chunk:
        yield chunk


def _ruler(timeline: Timeline, chunk: list[Column], room: int) -> str:
    """Step numbers over their columns: the acts first, then where the chunk or a fold resumes, then tens."""
    line = [" "] * room
    at: list[tuple[int, int, str]] = []  # (priority, position, text)
    x = 0
    after_fold = True
    for column in chunk:
        if column.kind == "pad":
            at.append((0, x, "<0"))
        elif column.kind == "step":
            step = column.first
            priority = 0 if timeline.act_at(step) else 1 if after_fold else 2 if step % 10 == 0 else 3
            if priority < 3:
                at.append((priority, x, str(step)))
        after_fold = column.kind != "step"
        x += 3 if column.kind == "pad" else 1
    for _, x, text in sorted(at):
        span = range(max(0, x - 1), min(room, x + len(text) + 1))
        if x + len(text) <= room and all(line[i] == " " for i in span):
            line[x : x + len(text)] = text
    return "".join(line).rstrip()


def _wrapped(lines: list[str], width: int) -> list[str]:
    """Free text folded to `width`; a folded line goes on indented by four more spaces than it began."""
    out = []
    for line in lines:
        indent = " " * (len(line) - len(line.lstrip()) + 4)
        out += textwrap.wrap(line, width, subsequent_indent=indent, break_on_hyphens=False) or [""]
    return out


def render_text(timeline: Timeline, width: int = WIDTH) -> str:
    """The timeline for a terminal: header, legend, the grid (folded and wrapped to `width`), one line per
    act, notes."""
    labels = ["step", "act", *_row_labels(timeline)]
    label_width = min(_LABEL_MAX, max(map(_width, labels)))
    room = width - label_width - 2
    columns = _columns(timeline, fold=False)
    if sum(3 if c.kind == "pad" else 1 for c in columns) > room:
        columns = _columns(timeline, fold=True)
    lines = [*_wrapped([_header(timeline)], width), *_legend(timeline, columns)]
    if not timeline.rows:
        lines += ["", "(streams is {}: no key is named, so every act is handed nothing)"]
    for chunk in _chunks(columns, room):
        acts_line = "".join(
            "   " if c.kind == "pad" else (act.label if c.kind == "step" and (act := timeline.act_at(c.first)) else " ")
            for c in chunk
        )
        lines += [
            "",
            _fit("step", label_width) + "  " + _ruler(timeline, chunk, room),
            _fit("act", label_width) + "  " + acts_line.rstrip(),
        ]
        for row, label in enumerate(labels[2:]):
            cells = "".join(_char(timeline, row, c) + ("  " if c.kind == "pad" else "") for c in chunk)
            lines.append(_fit(label, label_width) + "  " + cells.rstrip())
    return "\n".join([*lines, "", *_summary(timeline), *_wrapped(_notes(timeline), width)]) + "\n"


# -------------------------------------------------------------------------------------------------- the SVG

_CELL_W, _CELL_H, _MARGIN, _LINE = 26, 20, 12, 16
_CHAR_W = 7.5  # the width of a character of 12px monospace text, a little generous
_XML_NAMES = {"xml_space": "{http://www.w3.org/XML/1998/namespace}space"}
_STEPS_PER_BAND = 40
_FILL = {
    "carried": ("#1f4e8c", "#ffffff", "read by the letter's act; the step of an act, carried by it"),
    "read": ("#6fa8dc", "#000000", "read by the letter's act; uploaded/rendered before it"),
    "upload": ("#f6b26b", "#000000", "uploaded/rendered between acts for a later act; read by no act drawn"),
    "dropped": ("#eeeeee", "#666666", "neither read nor uploaded: dropped"),
    "padded": ("#b4a7d6", "#000000", "<0: a step before 0 an act's window asks for, read as step 0"),
    "pad-dropped": ("#ffffff", "#999999", "<0: a step before 0 an act's window asks for, dropped (pad drop)"),
}


def _category(timeline: Timeline, cell: Cell, step: int) -> str:
    if cell.reads:
        return "carried" if timeline.act_at(step) else "read"
    return "dropped" if cell.upload_before is None else "upload"


def _cell_label(cell: Cell) -> str:
    text = "".join(LETTERS[i] + (str(n) if n > 1 else "") for i, n in cell.reads)
    return text if len(text) <= 3 else text[:2] + "+"


def _cell_title(timeline: Timeline, row: int, column: Column, cell: Cell) -> str:
    where = (
        f"step {column.first}"
        if column.kind == "step"
        else f"steps {column.first} to {column.last} ({column.last - column.first + 1} steps, all alike)"
    )
    read = f"read by {_readers(timeline, cell)}" if cell.reads else "read by no act drawn"
    travel = (
        "not uploaded"
        if cell.upload_before is None
        else f"uploaded/rendered before act {timeline.acts[cell.upload_before].label}"
    )
    return f"{where}, {shown(timeline.rows[row].key)}: {read}; {travel}"


def _add(parent: ET.Element, tag: str, text: str | None = None, **attributes: str | int) -> ET.Element:
    element = ET.SubElement(
        parent,
        tag,
        {_XML_NAMES.get(name, name.rstrip("_").replace("_", "-")): str(value) for name, value in attributes.items()},
    )
    element.text = text
    return element


def _text(parent: ET.Element, x: int, y: int, text: str, size: int = 12, **attributes: str | int) -> None:
    _add(parent, "text", text, x=x, y=y, font_family="monospace", font_size=size, **attributes)


def _key_attributes(key: str | None) -> dict[str, str]:
    return {"data_whole": "true"} if key is None else {"data_key": shown(key)}


def _svg_cell(timeline: Timeline, group: ET.Element, row: int, column: Column, x: int, y: int) -> None:
    key = timeline.rows[row].key
    if column.kind == "pad":
        asked = [(a, step) for a in timeline.acts for step, keys in a.before_zero.items() if key in keys]
        if not asked:
            return
        category = "padded" if timeline.pad == "repeat_first" else "pad-dropped"
        label = "x" if category == "pad-dropped" else "".join(dict.fromkeys(a.label for a, _ in asked))[:3]
        title = (
            f"{shown(key)} before step 0: "
            + "; ".join(f"act {a.label} (t={a.t}) asks step {step}" for a, step in asked)
            + ("; each is read as step 0" if category == "padded" else "; dropped (pad drop)")
        )
        attributes = {"data_asked": " ".join(f"{a.index}:{step}" for a, step in asked)}
        classes = "pad"
    else:
        cell = timeline.cell(row, column.first)
        category = _category(timeline, cell, column.first)
        label = "~" if column.kind == "run" else _cell_label(cell)
        title = _cell_title(timeline, row, column, cell)
        attributes = {
            "data_first": str(column.first),
            "data_last": str(column.last),
            "data_reads": " ".join(f"{i}:{n}" for i, n in cell.reads),
            "data_upload_before": "" if cell.upload_before is None else str(cell.upload_before),
        }
        classes = "cell " + category
    fill, ink, _ = _FILL[category]
    node = _add(group, "g", class_=classes, data_row=row, **_key_attributes(key), **attributes)
    _add(node, "title", title)
    _add(node, "rect", x=x, y=y, width=_CELL_W - 2, height=_CELL_H - 2, fill=fill, stroke="#999999")
    if label:
        _text(node, x + 3, y + 13, label, size=9, fill=ink)


def _svg_band(timeline: Timeline, svg: ET.Element, band: list[Column], y: int, label_width: int) -> int:
    group = _add(svg, "g", class_="band")
    for index, column in enumerate(band):
        x = _MARGIN + label_width + index * _CELL_W
        act = timeline.act_at(column.first) if column.kind == "step" else None
        ruler = {"pad": "<0", "run": "~"}.get(column.kind, str(column.first))
        beside_run = any(c.kind == "run" for c in band[max(0, index - 1) : index + 2])
        if column.kind != "step" or act or column.first % 5 == 0 or index == 0 or beside_run:
            _text(group, x + 1, y + 10, ruler, size=8, fill="#333333")
        if act:
            mark = _add(group, "g", class_="act", data_act=act.index, data_step=act.t)
            _add(mark, "title", f"act {act.label} at step {act.t} (previous act: {act.t_prev})")
            _add(mark, "rect", x=x, y=y + 14, width=_CELL_W - 2, height=_CELL_H - 2, fill="#333333")
            _text(mark, x + 7, y + 27, act.label, size=11, fill="#ffffff", font_weight="bold")
    _text(group, _MARGIN, y + 27, "act", fill="#333333")
    y += 14 + _CELL_H
    for row, label in enumerate(_row_labels(timeline)):
        _text(group, _MARGIN, y + 13, _fit(label, _LABEL_MAX).rstrip(), xml_space="preserve")
        for index, column in enumerate(band):
            _svg_cell(timeline, group, row, column, _MARGIN + label_width + index * _CELL_W, y)
        y += _CELL_H
    return y + _LINE


def render_svg(timeline: Timeline) -> str:
    """The timeline as a self-contained SVG document: legend, bands of 40 columns at most, a line per act."""
    columns = _columns(timeline, fold=timeline.last + 1 > SVG_FULL_STEPS)
    label_width = math.ceil(_CHAR_W * min(_LABEL_MAX, max([3, *map(_width, _row_labels(timeline))]))) + 12
    lines = [*_summary(timeline), *_notes(timeline)]
    width = 2 * _MARGIN + max(
        label_width + min(len(columns), _STEPS_PER_BAND) * _CELL_W,
        math.ceil(_CHAR_W * max(map(_width, [_header(timeline), *lines]))),
    )
    svg = ET.Element(
        "svg",
        {
            "xmlns": "http://www.w3.org/2000/svg",
            "role": "img",
            "font-family": "monospace",
            "aria-labelledby": "timeline-title timeline-desc",
        },
    )
    _add(svg, "title", _header(timeline), id="timeline-title")
    _add(
        svg,
        "desc",
        "A grid of steps (columns) by observation keys (rows). Each cell's colour says whether "
        "an act reads it, whether it is uploaded or rendered between acts, or dropped; its "
        "letters name the acts reading it. Hover a cell for the details.",
        id="timeline-desc",
    )
    _text(svg, _MARGIN, _MARGIN + 10, _header(timeline), font_weight="bold")
    y = _MARGIN + 10 + _LINE
    used = {
        _category(timeline, timeline.cell(row, column.first), column.first)
        for row in range(len(timeline.rows))
        for column in columns
        if column.kind != "pad"
    }
    if columns and columns[0].kind == "pad":
        used.add("padded" if timeline.pad == "repeat_first" else "pad-dropped")
    legend = _add(svg, "g", class_="legend")
    for category, (fill, _, meaning) in _FILL.items():
        if category in used:
            item = _add(legend, "g", data_category=category)
            _add(item, "rect", x=_MARGIN, y=y, width=12, height=12, fill=fill, stroke="#999999")
            _text(item, _MARGIN + 18, y + 10, meaning)
            y += _LINE
    y += _LINE // 2
    if not timeline.rows:
        _text(svg, _MARGIN, y + 12, "(streams is {}: no key is named, so every act is handed nothing)")
        y += _LINE * 2
    for start in range(0, len(columns), _STEPS_PER_BAND):
        y = _svg_band(timeline, svg, columns[start : start + _STEPS_PER_BAND], y, label_width)
    for line in lines:
        _text(svg, _MARGIN, y + 12, line, xml_space="preserve")
        y += _LINE
    svg.set("width", str(width))
    svg.set("height", str(y + _MARGIN))
    svg.set("viewBox", f"0 0 {width} {y + _MARGIN}")
    return ET.tostring(svg, encoding="unicode") + "\n"


# ---------------------------------------------------------------------------------------------- the command

_JSON_START = re.compile(r"\s*[\[{\"0-9-]|\s*(null|true|false)\s*$")


def parse_acts(text: str) -> list[int]:
    """`0,5,12,20` → the act steps; refused unless whole numbers ≥ 0, strictly increasing, at most 52."""
    parts = [part.strip() for part in text.split(",")]
    steps: list[int] = []
    for part in parts:
        if not re.fullmatch(r"[+-]?[0-9]+", part):
            raise TimelineError(f"--acts: {part!r} is not a whole number; give the acts' steps like 0,5,12,20", 2)
        step = int(part)
        if step < 0:
            raise TimelineError(f"--acts: {step} is negative; steps count from 0", 2)
        if steps and step <= steps[-1]:
            raise TimelineError(f"--acts: the steps must be strictly increasing; {step} follows {steps[-1]}", 2)
        steps.append(step)
    if len(steps) > len(LETTERS):
        raise TimelineError(f"--acts: {len(steps)} acts given; a timeline draws at most {len(LETTERS)}", 2)
    return steps


def parse_rate(text: str | None) -> float | None:
    if text is None:
        return None
    try:
        return float(text)
    except ValueError:
        raise TimelineError(f"--rate: {text!r} is not a number of Hz", 2) from None


def _is_file(argument: str) -> bool:
    try:
        return Path(argument).is_file()
    except (OSError, ValueError):  # a name too long, or holding a NUL: not a file
        return False


def read_declaration(argument: str) -> tuple[object, str]:
    """The declaration argument → (JSON value, a name for messages). An existing file is read; otherwise text
    that starts like JSON ({, [, a quote, a digit, -, or is null/true/false) is the declaration itself, and
    anything else names a file that cannot be read."""
    if not _is_file(argument) and _JSON_START.match(argument):
        name, text = "the declaration", argument
    else:
        name = argument
        try:
            text = Path(argument).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise TimelineError(f"cannot read {argument}: {error}", 2) from None
    value, issues = parse_json_text(text)
    if issues:
        raise TimelineError(f"{name}: " + "; ".join(map(str, issues)), 1)
    return value, name


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _emit(text: str) -> None:
    """Print even on a terminal whose encoding cannot show a key (it is escaped instead)."""
    encoding = sys.stdout.encoding or "utf-8"
    sys.stdout.write(text.encode(encoding, "backslashreplace").decode(encoding))


def timeline_of(args: argparse.Namespace) -> Timeline:
    acts = parse_acts(args.acts)
    rate = parse_rate(args.rate)
    declaration, name = read_declaration(args.declaration)
    try:
        return build(declaration, rate, acts)
    except ScheduleError as error:
        hint = "; give the control rate with --rate HZ" if error.rule == sch.RATE_REQUIRED else ""
        raise TimelineError(f"{name}: {error}{hint}", 2 if error.rule in _USAGE_RULES else 1) from None


def run(args: argparse.Namespace) -> int:
    """The `timeline` subcommand: print the timeline, and write the SVG when asked; exit code 0, 1 or 2."""
    try:
        timeline = timeline_of(args)
        if args.svg is not None:
            try:
                Path(args.svg).write_text(render_svg(timeline), encoding="utf-8")
            except OSError as error:
                raise TimelineError(f"cannot write {args.svg}: {error}", 2) from None
    except TimelineError as error:
        print(f"iospec timeline: {shown(_one_line(str(error)))}", file=sys.stderr)
        return error.code
    _emit(render_text(timeline))
    if args.svg is not None:
        print(f"wrote {args.svg}")
    return 0


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the `timeline` subcommand to `iospec`."""
    parser = commands.add_parser(
        "timeline",
        help="draw which steps and keys each act reads, and what travels between acts",
        description="Draw, for each step up to the last act and each declared key, which act reads it, "
        "whether it is uploaded/rendered between acts, or dropped; then one line per act.",
    )
    parser.add_argument(
        "declaration",
        help="an Observations JSON file, or the JSON text itself ('null': nothing declared); "
        "if no such file exists, text starting with {, [, a quote, a digit or - is JSON",
    )
    parser.add_argument(
        "--acts",
        required=True,
        metavar="STEPS",
        help="the acts' steps, strictly increasing, comma-separated: 0,5,12,20",
    )
    parser.add_argument(
        "--rate", metavar="HZ", help="the control rate in Hz (needed when the declaration counts in seconds)"
    )
    parser.add_argument("--svg", metavar="OUT.svg", help="also write the timeline as an SVG picture")
    parser.set_defaults(func=run)


def main(argv: list[str] | None = None) -> int:
    """Run `iospec timeline` with `argv` (the arguments after `timeline`) before cli.py offers it."""
    parser = argparse.ArgumentParser(prog="iospec")
    register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(["timeline", *(sys.argv[1:] if argv is None else argv)])
    return run(args)


if __name__ == "__main__":
    sys.exit(main())

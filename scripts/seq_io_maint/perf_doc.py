"""A benchmark's result tables → Markdown, stamped with the date, the command and the machine's load average → the
text between `<!-- begin: NAME -->` and `<!-- end: NAME -->` in docs/performance.md, and nothing else of the file.

WHY this shape: the figures in docs/performance.md went stale whenever someone copied them by hand, and a
benchmark's numbers mean little without the load the machine was under (these are shared 2-core machines). So each
scripts/bench_*.py writes its own tables (`--write-docs`) into a section named after the script, and the analysis
written by hand sits outside the markers, where no run touches it. A marker that is missing, doubled or out of order
is refused with an error naming it, rather than guessed around: writing into the wrong place would silently destroy
hand-written text. The file is replaced in one step (a temporary file, then a rename), so an interrupted run leaves
the old text whole.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import os
import re
import shlex
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PERFORMANCE_MD = REPO / "docs" / "performance.md"
MARKER = re.compile(r"<!-- (begin|end): ([A-Za-z0-9_.-]+) -->")
"""A section marker; NAME is the script's name without `.py` (`bench_schedule`)."""


def times(ratio: float, digits: int = 1) -> str:
    """A ratio as the tables write it: the number, then U+00D7 MULTIPLICATION SIGN (`3.6` and the sign)."""
    return f"{ratio:.{digits}f}\N{MULTIPLICATION SIGN}"


class MarkerError(ValueError):
    """The markers of a section are missing, doubled, nested or out of order."""


def begin_marker(name: str) -> str:
    return f"<!-- begin: {name} -->"


def end_marker(name: str) -> str:
    return f"<!-- end: {name} -->"


def sections(text: str, where: str = "the document") -> list[str]:
    """The names of the marked sections, in order; MarkerError unless every begin has exactly one end after it,
    with no other marker between the two, and no name is used twice."""
    names: list[str] = []
    open_name: str | None = None
    for found in MARKER.finditer(text):
        kind, name = found.groups()
        line = text.count("\n", 0, found.start()) + 1
        if kind == "begin":
            if open_name is not None:
                raise MarkerError(f"{where}:{line}: {begin_marker(name)} inside the open section {open_name!r}")
            if name in names:
                raise MarkerError(f"{where}:{line}: a second section {name!r}")
            open_name = name
        else:
            if open_name != name:
                raise MarkerError(
                    f"{where}:{line}: {end_marker(name)} without its {begin_marker(name)}"
                    if open_name is None
                    else f"{where}:{line}: {end_marker(name)} inside the open section {open_name!r}"
                )
            names.append(name)
            open_name = None
    if open_name is not None:
        raise MarkerError(f"{where}: {begin_marker(open_name)} has no {end_marker(open_name)}")
    return names


def replace_section(text: str, name: str, body: str, where: str = "the document") -> str:
    """`text` with what lies between the markers of section `name` replaced by `body` (on lines of its own);
    every character outside the two markers is kept. MarkerError if the section is missing or the markers are not
    well formed."""
    if name not in sections(text, where):
        missing = [m for m in (begin_marker(name), end_marker(name)) if m not in text]
        raise MarkerError(
            f"{where}: no section {name!r}: {' and '.join(missing) or 'its markers'} not found; add "
            f"{begin_marker(name)} and {end_marker(name)} on lines of their own where its tables belong"
        )
    start = text.index(begin_marker(name)) + len(begin_marker(name))
    stop = text.index(end_marker(name), start)
    return text[:start] + "\n" + body.strip("\n") + "\n" + text[stop:]


@dataclass(frozen=True)
class Table:
    """One result table: a title (a sentence saying what is timed against what), a header and rows of text."""

    title: str
    header: Sequence[str]
    rows: Sequence[Sequence[str]]

    def markdown(self) -> str:
        for row in self.rows:
            if len(row) != len(self.header):
                raise ValueError(f"{self.title}: a row of {len(row)} cells under {len(self.header)} headings")
        lines = [f"{self.title}", "", _row(self.header), "|" + "---|" * len(self.header)]
        return "\n".join([*lines, *(_row(row) for row in self.rows)])


def _row(cells: Sequence[str]) -> str:
    return "| " + " | ".join(str(cell).replace("|", "\\|") for cell in cells) + " |"


@dataclass(frozen=True)
class Moment:
    """A time and the load average then (1, 5 and 15 minutes; None where the platform has none)."""

    when: datetime.datetime = field(default_factory=lambda: datetime.datetime.now(datetime.UTC))
    load: tuple[float, float, float] | None = field(default_factory=lambda: _load_average())

    def load_text(self) -> str:
        return "unavailable" if self.load is None else " / ".join(f"{value:.2f}" for value in self.load)


@dataclass(frozen=True)
class Run:
    """One benchmark run: its script, how it was called, the file `--write-docs` named (None: not asked) and when
    it began, so that the script names these once and `write` needs only the results."""

    script: str
    argv: Sequence[str] | None
    path: Path | None
    start: Moment

    def write(self, tables: Sequence[Table], notes: Sequence[str] = ()) -> None:
        """Write the results into the script's section when `--write-docs` asked for it; else nothing."""
        if self.path is not None:
            write(self.script, self.argv, self.start, tables, notes, path=self.path)


def begin(script: str, argv: Sequence[str] | None, path: Path | None) -> Run:
    """The start of a benchmark's run: when `--write-docs` names a file, first check that its section for `script`
    can be written (so a run of minutes does not end in a refusal), then note the time and the load."""
    if path is not None:
        try:
            replace_section(path.read_text(encoding="utf-8"), script, "", where=str(path))
        except (OSError, MarkerError) as error:
            raise SystemExit(f"{script}: --write-docs: {error}") from None
    return Run(script, argv, path, Moment())


def _load_average() -> tuple[float, float, float] | None:
    try:
        return os.getloadavg()
    except (AttributeError, OSError):
        return None


def command_line(script: str, argv: Sequence[str] | None) -> str:
    """How the run was asked for (`argv`, or this process's arguments when None), `--write-docs` and its file left
    out: `python scripts/bench_x.py --opt v`."""
    kept: list[str] = []
    skip = False
    for arg in sys.argv[1:] if argv is None else argv:
        if skip:
            skip = False
            if not arg.startswith("-"):
                continue
        if arg == "--write-docs":
            skip = True
            continue
        if arg.startswith("--write-docs="):
            continue
        kept.append(arg)
    return shlex.join(["python", f"scripts/{script}.py", *kept])


def section_body(
    script: str, argv: Sequence[str] | None, start: Moment, tables: Sequence[Table], notes: Sequence[str] = ()
) -> str:
    """The text of a section: who wrote it, when, under what load, then each table and any closing notes."""
    end = Moment()
    stamp = (
        f"*Written by `{command_line(script, argv)} --write-docs` on {end.when:%Y-%m-%d %H:%M} UTC, "
        f"{os.cpu_count()} cores; load average (1 / 5 / 15 min) {start.load_text()} at the start of the run, "
        f"{end.load_text()} at its end. Do not edit between the markers: the next run replaces this text.*"
    )
    return "\n\n".join([stamp, *(table.markdown() for table in tables), *notes])


def write_section(name: str, body: str, path: Path = PERFORMANCE_MD) -> None:
    """Replace section `name` of the file at `path` with `body`; the file is untouched on any error."""
    text = path.read_text(encoding="utf-8")
    updated = replace_section(text, name, body, where=str(path))
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as out:
            out.write(updated)
        os.chmod(temporary, path.stat().st_mode & 0o777)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)
        raise


def write(
    script: str,
    argv: Sequence[str] | None,
    start: Moment,
    tables: Sequence[Table],
    notes: Sequence[str] = (),
    path: Path = PERFORMANCE_MD,
) -> None:
    """What a benchmark's `--write-docs` does: its tables, stamped, into its own section; says where on stdout."""
    write_section(script, section_body(script, argv, start, tables, notes), path)
    print(f"\nwrote section {script!r} of {path}")


def add_option(parser: argparse.ArgumentParser) -> None:
    """The `--write-docs [FILE]` option every benchmark takes (FILE: another copy of performance.md, for trials)."""
    parser.add_argument(
        "--write-docs",
        nargs="?",
        const=PERFORMANCE_MD,
        default=None,
        type=Path,
        metavar="FILE",
        help="after the run, write the result tables into this script's section of FILE (default: docs/performance.md)",
    )

"""`iospec report`: argv → the named run reports loaded and checked → the matrix written to a folder (index.html,
matrix.md, badges/<implementation>.json), or with `--compare OLD NEW` the changes between two runs in Markdown →
exit 0, 1 (with `--compare`: a case newly fails) or 2 (a file is missing or not a report; one line says which).

WHY it writes files and prints one line: the page is for people and the badges for a README, both published by
CI; the terminal only needs to know where they are. The comparison prints Markdown because it goes straight into
a pull request comment or a job summary.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from seq_io.report import compare, matrix
from seq_io.report.cases import Vectors
from seq_io.report.load import MAX_REPORT_BYTES, MAX_REPORTS, ReportError, load_run, load_runs

DEFAULT_OUT = Path("iospec-report")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "reports",
        nargs="*",
        metavar="[LABEL=]REPORT",
        help="JSON reports of `iospec run --json` or `iospec probe --json`; LABEL names the column "
        f"(default: the testee's name); at most {MAX_REPORTS}, each at most {MAX_REPORT_BYTES // 2**20} MiB",
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=DEFAULT_OUT,
        metavar="DIR",
        help=f"the folder for index.html, matrix.md and badges/ (default: {DEFAULT_OUT})",
    )
    parser.add_argument(
        "--compare",
        nargs=2,
        metavar=("OLD", "NEW"),
        help="compare two reports of one implementation instead: newly failing, newly passing, expected "
        "failures that now pass (exit 1 when a case newly fails)",
    )
    parser.add_argument("--markdown", type=Path, metavar="FILE", help="with --compare: write the Markdown here")


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def _matrix(args: argparse.Namespace) -> int:
    runs = load_runs(args.reports)
    built = matrix.build(runs)
    out: Path = args.out
    _write(out / "index.html", matrix.html(built, Vectors()))
    _write(out / "matrix.md", matrix.markdown(built))
    names: set[str] = set()
    for index, run in enumerate(runs):
        name = matrix.slug(run.label)
        name = name if name not in names else f"{name}-{index + 1}"
        names.add(name)
        _write(out / "badges" / f"{name}.json", matrix.badge_text(run))
    failing = sum(not run.ok for run in runs)
    print(
        f"wrote {out / 'index.html'}, {out / 'matrix.md'} and {len(runs)} badges in {out / 'badges'}: "
        f"{len(runs)} implementations, {failing} with a failed run"
    )
    return 0


def _compare(args: argparse.Namespace) -> int:
    old, new = (load_run(Path(p)) for p in args.compare)
    found = compare.changes(old, new)
    text = compare.markdown(old, new, found)
    if args.markdown is not None:
        _write(args.markdown, text)
        print(
            f"wrote {args.markdown}: {len(found.newly_failing)} newly failing, {len(found.newly_passing)} newly "
            f"passing, {len(found.now_passing_expected)} expected failures that now pass"
        )
    else:
        sys.stdout.write(text)
    return 1 if found.newly_failing else 0


def _run(args: argparse.Namespace) -> int:
    if args.compare is not None and args.reports:
        print("iospec report: --compare OLD NEW takes no other report", file=sys.stderr)
        return 2
    if args.compare is None and not args.reports:
        print("iospec report: name the JSON reports to show, or --compare OLD NEW", file=sys.stderr)
        return 2
    if args.markdown is not None and args.compare is None:
        print("iospec report: --markdown goes with --compare (the matrix is written to --out)", file=sys.stderr)
        return 2
    try:
        return _compare(args) if args.compare is not None else _matrix(args)
    except ReportError as error:
        print(f"iospec report: {error}", file=sys.stderr)
        return 2
    except OSError as error:
        print(f"iospec report: cannot write {error.filename}: {error.strerror}", file=sys.stderr)
        return 2


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "report",
        help="one compliance matrix (HTML, Markdown, badges) from several JSON run reports, or --compare two",
    )
    add_arguments(parser)
    parser.set_defaults(func=_run)

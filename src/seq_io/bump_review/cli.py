"""`iospec bump-review --base REF [--head REF] [--markdown OUT.md] [--json OUT.json]` (REF: a spec folder or a
git ref): arguments → two snapshots → the review → the Markdown report on standard output (and in files when
asked) → exit code.

Exit codes, as for every `iospec` command: 0 the gate passes, 1 it refuses (a breaking change not declared by
the version and the changelog), 2 the command could not run (a missing folder, an unknown git ref, a broken
schema, an unwritable output file); a bad input is always one line on standard error, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from contextlib import ExitStack
from pathlib import Path

from seq_io.bump_review import report
from seq_io.bump_review.review import review
from seq_io.bump_review.snapshot import InputError, open_snapshot, working_tree

DESCRIPTION = (
    "Review a contract-version bump: classify every schema change (whom it breaks), cross the "
    "vectors of both versions, list the cases whose expected result moved, and check that the "
    "contract version and the changelog moved as far as the changes demand."
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--base",
        required=True,
        help="the earlier version: a spec folder (e.g. spec/releases/0.5.23) or a git ref",
    )
    parser.add_argument(
        "--head", help="the later version: a spec folder or a git ref (default: the working tree's spec/)"
    )
    parser.add_argument("--markdown", type=Path, metavar="OUT.md", help="also write the Markdown report here")
    parser.add_argument("--json", type=Path, metavar="OUT.json", help="write the JSON report here")


def run(args: argparse.Namespace) -> int:
    try:
        with ExitStack() as stack:
            base = stack.enter_context(open_snapshot(args.base))
            head = stack.enter_context(open_snapshot(args.head)) if args.head else working_tree()
            result = review(base, head)
            text = report.markdown(result)
            for path, content in (
                (args.markdown, text),
                (args.json, json.dumps(report.as_json(result), indent=2, ensure_ascii=False) + "\n"),
            ):
                if path is not None:
                    _write(path, content)
    except InputError as error:
        print(f"iospec bump-review: {error}", file=sys.stderr)
        return 2
    print(text, end="")
    return 0 if result.verdict.passed else 1


def _write(path: Path, content: str) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content, encoding="utf-8")
    except OSError as error:
        raise InputError(f"cannot write {path}: {error}") from None


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add `bump-review` to the `iospec` command line."""
    parser = commands.add_parser(
        "bump-review", help="review a contract-version bump (changes, data, gate)", description=DESCRIPTION
    )
    add_arguments(parser)
    parser.set_defaults(func=run)


def main(argv: list[str] | None = None) -> int:
    """The command on its own: `python -m seq_io.bump_review --base …`."""
    parser = argparse.ArgumentParser(prog="iospec bump-review", description=DESCRIPTION)
    add_arguments(parser)
    return run(parser.parse_args(argv))

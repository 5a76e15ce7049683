"""`iospec bump-review [--base REF] [--head REF] [--markdown OUT.md] [--json OUT.json] [--sarif OUT.sarif]
[--changelog-draft OUT.md] [--annotations github]` (REF: a spec folder or a git ref): arguments → two snapshots →
the review → the Markdown report on standard output (and in files when asked; GitHub workflow commands after it
with `--annotations github`) → exit code.

The base defaults to the latest release snapshot (spec/releases/, highest version) and the head to the working
tree: WHY, a reviewer's first run then shows their own change since the release, not the project's history
(spec/compatibility.md, "Release snapshots and the head"); `--base origin/main` names another.

Exit codes, as for every `iospec` command: 0 the gate passes, 1 it refuses (a breaking change not declared by
the version and the changelog), 2 the command could not run (a missing folder, an unknown git ref, a broken
schema, a malformed accepted-changes.yaml, an unwritable output file); a bad input is always one line on
standard error, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from contextlib import AbstractContextManager, ExitStack
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from seq_io.bump_review.snapshot import Snapshot

DESCRIPTION = (
    "Review a contract-version bump: classify every schema change (whom it breaks), cross the "
    "vectors of both versions, list the cases whose expected result moved, and check that the "
    "contract version and the changelog moved as far as the changes demand."
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--base",
        help="the earlier version: a spec folder (e.g. spec/releases/0.5.23) or a git ref such as origin/main "
        "(default: the latest release snapshot, the highest version in spec/releases/)",
    )
    parser.add_argument(
        "--head", help="the later version: a spec folder or a git ref (default: the working tree's spec/)"
    )
    parser.add_argument("--markdown", type=Path, metavar="OUT.md", help="also write the Markdown report here")
    parser.add_argument("--json", type=Path, metavar="OUT.json", help="write the JSON report here")
    parser.add_argument("--sarif", type=Path, metavar="OUT.sarif", help="write the findings as SARIF 2.1.0 here")
    parser.add_argument(
        "--changelog-draft", type=Path, metavar="OUT.md", help="write a drafted CHANGELOG.md entry for the change here"
    )
    parser.add_argument(
        "--annotations",
        choices=["github"],
        help="also print every finding as a GitHub Actions workflow command (an annotation at its file and line)",
    )


def run(args: argparse.Namespace) -> int:
    # Imported here, not at the top: every `iospec` command registers this one, and the review's modules take a
    # third of a second to import, which `iospec run --id X` would pay for nothing.
    from seq_io.bump_review import changelog_draft, report, sarif, workflow_commands
    from seq_io.bump_review.review import review
    from seq_io.bump_review.snapshot import InputError, open_snapshot, working_tree

    try:
        with ExitStack() as stack:
            base = stack.enter_context(open_snapshot(args.base) if args.base else _latest_release_snapshot())
            head = stack.enter_context(open_snapshot(args.head)) if args.head else working_tree()
            result = review(base, head)
            text = report.markdown(result)
            outputs: list[tuple[Path | None, Callable[[], str]]] = [
                (args.markdown, lambda: text),
                (args.json, lambda: json.dumps(report.as_json(result), indent=2, ensure_ascii=False) + "\n"),
                (args.sarif, lambda: json.dumps(sarif.log(result), indent=2, ensure_ascii=False) + "\n"),
                (args.changelog_draft, lambda: changelog_draft.draft(result)),
            ]
            for path, content in outputs:
                if path is not None:
                    _write(path, content())
            commands = workflow_commands.render(result) if args.annotations == "github" else ""
    except InputError as error:
        print(f"iospec bump-review: {error}", file=sys.stderr)
        return 2
    print(text, end="")
    print(commands, end="")
    return 0 if result.verdict.passed else 1


def _latest_release_snapshot() -> AbstractContextManager[Snapshot]:
    from seq_io.bump_review.snapshot import latest_release, open_snapshot

    folder = latest_release()
    return open_snapshot(str(folder), f"spec/releases/{folder.name} (the latest release)")


def _write(path: Path, content: str) -> None:
    from seq_io.bump_review.snapshot import InputError

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

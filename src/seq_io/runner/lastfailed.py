"""`iospec run --last-failed`: the ids of the cases that failed when last run in this folder, kept in
`.iospec_cache/lastfailed.json` → the selection narrowed to them; after each run the file updated.

WHY it is shaped this way: as pytest's cache does, the file lives in the folder the command runs from (the
project being tested, not the installed package), is updated case by case (a case that passes leaves it, one
that fails joins it, one not run keeps its state), so a run of a selection does not forget the failures outside
it. It carries a `.gitignore` of its own, so it is never committed by accident. A missing or unreadable file is
no error: the run then takes every selected case and says so in one line.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path

from seq_io.runner.reports import Record
from seq_io.runner.suite import SuiteCase

CACHE_DIR = Path(".iospec_cache")
CACHE_FILE = CACHE_DIR / "lastfailed.json"


def read(folder: Path) -> tuple[set[str] | None, str]:
    """The ids that failed last time under `folder`, or None with the reason there are none to go by."""
    path = folder / CACHE_FILE
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None, f"{CACHE_FILE} does not exist here yet (no run in this folder)"
    except (OSError, ValueError) as error:
        return None, f"{CACHE_FILE} cannot be read ({error})"
    failed = document.get("failed") if isinstance(document, dict) else None
    if not isinstance(failed, list) or not all(isinstance(item, str) for item in failed):
        return None, f'{CACHE_FILE} is not a {{"failed": [ids]}} object'
    return set(failed), ""


def narrowed(chosen: Sequence[SuiteCase], folder: Path) -> tuple[list[SuiteCase], str]:
    """The selected cases that failed last time, and the one line that says what `--last-failed` did."""
    failed, reason = read(folder)
    if failed is None:
        return list(chosen), f"--last-failed: {reason}: running every selected case"
    subset = [case for case in chosen if case.id in failed]
    if not failed:
        return list(chosen), "--last-failed: no case failed last time: running every selected case"
    if not subset:
        return list(chosen), (
            f"--last-failed: none of the {len(failed)} cases that failed last time is selected: running every "
            "selected case"
        )
    return subset, f"--last-failed: running the {len(subset)} of {len(chosen)} selected cases that failed last time"


def update(folder: Path, records: Sequence[Record]) -> None:
    """Record this run: passing cases leave the file, failing ones join it, cases not run keep their state.
    Written whole and then renamed, so that a reader never sees half a file. OSError when it cannot be."""
    failed, _ = read(folder)
    ids = set(failed or ())
    for record in records:
        if record.verdict.not_run:
            continue
        if record.ok:
            ids.discard(record.case.id)
        else:
            ids.add(record.case.id)
    cache = folder / CACHE_DIR
    cache.mkdir(exist_ok=True)
    ignore = cache / ".gitignore"
    if not ignore.exists():
        ignore.write_text("# written by iospec run (--last-failed); never committed\n*\n", encoding="utf-8")
    text = json.dumps({"failed": sorted(ids)}, indent=1) + "\n"
    partial = cache / f"lastfailed.json.{os.getpid()}"
    partial.write_text(text, encoding="utf-8")
    partial.replace(folder / CACHE_FILE)

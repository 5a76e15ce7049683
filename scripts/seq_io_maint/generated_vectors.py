"""A generator's files (name → seeds) and its text function → each file written or, with `--check`, compared byte
for byte → the ledger of published ids extended with the new cases' ids → exit status.

WHY one module: scripts/gen_stream_vectors.py and scripts/gen_uploader_vectors.py generate long scenarios from
brute-force models of different documents, but write, check and register their files the same way; the one
command-line rule (`--check` fails on any byte of drift and says which script to run) lives here once.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from seq_io.vectors import LEDGER, VECTORS_DIR, read_ledger


def write_or_check(
    script: str,
    folder: str,
    prefix: str,
    files: dict[str, range],
    file_text: Callable[[range], str],
    argv: list[str] | None = None,
) -> int:
    """Write every file of `files` under conformance/vectors/<folder>/ (or only compare, with `--check`) and
    append the ids it publishes to the ledger; 1 when a checked file is stale."""
    parser = argparse.ArgumentParser(description=f"write (or --check) the generated files of {folder}/")
    parser.add_argument("--check", action="store_true", help="fail when a generated file differs from the output")
    args = parser.parse_args(argv)
    stale = []
    for name, seeds in files.items():
        path = VECTORS_DIR / folder / name
        text = file_text(seeds)
        if args.check:
            if not path.is_file() or path.read_text(encoding="utf-8") != text:
                stale.append(str(path))
            continue
        path.write_text(text, encoding="utf-8")
        ledger = read_ledger()
        fresh = [f"{prefix}-{seed:04d}" for seed in seeds if f"{prefix}-{seed:04d}" not in ledger]
        with LEDGER.open("a", encoding="utf-8") as handle:
            handle.writelines(f"{case_id}\n" for case_id in fresh)
        print(f"wrote {path} ({len(text) // 1024} KiB, {len(seeds)} scenarios)")
    for name in stale:
        print(f"{name} is not what {script} generates: run it (without --check)", file=sys.stderr)
    return 1 if stale else 0

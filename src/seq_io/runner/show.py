"""`iospec show ID`: a case id → the vector suite → that case as a person reads it (file:line, kind, group, tags,
why, the request the runner sends, what is expected) or as one JSON object (`--json`); an unknown id → the
closest ids ("did you mean"), exit 2.

WHY it is shaped this way: a failure names a case; reading it should not mean finding the file and the line by
hand, nor guessing what the runner sends. The request shown is `compare.request`, the very message `iospec run`
sends, and the path is one the user can open (`suite.openable`), also when the vectors live inside an
installed package.
"""

from __future__ import annotations

import argparse
import difflib
import glob
import json
import re
import sys
from pathlib import Path
from typing import Any

from seq_io.runner.compare import request
from seq_io.runner.kinds import expected_outcome
from seq_io.runner.suite import SuiteCase, load_cases, openable
from seq_io.vector_index import Filters
from seq_io.vectors import VECTORS_DIR

SUGGESTED = 5
"""Ids offered for an id that names no case."""


def expectation(case: SuiteCase) -> Any:
    """What the case expects, as the vector writes it; None when the expectations are written inline, one per
    event (uploader scenarios: each event's `expect` is part of the request shown)."""
    data = case.case.data
    if isinstance(data.get("expect"), dict):
        return data["expect"]
    if case.kind == "stream":
        return {"outcomes": [expected_outcome(index, op) for index, op in enumerate(data["operations"])]}
    if case.kind == "validation":
        return {name: data[name] for name in ("valid", "normalized", "error") if name in data}
    return None


def as_json(case: SuiteCase) -> dict[str, Any]:
    return {
        "id": case.id,
        "file": case.case.file,
        "line": case.case.line,
        "path": openable(case.case.file),
        "kind": case.kind,
        "group": case.group,
        "tags": sorted(case.tags),
        "why": case.why,
        "request": request(case),
        "expected": expectation(case),
    }


def as_text(case: SuiteCase) -> str:
    expected = expectation(case)
    lines = [
        f"{case.id}  {case.where}",
        f"kind:     {case.kind}" + (f" (type {case.type_name})" if case.type_name else ""),
        f"group:    {case.group}",
        *([f"tags:     {', '.join(sorted(case.tags))}"] if case.tags else []),
        f"why:      {case.why}",
        f"request:  {_compact(request(case))}",
        f"expected: {_compact(expected)}"
        if expected is not None
        else "expected: each event's `expect`, in the request",
    ]
    return "\n".join(lines) + "\n"


def _compact(value: Any) -> str:
    """A value as the runner writes it on the wire, but readable: one line, non-ASCII as it is."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _unknown(wanted: str, cases: list[SuiteCase]) -> str:
    ids = [case.id for case in cases]
    numbered = re.fullmatch(r"(.*-)(\d{1,4})", wanted)  # sch-windows-1 for sch-windows-0001
    padded = [f"{numbered[1]}{int(numbered[2]):04d}"] if numbered else []
    close = [i for i in padded if i in ids]
    close += [i for i in difflib.get_close_matches(wanted, ids, n=SUGGESTED, cutoff=0.6) if i not in close]
    prefix = wanted.rsplit("-", 1)[0] + "-"
    close = (close + [i for i in ids if i.startswith(prefix) and i not in close])[:SUGGESTED]
    if close:
        return f"no case {wanted!r}; did you mean {', '.join(close)}?"
    return f"no case {wanted!r}; `iospec run --collect-only -q` lists every id"


def _show(args: argparse.Namespace) -> int:
    if not args.vectors.is_dir():
        print(f"iospec show: {args.vectors} is not a folder of vector files", file=sys.stderr)
        return 2
    cases, unreadable = load_cases(args.vectors, Filters(ids=[glob.escape(args.id)]))  # only its file, if indexed
    found = next((case for case in cases if case.id == args.id), None)
    if found is None:
        cases, unreadable = load_cases(args.vectors)  # every id, for the suggestions
        for problem in unreadable:  # the case may be in a file that cannot be read
            print(f"iospec show: {problem}", file=sys.stderr)
        print(f"iospec show: {_unknown(args.id, cases)}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(as_json(found), indent=1, ensure_ascii=False))
    else:
        sys.stdout.reconfigure(errors="backslashreplace")  # type: ignore[union-attr]  # a TextIOWrapper
        print(as_text(found), end="")
    return 0


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "show", help="print one vector case: file:line, kind, group, why, the request sent and what is expected"
    )
    parser.add_argument("id", help="a case id, e.g. sch-windows-0001")
    parser.add_argument("--json", action="store_true", help="print the case as one JSON object")
    parser.add_argument(
        "--vectors",
        type=Path,
        default=VECTORS_DIR,
        metavar="DIR",
        help="the folder of vector files (default: conformance/vectors)",
    )
    parser.set_defaults(func=_show)

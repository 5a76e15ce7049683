"""A report file named on the command line → its size, JSON and shape checked → a `Run` (label, implementation,
counts, cases), or a `ReportError` whose one line names the file and what is wrong.

WHY a shape check of its own rather than conformance/schema/report.schema.json: the report reads reports written
by older and newer runners (fields are added over time); it checks exactly the fields it uses, so a report it
accepts is one it can show, and a report it refuses is named with the JSON path at fault.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

MAX_REPORT_BYTES = 64 * 1024 * 1024
"""The largest report file read (the reference's run of every vector writes under 1 MiB)."""
MAX_REPORTS = 64
"""The most report files one matrix holds."""
COUNT_NAMES = ("cases", "pass", "fail", "xfail", "xpass", "skip", "error")
OUTCOMES = ("pass", "fail", "xfail", "xpass", "skip", "error")


class ReportError(Exception):
    """A report file that cannot be read as a run report; the message is one line for the user."""


@dataclass(frozen=True)
class Counts:
    cases: int
    passed: int
    fail: int
    xfail: int
    xpass: int
    skip: int
    error: int

    @property
    def bad(self) -> int:
        """Cases not acceptable to the run (what turns a cell red)."""
        return self.fail + self.xpass + self.error + self.skip


@dataclass(frozen=True)
class Group:
    name: str
    kind: str
    counts: Counts


@dataclass(frozen=True)
class Run:
    """One run report as the matrix shows it."""

    path: Path
    label: str
    name: str
    version: str
    contract_version: str
    ok: bool
    totals: Counts
    kinds: dict[str, Counts]
    groups: list[Group]
    cases: list[dict[str, Any]]
    problems: list[str]


def _need(value: Any, kind: type | tuple[type, ...], where: str) -> Any:
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        names = " or ".join(t.__name__ for t in (kind if isinstance(kind, tuple) else (kind,)))
        wanted = {
            "dict": "an object",
            "list": "an array",
            "str": "a string",
            "int": "an integer",
            "bool": "true or false",
        }
        raise ReportError(f"{where} should be {wanted.get(names, names)}")
    return value


def _field(obj: dict[str, Any], key: str, kind: type | tuple[type, ...], where: str) -> Any:
    if key not in obj:
        raise ReportError(f"{where} has no {key!r}")
    return _need(obj[key], kind, f"{where}.{key}")


def _counts(obj: Any, where: str) -> Counts:
    _need(obj, dict, where)
    values = [_field(obj, name, int, where) for name in COUNT_NAMES]
    if min(values) < 0:
        raise ReportError(f"{where} holds a negative count")
    return Counts(*values)


def _case(obj: Any, where: str) -> dict[str, Any]:
    _need(obj, dict, where)
    for key in ("id", "kind", "group", "outcome", "file"):
        _field(obj, key, str, where)
    _field(obj, "ok", bool, where)
    if obj["outcome"] not in OUTCOMES:
        raise ReportError(f"{where}.outcome is {obj['outcome']!r}, not one of {', '.join(OUTCOMES)}")
    case: dict[str, Any] = obj
    return case


def parse_argument(text: str) -> tuple[str | None, Path]:
    """`[LABEL=]FILE`: a label before the first `=`, unless the whole text names an existing file."""
    label, sep, rest = text.partition("=")
    if sep and label and rest and not Path(text).exists():
        return label, Path(rest)
    return None, Path(text)


def read_json(path: Path) -> Any:
    """The JSON of a report file, or a ReportError naming what is wrong with it."""
    try:
        size = path.stat().st_size
        if size > MAX_REPORT_BYTES:
            raise ReportError(f"{path}: {size} bytes, more than the {MAX_REPORT_BYTES} a report may have")
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ReportError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise ReportError(f"{path}: a folder, not a report file") from None
    except UnicodeDecodeError as error:
        raise ReportError(f"{path}: not UTF-8 text (byte {error.start})") from None
    except OSError as error:
        raise ReportError(f"{path}: cannot be read ({error.strerror})") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise ReportError(f"{path}:{error.lineno}: not JSON ({error.msg}, column {error.colno})") from None
    except RecursionError:
        raise ReportError(f"{path}: nested too deeply to be a report") from None


def load_run(path: Path, label: str | None = None) -> Run:
    """A run report of `iospec run --json` or `iospec probe --json`, checked field by field."""
    data = read_json(path)
    try:
        _need(data, dict, "$")
        if data.get("report_version") != 1:
            raise ReportError(
                "$.report_version is not 1: not a report of `iospec run --json` or `iospec probe --json`"
                if "report_version" not in data
                else f"$.report_version is {data['report_version']!r}; this iospec reads version 1"
            )
        testee = _field(data, "testee", dict, "$")
        name = _need(testee.get("name"), (str, type(None)), "$.testee.name") or "(no handshake)"
        version = _need(testee.get("version"), (str, type(None)), "$.testee.version") or "?"
        contract = _field(data, "contract_version", str, "$")
        kinds = {}
        for index, item in enumerate(_field(data, "kinds", list, "$")):
            kinds[_field(_need(item, dict, f"$.kinds[{index}]"), "kind", str, f"$.kinds[{index}]")] = _counts(
                item, f"$.kinds[{index}]"
            )
        groups = []
        for index, item in enumerate(_field(data, "groups", list, "$")):
            where = f"$.groups[{index}]"
            _need(item, dict, where)
            groups.append(
                Group(_field(item, "group", str, where), _field(item, "kind", str, where), _counts(item, where))
            )
        cases = [_case(item, f"$.cases[{i}]") for i, item in enumerate(_field(data, "cases", list, "$"))]
        problems = [
            str(_field(_need(p, dict, f"$.problems[{i}]"), "message", str, f"$.problems[{i}]"))
            for i, p in enumerate(_field(data, "problems", list, "$"))
        ]
        totals = _counts(_field(data, "totals", dict, "$"), "$.totals")
        if totals.cases != len(cases):
            raise ReportError(f"$.totals.cases is {totals.cases} but $.cases holds {len(cases)} cases")
        return Run(
            path=path,
            label=label or name,
            name=name,
            version=version,
            contract_version=contract,
            ok=_field(data, "ok", bool, "$"),
            totals=totals,
            kinds=kinds,
            groups=groups,
            cases=cases,
            problems=problems,
        )
    except ReportError as error:
        raise ReportError(f"{path}: not a run report: {error}") from None


def load_runs(arguments: list[str]) -> list[Run]:
    """Every `[LABEL=]FILE` argument as a run, in order; labels made unique by their version or position."""
    if len(arguments) > MAX_REPORTS:
        raise ReportError(f"{len(arguments)} reports named; one matrix holds at most {MAX_REPORTS}")
    runs = [load_run(path, label) for label, path in map(parse_argument, arguments)]
    seen: dict[str, int] = {}
    out = []
    for run in runs:
        label = run.label
        seen[label] = seen.get(label, 0) + 1
        if seen[label] > 1:
            label = f"{label} ({seen[label]})"
        out.append(replace(run, label=label))
    return out

"""Vector files on disk → strictly loaded, shape-checked, linted `VectorFile`s, or `Problem`s naming file and line.

The YAML files under conformance/vectors/ are the suite. This module is the one reader of them for every tool
(the validation run, the tests, the JSON export): the strict YAML loader refuses typing traps, the vector-file
schema checks the shape, and the lint checks what the schema cannot say: ids unique across the suite, each id in
the published ledger (so an id is never reused or renumbered), each id carrying its file's prefix, each
expected rule id and error id known to the spec, no text citing a document outside this package (a vector's
`why` derives its expectation from spec/, so it cites spec/'s rule ids and sections, never working notes kept
outside it), and
no uploader scenario asking what a robot would never do (spec/uploader.md UPL-EVENTS, seq_io.uploader_lint).
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator

from seq_io import locate, uploader_lint
from seq_io.reference.issues import format_path
from seq_io.strict_yaml import Loaded, YamlError, load_file

CONFORMANCE = locate.conformance_root()
VECTORS_DIR = CONFORMANCE / "vectors"
FILE_SCHEMA = CONFORMANCE / "schema" / "vector-file.schema.json"
LEDGER = CONFORMANCE / "published-ids.txt"


@dataclass(frozen=True)
class Problem:
    """Something wrong with a vector file, located for a person: file, line, JSON path and sentence."""

    file: str
    line: int
    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.path}: {self.message}"


@dataclass
class Case:
    """One case with where it stands: its file, group and raw mapping."""

    id: str
    file: str
    line: int
    group: dict[str, Any]
    data: dict[str, Any]


@dataclass
class VectorFile:
    path: Path
    loaded: Loaded
    cases: list[Case] = field(default_factory=list)

    @property
    def doc(self) -> dict[str, Any]:
        value: dict[str, Any] = self.loaded.value
        return value

    @property
    def kind(self) -> str:
        return str(self.doc["kind"])


def relative(path: Path) -> str:
    """A path as a person reads it: relative to the data's root (`conformance/vectors/…`), else as given."""
    try:
        return str(path.resolve().relative_to(locate.data_root().resolve()))
    except ValueError:
        return str(path)


OUTSIDE_CITATION = re.compile(
    r"\bfacts?[\s_-]+sheets?\b|\bcontract[\s_-]facts\b|(?:\.\./|/work/)shared\b|\btooling[\s_-]notes\b", re.IGNORECASE
)
"""Names of working documents that are not part of this package; a vector file never cites them."""


def _strings(value: Any, path: tuple[str | int, ...] = ()) -> Iterator[tuple[tuple[str | int, ...], str]]:
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _strings(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _strings(item, (*path, index))


def outside_citations(vector_file: VectorFile) -> Iterator[Problem]:
    """Each text of the file (a why, a group name, a description) that cites a document outside this package."""
    for path, text in _strings(vector_file.doc):
        found = OUTSIDE_CITATION.search(text)
        if found:
            yield Problem(
                relative(vector_file.path),
                vector_file.loaded.line_of(path),
                format_path(list(path)),
                f"cites {found.group()!r}, which is not part of this package: derive the expectation from "
                "spec/ and cite its rule id (SCH-…, a rule of spec/validation.md) or section instead",
            )


@cache
def _file_validator() -> Draft202012Validator:
    return Draft202012Validator(json.loads(FILE_SCHEMA.read_text(encoding="utf-8")))


@cache
def _file_is_valid() -> Callable[[Any], bool]:
    """jsonschema-rs's "is this a valid vector file?" (the fast path, docs/dependencies.md; ten times faster, which
    every run pays per file read), or a check saying "no" where it is not installed: a "no" is always explained,
    and decided, by jsonschema."""
    try:
        import jsonschema_rs
    except ImportError:
        return lambda _: False
    return jsonschema_rs.Draft202012Validator(json.loads(FILE_SCHEMA.read_text(encoding="utf-8"))).is_valid


def vector_paths(root: Path = VECTORS_DIR) -> list[Path]:
    return sorted(root.rglob("*.yaml"))


def load_vector_file(path: Path) -> tuple[VectorFile | None, list[Problem]]:
    """Load one file strictly and check its shape; on failure, the problems instead."""
    name = relative(path)
    try:
        loaded = load_file(path)
    except YamlError as error:
        return None, [Problem(name, error.line, "$", error.message)]
    except (OSError, UnicodeDecodeError) as error:
        return None, [Problem(name, 1, "$", f"cannot read the file: {error}")]
    problems = (
        []
        if _file_is_valid()(loaded.value)
        else [
            Problem(name, loaded.line_of(tuple(e.absolute_path)), format_path(list(e.absolute_path)), e.message)
            for e in sorted(_file_validator().iter_errors(loaded.value), key=lambda e: list(e.absolute_path))
        ]
    )
    if problems:
        return None, problems
    vector_file = VectorFile(path, loaded)
    for group_index, group in enumerate(loaded.value["groups"]):
        for case_index, case in enumerate(group["cases"]):
            line = loaded.line_of(("groups", group_index, "cases", case_index))
            vector_file.cases.append(Case(case["id"], name, line, group, case))
    return vector_file, []


def read_ledger(path: Path = LEDGER) -> set[str]:
    if not path.exists():
        return set()
    return {line.strip() for line in path.read_text(encoding="utf-8").splitlines() if line.strip()}


def lint(
    files: list[VectorFile],
    ledger: set[str],
    known_rules: set[str],
    known_types: set[str],
    known_errors: set[str] | None = None,
) -> Iterator[Problem]:
    """What the vector-file schema cannot say; expected error ids are checked when `known_errors` is given."""
    seen: dict[str, Case] = {}
    for vector_file in files:
        yield from outside_citations(vector_file)
        if vector_file.kind == "validation" and vector_file.doc["type"] not in known_types:
            yield Problem(
                relative(vector_file.path),
                vector_file.loaded.line_of(("type",)),
                "$.type",
                f"{vector_file.doc['type']!r} is not a type of the spec",
            )
        if vector_file.kind == "uploader":
            yield from _event_order(vector_file)
        prefix = vector_file.doc["id_prefix"]
        groups = [group["group"] for group in vector_file.doc["groups"]]
        for duplicate in sorted({g for g in groups if groups.count(g) > 1}):
            yield Problem(relative(vector_file.path), 1, "$.groups", f"the group name {duplicate!r} is used twice")
        for case in vector_file.cases:
            if case.id in seen:
                first = seen[case.id]
                yield Problem(
                    case.file, case.line, "$", f"the id {case.id} is already used at {first.file}:{first.line}"
                )
            seen[case.id] = case
            if not case.id.startswith(prefix + "-") or not case.id[len(prefix) + 1 :].isdigit():
                yield Problem(case.file, case.line, "$", f"the id {case.id} does not have the file's prefix {prefix!r}")
            if case.id not in ledger:
                yield Problem(
                    case.file,
                    case.line,
                    "$",
                    f"the id {case.id} is not in {relative(LEDGER)}: ids are assigned by `iospec ids`, never by hand",
                )
        yield from _unknown_ids(vector_file, known_rules, known_errors)


def _did_you_mean(name: str, known: set[str]) -> str:
    close = difflib.get_close_matches(name, sorted(known), n=1, cutoff=0.6)
    return f"; did you mean {close[0]!r}?" if close else ""


def expected_ids(vector_file: VectorFile) -> Iterator[tuple[tuple[str | int, ...], str, str]]:
    """Each id a case expects, with its path in the file and what it is: the `error.rule` of an invalid validation
    case (`rule`), and the `error` of every `expect` mapping of the other kinds, wherever it stands (`error`)."""
    for group_index, group in enumerate(vector_file.doc["groups"]):
        for case_index, case in enumerate(group["cases"]):
            at: tuple[str | int, ...] = ("groups", group_index, "cases", case_index)
            if vector_file.kind == "validation":
                rule = case.get("error", {}).get("rule")
                if isinstance(rule, str):
                    yield (*at, "error", "rule"), rule, "rule"
                continue
            for path, text in _strings(case, at):
                if path[-2:] == ("expect", "error"):
                    yield path, text, "error"


def _unknown_ids(vector_file: VectorFile, known_rules: set[str], known_errors: set[str] | None) -> Iterator[Problem]:
    """Each expected rule or error id that spec/ does not define, with the closest one it does."""
    for path, name, what in expected_ids(vector_file):
        if what == "rule" and name not in known_rules:
            said = f"{name!r} is not a rule id the spec defines{_did_you_mean(name, known_rules)}"
        elif what == "error" and known_errors is not None and name not in known_errors:
            said = (
                f"{name!r} is not an error id the spec defines (the error-id tables of spec/schedule.md and "
                f"spec/stream.md){_did_you_mean(name, known_errors)}"
            )
        else:
            continue
        yield Problem(relative(vector_file.path), vector_file.loaded.line_of(path), format_path(list(path)), said)


def _event_order(vector_file: VectorFile) -> Iterator[Problem]:
    """Each uploader scenario that breaks the robot's event order (spec/uploader.md UPL-EVENTS) or its windows."""
    for path, message in uploader_lint.breaches(vector_file.doc):
        yield Problem(relative(vector_file.path), vector_file.loaded.line_of(path), format_path(list(path)), message)


Loader = Callable[[Path], tuple[VectorFile | None, list[Problem]]]
"""Reads one vector file: `load_vector_file`, or a caching stand-in (the release snapshot's)."""


def load_suite(root: Path = VECTORS_DIR, load: Loader | None = None) -> tuple[list[VectorFile], list[Problem]]:
    """Every vector file under `root` read by `load` (default `load_vector_file`), with the problems of those
    that could not be read."""
    return load_files(vector_paths(root), load)


def load_files(paths: list[Path], load: Loader | None = None) -> tuple[list[VectorFile], list[Problem]]:
    """These vector files read by `load` (default `load_vector_file`), with the problems of those that could not
    be read."""
    files: list[VectorFile] = []
    problems: list[Problem] = []
    for path in paths:
        vector_file, found = (load or load_vector_file)(path)
        problems.extend(found)
        if vector_file is not None:
            files.append(vector_file)
    return files, problems

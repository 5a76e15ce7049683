"""Loaded vector files → the runner's `SuiteCase`s (kind, case, group, tags) → the selection the filters let
through.

WHY it is apart: selecting cases (`--id`, `--group`, `--tag`, `--kind`) is about the suite, not about how a
case is asked or judged, and every report groups by what is defined here.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fnmatch import fnmatchcase
from pathlib import Path

from seq_io.vectors import VECTORS_DIR, Case, Problem, VectorFile, load_suite


@dataclass(frozen=True)
class SuiteCase:
    """One case as the runner sees it: its kind, its vector data, and where it belongs (file, group, tags)."""

    kind: str
    case: Case
    type_name: str | None
    group: str
    """`<file under vectors/ without .yaml>/<group name>`, e.g. `schedule/windows/window-and-alone`."""
    tags: frozenset[str]

    @property
    def id(self) -> str:
        return self.case.id

    @property
    def expected_error(self) -> str | None:
        expect = self.case.data.get("expect")
        return str(expect["error"]) if isinstance(expect, dict) and "error" in expect else None


def suite_cases(files: Iterable[VectorFile], root: Path = VECTORS_DIR) -> list[SuiteCase]:
    """Every case of the loaded files, in file order (files sorted by path, cases as written)."""
    out: list[SuiteCase] = []
    for vector_file in files:
        try:
            stem = vector_file.path.resolve().relative_to(root.resolve()).with_suffix("").as_posix()
        except ValueError:
            stem = vector_file.path.stem
        type_name = vector_file.doc.get("type") if vector_file.kind == "validation" else None
        for case in vector_file.cases:
            tags = frozenset(case.group.get("tags", ())) | frozenset(case.data.get("tags", ()))
            out.append(SuiteCase(vector_file.kind, case, type_name, f"{stem}/{case.group['group']}", tags))
    return out


def load_cases(root: Path = VECTORS_DIR) -> tuple[list[SuiteCase], list[Problem]]:
    files, problems = load_suite(root)
    return suite_cases(files, root), problems


def select(
    cases: Sequence[SuiteCase],
    *,
    ids: Sequence[str] = (),
    groups: Sequence[str] = (),
    tags: Sequence[str] = (),
    kinds: Sequence[str] = (),
) -> list[SuiteCase]:
    """The cases every given filter lets through. Ids and groups are shell-style patterns (`sch-windows-*`); a
    group pattern matches the qualified name (`schedule/windows/*`) or the bare group name."""

    def wanted(case: SuiteCase) -> bool:
        bare = case.group.rsplit("/", 1)[-1]
        return (
            (not ids or any(fnmatchcase(case.id, p) for p in ids))
            and (not groups or any(fnmatchcase(case.group, p) or fnmatchcase(bare, p) for p in groups))
            and (not tags or bool(case.tags & set(tags)))
            and (not kinds or case.kind in kinds)
        )

    return [case for case in cases if wanted(case)]

"""Vector files (all, or only those a selection needs, by seq_io.vector_index) → the runner's `SuiteCase`s (kind,
case, group, tags) → the selection the filters let through.

WHY it is apart: selecting cases (`--id`, `--group`, `--tag`, `--kind`) is about the suite, not about how a
case is asked or judged, and every report groups by what is defined here. Loading is part of selecting: reading
every file costs seconds of CPU, so a selection reads only the files that can hold its cases.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from seq_io import locate, vector_index
from seq_io.vector_index import Filters
from seq_io.vectors import VECTORS_DIR, Case, Problem, VectorFile, load_files


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
    def why(self) -> str:
        """Why the case expects what it does: its own `why`, else its group's."""
        return str(self.case.data.get("why") or self.case.group.get("why") or "")

    @property
    def where(self) -> str:
        """`file:line` as a path the user can open from the current folder (`openable`)."""
        return f"{openable(self.case.file)}:{self.case.line}"

    @property
    def expected_error(self) -> str | None:
        expect = self.case.data.get("expect")
        return str(expect["error"]) if isinstance(expect, dict) and "error" in expect else None


def openable(file: str) -> str:
    """A case's file as the suite names it (`Case.file`: relative to the data's root, or as given) → a path the
    user can open from the current folder: relative to it when the file lies under it, else absolute (an
    installed package's vectors live in site-packages, which a data-root-relative name does not find)."""
    path = Path(file)
    if not path.is_absolute() and (locate.data_root() / path).exists():
        path = locate.data_root() / path
    path = path.resolve()
    try:
        return str(path.relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def suite_cases(files: Iterable[VectorFile], root: Path = VECTORS_DIR) -> list[SuiteCase]:
    """Every case of the loaded files, in file order (files sorted by path, cases as written)."""
    out: list[SuiteCase] = []
    for vector_file in files:
        stem = vector_index.stem(vector_file.path, root)
        type_name = vector_file.doc.get("type") if vector_file.kind == "validation" else None
        for case in vector_file.cases:
            tags = frozenset(case.group.get("tags", ())) | frozenset(case.data.get("tags", ()))
            out.append(SuiteCase(vector_file.kind, case, type_name, f"{stem}/{case.group['group']}", tags))
    return out


def load_cases(root: Path = VECTORS_DIR, needed_for: Filters | None = None) -> tuple[list[SuiteCase], list[Problem]]:
    """The cases of the files under `root` that can hold a case `needed_for` selects (by default every file), and
    the problems of the files read. Every file that was not vouched for by the index is read, so a broken file
    is reported whatever the filters."""
    files, problems = load_files(vector_index.needed(root, needed_for or Filters()))
    return suite_cases(files, root), problems


def select(
    cases: Sequence[SuiteCase],
    *,
    ids: Sequence[str] = (),
    groups: Sequence[str] = (),
    tags: Sequence[str] = (),
    kinds: Sequence[str] = (),
) -> list[SuiteCase]:
    """The cases every given filter lets through (`Filters.wanted`)."""
    filters = Filters(ids, groups, tags, kinds)
    return [case for case in cases if filters.wanted(case.id, case.group, case.tags, case.kind)]

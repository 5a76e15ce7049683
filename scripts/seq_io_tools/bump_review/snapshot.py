"""A version of the spec to compare → `Snapshot` (schemas, rule tables, vectors folder, changelog, label).

A version is named by a folder (a release snapshot `spec/releases/<version>/`, the repository's `spec/`, or
any folder holding `contract.json` and `schemas/`) or by a git ref, whose `spec/` and `conformance/vectors/`
are exported with `git archive` into a temporary folder (every git call has a timeout). Both paths end in the
same loader (`seq_io_ref.spec_data.load_spec`), so two versions are always read alike. Anything unreadable
becomes an `InputError` whose message names the folder, ref or file: the command prints it instead of a
traceback.
"""

from __future__ import annotations

import io
import re
import subprocess
import tarfile
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import seq_io_spec
from seq_io_ref.spec_data import SpecData, SpecError, load_spec

GIT_TIMEOUT_S = 60.0
TABLES = {"Wire rules": "wire", "Rules beyond the schema": "beyond-schema", "Normalization": "normalization"}
"""Headings of validation.md whose tables list rules by id → the name the review gives each table."""

_ROW = re.compile(r"^\|\s*`([^`]+)`\s*\|\s*(.*?)\s*\|")
_VERSION_HEADING = re.compile(r"^##\s+\[?v?(\d+\.\d+\.\d+)\]?", re.MULTILINE)


class InputError(Exception):
    """A base or head that cannot be read; the message says which and why."""


@dataclass(frozen=True)
class Snapshot:
    """One version of the contract, as the review reads it."""

    label: str
    spec: SpecData
    tables: dict[str, dict[str, str]]
    vectors_root: Path | None
    changelog: Path | None
    notes: tuple[str, ...] = ()

    @property
    def version(self) -> str:
        return self.spec.contract_version

    def changelog_versions(self) -> set[str]:
        """The versions that have an entry (a `## X.Y.Z` heading) in the changelog."""
        if self.changelog is None:
            return set()
        return set(_VERSION_HEADING.findall(self.changelog.read_text(encoding="utf-8")))


def rule_tables(markdown: str) -> dict[str, dict[str, str]]:
    """validation.md → {table: {rule id: rule text}} for the wire, beyond-schema and normalization tables."""
    tables: dict[str, dict[str, str]] = {name: {} for name in TABLES.values()}
    current: str | None = None
    for line in markdown.splitlines():
        if line.startswith("## "):
            current = TABLES.get(line[3:].strip())
        elif current is not None:
            row = _ROW.match(line)
            if row is not None:
                tables[current][row.group(1)] = " ".join(row.group(2).split())
    return tables


def _read_spec(root: Path) -> SpecData:
    if not root.is_dir():
        raise InputError(f"{root}: no such folder")
    if not (root / "contract.json").is_file() or not (root / "schemas").is_dir():
        raise InputError(f"{root}: not a spec folder (it needs contract.json and schemas/)")
    try:
        spec = load_spec(root)
        _ = spec.contract_version
    except SpecError as error:
        raise InputError(str(error)) from None
    except (KeyError, TypeError):
        raise InputError(f"{root / 'contract.json'}: no `contract_version` in it") from None
    if not re.fullmatch(r"\d+\.\d+\.\d+", spec.contract_version):
        raise InputError(f"{root / 'contract.json'}: contract_version {spec.contract_version!r} is not X.Y.Z")
    return spec


def _vectors_of(root: Path) -> Path | None:
    """A snapshot's own `vectors/`, or for a checkout's `spec/` folder, its conformance/vectors."""
    for candidate in (root / "vectors", root.parent / "conformance" / "vectors"):
        if candidate.is_dir():
            return candidate
    return None


def _changelog_of(root: Path) -> Path | None:
    """The folder's CHANGELOG.md, or for a release snapshot (`…/releases/<v>/`) the one beside `releases/`."""
    if (root / "CHANGELOG.md").is_file():
        return root / "CHANGELOG.md"
    beside_releases = root.parent.parent / "CHANGELOG.md"
    return beside_releases if root.parent.name == "releases" and beside_releases.is_file() else None


def load_folder(root: Path, label: str | None = None) -> Snapshot:
    """Read one spec folder; InputError if it is missing or broken."""
    spec = _read_spec(root)
    notes: list[str] = []
    validation_md = root / "validation.md"
    if validation_md.is_file():
        tables = rule_tables(validation_md.read_text(encoding="utf-8"))
    else:
        tables = {name: {} for name in TABLES.values()}
        notes.append(
            f"{label or root}: no validation.md, so no rule beyond the schema is known for this side"
        )
    vectors_root = _vectors_of(root)
    if vectors_root is None:
        notes.append(
            f"{label or root}: no vectors, so the data backstop and the behaviour diff cannot use this side"
        )
    return Snapshot(label or str(root), spec, tables, vectors_root, _changelog_of(root), tuple(notes))


def working_tree() -> Snapshot:
    """The package's own spec/ with conformance/vectors/ and spec/CHANGELOG.md (a checkout's working tree, or the
    installed package's copy): the default head."""
    label = "working tree" if seq_io_spec.checkout_root() is not None else "installed package"
    return load_folder(seq_io_spec.spec_root(), label)


def _repository() -> Path:
    """Where git refs are looked up: the checkout the package runs from, else the current folder's repository."""
    return seq_io_spec.checkout_root() or Path.cwd()


def _git(args: list[str]) -> subprocess.CompletedProcess[bytes]:
    try:
        return subprocess.run(
            ["git", "-C", str(_repository()), *args], capture_output=True, timeout=GIT_TIMEOUT_S, check=False
        )
    except subprocess.TimeoutExpired:
        raise InputError(f"git {' '.join(args)}: no answer within {GIT_TIMEOUT_S:.0f} s") from None
    except OSError as error:
        raise InputError(f"git cannot be run: {error}") from None


def _export(commit: str, path: str, into: Path) -> bool:
    """Extract `path` of a commit into a folder; False when the commit has no such path."""
    if _git(["cat-file", "-e", f"{commit}:{path}"]).returncode != 0:
        return False
    archive = _git(["archive", "--format=tar", commit, "--", path])
    if archive.returncode != 0:
        raise InputError(
            f"git archive {commit} {path} failed: {archive.stderr.decode(errors='replace').strip()}"
        )
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        tar.extractall(into, filter="data")
    return True


def load_git_ref(ref: str, into: Path) -> Snapshot:
    """Export a git ref's spec/ (and conformance/vectors/) into a folder and read it."""
    found = _git(["rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}"])
    if found.returncode != 0:
        raise InputError(f"{ref!r} is neither a folder nor a git ref of {_repository()}")
    commit = found.stdout.decode().strip()
    if not _export(commit, "spec", into):
        raise InputError(f"git ref {ref!r} ({commit[:12]}) has no spec/ folder")
    _export(commit, "conformance/vectors", into)
    return load_folder(into / "spec", f"{ref} ({commit[:12]})")


@contextmanager
def open_snapshot(name: str) -> Iterator[Snapshot]:
    """A folder if `name` is one, else a git ref exported to a temporary folder that the block owns."""
    folder = Path(name)
    if folder.is_dir():
        yield load_folder(folder, name)
        return
    if folder.exists() or name.endswith((".json", ".md")):
        raise InputError(f"{name}: not a folder")
    with tempfile.TemporaryDirectory(prefix="bump-review-") as temp:
        yield load_git_ref(name, Path(temp))

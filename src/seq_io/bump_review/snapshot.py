"""A version of the spec to compare → `Snapshot` (schemas, rule tables, vectors folder, changelog, label).

A version is named by a folder (a release snapshot `spec/releases/<version>/`, the repository's `spec/`, or
any folder holding `contract.json` and `schemas/`; by default the latest release snapshot) or by a git ref,
whose `spec/` and `conformance/vectors/` are exported with `git archive` into a temporary folder (every git call
has a timeout). Both paths end in the
same loader (`seq_io.reference.spec_data.load_spec`), so two versions are always read alike. Anything unreadable
becomes an `InputError` whose message names the folder, ref or file: the command prints it instead of a
traceback.

Everything the rest of the review assumes is checked here, once, so that no later step can crash on a bad
folder: every text file is UTF-8, every schema is nested at most MAX_SCHEMA_DEPTH levels (counted on the text,
before any recursive reader sees it), no two schemas share a title, every `$ref` resolves inside the folder
(a schema deleted while another still refers to it is named), and no `$ref` chain loops back to itself
without passing through a property or an item (which no validator could evaluate).
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import hashlib
import io
import json
import re
import subprocess
import tarfile
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from seq_io import locate
from seq_io.reference.spec_data import SpecData, SpecError, load_spec
from seq_io.reference.typed_walk import SchemaSet
from seq_io.vectors import Problem, VectorFile, load_suite, load_vector_file, relative, vector_paths

GIT_TIMEOUT_S = 60.0
MAX_SCHEMA_DEPTH = 100
"""Levels of nested objects and arrays a schema file may have (the spec's deepest has 12)."""
TABLES = {"Wire rules": "wire", "Rules beyond the schema": "beyond-schema", "Normalization": "normalization"}
"""Headings of validation.md whose tables list rules by id → the name the review gives each table."""

_ROW = re.compile(r"^\|\s*`([^`]+)`\s*\|\s*(.*?)\s*\|")
_RELEASE = re.compile(r"\d+\.\d+\.\d+")
_VERSION_HEADING = re.compile(r"^##\s+\[?v?(\d+\.\d+\.\d+)\]?", re.MULTILINE)


class InputError(Exception):
    """A base or head that cannot be read; the message says which and why."""


@dataclass(frozen=True)
class Snapshot:
    """One version of the contract, as the review reads it: its spec, the rule tables of validation.md, its
    Markdown documents by file name (`documents`), its vectors folder and its changelog's text."""

    label: str
    spec: SpecData
    tables: dict[str, dict[str, str]]
    vectors_root: Path | None
    changelog: Path | None
    notes: tuple[str, ...] = ()
    documents: tuple[tuple[str, str], ...] = ()
    changelog_text: str = ""

    @property
    def version(self) -> str:
        return self.spec.contract_version

    def changelog_versions(self) -> set[str]:
        """The versions that have an entry (a `## X.Y.Z` heading) in the changelog."""
        return set(_VERSION_HEADING.findall(self.changelog_text))

    def changelog_entry(self, version: str) -> str:
        """The text of the changelog's entry for `version` (from its heading to the next `## ` heading)."""
        found = re.search(
            rf"^##\s+\[?v?{re.escape(version)}\]?[^\n]*\n(.*?)(?=^##\s|\Z)",
            self.changelog_text,
            re.MULTILINE | re.DOTALL,
        )
        return found.group(1) if found else ""


def suite(root: Path) -> tuple[list[VectorFile], list[Problem]]:
    """A vectors folder loaded once per review step that needs it (the backstop, the behaviour diff, the witness
    search): cached by the folder and the size and time of each of its files, so a folder that changes is read
    again."""
    root = root.resolve()
    signature = tuple((str(p), p.stat().st_mtime_ns, p.stat().st_size) for p in vector_paths(root) if p.is_file())
    return _suite(root, signature)


@functools.lru_cache(maxsize=8)
def _suite(root: Path, signature: tuple[tuple[str, int, int], ...]) -> tuple[list[VectorFile], list[Problem]]:
    return load_suite(root, _vector_file)


_BY_CONTENT: dict[str, VectorFile] = {}
MAX_CACHED_FILES = 4096
"""Vector files kept parsed by content: a review reads two versions whose files are mostly the same bytes (the
base and the head of one change), and strict loading with the shape check is most of a review's time."""


def _vector_file(path: Path) -> tuple[VectorFile | None, list[Problem]]:
    """One vector file, parsed once per content: a file with the bytes of one already read is that file again,
    with its own path (problems are never cached, so they always name the file they are in)."""
    try:
        key = hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return load_vector_file(path)
    cached = _BY_CONTENT.get(key)
    if cached is None:
        vector_file, found = load_vector_file(path)
        if vector_file is None:
            return None, found
        if len(_BY_CONTENT) >= MAX_CACHED_FILES:
            _BY_CONTENT.clear()
        _BY_CONTENT[key] = cached = vector_file
    if cached.path == path:
        return cached, []
    name = relative(path)
    return VectorFile(path, cached.loaded, [dataclasses.replace(case, file=name) for case in cached.cases]), []


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


def _read_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        raise InputError(f"{path}: not UTF-8 ({error.reason} at byte {error.start})") from None
    except OSError as error:
        raise InputError(f"{path}: cannot read: {error.strerror or error}") from None


def _nesting(text: str) -> tuple[int, int]:
    """(the deepest nesting of objects and arrays in JSON text, the line where it is first reached)."""
    depth = deepest = 0
    line = at_line = 1
    in_string = escaped = False
    for char in text:
        if char == "\n":
            line += 1
        if in_string:
            escaped, in_string = (False, True) if escaped else (char == "\\", char != '"')
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > deepest:
                deepest, at_line = depth, line
        elif char in "]}":
            depth -= 1
    return deepest, at_line


def _read_spec(root: Path) -> SpecData:
    if not root.is_dir():
        raise InputError(f"{root}: no such folder")
    if not (root / "contract.json").is_file() or not (root / "schemas").is_dir():
        raise InputError(f"{root}: not a spec folder (it needs contract.json and schemas/)")
    titles: dict[str, Path] = {}
    for path in sorted((root / "schemas").glob("*.json")):
        text = _read_text(path)
        deepest, line = _nesting(text)
        if deepest > MAX_SCHEMA_DEPTH:
            raise InputError(f"{path}:{line}: nested deeper than {MAX_SCHEMA_DEPTH} levels; the review refuses it")
        with contextlib.suppress(ValueError):
            title = json.loads(text).get("title") if text.lstrip().startswith("{") else None
            if isinstance(title, str) and title in titles:
                raise InputError(
                    f"{path}: its title {title!r} is also the title of {titles[title].name}; a type has one schema"
                )
            if isinstance(title, str):
                titles[title] = path
    try:
        spec = load_spec(root)
        _ = spec.contract_version
    except SpecError as error:
        raise InputError(str(error)) from None
    except (KeyError, TypeError):
        raise InputError(f"{root / 'contract.json'}: no `contract_version` in it") from None
    if not re.fullmatch(r"\d+\.\d+\.\d+", spec.contract_version):
        raise InputError(f"{root / 'contract.json'}: contract_version {spec.contract_version!r} is not X.Y.Z")
    _check_references(spec)
    return spec


def _check_references(spec: SpecData) -> None:
    """Every `$ref` resolves in this folder, and no chain of `$ref`s and in-place applicators loops."""
    schema_set = SchemaSet(list(spec.schemas.values()))
    files = {str(schema["$id"]): f"{title}.json" for title, schema in spec.schemas.items()}
    in_place: dict[int, list[Any]] = {}
    for schema in spec.schemas.values():
        stack: list[tuple[str, str, Any]] = [(str(schema["$id"]), "", schema)]
        while stack:
            base, pointer, node = stack.pop()
            if isinstance(node, list):
                stack += [(base, f"{pointer}/{i}", item) for i, item in enumerate(node)]
                continue
            if not isinstance(node, dict):
                continue
            base = str(node["$id"]) if isinstance(node.get("$id"), str) else base
            children = [node[k] for k in ("not", "if", "then", "else") if isinstance(node.get(k), dict)]
            children += [e for k in ("allOf", "anyOf", "oneOf") for e in node.get(k, []) if isinstance(e, dict)]
            if isinstance(node.get("$ref"), str):
                try:
                    _, target = schema_set.resolve(base, node["$ref"])
                except (KeyError, IndexError, TypeError, ValueError):
                    raise InputError(
                        f"{spec.root / 'schemas' / files.get(base, '?')}: {pointer or '/'}: `$ref` "
                        f"{node['$ref']!r} names nothing in {spec.root} (a schema removed while this one still "
                        "refers to it, or a wrong pointer)"
                    ) from None
                if isinstance(target, dict):
                    children.append(target)
            in_place[id(node)] = children
            stack += [(base, f"{pointer}/{key}", value) for key, value in node.items()]
    _refuse_cycles(spec, in_place)


def _refuse_cycles(spec: SpecData, in_place: dict[int, list[Any]]) -> None:
    """InputError when following `$ref` and in-place applicators (allOf, anyOf, not, if, …) from some node
    comes back to it: a validator would recurse for ever without moving into the instance."""
    state: dict[int, int] = {}  # 1: on the current path, 2: done
    for start in in_place:
        if state.get(start):
            continue
        path = [(start, iter(in_place[start]))]
        state[start] = 1
        while path:
            node, children = path[-1]
            child = next(children, None)
            if child is None:
                state[node] = 2
                path.pop()
            elif state.get(id(child)) == 1:
                raise InputError(
                    f"{spec.root / 'schemas'}: a `$ref` refers back to itself through `$ref`, `allOf`, "
                    "`anyOf`, `oneOf`, `not` or `if` without a property or item in between; no "
                    "validator can evaluate it"
                )
            elif not state.get(id(child)) and id(child) in in_place:
                state[id(child)] = 1
                path.append((id(child), iter(in_place[id(child)])))


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
    documents = tuple(
        (path.name, _read_text(path))
        for path in sorted(root.glob("*.md"))
        if path.name != "CHANGELOG.md" and path.is_file()
    )
    validation_md = root / "validation.md"
    if validation_md.is_file():
        tables = rule_tables(_read_text(validation_md))
    else:
        tables = {name: {} for name in TABLES.values()}
        notes.append(f"{label or root}: no validation.md, so no rule beyond the schema is known for this side")
    vectors_root = _vectors_of(root)
    if vectors_root is None:
        notes.append(f"{label or root}: no vectors, so the data backstop and the behaviour diff cannot use this side")
    changelog = _changelog_of(root)
    changelog_text = _read_text(changelog) if changelog is not None else ""
    return Snapshot(label or str(root), spec, tables, vectors_root, changelog, tuple(notes), documents, changelog_text)


def working_tree() -> Snapshot:
    """The package's own spec/ with conformance/vectors/ and spec/CHANGELOG.md (a checkout's working tree, or the
    installed package's copy): the default head."""
    label = "working tree" if locate.checkout_root() is not None else "installed package"
    return load_folder(locate.spec_root(), label)


def _repository() -> Path:
    """Where git refs are looked up: the checkout the package runs from, else the current folder's repository."""
    return locate.checkout_root() or Path.cwd()


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
        raise InputError(f"git archive {commit} {path} failed: {archive.stderr.decode(errors='replace').strip()}")
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


def latest_release(spec_folder: Path | None = None) -> Path:
    """The release snapshot of the highest version in `<spec>/releases/` (the package's own spec/ by default): the
    default base, so that a review shows the change made since the last release and nothing older."""
    releases = (spec_folder or locate.spec_root()) / "releases"
    found = [p for p in releases.iterdir() if p.is_dir() and _RELEASE.fullmatch(p.name)] if releases.is_dir() else []
    if not found:
        raise InputError(
            f"{releases}: no release snapshot (a folder named X.Y.Z) to compare with; name one with --base"
        )
    return max(found, key=lambda path: tuple(int(n) for n in path.name.split(".")))


@contextmanager
def open_snapshot(name: str, label: str | None = None) -> Iterator[Snapshot]:
    """A folder if `name` is one, else a git ref exported to a temporary folder that the block owns."""
    folder = Path(name)
    if folder.is_dir():
        yield load_folder(folder, label or name)
        return
    if folder.exists() or name.endswith((".json", ".md")):
        raise InputError(f"{name}: not a folder")
    with tempfile.TemporaryDirectory(prefix="bump-review-") as temp:
        yield load_git_ref(name, Path(temp))

"""A classified change → the place a reviewer reads it in the head: the file (relative to the head's repository
root) and the line of the changed schema member, rule row, constant or document section; and the values on both
sides at that place, for the change's fingerprint.

WHY a module of its own: pull-request tools (GitHub's annotations, SARIF viewers) show a finding on a line of a
file in the diff, and a fingerprint must be computed from what changed there, not from the report's wording. Both
need the same question answered (which JSON member or which section is this change about?), so it is answered
once. A JSON pointer's line is found by scanning the file's text (`json` keeps no positions); a Markdown section's
line is its heading's. A change whose member is gone from the head (a removed property or type) is placed at the
nearest member the head still has, and at line 1 of a file the head no longer has.
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from seq_io.bump_review.prose import sections
from seq_io.bump_review.rules import Change
from seq_io.bump_review.schema_diff import BOUND_KEYWORDS
from seq_io.bump_review.snapshot import Snapshot

Pointer = tuple[str | int, ...]
CONSTANTS, WIRE = "(contract.json)", "(wire)"
_IDS = re.compile(r"`([^`]+)`")
_HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$")
_ANNOTATION_KEYS = frozenset({"description", "$comment", "examples"})
_CHILDREN = frozenset(
    {"properties", "patternProperties", "additionalProperties", "items", "prefixItems", "propertyNames", "$defs"}
)
"""Keywords whose subschemas are other locations: cut from a location's value, so that a change deeper down does
not move the fingerprint of a change above it."""


@dataclass(frozen=True)
class Place:
    """Where a finding is read: a file relative to the head's repository root, a 1-based line, and the JSON
    pointer or section inside the file ("" when the whole file)."""

    file: str
    line: int
    anchor: str = ""


def repository_root(snapshot: Snapshot) -> Path:
    """The folder that holds the snapshot's repository: the nearest folder above its spec folder with a `.git`,
    else the spec folder's parent when the spec folder is named `spec` (a git ref exported by the review), else the
    spec folder itself (a bare spec folder is its own repository)."""
    spec = snapshot.spec.root.resolve()
    for folder in (spec, *spec.parents):
        if (folder / ".git").exists():
            return folder
    return spec.parent if spec.name == "spec" else spec


def relative_to_root(snapshot: Snapshot, path: Path) -> str:
    """A file of the snapshot as a path from its repository root (as given when it lies outside)."""
    root = repository_root(snapshot)
    try:
        return path.resolve().relative_to(root).as_posix()
    except ValueError:
        return path.as_posix()


# ---------------------------------------------------------------- JSON text → line of each pointer


class _Scanner:
    """Reads JSON text (already known to be valid) and records the line where each value, or for a member its
    name, starts."""

    def __init__(self, text: str) -> None:
        self.text, self.at, self.line = text, 0, 1
        self.lines: dict[Pointer, int] = {}

    def _skip(self) -> None:
        while self.at < len(self.text) and self.text[self.at] in " \t\r\n":
            self.line += self.text[self.at] == "\n"
            self.at += 1

    def _string(self) -> str:
        end = self.at + 1
        while self.text[end] != '"':
            end += 2 if self.text[end] == "\\" else 1
        value = json.loads(self.text[self.at : end + 1])
        self.at = end + 1
        return str(value)

    def value(self, pointer: Pointer) -> None:
        self._skip()
        self.lines.setdefault(pointer, self.line)
        char = self.text[self.at]
        if char in "{[":
            self.at += 1
            closing, index = "}" if char == "{" else "]", 0
            while True:
                self._skip()
                if self.text[self.at] == closing:
                    self.at += 1
                    return
                if self.text[self.at] == ",":
                    self.at += 1
                    self._skip()
                if char == "{":
                    name_line = self.line
                    name = self._string()
                    self._skip()
                    self.at += 1  # the colon
                    self.lines[(*pointer, name)] = name_line
                    self.value((*pointer, name))
                else:
                    self.value((*pointer, index))
                    index += 1
        elif char == '"':
            self._string()
        else:
            while self.at < len(self.text) and self.text[self.at] not in ",]} \t\r\n":
                self.at += 1


@functools.lru_cache(maxsize=64)
def pointer_lines(text: str) -> dict[Pointer, int]:
    """JSON text → {pointer: 1-based line where that value (or member) starts}; {} for text that is not JSON."""
    scanner = _Scanner(text)
    try:
        json.loads(text)
        scanner.value(())
    except (IndexError, ValueError):
        return {}
    return scanner.lines


def line_of(text: str, pointer: Pointer) -> int:
    """The line of the deepest member of `pointer` the text has (1 when none)."""
    lines = pointer_lines(text)
    for end in range(len(pointer), -1, -1):
        if pointer[:end] in lines:
            return lines[pointer[:end]]
    return 1


def render_pointer(pointer: Pointer) -> str:
    """(`properties`, `width`) → `/properties/width` (RFC 6901)."""
    return "".join("/" + str(part).replace("~", "~0").replace("/", "~1") for part in pointer)


# ---------------------------------------------------------------- a location of a type → its pointer in the file


def schema_files(snapshot: Snapshot) -> dict[str, Path]:
    """Type title → its schema file in the snapshot."""
    return _schema_files(snapshot.spec.root.resolve())


@functools.lru_cache(maxsize=16)
def _schema_files(root: Path) -> dict[str, Path]:
    out: dict[str, Path] = {}
    for path in sorted((root / "schemas").glob("*.json")):
        try:
            title = json.loads(path.read_text(encoding="utf-8")).get("title")
        except (OSError, ValueError, AttributeError):
            continue
        if isinstance(title, str):
            out.setdefault(title, path)
    return out


def _branches(node: dict[str, Any], pointer: Pointer) -> list[tuple[Any, Pointer]]:
    """The subschemas that apply at the same location: the branches of `anyOf`/`oneOf` and the entries of
    `allOf` that are not rules."""
    out: list[tuple[Any, Pointer]] = []
    for keyword in ("anyOf", "oneOf", "allOf"):
        for index, branch in enumerate(node.get(keyword, [])):
            if isinstance(branch, dict) and not (keyword == "allOf" and "x-rule" in branch):
                out.append((branch, (*pointer, keyword, index)))
    return out


def _step(node: Any, pointer: Pointer, part: str, depth: int = 0) -> tuple[Any, Pointer] | None:
    """One location step (`name`, `*`, `[]`, `[N]`, `{key}`) inside one schema file; None when the file has no
    subschema for it."""
    if not isinstance(node, dict) or depth > 8:
        return None
    found: tuple[Any, Pointer] | None = None
    if part == "*" and isinstance(node.get("additionalProperties"), dict):
        found = node["additionalProperties"], (*pointer, "additionalProperties")
    elif part == "[]" and isinstance(node.get("items"), dict):
        found = node["items"], (*pointer, "items")
    elif part == "{key}" and isinstance(node.get("propertyNames"), dict):
        found = node["propertyNames"], (*pointer, "propertyNames")
    elif part.startswith("[") and part.endswith("]") and part[1:-1].isdigit():
        prefix = node.get("prefixItems", [])
        if int(part[1:-1]) < len(prefix):
            found = prefix[int(part[1:-1])], (*pointer, "prefixItems", int(part[1:-1]))
    elif part in node.get("properties", {}):
        found = node["properties"][part], (*pointer, "properties", part)
    if found is not None:
        return found
    for branch, at in _branches(node, pointer):
        found = _step(branch, at, part, depth + 1)
        if found is not None:
            return found
    return None


def schema_pointer(document: Any, location: tuple[str, ...]) -> tuple[Pointer, bool]:
    """The pointer of the subschema at `location` in a schema document, and whether the whole location was found
    (else the pointer is that of the deepest step found, at its `properties` when a property is missing)."""
    node: Any = document
    pointer: Pointer = ()
    for part in location:
        found = _step(node, pointer, part)
        if found is None:
            if isinstance(node, dict) and "properties" in node and not part.startswith(("[", "*", "{")):
                return (*pointer, "properties"), False
            return pointer, False
        node, pointer = found
    return pointer, True


def _x_rule_pointer(document: Any, rule_id: str, pointer: Pointer = ()) -> Pointer | None:
    """Where the subschema carrying `"x-rule": rule_id` stands in a schema document."""
    if isinstance(document, dict):
        if document.get("x-rule") == rule_id:
            return pointer
        items: list[tuple[str | int, Any]] = list(document.items())
    elif isinstance(document, list):
        items = list(enumerate(document))
    else:
        return None
    for key, value in items:
        found = _x_rule_pointer(value, rule_id, (*pointer, key))
        if found is not None:
            return found
    return None


def _at(document: Any, pointer: Pointer) -> Any:
    for part in pointer:
        document = document[part]
    return document


# ---------------------------------------------------------------- a change → its place and its values


def _document_text(snapshot: Snapshot, name: str) -> str | None:
    return dict(snapshot.documents).get(name)


def _table_row(snapshot: Snapshot, change: Change) -> tuple[str, str] | None:
    """(rule id, row text) when the change is about a row of validation.md's tables."""
    for rule_id in _IDS.findall(change.detail):
        for table in snapshot.tables.values():
            if rule_id in table:
                return rule_id, table[rule_id]
    return None


def _x_rule_id(change: Change) -> str | None:
    found = re.search(r"\brule `([^`]+)`", change.detail)
    return found.group(1) if found and "validation.md" not in change.detail else None


def place(change: Change, head: Snapshot, base: Snapshot) -> Place:
    """Where the change is read in the head (in the base's file, named as the head would name it, when the head
    no longer has the file)."""
    name = change.type_name
    if name == CONSTANTS:
        path = head.spec.root / "contract.json"
        pointer: Pointer = change.location
        return Place(
            relative_to_root(head, path), line_of(path.read_text(encoding="utf-8"), pointer), render_pointer(pointer)
        )
    if name.startswith("(") and name.endswith(".md)"):
        return _section_place(change, head, base)
    row = _table_row(head, change) or _table_row(base, change)
    if row is not None or name == WIRE:
        return _row_place(head, row[0] if row else "")
    files = schema_files(head)
    if name not in files:
        old = schema_files(base).get(name)
        return Place(f"{relative_to_root(head, head.spec.root / 'schemas')}/{old.name if old else name + '.json'}", 1)
    path = files[name]
    text = path.read_text(encoding="utf-8")
    document = json.loads(text)
    rule_id = _x_rule_id(change)
    found = _x_rule_pointer(document, rule_id) if rule_id else None
    if found is None:
        found, whole = schema_pointer(document, change.location)
        if whole:
            old = schema_files(base).get(name)
            before = _base_node(base, name, change.location) if old else None
            found = _keyword_pointer(_at(document, found), found, change, before)
    pointer = found
    return Place(relative_to_root(head, path), line_of(text, pointer), render_pointer(pointer))


_KEYWORDS: dict[str, tuple[str, ...]] = {
    "required-added": ("required",),
    "required-removed": ("required",),
    "enum-values-added": ("enum", "const"),
    "enum-values-removed": ("enum", "const"),
    "default-changed": ("default",),
    "content-closed": ("additionalProperties",),
    "content-opened": ("additionalProperties",),
    "type-widened": ("type",),
    "type-narrowed": ("type",),
    "type-changed": ("type",),
    "annotation-changed": ("description", "title"),
}


def _members(node: Any, pointer: Pointer) -> dict[str, tuple[Pointer, Any]]:
    """Keyword → (pointer, value) in a subschema and the branches that apply with it (the first found wins)."""
    out: dict[str, tuple[Pointer, Any]] = {}
    candidates = [(node, pointer)]
    while candidates:
        current, at = candidates.pop(0)
        if isinstance(current, dict):
            for key, value in current.items():
                out.setdefault(key, ((*at, key), value))
            candidates += _branches(current, at)
    return out


def _keyword_pointer(node: Any, pointer: Pointer, change: Change, before: Any) -> Pointer:
    """The member of the head's subschema at the change's location that the change is about (`required` for a
    newly required property, the bound keyword whose value changed, ...), searched in the node and the branches
    that apply with it: first a candidate keyword whose value differs from the base's (`before`), then any
    candidate the head has; the node itself when none."""
    keys: tuple[str, ...] = BOUND_KEYWORDS if change.rule.startswith("bound-") else _KEYWORDS.get(change.rule, ())
    if change.rule == "annotation-changed":
        named = re.match(r"`([^`]+)`", change.detail)
        keys = (named.group(1),) if named else keys
    now, was = _members(node, pointer), _members(before, ())
    differing = [k for k in keys if k in now and (k not in was or was[k][1] != now[k][1])]
    present = [k for k in keys if k in now]
    chosen = differing or present
    return now[chosen[0]][0] if chosen else pointer


def _base_node(base: Snapshot, name: str, location: tuple[str, ...]) -> Any:
    document = base.spec.schemas.get(name)
    if document is None:
        return None
    pointer, whole = schema_pointer(document, location)
    return _at(document, pointer) if whole else None


def _section_place(change: Change, head: Snapshot, base: Snapshot) -> Place:
    document = change.type_name[1:-1]
    path = head.spec.root / document
    text = _document_text(head, document)
    section = change.location[0] if change.location else ""
    if text is None or not section.startswith("§"):
        return Place(relative_to_root(head, path), 1, section)
    wanted, seen = section[2:], dict[str, int]()
    fenced = False
    for number, line in enumerate(text.splitlines(), 1):
        fenced = fenced != line.startswith("```")
        heading = None if fenced else _HEADING.match(line)
        if heading is None:
            continue
        title = heading.group(1)
        seen[title] = seen.get(title, 0) + 1
        label = title if seen[title] == 1 else f"{title} ({seen[title]})"
        if label == wanted:
            return Place(relative_to_root(head, path), number, section)
    return Place(relative_to_root(head, path), 1, section)


def _row_place(head: Snapshot, rule_id: str) -> Place:
    path = head.spec.root / "validation.md"
    text = _document_text(head, "validation.md") or ""
    for number, line in enumerate(text.splitlines(), 1):
        if rule_id and re.match(rf"^\|\s*`{re.escape(rule_id)}`\s*\|", line):
            return Place(relative_to_root(head, path), number, rule_id)
    return Place(relative_to_root(head, path), 1, rule_id)


def _shallow(value: Any, keep_annotations: bool) -> Any:
    """A subschema without the subschemas of deeper locations (and, unless asked, its descriptions)."""
    if not isinstance(value, dict):
        return value
    return {
        key: inner
        for key, inner in value.items()
        if not (key in _CHILDREN and isinstance(inner, dict | list))
        and (keep_annotations or key not in _ANNOTATION_KEYS)
    }


def value_at(change: Change, snapshot: Snapshot) -> Any:
    """What one side holds where the change is: the constant, the section's text, the rule row's text, the
    `x-rule` subschema, the whole schema of an added or removed type, or the subschema at the location (without
    deeper locations); None when that side has nothing there."""
    name = change.type_name
    if name == CONSTANTS:
        node: Any = snapshot.spec.contract
        for part in change.location:
            if not isinstance(node, dict) or part not in node:
                return None
            node = node[part]
        return node
    if name.startswith("(") and name.endswith(".md)"):
        text = _document_text(snapshot, name[1:-1])
        if text is None or not change.location:
            return text
        lines = sections(text).get(change.location[0])
        return None if lines is None else "\n".join(lines)
    row = _table_row(snapshot, change)
    if row is not None:
        return row[1]
    document = snapshot.spec.schemas.get(name)
    if document is None:
        return None
    if change.rule in ("type-added", "type-removed"):
        return document
    rule_id = _x_rule_id(change)
    if rule_id is not None:
        found = _x_rule_pointer(document, rule_id)
        return None if found is None else _at(document, found)
    pointer, whole = schema_pointer(document, change.location)
    return _shallow(_at(document, pointer), change.rule == "annotation-changed") if whole else None

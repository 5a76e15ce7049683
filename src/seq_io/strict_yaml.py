"""YAML text → JSON-compatible value + a map from JSON path to line, refusing YAML's implicit-typing traps.

Vector files are YAML for people but JSON for everyone else, so anything YAML would read differently from a
JSON-minded reader is refused with its line: duplicate keys (PyYAML silently keeps the last), YAML 1.1
booleans (`yes`, `no`, `on`, `off`), implicit dates, octal/sexagesimal/underscored numbers, `.nan`/`.inf`,
number-looking plain strings such as `1e5` (a string in YAML 1.1, a number in JSON), numbers that overflow a
double (`1.0e+400`, which would silently become infinity), anchors, aliases, merge keys and explicit tags.
Numbers follow the contract's value model (`seq_io.reference.wire.number_value`). Built on PyYAML's C event parser and
composer for speed; the value is built here.

Hostile files are refused before they can hurt: a path that is not a regular file (a FIFO, a device such as
/dev/zero behind a symlink, a folder) is refused without reading (it is opened non-blocking and checked with
fstat, so a FIFO cannot hang the reader), at most MAX_FILE_BYTES + 1 bytes are ever read (a size the file system
misreports cannot make the reader eat memory), and nesting deeper than MAX_DEPTH is refused while the event stream
is scanned, before the composer (C code that recurses once per level and crashes the process on a deep enough
file) or the builder here (recursive too) ever see it.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from seq_io.reference.bounded_file import TooLarge, UnreadableFile, read_bounded_bytes
from seq_io.reference.wire import number_value

MAX_FILE_BYTES = 2 * 1024 * 1024
MAX_DEPTH = 256
"""Levels of nested sequences and mappings a vector file may have: the stream vectors of spec/stream.md STR-DEPTH
put a body's `inputs` nested 199 deep at 207 levels of their file; a validation instance nested deeper is written as
`json:` text. Deep enough for that, shallow enough for PyYAML's recursive C composer and the recursive builder."""
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_JSON_INT = re.compile(r"-?(0|[1-9][0-9]*)")
_JSON_FLOAT = re.compile(r"-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?")
_STANDARD = "tag:yaml.org,2002:"


class YamlError(Exception):
    """A YAML file the strict loader refuses: carries the file, the 1-based line and a sentence."""

    def __init__(self, file: str, line: int, message: str) -> None:
        super().__init__(f"{file}:{line}: {message}")
        self.file, self.line, self.message = file, line, message


@dataclass
class Loaded:
    """A strictly loaded YAML document and where each of its values stands."""

    value: Any
    lines: dict[tuple[str | int, ...], int] = field(default_factory=dict)

    def line_of(self, path: tuple[str | int, ...]) -> int:
        """The line of the deepest known value on `path` (1 when nothing on it is known)."""
        for end in range(len(path), -1, -1):
            if path[:end] in self.lines:
                return self.lines[path[:end]]
        return 1


def read_regular_file(path: Path, limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of a regular file of at most `limit` bytes; YamlError for anything else (a FIFO, a device, a
    folder, a larger file), without blocking and without reading more than `limit` + 1 bytes (bounded_file)."""
    try:
        return read_bounded_bytes(path, limit)
    except UnreadableFile as error:
        if error.kind is None:
            raise YamlError(str(path), 1, f"cannot read the file: {error}") from None
        raise YamlError(
            str(path),
            1,
            f"not a regular file ({error.kind}): a vector file must be a plain file, and "
            "this one is refused without being read",
        ) from None
    except TooLarge:
        raise YamlError(
            str(path), 1, f"the file has more than {limit} bytes; a vector file may have at most {limit}"
        ) from None


def load_file(path: Path) -> Loaded:
    """Read and strictly load one YAML file, refusing what is not a regular file of at most MAX_FILE_BYTES."""
    data = read_regular_file(path)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise YamlError(str(path), line, f"the file is not UTF-8 ({error.reason} at byte {error.start})") from None
    return load_text(text, str(path))


def load_text(text: str, file: str = "<text>") -> Loaded:
    """Strictly load one YAML document from text."""
    try:
        depth = 0
        for event in yaml.parse(text, Loader=_LOADER):
            _refuse_anchor_or_tag(event, file)
            if isinstance(event, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
                depth += 1
                if depth > MAX_DEPTH:
                    line = event.start_mark.line + 1 if event.start_mark else 1
                    raise YamlError(
                        file,
                        line,
                        f"the values are nested deeper than {MAX_DEPTH} levels (sequences "
                        "and mappings): refused before it is built; write a deep instance "
                        "as `json:` text",
                    )
            elif isinstance(event, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
                depth -= 1
        node = yaml.compose(text, Loader=_LOADER)
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        line = mark.line + 1 if mark else 1
        raise YamlError(file, line, f"not valid YAML: {error.problem or error}") from None
    except yaml.YAMLError as error:
        raise YamlError(file, 1, f"not valid YAML: {error}") from None
    if node is None:
        raise YamlError(file, 1, "the file is empty")
    loaded = Loaded(None)
    loaded.value = _build(node, (), loaded, file)
    return loaded


def _refuse_anchor_or_tag(event: yaml.Event, file: str) -> None:
    line = event.start_mark.line + 1 if event.start_mark else 1
    if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
        raise YamlError(file, line, "anchors and aliases (&name, *name) are not allowed: write the value out in full")
    tag = getattr(event, "tag", None)
    if tag and not isinstance(event, yaml.DocumentStartEvent):
        raise YamlError(file, line, f"the tag {tag!r} is not allowed: vector files hold plain JSON values")


def _build(node: yaml.Node, path: tuple[str | int, ...], loaded: Loaded, file: str) -> Any:
    loaded.lines[path] = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        return _build_mapping(node, path, loaded, file)
    if isinstance(node, yaml.SequenceNode):
        return [_build(item, (*path, index), loaded, file) for index, item in enumerate(node.value)]
    assert isinstance(node, yaml.ScalarNode)
    return _scalar(node, file)


def _build_mapping(node: yaml.MappingNode, path: tuple[str | int, ...], loaded: Loaded, file: str) -> Any:
    out: dict[str, Any] = {}
    first_line: dict[str, int] = {}
    for key_node, value_node in node.value:
        line = key_node.start_mark.line + 1
        if key_node.tag == _STANDARD + "merge":
            raise YamlError(file, line, "merge keys (<<) are not allowed: write the keys out in full")
        key = _scalar(key_node, file) if isinstance(key_node, yaml.ScalarNode) else None
        if not isinstance(key, str):
            raise YamlError(file, line, "every key must be a string (quote it: JSON keys are strings)")
        if key in first_line:
            raise YamlError(
                file,
                line,
                f"the key {key!r} appears twice in one mapping (lines {first_line[key]} and "
                f"{line}); YAML readers disagree on which wins, so duplicates are refused",
            )
        first_line[key] = line
        out[key] = _build(value_node, (*path, key), loaded, file)
    return out


def _scalar(node: yaml.ScalarNode, file: str) -> Any:
    text, line = node.value, node.start_mark.line + 1
    if node.style:  # quoted or block scalar: always a string (plain is None or "" by loader)
        return text
    tag = node.tag.removeprefix(_STANDARD)
    if tag == "str":
        if _JSON_FLOAT.fullmatch(text):
            raise YamlError(
                file,
                line,
                f"{text} is read as a string by YAML 1.1 but as a number by JSON: write it so "
                "every YAML reader agrees: as an integer, with a decimal point and a signed "
                "exponent (1.5e+3), or quoted",
            )
        return text
    if tag == "null":
        if text in ("null", ""):
            return None
        raise YamlError(file, line, f"write null as `null`, not {text!r}")
    if tag == "bool":
        if text in ("true", "false"):
            return text == "true"
        raise YamlError(file, line, f"{text!r} is a YAML 1.1 boolean: write true/false, or quote it for a string")
    if tag == "int" and _JSON_INT.fullmatch(text):
        return int(text)
    if tag == "float" and _JSON_FLOAT.fullmatch(text):
        value = number_value(text)  # the contract's value model: 9007199254740993.0 is that integer exactly
        if isinstance(value, float) and not math.isfinite(value):
            raise YamlError(
                file,
                line,
                f"{text} overflows a binary64 double (it would be read as infinity): a "
                "vector cannot hold it as a number; give the exact text in `json:` instead",
            )
        return value
    if tag in ("int", "float"):
        raise YamlError(
            file,
            line,
            f"{text!r} is not a JSON number (octal, hex, sexagesimal, underscores, .nan and "
            ".inf are refused): write it as JSON would, or quote it",
        )
    if tag == "timestamp":
        raise YamlError(file, line, f"{text!r} would be read as a date: quote it")
    raise YamlError(file, line, f"the tag {node.tag!r} is not allowed: vector files hold plain JSON values")

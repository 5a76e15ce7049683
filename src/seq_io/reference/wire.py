"""JSON text or an in-memory value → a JSON value under the contract's wire rules and limits, or Issues. This is the
reader of record, in pure Python; `seq_io.reference.fast_wire` is a Rust-backed shortcut that answers "fine" or "ask the
reader of record".

Python's `json` module accepts what the contract refuses: duplicate object keys (it keeps the last), the tokens
`NaN`/`Infinity`, literals that overflow a double (`1e400` becomes infinity), strings holding a lone surrogate, and
it reads integers of 4,301 digits or more by raising `ValueError`. Other languages' parsers disagree on all of these,
so spec/validation.md ("Wire rules", "Limits") decides each one, and this module is where that happens.

WHY it is shaped this way:

- Two readers, one answer. Python's `json` module, with hooks that mark duplicate keys and numbers the contract
  refuses, reads at C speed and then one iterative walk turns the marks, lone surrogates and nesting too deep into
  Issues. Where `json` cannot answer (a syntax error, the NaN tokens, or a RecursionError, which depends on how
  deep the caller's own stack already is) the iterative reader decides: an explicit stack of open containers, so the
  depth limit (`MAX_JSON_DEPTH` in spec/contract.json) is a counter, and a text nested 100,000 deep is refused at
  the first value nested too deeply. Both stop at the first fatal refusal in text order and collect the others;
  tests/test_wire.py holds them equal on generated texts.
- Strings are read by `json.decoder.scanstring` (C); numbers by one regular expression. A number's value follows
  spec/validation.md ("The value of a number"): `number_value` decides it from the literal's digits, never calling
  `int()` on more digits than a double can reach (309), so neither Python's int/str limit nor quadratic big-number
  conversion is ever met.
- Values built in memory (`check_value`) are walked the same way, with the same limits: a recursive list is refused
  as too deep, a container shared a billion times over is refused by its size before it is walked a billion times.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any

from seq_io.reference.issues import MAX_ISSUES, QUOTE_CHARS, Issue, format_path, quote
from seq_io.reference.spec_data import load_spec, own_spec_root

WIRE_JSON_SYNTAX = "wire.json-syntax"
WIRE_DUPLICATE_KEY = "wire.duplicate-key"
WIRE_NON_FINITE = "wire.non-finite-number"
WIRE_TOO_DEEP = "wire.too-deep"
WIRE_INTEGER_TOO_LONG = "wire.integer-too-long"
READER_TOO_LARGE = "reader.too-large"
"""The one refusal by a limit of this package's readers rather than of the contract (spec/validation.md, "Limits")."""

WIRE_RULES = (WIRE_JSON_SYNTAX, WIRE_DUPLICATE_KEY, WIRE_NON_FINITE, WIRE_TOO_DEEP, WIRE_INTEGER_TOO_LONG)


@dataclass(frozen=True)
class WireLimits:
    """The contract's wire limits (spec/contract.json): `depth` = MAX_JSON_DEPTH, no value is enclosed by more than
    this many arrays and objects; `integer_digits` = MAX_INTEGER_DIGITS, an integer literal (no fraction, no
    exponent) has at most this many digits."""

    depth: int
    integer_digits: int
    ten_to_integer_digits: int


@cache
def wire_limits() -> WireLimits:
    """The wire limits of the package's own spec/contract.json, read on first use and never at import, so that an
    installation without its data is reported in one line by whoever reads the data first (the command line does,
    before anything else); SpecError when the data cannot be read."""
    limits = load_spec(own_spec_root()).limits
    digits = int(limits["MAX_INTEGER_DIGITS"])
    return WireLimits(int(limits["MAX_JSON_DEPTH"]), digits, 10**digits)


MAX_DOCUMENT_BYTES = 128 * 1024 * 1024
"""Reader limit of this package: a text longer than this many UTF-8 bytes (a value whose compact JSON text would
be, as measured by `check_value`) is refused with `reader.too-large`. Twice MAX_STREAM_BYTES: a POST /observe body
carrying a whole stream's worth of frames still fits."""

_TWO_53 = 2**53
_MAX_FINITE_DIGITS = 309
"""An integer of more digits is at least 10^309, beyond the largest double (about 1.8e308)."""
_LONE_SURROGATE = re.compile(r"[\ud800-\udfff]")
_WHITESPACE = re.compile(r"[ \t\n\r]*")
_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?")
_scanstring = json.decoder.scanstring  # type: ignore[attr-defined]


# ---------------------------------------------------------------------------------------------------------------
# Numbers


def number_value(literal: str) -> int | float:
    """The value of a JSON number literal with a fraction or an exponent (spec/validation.md, "The value of a
    number"): when its exact decimal value is an integer of magnitude 2^53 or more (a double may not hold it), that
    integer; otherwise the nearest double, which is exact for smaller integers and is infinite when the literal
    overflows (the caller refuses that). Linear in the literal's length."""
    value = float(literal)
    if not math.isfinite(value) or abs(value) < _TWO_53:
        return value
    exact = _exact_integer(literal)
    return value if exact is None else exact


def _exact_integer(literal: str) -> int | None:
    """The literal's exact value when it is an integer, else None; only called for finite values of magnitude 2^53
    or more, so the integer has at most 309 digits."""
    mantissa, _, exponent = literal.lower().partition("e")
    whole, _, fraction = mantissa.partition(".")
    sign = -1 if whole.startswith("-") else 1
    digits = (whole.lstrip("-") + fraction).lstrip("0")
    scale = int(exponent or "0") - len(fraction)
    stripped = digits.rstrip("0")
    scale += len(digits) - len(stripped)
    if scale < 0:
        return None
    exact: int = sign * int(stripped) * 10**scale
    return exact


def _integer_refusal(literal: str) -> tuple[str, str] | None:
    """(rule, sentence) when an integer literal is refused by the limits or the wire rules, else None."""
    digits = len(literal) - literal.startswith("-")
    limit = wire_limits().integer_digits
    if digits > limit:
        return WIRE_INTEGER_TOO_LONG, (
            f"an integer of {digits} digits is longer than the {limit} digits "
            'a reader must accept (spec/validation.md, "Limits")'
        )
    if digits > _MAX_FINITE_DIGITS or not _fits_a_double(int(literal)):
        return WIRE_NON_FINITE, _non_finite_sentence(literal)
    return None


def _fits_a_double(value: int) -> bool:
    try:
        float(value)
    except OverflowError:
        return False
    return True


def _non_finite_sentence(literal: str) -> str:
    shown = literal if len(literal) <= QUOTE_CHARS else literal[: QUOTE_CHARS - 3] + "..."
    return (
        f"the number {shown} is not a finite IEEE-754 double; JSON numbers in this contract must be "
        "finite (NaN and Infinity are not JSON)"
    )


# ---------------------------------------------------------------------------------------------------------------
# Text


class _Refused(Exception):
    """The text is refused as a whole (path `$`): a syntax error, a lone surrogate, or nesting too deep."""

    def __init__(self, issue: Issue) -> None:
        super().__init__(issue.message)
        self.issue = issue


def _where(text: str, position: int) -> str:
    line = text.count("\n", 0, position) + 1
    return f"line {line}, column {position - text.rfind(chr(10), 0, position)}"


def _syntax(text: str, position: int, what: str) -> _Refused:
    return _Refused(Issue("$", WIRE_JSON_SYNTAX, f"not valid JSON: {what} at {_where(text, position)}"))


_NOT_TOKENS = ("NaN", "Infinity", "-Infinity")


class _Reader:
    """One pass over one text: values are built bottom-up on an explicit stack of open containers."""

    def __init__(self, text: str, lone_surrogates: bool, max_depth: int) -> None:
        self.text = text
        self.lone_surrogates = lone_surrogates
        self.max_depth = max_depth
        self.issues: list[Issue] = []
        self.path: list[str | int] = []  # where the value being read sits: one segment per open container

    def read(self) -> Any:  # noqa: C901 (the iterative reader's state machine, one branch per token)
        text, end = self.text, len(self.text)
        open_containers: list[list[Any] | dict[str, Any]] = []
        reported_duplicates: list[set[str]] = []
        position = _WHITESPACE.match(text, 0).end()  # type: ignore[union-attr]
        while True:
            # A value starts at `position`.
            if len(open_containers) > self.max_depth:
                raise _Refused(_too_deep(self.max_depth))
            char = text[position] if position < end else ""
            if char == "{":
                position = _WHITESPACE.match(text, position + 1).end()  # type: ignore[union-attr]
                if text.startswith("}", position):
                    value: Any = {}
                    position += 1
                else:
                    members: dict[str, Any] = {}
                    open_containers.append(members)
                    reported_duplicates.append(set())
                    position = self._member_name(members, reported_duplicates[-1], position, True)
                    continue
            elif char == "[":
                position = _WHITESPACE.match(text, position + 1).end()  # type: ignore[union-attr]
                if text.startswith("]", position):
                    value = []
                    position += 1
                else:
                    open_containers.append([])
                    reported_duplicates.append(set())
                    self.path.append(0)
                    continue
            elif char == '"':
                value, position = self._string(position)
            else:
                value, position = self._scalar(position)
            # A value ends at `position`: put it in its container, closing every container that ends here.
            while True:
                if not open_containers:
                    position = _WHITESPACE.match(text, position).end()  # type: ignore[union-attr]
                    if position != end:
                        raise _syntax(text, position, "text after the JSON value")
                    return value
                container = open_containers[-1]
                segment = self.path[-1]
                if isinstance(container, list):
                    container.append(value)
                else:
                    assert isinstance(segment, str)
                    container[segment] = value
                position = _WHITESPACE.match(text, position).end()  # type: ignore[union-attr]
                char = text[position] if position < end else ""
                if char == ",":
                    position = _WHITESPACE.match(text, position + 1).end()  # type: ignore[union-attr]
                    if isinstance(container, list):
                        self.path[-1] = len(container)
                    else:
                        assert isinstance(container, dict)
                        position = self._member_name(container, reported_duplicates[-1], position, False)
                    break
                if char == ("]" if isinstance(container, list) else "}"):
                    value = open_containers.pop()
                    reported_duplicates.pop()
                    self.path.pop()
                    position += 1
                    continue
                raise _syntax(text, position, "expected ',' or '" + ("]'" if isinstance(container, list) else "}'"))

    def _member_name(self, container: dict[str, Any], reported: set[str], position: int, first: bool) -> int:
        """Read `"name" :` at `position`; note a duplicate; the member's value starts at the returned position."""
        text = self.text
        if not text.startswith('"', position):
            raise _syntax(text, position, "expected a member name in double quotes")
        name, position = self._string(position)
        if name in container and name not in reported:
            reported.add(name)
            if len(self.issues) < MAX_ISSUES:
                self.issues.append(_duplicate(format_path(self.path[:-1] if not first else self.path), name))
        position = _WHITESPACE.match(text, position).end()  # type: ignore[union-attr]
        if not text.startswith(":", position):
            raise _syntax(text, position, "expected ':' after the member name")
        if first:
            self.path.append(name)
        else:
            self.path[-1] = name
        return _WHITESPACE.match(text, position + 1).end()  # type: ignore[union-attr]

    def _string(self, position: int) -> tuple[str, int]:
        try:
            value, end = _scanstring(self.text, position + 1, True)
        except json.JSONDecodeError as error:
            raise _syntax(self.text, error.pos, error.msg.lower()) from None
        if not self.lone_surrogates and _LONE_SURROGATE.search(value):
            raise _Refused(_LONE_SURROGATE_ISSUE)
        return value, end

    def _scalar(self, position: int) -> tuple[Any, int]:
        text = self.text
        for literal, value in (("true", True), ("false", False), ("null", None)):
            if text.startswith(literal, position):
                return value, position + len(literal)
        match = _NUMBER.match(text, position)
        if match is None:
            token = next((t for t in _NOT_TOKENS if text.startswith(t, position)), None)
            if token is not None:
                raise _syntax(
                    text,
                    position,
                    f"{token} is not a JSON token (JSON has no NaN or Infinity; a number must be finite)",
                )
            raise _syntax(text, position, "expected a value" if position < len(text) else "unexpected end of text")
        literal = match.group()
        if match.group(1) is None and match.group(2) is None:
            refusal = _integer_refusal(literal)
            if refusal is None:
                return int(literal), match.end()
            if len(self.issues) < MAX_ISSUES:
                self.issues.append(Issue(format_path(self.path), *refusal))
            return None, match.end()
        number = number_value(literal)
        if isinstance(number, float) and not math.isfinite(number):
            if len(self.issues) < MAX_ISSUES:
                self.issues.append(Issue(format_path(self.path), WIRE_NON_FINITE, _non_finite_sentence(literal)))
            return None, match.end()
        return number, match.end()


class _Marked:
    """A number literal the contract refuses, standing in for its value until the walk reports it."""

    __slots__ = ("literal",)

    def __init__(self, literal: str) -> None:
        self.literal = literal

    def issue(self, where: str) -> Issue:
        refusal = _integer_refusal(self.literal) if _NUMBER.fullmatch(self.literal).lastindex is None else None  # type: ignore[union-attr]
        return Issue(where, *(refusal or (WIRE_NON_FINITE, _non_finite_sentence(self.literal))))


class _DuplicatedObject(dict[str, Any]):
    """A JSON object that had a key twice; `pairs` are its members as written, duplicates included."""

    pairs: list[tuple[str, Any]]


class _NotJsonToken(Exception):
    """NaN, Infinity or -Infinity: Python's `json` reads them, JSON has no such token."""


class _Name:
    """A member name of an object with duplicates, met `again` or for the first time."""

    __slots__ = ("again", "name")

    def __init__(self, name: str, again: bool) -> None:
        self.name = name
        self.again = again


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    value = dict(pairs)
    if len(value) == len(pairs):
        return value
    marked = _DuplicatedObject(pairs)
    marked.pairs = pairs
    return marked


def _float(literal: str) -> Any:
    number = number_value(literal)
    if isinstance(number, float) and not math.isfinite(number):
        return _Marked(literal)
    return number


def _int(literal: str) -> Any:
    refusal = _integer_refusal(literal)
    return int(literal) if refusal is None else _Marked(literal)


def _constant(token: str) -> Any:
    raise _NotJsonToken(token)


def _read_with_json_module(text: str, lone_surrogates: bool, max_depth: int) -> tuple[Any, list[Issue]] | None:  # noqa: C901 (each hook of the json module and its refusal, in order)
    """The answer of `json` plus one walk, or None when `json` cannot give it (then the iterative reader does)."""
    try:
        value = json.loads(
            text, object_pairs_hook=_object, parse_float=_float, parse_int=_int, parse_constant=_constant
        )
    except (json.JSONDecodeError, _NotJsonToken, RecursionError):
        return None
    issues: list[Issue] = []
    reported: dict[tuple[str | int, ...], set[str]] = {}
    # Pre-order, members in text order, so the first fatal refusal found is the first in the text, and the issues
    # kept (the first MAX_ISSUES) are those the iterative reader keeps.
    work: list[tuple[Any, tuple[str | int, ...]]] = [(value, ())]
    while work:
        item, path = work.pop()
        if len(path) > max_depth:
            return None, [_too_deep(max_depth)]
        if isinstance(item, str):
            if not lone_surrogates and not item.isascii() and _LONE_SURROGATE.search(item):
                return None, [_LONE_SURROGATE_ISSUE]
        elif isinstance(item, list):
            work.extend((item[index], (*path, index)) for index in range(len(item) - 1, -1, -1))
        elif isinstance(item, _DuplicatedObject):
            # Every member as written, each name followed by its value; a name met again is reported there.
            seen: set[str] = set()
            members: list[tuple[Any, tuple[str | int, ...]]] = []
            for key, member in item.pairs:
                members.append((_Name(key, key in seen), path))
                members.append((member, (*path, key)))
                seen.add(key)
            work.extend(reversed(members))
        elif isinstance(item, dict):
            for key in reversed(item):
                work.append((item[key], (*path, key)))
                work.append((key, path))  # a member name is read before its value
        elif isinstance(item, _Name):
            if not lone_surrogates and _LONE_SURROGATE.search(item.name):
                return None, [_LONE_SURROGATE_ISSUE]
            if item.again and item.name not in reported.setdefault(path, set()) and len(issues) < MAX_ISSUES:
                reported[path].add(item.name)
                issues.append(_duplicate(format_path(path), item.name))
        elif isinstance(item, _Marked) and len(issues) < MAX_ISSUES:
            issues.append(item.issue(format_path(path)))
    return value, sorted(issues)


def _too_deep(max_depth: int) -> Issue:
    return Issue(
        "$",
        WIRE_TOO_DEEP,
        f'a value is nested more deeply than {max_depth} arrays and objects (spec/validation.md, "Limits")',
    )


_LONE_SURROGATE_ISSUE = Issue(
    "$",
    WIRE_JSON_SYNTAX,
    "not valid JSON for this contract: a string or member name holds "
    "a lone surrogate (an unpaired \\ud800-\\udfff escape), which "
    "is not a Unicode character (I-JSON, RFC 7493)",
)


def _duplicate(where: str, key: str) -> Issue:
    return Issue(
        where,
        WIRE_DUPLICATE_KEY,
        f"the key {quote(key)} appears more than once in this object; duplicate keys are refused",
    )


def _too_large(size: str) -> Issue:
    return Issue(
        "$",
        READER_TOO_LARGE,
        f"the document is {size}, more than the {MAX_DOCUMENT_BYTES:,} bytes this "
        'reader accepts (spec/validation.md, "Limits")',
    )


def parse_json_text(
    text: str, *, lone_surrogates: bool = False, max_depth: int | None = None
) -> tuple[Any, list[Issue]]:
    """Read one JSON document under the wire rules and limits, in pure Python (the reader of record); the value is
    meaningful only when no Issue came back.

    `lone_surrogates=True` lets strings holding lone surrogates through (for protocol messages, whose sentences
    may quote a refused instance), and `max_depth` lets a protocol message nest an instance a few levels deeper
    than MAX_JSON_DEPTH (the default); contract instances never pass either."""
    if max_depth is None:
        max_depth = wire_limits().depth
    if len(text) > MAX_DOCUMENT_BYTES:  # at least one byte per character
        return None, [_too_large(f"{len(text):,} characters")]
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_DOCUMENT_BYTES:
        return None, [_too_large(f"{size:,} bytes")]
    answer = _read_with_json_module(text, lone_surrogates, max_depth)
    return (
        answer if answer is not None else read_iteratively(text, lone_surrogates=lone_surrogates, max_depth=max_depth)
    )


def read_iteratively(
    text: str, *, lone_surrogates: bool = False, max_depth: int | None = None
) -> tuple[Any, list[Issue]]:
    """The iterative reader alone (no size check): what `parse_json_text` falls back on, and its cross-check."""
    reader = _Reader(text, lone_surrogates, wire_limits().depth if max_depth is None else max_depth)
    try:
        value = reader.read()
    except _Refused as refusal:
        return None, [refusal.issue]
    return value, sorted(reader.issues)


# ---------------------------------------------------------------------------------------------------------------
# Values built in memory


def check_value(value: Any) -> list[Issue]:
    """Issues for a value built in memory that the text API would refuse as the same document, or that no JSON
    text could carry (a set, a tuple, a key that is not a string, a list that contains itself); [] when it is a JSON
    value within the limits. Iterative; a container met again elsewhere (shared, not nested in itself) is measured
    once, and the walk stops as soon as the value is known to be too large, so a value that shares one list a
    billion times over is refused in a few steps."""
    if plainly_json(value, max_nodes=_PLAIN_NODES):
        return []
    walk = _ValueWalk()
    try:
        walk.run(value)
    except _Refused as refusal:
        return [refusal.issue]
    return sorted(walk.issues)


_PLAIN_NODES = 4096
"""`check_value` first tries `plainly_json` on at most this many nodes; a larger value gets the full walk."""


def plainly_json(value: Any, depth: int = 0, max_nodes: int | None = None) -> bool:  # noqa: C901 (one branch per JSON type, iterative on purpose)
    """True for a value made only of dict, list, str, bool, None, finite floats and ints below 2^53 within the depth
    limit, `value` itself being enclosed by `depth` containers of its document: the common case, answered in one
    tight loop. False means "walk it in full" (which then finds the issues, if any): anything else, or more than
    `max_nodes` nodes (a value that contains itself included) when a cap is given. Without a cap the walk still
    ends (no path through the value is longer than the depth limit) after visiting the value as a tree: once per
    node for a value a parser built, more often for one that shares a container in several places."""
    work: list[tuple[Any, int]] = [(value, depth)]
    nodes = characters = 0
    max_depth = wire_limits().depth
    cap = max_nodes if max_nodes is not None else math.inf
    while work:
        item, depth = work.pop()
        nodes += 1
        kind = type(item)
        if kind is str:  # isascii() is O(1): only other strings can hold a surrogate
            characters += len(item)
            if (not item.isascii() and _LONE_SURROGATE.search(item)) or characters > MAX_DOCUMENT_BYTES // 2:
                return False
        elif kind is dict:
            if depth >= max_depth or nodes + len(item) > cap:
                return False
            inner = depth + 1
            for key, member in item.items():
                if type(key) is not str or (not key.isascii() and _LONE_SURROGATE.search(key)):
                    return False
                characters += len(key)
                work.append((member, inner))
        elif kind is list:
            if depth >= max_depth or nodes + len(item) > cap:
                return False
            inner = depth + 1
            work.extend([(member, inner) for member in item])
        elif kind is int:
            if not -_TWO_53 < item < _TWO_53:
                return False
        elif kind is float:
            if not math.isfinite(item):
                return False
        elif item is not None and kind is not bool:
            return False
    return True


class _Open:
    """A container being walked: its members still to visit, and the size measured so far."""

    __slots__ = ("container", "issues_before", "members", "path", "size")

    def __init__(
        self,
        container: list[Any] | dict[Any, Any],
        path: tuple[str | int, ...],
        size: int,
        issues_before: int,
        members: Iterator[tuple[Any, tuple[str | int, ...]]],
    ) -> None:
        self.container = container
        self.path = path
        self.size = size
        self.issues_before = issues_before
        self.members = members


class _ValueWalk:
    def __init__(self) -> None:
        self.issues: list[Issue] = []
        self.spent = 0  # the size measured so far, over the whole value
        self.measured: dict[int, int] = {}  # id of a container walked without an issue -> its size

    def run(self, value: Any) -> None:
        if not isinstance(value, list | dict):
            self._charge(self._scalar(value, ()))
            return
        stack = [self._open(value, ())]
        open_ids = {id(value)}
        max_depth = wire_limits().depth
        while stack:
            top = stack[-1]
            member = next(top.members, None)
            if member is None:
                stack.pop()
                open_ids.discard(id(top.container))
                if len(self.issues) == top.issues_before:
                    self.measured[id(top.container)] = top.size
                if stack:
                    stack[-1].size += top.size
                continue
            item, path = member
            if len(path) > max_depth:
                raise _Refused(_too_deep(max_depth))
            if not isinstance(item, list | dict):
                top.size += self._charge(self._scalar(item, path))
            elif id(item) in open_ids:
                raise _Refused(
                    Issue(
                        "$",
                        WIRE_TOO_DEEP,
                        f"the value contains itself (at {format_path(path)}): it "
                        "is nested infinitely deep, and no JSON text can carry it",
                    )
                )
            elif id(item) in self.measured:
                top.size += self._charge(self.measured[id(item)])
            else:
                stack.append(self._open(item, path))
                open_ids.add(id(item))

    def _open(self, container: list[Any] | dict[Any, Any], path: tuple[str | int, ...]) -> _Open:
        if isinstance(container, list):
            members: Iterator[tuple[Any, tuple[str | int, ...]]] = (
                (item, (*path, index)) for index, item in enumerate(container)
            )
            size = 2 + len(container)
        else:
            members = self._members(container, path)
            size = 2 + len(container) + sum(len(key) + 3 for key in container if isinstance(key, str))
        return _Open(container, path, self._charge(size), len(self.issues), members)

    def _members(
        self, container: dict[Any, Any], path: tuple[str | int, ...]
    ) -> Iterator[tuple[Any, tuple[str | int, ...]]]:
        for key, item in container.items():
            if not isinstance(key, str):
                self._issue(Issue(format_path(path), WIRE_JSON_SYNTAX, f"the key {quote(repr(key))} is not a string"))
            elif _LONE_SURROGATE.search(key):
                self._issue(Issue(format_path(path), WIRE_JSON_SYNTAX, "a member name holds a lone surrogate"))
            else:
                yield item, (*path, key)

    def _charge(self, size: int) -> int:
        self.spent += size
        if self.spent > MAX_DOCUMENT_BYTES:
            raise _Refused(_too_large("larger than that as JSON text"))
        return size

    def _issue(self, issue: Issue) -> None:
        if len(self.issues) < MAX_ISSUES:
            self.issues.append(issue)

    def _scalar(self, item: Any, path: tuple[str | int, ...]) -> int:
        """The size of a scalar, noting the issue it raises, if any."""
        if isinstance(item, str):
            if _LONE_SURROGATE.search(item):
                self._issue(Issue(format_path(path), WIRE_JSON_SYNTAX, "the string holds a lone surrogate"))
            return len(item) + 2
        if isinstance(item, bool) or item is None:
            return 1
        if isinstance(item, int):
            issue = _integer_value_issue(item, path)
            if issue is not None:
                self._issue(issue)
            return 1
        if isinstance(item, float):
            if not math.isfinite(item):
                self._issue(Issue(format_path(path), WIRE_NON_FINITE, f"{item} is not a finite number"))
            return 1
        self._issue(Issue(format_path(path), WIRE_JSON_SYNTAX, f"a {type(item).__name__} is not a JSON value"))
        return 1


def _integer_value_issue(value: int, path: tuple[str | int, ...]) -> Issue | None:
    """The refusal the text API gives the same integer written in decimal, if any; never converts it to text."""
    if -_TWO_53 < value < _TWO_53:
        return None
    limits = wire_limits()
    if abs(value) >= limits.ten_to_integer_digits:
        return Issue(
            format_path(path),
            WIRE_INTEGER_TOO_LONG,
            f"an integer of more than {limits.integer_digits} digits is longer than a reader must accept "
            '(spec/validation.md, "Limits")',
        )
    if not _fits_a_double(value):
        return Issue(
            format_path(path),
            WIRE_NON_FINITE,
            f"an integer of {value.bit_length()} bits is beyond every finite IEEE-754 double; JSON numbers "
            "in this contract must be finite",
        )
    return None

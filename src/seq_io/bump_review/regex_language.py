"""Two JSON Schema `pattern`s (ECMA-262 regular expressions, matched anywhere in the string) → the relation of the
sets of strings they accept (equal, narrowed, widened, changed), with a string in each difference as a witness;
or None when a pattern uses a feature outside the supported subset.

WHY it is shaped this way: whether one regular language contains another is decidable, and greenery (a
well-kept library of finite-state machines over regular expressions) decides it, but it reads its own dialect
and whole-string matches. This module translates the subset of ECMA-262 that schemas use into that dialect,
keeping JSON Schema's meaning: a pattern matches when it matches **somewhere** (so an unanchored side is padded
with "any string"), `^` and `$` (no multiline flag) anchor to the ends, `(?![\\s\\S])` at the end of a branch is
an end anchor, `.` excludes the four ECMA line terminators, `\\d` `\\w` `\\s` are ECMA's (ASCII digits and word
characters; the Unicode white space and line terminators). Anything else (lookarounds elsewhere,
backreferences, word boundaries, flags) is refused with None, and the caller falls back to its witness search.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Literal

from greenery import Charclass, Fsm, parse

Relation = Literal["equal", "narrowed", "widened", "changed"]

_SPACE = (
    "\t\n\u000b\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000\ufeff"
)
_WORD = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_"
_DIGIT = "0123456789"
_LINE_TERMINATORS = "\n\r\u2028\u2029"
_SIMPLE_ESCAPES = {"t": "\t", "n": "\n", "r": "\r", "f": "\f", "v": "\u000b", "0": "\0"}
_CLASS_ESCAPES = {
    "d": (_DIGIT, False),
    "D": (_DIGIT, True),
    "w": (_WORD, False),
    "W": (_WORD, True),
    "s": (_SPACE, False),
    "S": (_SPACE, True),
}
_END_ANCHORS = ("(?![\\s\\S])", "(?![\\S\\s])", "$")


class Unsupported(Exception):
    """A pattern outside the translated subset."""


@dataclass(frozen=True)
class Comparison:
    relation: Relation
    only_old: str | None
    """A string the old pattern accepts and the new one refuses (None: there is none)."""
    only_new: str | None


def _char(char: str) -> str:
    """One character as greenery reads it literally outside a class (it has no escape for ^ and $)."""
    if char in "^$":
        return "[\\^]" if char == "^" else "[$]"
    return "\\" + char if char in "(){}*+?|[]\\." else char


def _set(chars: str, negated: bool) -> str:
    """A class of these characters as greenery reads it (inside a class it escapes only \\ [ ] ^ -)."""
    body = "".join("\\" + c if c in "\\[]^-" else c for c in sorted(set(chars)))
    return f"[{'^' if negated else ''}{body}]"


class _Translator:
    def __init__(self, pattern: str) -> None:
        self.text, self.at = pattern, 0

    def peek(self, size: int = 1) -> str:
        return self.text[self.at : self.at + size]

    def take(self) -> str:
        if self.at >= len(self.text):
            raise Unsupported("the pattern ends in the middle of an escape or a class")
        char = self.text[self.at]
        self.at += 1
        return char

    def escape(self) -> tuple[str, bool, str | None]:
        """After a backslash: (characters, negated, a single literal character or None for a class)."""
        char = self.take()
        if char in _CLASS_ESCAPES:
            chars, negated = _CLASS_ESCAPES[char]
            return chars, negated, None
        if char in _SIMPLE_ESCAPES:
            literal = _SIMPLE_ESCAPES[char]
        elif char in "ux":
            size = 4 if char == "u" else 2
            digits = self.text[self.at : self.at + size]
            if len(digits) != size or any(d not in "0123456789abcdefABCDEF" for d in digits):
                raise Unsupported(f"\\{char} needs {size} hex digits")
            self.at += size
            literal = chr(int(digits, 16))
        elif char.isalnum():
            raise Unsupported(f"the escape \\{char} (a backreference, a boundary or a property)")
        else:
            literal = char
        return literal, False, literal

    def character_class(self) -> str:  # noqa: C901 (the grammar of an ECMA-262 class, read in one pass)
        negated = self.peek() == "^"  # peek is "" at the end, never a member test
        if negated:
            self.at += 1
        chars: set[str] = set()
        complements: list[str] = []
        first = True
        while True:
            char = self.take()
            if char == "]" and not first:
                break
            first = False
            if char == "\\":
                members, inverted, literal = self.escape()
                if literal is None:
                    if inverted:
                        complements.append(members)
                    else:
                        chars |= set(members)
                    continue
                low = literal
            else:
                low = char
            if self.peek() == "-" and self.peek(2) != "-]" and self.text[self.at + 1 : self.at + 2] not in ("", "]"):
                self.at += 1
                high = self.take()
                if high == "\\":
                    _, _, high_literal = self.escape()
                    if high_literal is None:
                        raise Unsupported("a class escape cannot end a range")
                    high = high_literal
                if ord(high) < ord(low):
                    raise Unsupported("a range out of order")
                if ord(high) - ord(low) > 0x3000:
                    raise Unsupported("a range too wide to expand")
                chars |= {chr(code) for code in range(ord(low), ord(high) + 1)}
            else:
                chars.add(low)
        if complements:
            if not negated and len(complements) == 1 and set(complements[0]) <= chars:
                return "."  # like [\s\S]: every character (greenery's . is any character)
            if negated or len(complements) > 1 or chars:
                raise Unsupported("a class mixing a negated escape with other members")
            return _set(complements[0], True)
        if not chars:
            raise Unsupported("an empty class")
        return _set("".join(chars), negated)

    def atom(self) -> str:
        char = self.take()
        if char == "\\":
            members, negated, literal = self.escape()
            return _char(literal) if literal is not None else _set(members, negated)
        if char == "[":
            return self.character_class()
        if char == ".":
            return _set(_LINE_TERMINATORS, True)
        if char == "(":
            if self.peek() == "?":
                if self.peek(2) != "?:":
                    raise Unsupported("a lookaround or a named group")
                self.at += 2
            inner = self.alternation()
            if self.take() != ")":
                raise Unsupported("an unbalanced group")
            return f"({inner})"
        if char in (")", "|", "*", "+", "?", "{"):
            raise Unsupported(f"{char!r} where an atom was expected")
        if char in ("^", "$"):
            raise Unsupported("an anchor inside the pattern")
        return _char(char)

    def quantifier(self) -> str:
        char = self.peek()
        out = ""
        if char in ("*", "+", "?"):
            self.at += 1
            out = char
        elif char == "{":
            end = self.text.find("}", self.at)
            body = self.text[self.at + 1 : end] if end > 0 else ""
            low, _, high = body.partition(",")
            if not low.isdigit() or (high and not high.isdigit()):
                raise Unsupported("a { that is not a quantifier")
            self.at = end + 1
            out = "{" + body + "}"
        if out and self.peek() == "?":
            self.at += 1  # lazy: the same language
        return out

    def sequence(self) -> str:
        parts: list[str] = []
        while self.at < len(self.text) and self.peek() not in ("|", ")"):
            parts.append(self.atom() + self.quantifier())
        return "".join(parts) or "()"

    def alternation(self) -> str:
        branches = [self.sequence()]
        while self.peek() == "|":
            self.at += 1
            branches.append(self.sequence())
        return "|".join(branches)


def _top_branches(pattern: str) -> Iterator[str]:
    """The pattern's top-level alternatives (outside groups and classes)."""
    depth, start, index, in_class = 0, 0, 0, False
    while index < len(pattern):
        char = pattern[index]
        if char == "\\":
            index += 2
            continue
        if in_class:
            in_class = char != "]"
        elif char == "[":
            in_class = True
        elif char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
        elif char == "|" and depth == 0:
            yield pattern[start:index]
            start = index + 1
        index += 1
    yield pattern[start:]


@lru_cache(maxsize=256)
def language(pattern: str) -> Fsm:
    """The set of whole strings that `pattern` matches somewhere in (JSON Schema's meaning), as an FSM;
    Unsupported outside the subset. (No redundant parentheses: greenery's time grows with every group.)"""
    branches: list[str] = []
    for branch in _top_branches(pattern):
        start = branch.startswith("^")
        body = branch[1:] if start else branch
        end = next(
            (anchor for anchor in _END_ANCHORS if body.endswith(anchor) and not body.endswith("\\" + anchor)), None
        )
        body = body[: len(body) - len(end)] if end else body
        translator = _Translator(body)
        inner = translator.alternation()
        if translator.at != len(body):
            raise Unsupported("an unbalanced group")
        if "|" in inner and not (start and end):
            inner = f"({inner})"
        branches.append(("" if start else ".*") + inner + ("" if end else ".*"))
    try:
        return parse("|".join(branches)).to_fsm()
    except Exception as error:  # greenery's own refusal of what the translation produced
        raise Unsupported(f"greenery cannot read the translation: {error}") from None


_PREFERRED = "a0A_-.~ xé"


def _representative(charclass: Charclass) -> str:
    """One character of a class, a readable one when the class has one."""
    ranges = [(chr(low), chr(high)) for low, high in charclass.ord_ranges]

    def inside(char: str) -> bool:
        return any(low <= char <= high for low, high in ranges) is not bool(charclass.negated)

    for char in _PREFERRED:
        if inside(char):
            return char
    if not charclass.negated:
        return ranges[0][0]
    return next(chr(code) for code in range(0x100, 0x110000) if inside(chr(code)))


def _example(fsm: Fsm) -> str | None:
    """The shortest string the FSM accepts, by a breadth-first search over its states (None: it accepts
    nothing). Enumerating strings instead would take time exponential in the witness's length."""
    parents: dict[Any, tuple[Any, str] | None] = {fsm.initial: None}
    queue = deque([fsm.initial])
    while queue:
        state = queue.popleft()
        if state in fsm.finals:
            out: list[str] = []
            step = parents[state]
            while step is not None:
                state, char = step
                out.append(char)
                step = parents[state]
            return "".join(reversed(out))
        for charclass, target in sorted(fsm.map.get(state, {}).items(), key=lambda item: str(item[0])):
            if target not in parents:
                parents[target] = (state, _representative(charclass))
                queue.append(target)
    return None


def compare(old: str, new: str) -> Comparison | None:
    """How the strings `new` accepts relate to those `old` accepts; None when either is unsupported."""
    try:
        old_fsm, new_fsm = language(old), language(new)
    except Unsupported:
        return None
    only_old = _example(old_fsm.difference(new_fsm))
    only_new = _example(new_fsm.difference(old_fsm))
    relation: Relation = (
        "equal"
        if only_old is None and only_new is None
        else "narrowed"
        if only_new is None
        else "widened"
        if only_old is None
        else "changed"
    )
    return Comparison(relation, only_old, only_new)


def accepts(pattern: str, text: str) -> bool | None:
    """Whether `pattern` accepts `text` in JSON Schema's meaning; None when unsupported."""
    try:
        return language(pattern).accepts(text) is True
    except Unsupported:
        return None


def examples(pattern: str) -> list[str]:
    """The shortest string `pattern` accepts and the shortest it refuses (for the witness search)."""
    try:
        fsm = language(pattern)
    except Unsupported:
        return []
    return [text for text in (_example(fsm), _example(fsm.everythingbut())) if text is not None]

"""Text that states comparisons (a rule row of validation.md, a section of a normative document) → the same text
with every comparison word normalised to one symbol → whether two texts say the same thing with other comparison
words, or differ in exactly one comparison (and then whether a requirement got stricter or looser).

WHY normalise: "≤", "at most", "is at most" and "no more than" are one relation (spec/compatibility.md, "Readers,
writers and the two ways a change breaks"); a rewording that keeps every comparison states the same requirement,
and is editorial. WHY only one comparison decides a direction: the review cannot read prose, but a rule row
(a requirement an instance MUST meet) that changes one comparison and nothing else (`min` ≤ `max` → `min` <
`max`; "exactly" → "at most") states the same requirement with a wider or narrower relation, and relations are
ordered: < and = each accept a subset of what ≤ accepts, > and = of ≥. Anything else in the text that changed
leaves the row undecided. The one table of comparison words is `_PHRASES`.
"""

from __future__ import annotations

import difflib
import re
from typing import Literal

Effect = Literal["tightened", "loosened", "changed"]

_IS = r"(?:\bis\s+)?"
"""A copula before a comparison is part of it: "`min` is at most `max`" says `min` ≤ `max`."""
_PHRASES: list[tuple[str, str]] = [
    (_IS + r"(?:≤|<=|\bat most\b|\bno more than\b|\bnot above\b|\bnot more than\b)", "⟦le⟧"),
    (_IS + r"(?:≥|>=|\bat least\b|\bno fewer than\b|\bno less than\b|\bnot below\b|\bnot less than\b)", "⟦ge⟧"),
    (_IS + r"(?:(?<![<>=!])<(?!=)|\bless than\b|\bfewer than\b|\bbelow\b)", "⟦lt⟧"),
    (_IS + r"(?:(?<![<>=!])>(?!=)|\bmore than\b|\bgreater than\b|\babove\b)", "⟦gt⟧"),
    (_IS + r"(?:(?<![<>=!≤≥])=(?!=)|\bexactly\b|\bequal to\b)", "⟦eq⟧"),
]
"""Comparison words and symbols → the relation they state, tried in this order ("no less than" before "less than")."""
_ACCEPTS: dict[str, set[str]] = {
    "lt": {"lt"},
    "le": {"lt", "le", "eq"},
    "eq": {"eq"},
    "ge": {"gt", "ge", "eq"},
    "gt": {"gt"},
}
"""Relation → the relations whose pairs it also accepts (itself included)."""
_TOKEN = re.compile(r"⟦\w+⟧|\w+|[^\w\s]")


def tokens(text: str) -> list[str]:
    """The words and signs of a text, every comparison normalised to one token (`⟦le⟧`, …), spacing ignored."""
    for pattern, symbol in _PHRASES:
        text = re.sub(pattern, f" {symbol} ", text)
    return _TOKEN.findall(text)


def same_statement(old: str, new: str) -> bool:
    """Whether two texts differ only in spacing and in how their comparisons are worded."""
    return tokens(old) == tokens(new)


def relation_change(old: str, new: str) -> tuple[Effect, str, str] | None:
    """(effect, old relation, new relation) when the two texts differ in exactly one comparison; None otherwise."""
    before, after = tokens(old), tokens(new)
    edits = [op for op in difflib.SequenceMatcher(a=before, b=after, autojunk=False).get_opcodes() if op[0] != "equal"]
    if len(edits) != 1 or edits[0][0] != "replace":
        return None
    _, i1, i2, j1, j2 = edits[0]
    if i2 - i1 != 1 or j2 - j1 != 1:
        return None
    was, now = before[i1], after[j1]
    if not (was.startswith("⟦") and now.startswith("⟦")):
        return None
    was, now = was[1:-1], now[1:-1]
    if _ACCEPTS[now] < _ACCEPTS[was]:
        return "tightened", was, now
    if _ACCEPTS[was] < _ACCEPTS[now]:
        return "loosened", was, now
    return "changed", was, now

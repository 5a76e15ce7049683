"""The old and new text of a rule row of validation.md (a requirement an instance MUST meet) → whether the only
difference is one comparison, and then whether the requirement got stricter or looser.

WHY only this: the review cannot read prose, but a row that changes one comparison and nothing else (`min` ≤
`max` → `min` < `max`; "exactly" → "at most") states the same requirement with a wider or narrower relation,
and relations are ordered: < and = each accept a subset of what ≤ accepts, > and = of ≥. Anything else in the
text that changed leaves the row undecided.
"""

from __future__ import annotations

import difflib
import re
from typing import Literal

Effect = Literal["tightened", "loosened", "changed"]

_PHRASES: list[tuple[str, str]] = [
    (r"≤|<=|\bat most\b|\bno more than\b|\bnot above\b|\bnot more than\b", "⟦le⟧"),
    (r"≥|>=|\bat least\b|\bno fewer than\b|\bno less than\b|\bnot below\b|\bnot less than\b", "⟦ge⟧"),
    (r"(?<![<>=!])<(?!=)|\bless than\b|\bfewer than\b|\bbelow\b", "⟦lt⟧"),
    (r"(?<![<>=!])>(?!=)|\bmore than\b|\bgreater than\b|\babove\b", "⟦gt⟧"),
    (r"(?<![<>=!≤≥])=(?!=)|\bexactly\b|\bequal to\b", "⟦eq⟧"),
]
_ACCEPTS: dict[str, set[str]] = {
    "lt": {"lt"},
    "le": {"lt", "le", "eq"},
    "eq": {"eq"},
    "ge": {"gt", "ge", "eq"},
    "gt": {"gt"},
}
"""Relation → the relations whose pairs it also accepts (itself included)."""
_TOKEN = re.compile(r"⟦\w+⟧|\w+|[^\w\s]")


def _tokens(text: str) -> list[str]:
    for pattern, symbol in _PHRASES:
        text = re.sub(pattern, f" {symbol} ", text)
    return _TOKEN.findall(text)


def relation_change(old: str, new: str) -> tuple[Effect, str, str] | None:
    """(effect, old relation, new relation) when the two texts differ in exactly one comparison; None otherwise."""
    before, after = _tokens(old), _tokens(new)
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

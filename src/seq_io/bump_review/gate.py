"""Classified changes + classifier gaps + the two contract versions + the changelog → pass or fail, with
reasons.

The bump a change demands is fixed by spec/compatibility.md ("Version bumps"): while the contract is 0.x a
breaking change needs the minor number to move and any other change to what is accepted needs at least a
patch; from 1.0 on, breaking needs major and compatible needs minor; a change to the generated code (level
`source`, rules `code-…`) needs what a breaking one does. Editorial changes need nothing. The
version that moved must have a `## X.Y.Z` entry in the head's CHANGELOG.md. A classifier gap counts as
breaking in its direction: the gate never passes because the classifier looked away. A head whose own vectors its
own rules contradict fails whatever its bump, and that reason comes first: every other verdict is measured with
those vectors, and a reviewer fixes the contradiction before anything else.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from seq_io.bump_review.backstop import Backstop
from seq_io.bump_review.generated_code import CodeAxis
from seq_io.bump_review.rules import Change
from seq_io.bump_review.snapshot import Snapshot

Bump = Literal["none", "patch", "minor", "major", "downgrade"]
RANK: dict[Bump, int] = {"downgrade": -1, "none": 0, "patch": 1, "minor": 2, "major": 3}


@dataclass
class Verdict:
    base_version: str
    head_version: str
    required: Bump
    actual: Bump
    changelog: str
    passed: bool
    reasons: list[str] = field(default_factory=list)


def _parts(version: str) -> tuple[int, int, int]:
    major, minor, patch = (int(part) for part in version.split("."))
    return major, minor, patch


def actual_bump(base: str, head: str) -> Bump:
    """How far the version moved: the highest position that changed (or `downgrade`)."""
    old, new = _parts(base), _parts(head)
    if new < old:
        return "downgrade"
    if new == old:
        return "none"
    return "major" if new[0] != old[0] else "minor" if new[1] != old[1] else "patch"


def required_bump(base: str, changes: list[Change], gaps: int, source: bool = False) -> Bump:
    """The least bump the changes demand, under the rules for 0.x or for 1.0 and later; `source`: the generated code
    changes, which needs the bump of a breaking change."""
    breaking = gaps > 0 or source or any(c.level in ("breaking", "source") for c in changes)
    compatible = any(c.level == "compatible" for c in changes)
    initial = _parts(base)[0] == 0
    if breaking:
        return "minor" if initial else "major"
    if compatible:
        return "patch" if initial else "minor"
    return "none"


def next_version(base: str, bump: Bump) -> str:
    major, minor, patch = _parts(base)
    return {
        "major": f"{major + 1}.0.0",
        "minor": f"{major}.{minor + 1}.0",
        "patch": f"{major}.{minor}.{patch + 1}",
    }.get(bump, base)


def _contradiction(backstop: Backstop) -> list[str]:
    """The reason the head fails before any bump is weighed: its own vectors and its own rules disagree, so what
    it declares is not what it specifies."""
    found = backstop.contradicting("head")
    if not found:
        return []
    more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
    return [f"the head contradicts its own vectors: {len(found)} case(s), first {found[0]}{more}"]


def judge(
    base: Snapshot,
    head: Snapshot,
    changes: list[Change],
    backstop: Backstop,
    head_limits: list[str] | None = None,
    code: CodeAxis | None = None,
) -> Verdict:
    """Whether the version and the changelog moved as far as the changes (and the generated code's changes, `code`)
    demand, and the head's contract.json agrees with its schemas."""
    breaking = bool(backstop.gaps) or any(c.level == "breaking" for c in changes)
    source = bool(code and code.changes)
    required = required_bump(base.version, changes, len(backstop.gaps), source)
    actual = actual_bump(base.version, head.version)
    reasons = _contradiction(backstop)
    if actual == "downgrade":
        reasons.append(f"the contract version went down, {base.version} → {head.version}")
    elif RANK[actual] < RANK[required]:
        reasons.append(
            f"{'breaking' if breaking else 'generated-code' if source else 'compatible'} changes need a {required} "
            "bump (at least "
            f"{next_version(base.version, required)}); the contract moved {base.version} → "
            f"{head.version} ({actual})"
        )
    versions = head.changelog_versions()
    changelog = (
        "no CHANGELOG.md"
        if head.changelog is None
        else f"entry for {head.version} present"
        if head.version in versions
        else f"no entry for {head.version}"
    )
    if actual not in ("none", "downgrade") and head.version not in versions:
        reasons.append(f"the version moved to {head.version} but the changelog has no entry for it ({changelog})")
    if head_limits:
        reasons.append(
            f"the head's contract.json and schemas disagree on {len(head_limits)} limit(s): "
            f"{head_limits[0]}" + (f" (and {len(head_limits) - 1} more)" if len(head_limits) > 1 else "")
        )
    if backstop.gaps:
        reasons.append(
            f"{len(backstop.gaps)} refusal(s) shown by the vectors are explained by no classified "
            "change (classifier gaps); each counts as breaking"
        )
    return Verdict(base.version, head.version, required, actual, changelog, not reasons, reasons)

"""Two run reports of one implementation (old, new) → the cases whose verdict moved, by case id → Markdown, and
whether anything newly fails (the exit code).

WHY by case id and by outcome rather than by counts: two runs with equal counts can still have swapped a passing
case for a failing one; an implementer wants the ids that moved, and a CI job wants to fail only on what got
worse (newly failing), while an expected failure that now passes is news to act on (shrink the list), not a
regression.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from seq_io.report.load import Run


@dataclass
class Changes:
    newly_failing: list[tuple[dict[str, Any], dict[str, Any] | None]] = field(default_factory=list)
    newly_passing: list[tuple[dict[str, Any], dict[str, Any]]] = field(default_factory=list)
    now_passing_expected: list[dict[str, Any]] = field(default_factory=list)
    removed: list[dict[str, Any]] = field(default_factory=list)


def changes(old: Run, new: Run) -> Changes:
    """Newly failing (not acceptable now, acceptable or absent before), newly passing (passes now, did not
    before, and is not listed), expected failures that now pass (outcome xpass), cases no longer run."""
    before = {str(c["id"]): c for c in old.cases}
    after = {str(c["id"]) for c in new.cases}
    out = Changes()
    for case in new.cases:
        previous = before.get(str(case["id"]))
        if case["outcome"] == "xpass":
            out.now_passing_expected.append(case)
        elif not case["ok"] and (previous is None or previous["ok"]):
            out.newly_failing.append((case, previous))
        elif case["outcome"] == "pass" and previous is not None and previous["outcome"] not in ("pass", "xpass"):
            out.newly_passing.append((case, previous))
    out.removed = [c for c in old.cases if str(c["id"]) not in after]
    return out


def _line(text: Any) -> str:
    first = str(text or "").strip().splitlines()
    one = first[0] if first else ""
    return (one[:200] + "…" if len(one) > 200 else one).replace("|", "\\|")


def _who(run: Run) -> str:
    return f"{run.name} {run.version}, contract {run.contract_version} (`{run.path}`)"


def markdown(old: Run, new: Run, found: Changes) -> str:
    lines = ["# Conformance report comparison", "", f"- old: {_who(old)}", f"- new: {_who(new)}"]
    if old.name != new.name:
        lines.append(f"- note: the two reports are of different implementations ({old.name}, {new.name})")
    lines += ["", "| | old | new |", "|---|---|---|"]
    for label, key in (("passed", "passed"), ("failed", "fail"), ("expected failures", "xfail"), ("cases", "cases")):
        lines.append(f"| {label} | {getattr(old.totals, key)} | {getattr(new.totals, key)} |")
    sections = (
        (
            "Newly failing",
            [
                f"- `{c['id']}` ({c['group']}): {c['outcome']}"
                + (f", was {p['outcome']}" if p else ", a case the old report did not hold")
                + (f": {_line(c.get('detail'))}" if c.get("detail") else "")
                for c, p in found.newly_failing
            ],
        ),
        ("Newly passing", [f"- `{c['id']}` ({c['group']}): was {p['outcome']}" for c, p in found.newly_passing]),
        (
            "Expected failures that now pass (remove them from the list)",
            [
                f"- `{c['id']}` ({c['group']})"
                + (f": listed as {_line(c['expected_failure'].get('reason'))}" if c.get("expected_failure") else "")
                for c in found.now_passing_expected
            ],
        ),
        ("No longer run", [f"- `{c['id']}` ({c['group']}): was {c['outcome']}" for c in found.removed]),
    )
    for title, items in sections:
        lines += ["", f"## {title} ({len(items)})", ""]
        lines += items or ["none"]
    return "\n".join(lines) + "\n"

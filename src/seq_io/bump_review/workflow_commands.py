"""Findings (`findings.items`) → GitHub Actions workflow commands, one line each
(`::error file=spec/schemas/Camera.json,line=12,title=…::message`), so that a pull request shows every finding
on the line of the schema member or document section it is about.

WHY it is shaped this way: the escaping is GitHub's and shared with `iospec run` (seq_io.workflow_commands). The
gate's verdict comes last, as an annotation of its own (an error when it refuses). Editorial findings are left out:
nothing accepted changes, and a new document would otherwise bury the findings that matter under one notice per
section (they stay in the report and the SARIF log).
"""

from __future__ import annotations

from seq_io.bump_review.findings import TOOL, Item, items
from seq_io.bump_review.review import Review
from seq_io.workflow_commands import command

_COMMAND = {"error": "error", "warning": "warning", "note": "notice"}


def _line(item: Item) -> str:
    return command(
        _COMMAND[item.level],
        f"{item.message} [fingerprint {item.fingerprint}]",
        file=item.place.file if item.place else None,
        line=item.place.line if item.place else None,
        title=item.title,
    )


def render(r: Review) -> str:
    """Every finding as a workflow command, then the gate's verdict; one command a line."""
    lines = [_line(item) for item in items(r) if not item.editorial]
    v = r.verdict
    verdict = (
        f"Gate {'PASS' if v.passed else 'FAIL'}: required bump {v.required}, actual {v.actual} "
        f"({v.base_version} → {v.head_version})" + "".join(f"; {reason}" for reason in v.reasons)
    )
    lines.append(command("notice" if v.passed else "error", verdict, title=f"{TOOL}: gate"))
    return "\n".join(lines) + "\n"

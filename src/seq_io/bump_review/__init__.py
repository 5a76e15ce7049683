"""Contract-version bump review: two versions of spec/ → classified changes, data backstop, behaviour diff,
gate.

`snapshot` reads a version (folder or git ref), `schema_diff` finds and classifies the changes with the rules
of `rules` (stated in spec/compatibility.md), `backstop` crosses the valid vectors of each version with the
other, `behaviour` lists the cases whose expected result moved, `gate` checks the version bump and the
changelog, `report` writes Markdown and JSON, and `cli` is the `iospec bump-review` command (`register`,
`main`).
"""

from seq_io.bump_review.cli import main, register

__all__ = ["main", "register"]

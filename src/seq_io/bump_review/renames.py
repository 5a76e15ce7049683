"""Two snapshots → the base as the head names its types: a schema whose `$id` both versions carry under another
`title` is one type renamed, so the wire comparison sees one type (spec/compatibility.md, "Locations").

Why here and not in the comparison itself: every step of the comparison (the walk, the rule tables, the
fingerprints) finds a type by its title. Renaming the type once, in a copy of the base that only the wire
comparison reads, keeps all of them unchanged; the rename itself is the generated-code axis's finding
(`code-renamed`), which pairs types by file on its own. The data backstop and the behaviour diff read the base as it
is on disk (a vector names its type by the title of its version).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from seq_io.bump_review.snapshot import Snapshot


def renamed_types(base: Snapshot, head: Snapshot) -> dict[str, str]:
    """Base title → head title, for every schema whose `$id` both carry under titles the other side lacks."""
    head_titles = {str(schema.get("$id")): title for title, schema in head.spec.schemas.items()}
    pairs: dict[str, str] = {}
    for title, schema in base.spec.schemas.items():
        other = head_titles.get(str(schema.get("$id")))
        if other is not None and other != title and title not in head.spec.schemas and other not in base.spec.schemas:
            pairs[title] = other
    return pairs


def as_head_names(base: Snapshot, head: Snapshot) -> Snapshot:
    """The base with each renamed type under its head title (its schema's `title` too, and the rows of its rule
    tables whose ids start with the old title), and a note naming each rename; the base itself when none."""
    pairs = renamed_types(base, head)
    if not pairs:
        return base
    schemas: dict[str, dict[str, Any]] = {}
    for title, schema in base.spec.schemas.items():
        new = pairs.get(title, title)
        schemas[new] = {**schema, "title": new} if new != title else schema
    tables = {
        name: {_renamed_row(row, pairs): text for row, text in rows.items()} for name, rows in base.tables.items()
    }
    notes = tuple(
        f"type `{old}` is titled `{new}` in {head.label} (the same `$id`): compared as one type; the rename is a "
        "generated-code change"
        for old, new in sorted(pairs.items())
    )
    spec = dataclasses.replace(base.spec, schemas=schemas)
    return dataclasses.replace(base, spec=spec, tables=tables, notes=(*base.notes, *notes))


def _renamed_row(row: str, pairs: dict[str, str]) -> str:
    title, dot, rest = row.partition(".")
    return f"{pairs[title]}.{rest}" if dot and title in pairs else row

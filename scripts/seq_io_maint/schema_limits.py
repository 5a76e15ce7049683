"""spec/contract.json's `limits` → every schema bound annotated `x-limits` set to its limit → spec/schemas/*.json
rewritten (`generate`), or compared byte for byte (`check`).

WHY: a limit lives in one place, contract.json (spec/validation.md, "Limits"). A schema keyword that carries one
(`maxProperties` of `streams` = MAX_STREAMS, `maxItems` of a window = MAX_WINDOW, ±MAX_SAFE_INTEGER on every
integer and offset) names it in an `x-limits` annotation, `{"<keyword>": "<LIMIT>"}` or `"-<LIMIT>"` for its
negative, and this module writes the number from contract.json into the keyword; `make check` fails when a schema
and contract.json disagree. The schema files keep their own format (2-space JSON, UTF-8, a final newline), so
generating an unchanged file rewrites the same bytes.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from seq_io import locate
from seq_io.reference.x_limits import ANNOTATION, LimitError, annotated, limit_value

CHECKOUT = locate.checkout_root() or locate.data_root()
"""Generating the schemas' limits is a maintainer's job in a checkout (an editable install)."""
SPEC = CHECKOUT / "spec"


def render(schema_text: str, limits: dict[str, Any], where: str) -> str:
    """A schema file's text with every annotated keyword set from `limits`."""
    schema = json.loads(schema_text)
    for node in annotated(schema):
        for keyword, name in node[ANNOTATION].items():
            if keyword not in node:
                raise LimitError(f"{where}: x-limits annotates {keyword!r}, which this subschema does not hold")
            node[keyword] = limit_value(str(name), limits)
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"


def drift(spec: Path = SPEC) -> dict[Path, str]:
    """Schema file → its text as generated, for each file whose text differs from it."""
    limits = json.loads((spec / "contract.json").read_text(encoding="utf-8"))["limits"]
    changed = {}
    for path in sorted((spec / "schemas").glob("*.json")):
        text = path.read_text(encoding="utf-8")
        generated = render(text, limits, path.name)
        if generated != text:
            changed[path] = generated
    return changed


def main(argv: list[str]) -> int:
    command = argv[1:]
    if command not in (["generate"], ["check"]):
        print("usage: python -m seq_io_maint.schema_limits generate|check", file=sys.stderr)
        return 2
    if locate.checkout_root() is None:
        print(
            "schema_limits: the schemas are generated in a checkout (an editable install), not from an installed "
            "package",
            file=sys.stderr,
        )
        return 2
    try:
        changed = drift()
    except (LimitError, ValueError, OSError) as error:
        print(f"schema_limits: {error}", file=sys.stderr)
        return 2
    if command == ["generate"]:
        for path, text in changed.items():
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path.relative_to(CHECKOUT)}")
        return 0
    for path in changed:
        print(
            f"{path.relative_to(CHECKOUT)}: a bound annotated x-limits differs from spec/contract.json: run "
            "`python -m seq_io_maint.schema_limits generate` and review the diff"
        )
    if not changed:
        print("every x-limits bound of spec/schemas/ equals spec/contract.json")
    return 1 if changed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

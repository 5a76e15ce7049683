"""The spec folder as data: path of `spec/` → parsed `contract.json` and the JSON Schemas by type name.

Every other module reads the contract version, the limits and the schemas through here, so each of them lives in
exactly one file of `spec/`. The folder can be overridden (`SEQ_IO_SPEC_ROOT`, or an explicit argument) so that
tools such as the bump review can load two versions of the spec side by side.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[2]
"""The repository checkout this package was installed from (editable installs only)."""


def default_spec_root() -> Path:
    """The `spec/` folder in force: `$SEQ_IO_SPEC_ROOT` when set, else the repository's own."""
    override = os.environ.get("SEQ_IO_SPEC_ROOT")
    return Path(override) if override else REPO_ROOT / "spec"


@dataclass(frozen=True)
class SpecData:
    """One version of the spec: its contract constants and its schemas keyed by title."""

    root: Path
    contract: dict[str, Any]
    schemas: dict[str, dict[str, Any]]

    @property
    def contract_version(self) -> str:
        return str(self.contract["contract_version"])

    @property
    def limits(self) -> dict[str, int | float]:
        return dict(self.contract["limits"])

    @property
    def type_names(self) -> list[str]:
        return sorted(self.schemas)


class SpecError(Exception):
    """A spec folder that cannot be read: names the file, the line and what is wrong."""


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as error:
        raise SpecError(f"{path}:{error.lineno}: not valid JSON: {error.msg} (column {error.colno})") from None
    except (OSError, UnicodeDecodeError) as error:
        raise SpecError(f"{path}: cannot read: {error}") from None


def _check_schema(path: Path, schema: Any) -> None:
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import SchemaError

    if not isinstance(schema, dict) or "$id" not in schema or "title" not in schema:
        raise SpecError(f"{path}: a schema file must be a JSON object with `$id` and `title`")
    try:
        Draft202012Validator.check_schema(schema)
    except SchemaError as error:
        where = "/".join(str(p) for p in error.absolute_path) or "(root)"
        raise SpecError(f"{path}: not a valid 2020-12 schema at {where}: {error.message}") from None


@cache
def load_spec(root: Path | None = None) -> SpecData:
    """Read `contract.json` and every `schemas/*.json` of a spec folder (cached per folder); SpecError if broken."""
    spec_root = (root or default_spec_root()).resolve()
    schemas = {}
    for path in sorted((spec_root / "schemas").glob("*.json")):
        schema = _read_json(path)
        _check_schema(path, schema)
        schemas[str(schema["title"])] = schema
    return SpecData(root=spec_root, contract=_read_json(spec_root / "contract.json"), schemas=schemas)

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


def _read_json(path: Path) -> Any:
    with path.open(encoding="utf-8") as handle:
        return json.load(handle)


@cache
def load_spec(root: Path | None = None) -> SpecData:
    """Read `contract.json` and every `schemas/*.json` of a spec folder (cached per folder)."""
    spec_root = (root or default_spec_root()).resolve()
    schemas = {}
    for path in sorted((spec_root / "schemas").glob("*.json")):
        schema = _read_json(path)
        schemas[str(schema.get("title", path.stem))] = schema
    return SpecData(root=spec_root, contract=_read_json(spec_root / "contract.json"), schemas=schemas)

"""The spec folder as data: path of `spec/` → parsed `contract.json` and the JSON Schemas by type name.

Every other module reads the contract version, the limits and the schemas through here, so each of them lives in
exactly one file of `spec/`. The package's own spec is found by `seq_io_spec` (the installed data, or the
checkout's in an editable install); `SEQ_IO_SPEC_ROOT` or an explicit argument names another folder, so that
tools such as the bump review can load two versions of the spec side by side. A folder that is not a spec is a
`SpecError` naming it, never a traceback. The robot uploader's constants (`uploader.json`) are read here too, by
`load_uploader_constants`, for the same reason.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from seq_io import locate

SPEC_ROOT_ENV = "SEQ_IO_SPEC_ROOT"


def own_spec_root() -> Path:
    """The package's own `spec/` folder, whatever `SEQ_IO_SPEC_ROOT` says; SpecError when its data is missing."""
    problem = locate.data_problem()
    if problem is not None:
        raise SpecError(problem)
    return locate.spec_root()


def default_spec_root() -> Path:
    """The `spec/` folder in force: `$SEQ_IO_SPEC_ROOT` when set (and not empty), else the package's own."""
    override = os.environ.get(SPEC_ROOT_ENV, "")
    if not override:
        return own_spec_root()
    root = Path(override)
    if not root.is_dir():
        raise SpecError(f"{SPEC_ROOT_ENV}={override}: no such folder (unset it to use the package's own spec)")
    if not (root / "contract.json").is_file():
        raise SpecError(f"{SPEC_ROOT_ENV}={override}: not a spec folder, it has no contract.json")
    return root


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
    if _meta_valid(schema):
        return
    try:
        Draft202012Validator.check_schema(schema)
    except SchemaError as error:
        where = "/".join(str(p) for p in error.absolute_path) or "(root)"
        raise SpecError(f"{path}: not a valid 2020-12 schema at {where}: {error.message}") from None


def _meta_valid(schema: dict[str, Any]) -> bool:
    """jsonschema-rs's answer to "is this a valid 2020-12 schema?" (the fast path, docs/dependencies.md: about 300
    times faster, which every command's start-up pays), or False where it is not installed; a "no" is always
    explained, and decided, by jsonschema."""
    try:
        import jsonschema_rs
    except ImportError:
        return False
    return bool(jsonschema_rs.meta.is_valid(schema))


@cache
def load_spec(root: Path | None = None) -> SpecData:
    """Read `contract.json` and every `schemas/*.json` of a spec folder (cached per folder); SpecError if broken."""
    spec_root = (root or default_spec_root()).resolve()
    if not (spec_root / "contract.json").is_file() or not (spec_root / "schemas").is_dir():
        raise SpecError(f"{spec_root}: not a spec folder (a spec folder holds contract.json and schemas/)")
    schemas = {}
    for path in sorted((spec_root / "schemas").glob("*.json")):
        schema = _read_json(path)
        _check_schema(path, schema)
        schemas[str(schema["title"])] = schema
    contract = _read_json(spec_root / "contract.json")
    if not isinstance(contract, dict) or not isinstance(contract.get("contract_version"), str):
        raise SpecError(f"{spec_root / 'contract.json'}: not a contract file (no `contract_version` string in it)")
    return SpecData(root=spec_root, contract=contract, schemas=schemas)


@dataclass(frozen=True)
class UploaderConstants:
    """The robot uploader's own constants (spec/uploader.json, decided in spec/uploader.md § 10)."""

    attempts: int
    """UPLOAD_ATTEMPTS: the sendings of one post's body, the first included (UPL-RETRY)."""
    first_backoff_s: float
    """UPLOAD_FIRST_BACKOFF_S: b_1, the earliest the first retry may leave (UPL-RETRY-BACKOFF)."""
    backoff_factor: float
    """UPLOAD_BACKOFF_FACTOR: b_k = b_1 · factor^(k-1)."""
    backoff_spread: float
    """UPLOAD_BACKOFF_SPREAD: the k-th retry leaves at most spread · b_k after attempt k ended."""
    max_post_depth: int
    """MAX_POST_DEPTH: the largest own depth of a frame's inputs a post may carry (UPL-DEPTH)."""


def _uploader_constant(path: Path, data: Any, name: str, whole: bool) -> Any:
    """One constant of uploader.json: a positive number (an integer when `whole`), else a SpecError naming it."""
    value: Any = data.get(name) if isinstance(data, dict) else None
    number = isinstance(value, int | float) and not isinstance(value, bool) and (isinstance(value, int) or not whole)
    if not (number and value > 0):
        raise SpecError(f"{path}: `{name}` must be a positive {'integer' if whole else 'number'}; got {value!r}")
    return value


@cache
def load_uploader_constants(root: Path | None = None) -> UploaderConstants:
    """Read `uploader.json` of a spec folder (cached per folder); SpecError when it is missing, broken or lacks a
    constant."""
    path = (root or default_spec_root()).resolve() / "uploader.json"
    if not path.is_file():
        raise SpecError(f"{path}: missing (the uploader's constants, spec/uploader.md)")
    data = _read_json(path)
    return UploaderConstants(
        attempts=_uploader_constant(path, data, "UPLOAD_ATTEMPTS", whole=True),
        first_backoff_s=float(_uploader_constant(path, data, "UPLOAD_FIRST_BACKOFF_S", whole=False)),
        backoff_factor=float(_uploader_constant(path, data, "UPLOAD_BACKOFF_FACTOR", whole=False)),
        backoff_spread=float(_uploader_constant(path, data, "UPLOAD_BACKOFF_SPREAD", whole=False)),
        max_post_depth=_uploader_constant(path, data, "MAX_POST_DEPTH", whole=True),
    )

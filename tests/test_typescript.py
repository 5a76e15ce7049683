"""The TypeScript binding (generated/ts/) against the schemas and against the JavaScript code that uses it.

- Drift: generated/ts is exactly what the pinned generator makes of the schemas today, and the check can fire.
- Not stricter than the schemas: every valid vector's normalized instance, written as a TypeScript literal of its
  type, compiles under `tsc --strict`.
- Looser, exactly as listed: every invalid vector written the same way either fails to compile or breaks a rule in
  LOOSER_BY_DESIGN (the table spec/validation.md repeats), and every entry of the table is still needed. Wire rules
  apply to JSON text, which a typed value no longer is, so those cases are left out here.
- Real use: a copy of the JavaScript implementation, type-checked (`tsc --checkJs`) against types generated from a
  mutated copy of the schemas, fails where the code reads the member the mutation took away, and the same copy
  passes against the unmutated types.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

import suite_cache
from seq_io.reference.beyond_schema import BEYOND_SCHEMA_RULES
from seq_io.reference.validation import contract
from seq_io.reference.validation_cases import instance_text

pytestmark = pytest.mark.node

REPO_ROOT = Path(__file__).resolve().parents[1]
"""The checkout these tests run in."""
JS = REPO_ROOT / "implementations" / "js"
TSGEN = REPO_ROOT / "scripts" / "typescript"
"""The maintainers' TypeScript generator, with its own pinned quicktype-core and typescript."""
TSC = TSGEN / "node_modules" / ".bin" / "tsc"
TIMEOUT_S = 120

LOOSER_BY_DESIGN: dict[str, str] = {
    "type": "TypeScript has one `number`: an integer field takes 2.5",
    "minimum": "number bounds are not types",
    "maximum": "number bounds are not types",
    "exclusiveMinimum": "number bounds are not types",
    "minLength": "string lengths are not types",
    "maxLength": "string lengths are not types",
    "pattern": "patterns are not types (names, dates, secret references, family names)",
    "maxItems": "a list's largest size is not a type (bounds pairs become [number, number, ...number[]])",
    "uniqueItems": "distinct items are not a type",
    "maxProperties": "the count of members is not a type",
    "enum": "SeqFlags is typed `number`; the keys `propertyNames` limits (proprio, state) are any string",
    "Stream.at-xor-every": "`not` is dropped",
    "Camera.quality-needs-jpeg": "`if`/`then` is dropped",
    "Observations.stream-key": "the whitespace patterns under `not` are dropped",
    "Observations.streams-xor-every": "`not` is dropped",
    "Observations.whole-steps": "`if`/`else` is dropped",
    "DeploymentPolicy.streaming-vs-episodes": "`not` is dropped",
    "DeploymentPolicy.own-io-excludes-robot-arm": "`if`/`then` is dropped",
    "DeploymentPolicy.model-name": "`not` patterns are dropped",
    "InferParam.bounds-need-numeric-type": "`if`/`then` is dropped",
    "StreamError.reason-fixes-code": "`if`/`then` is dropped",
    "StreamError.reason-details": "`if`/`then` is dropped",
    **dict.fromkeys(BEYOND_SCHEMA_RULES, "a rule beyond the schema (no generated type can say it)"),
}
"""Rule id of an invalid vector → why its instance still compiles as its TypeScript type."""

FILES, _ = suite_cache.suite()
CASES = [(f.doc["type"], c) for f in FILES if f.kind == "validation" for c in f.cases]


def _tsc(*args: str, cwd: Path = TSGEN) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(TSC), *args], cwd=cwd, capture_output=True, text=True, timeout=TIMEOUT_S, check=False)


def _generate(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["node", "generate-types.js", *args], cwd=TSGEN, capture_output=True, text=True, timeout=TIMEOUT_S, check=False
    )


def _literals(cases: list[tuple[str, Any, str]], types: Path) -> tuple[str, dict[int, str]]:
    """One TypeScript module with one typed constant per case, and the line of each constant → its case id."""
    lines = [f'import type {{ ContractTypes }} from "{types.as_posix()}";']
    where: dict[int, str] = {}
    for type_name, value, case_id in cases:
        where[len(lines) + 1] = case_id
        literal = json.dumps(value)  # ASCII: a raw U+2028 would start a new line for tsc
        lines.append(f'export const c{len(lines)}: NonNullable<ContractTypes["{type_name}"]> = {literal};')
    return "\n".join(lines) + "\n", where


def _refused_lines(module: str, folder: Path) -> set[int]:
    (folder / "cases.ts").write_text(module, encoding="utf-8")
    done = _tsc(
        "--ignoreConfig",
        "--strict",
        "--noEmit",
        "--target",
        "es2022",
        "--module",
        "nodenext",
        "--moduleResolution",
        "nodenext",
        "cases.ts",
        cwd=folder,
    )
    errors = [line for line in done.stdout.splitlines() if "error TS" in line]
    assert errors or done.returncode == 0, done.stdout[-2000:]
    assert all(line.startswith("cases.ts(") for line in errors), done.stdout[-2000:]
    return {int(re.search(r"\((\d+),\d+\)", line).group(1)) for line in errors}  # type: ignore[union-attr]


def test_the_generated_types_have_not_drifted_and_the_check_can_fire(tmp_path: Path) -> None:
    assert _generate("--check").returncode == 0, "run `make generate`"
    shutil.copytree(REPO_ROOT / "generated" / "ts", tmp_path / "ts")
    (tmp_path / "ts" / "protocol.d.ts").write_text("// edited by hand\n", encoding="utf-8")
    stale = _generate("--check", "--out", str(tmp_path / "ts"))
    assert stale.returncode == 1 and "protocol.d.ts differs" in stale.stdout


def test_the_generated_types_compile_under_strict() -> None:
    done = _tsc(
        "--ignoreConfig", "--strict", "--noEmit", "../../generated/ts/contract.d.ts", "../../generated/ts/protocol.d.ts"
    )
    assert done.returncode == 0, done.stdout


def test_every_valid_instance_compiles_as_its_type(tmp_path: Path) -> None:
    the_contract = contract()
    valid = [
        (t, the_contract.validate_text(t, instance_text(c.data)).normalized, c.id) for t, c in CASES if c.data["valid"]
    ]
    module, where = _literals(valid, REPO_ROOT / "generated" / "ts" / "contract.js")
    refused = sorted(where[line] for line in _refused_lines(module, tmp_path))
    assert not refused, f"the TypeScript types are stricter than the schemas for: {refused}"


def test_the_table_of_looseness_is_exact(tmp_path: Path) -> None:
    invalid = [(t, c) for t, c in CASES if not c.data["valid"] and not c.data["error"]["rule"].startswith("wire.")]
    typed = [(t, json.loads(instance_text(c.data)), c.id) for t, c in invalid]
    module, where = _literals(typed, REPO_ROOT / "generated" / "ts" / "contract.js")
    refused_ids = {where[line] for line in _refused_lines(module, tmp_path)}
    missed: dict[str, list[str]] = {}
    for _, case in invalid:
        if case.id not in refused_ids:
            missed.setdefault(case.data["error"]["rule"], []).append(case.id)
    unexpected = {rule: ids for rule, ids in missed.items() if rule not in LOOSER_BY_DESIGN}
    assert not unexpected, f"the TypeScript types also let these through; add them with a reason: {unexpected}"
    stale = sorted(set(LOOSER_BY_DESIGN) - set(missed))
    assert not stale, f"the TypeScript types now catch these; remove them from the table: {stale}"


def _js_copy_checked_against(schemas: Path, root: Path) -> subprocess.CompletedProcess[str]:
    """implementations/js and generated/ts laid out as in the checkout under `root`, the types made from `schemas`."""
    js = root / "implementations" / "js"
    js.mkdir(parents=True)
    for name in ("src", "scripts", "test"):
        shutil.copytree(JS / name, js / name)
    for name in ("tsconfig.json", "package.json"):
        shutil.copy(JS / name, js / name)
    (js / "node_modules").symlink_to(JS / "node_modules")
    made = _generate("--schemas", str(schemas), "--out", str(root / "generated" / "ts"))
    assert made.returncode == 0, made.stderr
    return _tsc("-p", str(js), cwd=js)


def _mutated(tmp_path: Path, type_name: str, change: Any) -> Path:
    folder = tmp_path / "schemas"
    shutil.copytree(REPO_ROOT / "spec" / "schemas", folder)
    path = folder / f"{type_name}.json"
    schema = json.loads(path.read_text(encoding="utf-8"))
    change(schema)
    path.write_text(json.dumps(schema, indent=2), encoding="utf-8")
    return folder


def _rename(member: str, new: str) -> Any:
    def change(schema: dict[str, Any]) -> None:
        schema["properties"] = {new if k == member else k: v for k, v in schema["properties"].items()}

    return change


def test_the_javascript_code_type_checks_against_unmutated_types(tmp_path: Path) -> None:
    done = _js_copy_checked_against(REPO_ROOT / "spec" / "schemas", tmp_path)
    assert done.returncode == 0, done.stdout


@pytest.mark.parametrize(
    ("type_name", "member", "used_in"),
    [
        ("Stream", "at", "src/schedule.js"),
        ("Actions", "open_loop_horizon", "src/rows_of.js"),
        ("InferParam", "choices", "src/validation.js"),
    ],
)
def test_a_schema_change_that_breaks_the_javascript_code_fails_tsc(
    tmp_path: Path, type_name: str, member: str, used_in: str
) -> None:
    schemas = _mutated(tmp_path, type_name, _rename(member, member + "_renamed"))
    done = _js_copy_checked_against(schemas, tmp_path / "tree")
    assert done.returncode != 0
    assert any(line.startswith(used_in) and f"'{member}'" in line for line in done.stdout.splitlines()), done.stdout

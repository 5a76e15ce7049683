"""Mutation score of the JSON Schemas against the validation vectors alone: spec/schemas/*.json → mechanical mutants
(one change each, seq_io_maint.schema_mutants) → each mutant's spec folder judged by the validation vectors through
the reference testee's answer and the runner's comparison → killed, or listed as equivalent with a reason.

`make mutation-schemas` runs this. A mutant is a copy of the spec folder with one schema file changed; a Contract
built on that folder validates each vector's instance and the runner's own comparison (runner.compare, the
validation entry of runner.kinds) judges the answer, exactly as `iospec run` would judge a testee built on those
schemas. A mutant is killed when one vector fails; a survivor is either listed, with the reason no vector can tell
it apart, in scripts/equivalents/schemas.json, or the run fails. The run also fails when a listed mutant
is killed or no longer exists (the list stays exact), or when fewer than 95 % of all mutants are killed.

WHY only some vectors judge a mutant: a type's verdicts depend only on the schema files its `$ref`s reach, so a
mutant of Camera.json is judged by the vectors of the types that reach Camera.json (Camera, Stream, Observations,
…) and no other vector can fail on it; a mutant stops at its first failing vector. Mutants are judged in parallel
(2 worker processes by default, the machines have 2 cores). The generated models are not applied (they type only
the repository's own schemas), as `validation.contract` decides for any other spec folder.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import multiprocessing
import shutil
import sys
import time
from collections import Counter
from dataclasses import dataclass
from fnmatch import fnmatchcase
from pathlib import Path
from typing import Any

from seq_io.reference.cases import judge_validation
from seq_io.reference.spec_data import SpecData, SpecError
from seq_io.reference.validation import Contract
from seq_io.vectors import Case, load_suite
from seq_io_maint.schema_mutants import OPERATORS, Mutant, mutants

ROOT = Path(__file__).resolve().parents[1]
SPEC = ROOT / "spec"
STAGE = ROOT / "build" / "mutation-schemas"
EQUIVALENTS = ROOT / "scripts" / "equivalents" / "schemas.json"
TARGET_ALL = 0.95
"""Share of all mutants the vectors must kill; every mutant that is not listed as equivalent must be killed."""

TypedCase = tuple[str, Case]
_CASES: dict[str, list[TypedCase]] = {}
"""Validation cases by the schema file whose change can affect them (filled before the workers start)."""


@dataclass(frozen=True)
class Judged:
    id: str
    operator: str
    killed_by: str
    """The id of the first vector that failed on the mutant, "" when none did."""
    detail: str


def _refs(node: Any) -> set[str]:
    if isinstance(node, dict):
        found = {node["$ref"].split("#", 1)[0]} if isinstance(node.get("$ref"), str) else set()
        return found.union(*(_refs(value) for value in node.values()))
    if isinstance(node, list):
        return set().union(*(_refs(value) for value in node))
    return set()


def _reach(schemas: dict[str, dict[str, Any]]) -> dict[str, set[str]]:
    """File → the files its `$ref`s reach, itself included."""
    edges = {file: _refs(schema) & set(schemas) for file, schema in schemas.items()}
    reach = {}
    for file in schemas:
        seen, todo = {file}, [file]
        while todo:
            for target in edges[todo.pop()] - seen:
                seen.add(target)
                todo.append(target)
        reach[file] = seen
    return reach


def _cases_by_file(schemas: dict[str, dict[str, Any]]) -> dict[str, list[TypedCase]]:
    files, problems = load_suite()
    if problems:
        raise SystemExit("mutation-schemas: the vector files do not load:\n" + "\n".join(map(str, problems)))
    by_type: dict[str, list[TypedCase]] = {}
    for vector_file in files:
        if vector_file.kind == "validation":
            type_name = str(vector_file.doc["type"])
            by_type.setdefault(type_name, []).extend((type_name, case) for case in vector_file.cases)
    reach = _reach(schemas)
    title = {file: str(schema["title"]) for file, schema in schemas.items()}
    return {
        changed: [
            typed for file, reached in reach.items() if changed in reached for typed in by_type.get(title[file], [])
        ]
        for changed in schemas
    }


def _write_spec(folder: Path, changed: dict[str, dict[str, Any]]) -> Path:
    """A copy of spec/ (contract, data, schemas; not the releases) with the given schema files replaced."""
    shutil.rmtree(folder, ignore_errors=True)
    shutil.copytree(SPEC, folder, ignore=shutil.ignore_patterns("releases", "*.md"))
    for file, schema in changed.items():
        (folder / "schemas" / file).write_text(
            json.dumps(schema, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
        )
    return folder


def _read_spec(folder: Path) -> SpecData:
    """The spec folder as `load_spec` reads it, without checking each schema against the 2020-12 meta-schema again:
    every mutant was checked when it was made (schema_mutants), the other files are the repository's own (checked by
    tests/test_schemas.py), and the check is two thirds of the time a mutant takes."""
    schemas = [json.loads(path.read_text(encoding="utf-8")) for path in sorted((folder / "schemas").glob("*.json"))]
    contract = json.loads((folder / "contract.json").read_text(encoding="utf-8"))
    return SpecData(root=folder, contract=contract, schemas={str(schema["title"]): schema for schema in schemas})


def _judge_folder(folder: Path, cases: list[TypedCase]) -> tuple[str, str]:
    """(id of the first case that fails, why) for the spec in `folder`, or ("", "") when every case passes."""
    try:
        checker = Contract(_read_spec(folder), models=False)
    except SpecError as error:  # e.g. a swapped $ref that makes the schemas recursive: no case can be answered
        return cases[0][1].id, f"the reference refuses this spec: {error}"
    # A mutant may crash the reference (an internal-error answer, which fails the case): keep its traceback quiet.
    with contextlib.redirect_stderr(io.StringIO()):
        for type_name, case in cases:
            result = judge_validation(type_name, case, checker)
            if not result.passed:
                return case.id, result.detail
    return "", ""


def _judge(task: tuple[int, Mutant]) -> Judged:
    index, mutant = task
    folder = _write_spec(STAGE / "mutants" / f"{index:04d}", {mutant.file: mutant.schema})
    killed_by, detail = _judge_folder(folder, _CASES[mutant.file])
    if killed_by:
        shutil.rmtree(folder, ignore_errors=True)  # survivors stay on disk for inspection
    return Judged(mutant.id, mutant.operator, killed_by, detail)


def _original_schemas() -> dict[str, dict[str, Any]]:
    paths = sorted((SPEC / "schemas").glob("*.json"))
    return {path.name: json.loads(path.read_text(encoding="utf-8")) for path in paths}


def _table(results: list[Judged], equivalents: dict[str, str]) -> list[str]:
    total, killed = Counter(r.operator for r in results), Counter(r.operator for r in results if r.killed_by)
    listed = Counter(r.operator for r in results if not r.killed_by and r.id in equivalents)
    lines = ["| operator | mutants | killed | equivalent (listed) | unexplained |", "|---|---|---|---|---|"]
    for operator in OPERATORS:
        if total[operator]:
            left = total[operator] - killed[operator] - listed[operator]
            lines.append(f"| {operator} | {total[operator]} | {killed[operator]} | {listed[operator]} | {left} |")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--workers", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument(
        "--only",
        metavar="PATTERN",
        help="judge only the mutants whose id matches (shell pattern); the run then checks no target",
    )
    args = parser.parse_args(argv)
    started = time.perf_counter()
    schemas = _original_schemas()
    _CASES.update(_cases_by_file(schemas))
    failing, detail = _judge_folder(_write_spec(STAGE / "original", {}), [c for cs in _CASES.values() for c in cs])
    if failing:
        print(f"mutation-schemas: the unchanged spec already fails {failing}: {detail}")
        return 1
    everything = mutants(schemas)
    chosen = [m for m in everything if args.only is None or fnmatchcase(m.id, args.only)]
    shutil.rmtree(STAGE / "mutants", ignore_errors=True)
    with multiprocessing.get_context("fork").Pool(max(1, args.workers)) as pool:
        results = pool.map(_judge, list(enumerate(chosen)), chunksize=4)
    elapsed = time.perf_counter() - started
    equivalents: dict[str, str] = json.loads(EQUIVALENTS.read_text(encoding="utf-8"))
    survivors = [r for r in results if not r.killed_by]
    unexplained = [r for r in survivors if r.id not in equivalents]
    judged_ids = {r.id for r in results}
    killed_but_listed = [r for r in results if r.killed_by and r.id in equivalents]
    gone = [] if args.only else sorted(set(equivalents) - {m.id for m in everything})
    listed = len(survivors) - len(unexplained)
    killed = len(results) - len(survivors)
    share_all = killed / max(1, len(results))
    score = killed / max(1, len(results) - listed)
    print("\n".join(_table(results, equivalents)))
    print(
        f"\nschema mutants: {len(results)}, killed by the validation vectors: {killed}, survived: {len(survivors)} "
        f"({listed} listed as equivalent in {EQUIVALENTS.relative_to(ROOT)})"
    )
    print(
        f"mutation score: {share_all:.1%} of all mutants (target {TARGET_ALL:.0%}), {score:.1%} of the mutants "
        f"that are not equivalent (target 100 %)"
    )
    print(
        f"run time: {elapsed:.0f} s with {args.workers} worker(s), {elapsed / max(1, len(results)) * 1000:.0f} ms "
        "per mutant"
    )
    for result in unexplained:
        index = next(i for i, m in enumerate(chosen) if m.id == result.id)
        print(
            f"survivor not killed by any vector and not listed as equivalent: {result.id} "
            f"(spec folder: {(STAGE / 'mutants' / f'{index:04d}').relative_to(ROOT)})"
        )
    for result in killed_but_listed:
        print(f"listed as equivalent but killed by {result.killed_by}: {result.id}: remove it from {EQUIVALENTS.name}")
    for mutant_id in gone:
        print(f"listed as equivalent but no such mutant exists: {mutant_id}: remove it from {EQUIVALENTS.name}")
    if args.only:
        print(f"(only {len(judged_ids)} of {len(everything)} mutants judged: no target checked)")
        return 0 if not unexplained and not killed_but_listed else 1
    ok = not unexplained and not killed_but_listed and not gone and share_all >= TARGET_ALL
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

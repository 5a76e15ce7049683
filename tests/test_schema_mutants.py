"""The schema mutants (`make mutation-schemas`): one change each, at the pointer their id names, with ids that do not
depend on anything but the edit; the regex operators edit what they say; the list of equivalents names mutants that
exist. (Judging the mutants is `make mutation-schemas`, a script, not a test: it takes minutes.)"""

from __future__ import annotations

import copy
import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from seq_io_maint.schema_mutants import OPERATORS, Mutant, mutants, pattern_edits

REPO_ROOT = Path(__file__).resolve().parents[1]

SCHEMAS = {
    path.name: json.loads(path.read_text(encoding="utf-8"))
    for path in sorted((REPO_ROOT / "spec" / "schemas").glob("*.json"))
}


@cache
def all_mutants() -> list[Mutant]:
    """Every mutant of the checkout's schemas: made once, by the tests that need them (about 15 s), not at import."""
    return mutants(SCHEMAS)


def _resolve(schema: Any, pointer: str) -> Any:
    node = schema
    for raw in filter(None, pointer.split("/")):
        step = raw.replace("~1", "/").replace("~0", "~")
        node = node[int(step)] if isinstance(node, list) else node[step]
    return node


def _restored(mutant: Mutant) -> dict[str, Any]:
    """The mutant's schema with the subschema at its pointer put back as the original has it."""
    schema = copy.deepcopy(mutant.schema)
    original = _resolve(SCHEMAS[mutant.file], mutant.pointer)
    target = _resolve(schema, mutant.pointer)
    target.clear()
    target.update(copy.deepcopy(original))
    return schema


@pytest.mark.slow
def test_each_mutant_changes_only_the_subschema_its_id_names() -> None:
    assert len(all_mutants()) > 900
    for mutant in all_mutants():
        assert mutant.schema != SCHEMAS[mutant.file], mutant.id
        assert _restored(mutant) == SCHEMAS[mutant.file], mutant.id


@pytest.mark.slow
def test_ids_are_unique_and_do_not_depend_on_the_other_files() -> None:
    ids = [mutant.id for mutant in all_mutants()]
    assert len(set(ids)) == len(ids)
    camera_alone = mutants({"Camera.json": SCHEMAS["Camera.json"], "Stream.json": SCHEMAS["Stream.json"]})
    assert {m.id for m in camera_alone if m.file == "Camera.json"} == {
        m.id for m in all_mutants() if m.file == "Camera.json"
    }


@pytest.mark.slow
def test_every_operator_is_used_and_named() -> None:
    assert {mutant.operator for mutant in all_mutants()} == set(OPERATORS)


@pytest.mark.slow
def test_no_mutant_widens_to_a_type_a_sibling_branch_admits_anyway() -> None:
    ids = {mutant.id for mutant in all_mutants()}
    assert "ActRequest.json#/properties/seed/anyOf/0 type-widened: + string" in ids
    assert "ActRequest.json#/properties/seed/anyOf/0 type-widened: + null" not in ids
    assert "ActRequest.json#/properties/episode_id/anyOf/1 type-widened: + string" not in ids
    assert "ActionContract.json#/properties/max_delta/anyOf/0/anyOf/1 type-widened: + null" not in ids
    assert not any("/propertyNames type-" in mutant_id for mutant_id in ids)


@pytest.mark.parametrize(
    ("pattern", "expected"),
    [
        (
            "^[a-c]{2,3}$",
            {
                ("regex-anchor", "^ removed", "[a-c]{2,3}$"),
                ("regex-anchor", "$ removed", "^[a-c]{2,3}"),
                ("regex-range", '"a-c" -> "b-c" at 2', "^[b-c]{2,3}$"),
                ("regex-range", '"a-c" -> "a-b" at 2', "^[a-b]{2,3}$"),
                ("regex-quantifier", "{2,3} -> {3,3} at 6", "^[a-c]{3,3}$"),
                ("regex-quantifier", "{2,3} -> {1,3} at 6", "^[a-c]{1,3}$"),
                ("regex-quantifier", "{2,3} -> {2,4} at 6", "^[a-c]{2,4}$"),
                ("regex-quantifier", "{2,3} -> {2,2} at 6", "^[a-c]{2,2}$"),
            },
        ),
        (
            "(0[1-9]|1[0-2])(\\.[0-9]+)?x(?![\\s\\S])",
            {
                ("regex-anchor", "(?![\\s\\S]) removed", "(0[1-9]|1[0-2])(\\.[0-9]+)?x"),
                ("regex-range", '"1-9" -> "2-9" at 3', "(0[2-9]|1[0-2])(\\.[0-9]+)?x(?![\\s\\S])"),
                ("regex-range", '"1-9" -> "1-8" at 3', "(0[1-8]|1[0-2])(\\.[0-9]+)?x(?![\\s\\S])"),
                ("regex-range", '"0-2" -> "1-2" at 10', "(0[1-9]|1[1-2])(\\.[0-9]+)?x(?![\\s\\S])"),
                ("regex-range", '"0-2" -> "0-1" at 10', "(0[1-9]|1[0-1])(\\.[0-9]+)?x(?![\\s\\S])"),
                ("regex-alternative", '"0[1-9]" dropped from the group at 0', "(1[0-2])(\\.[0-9]+)?x(?![\\s\\S])"),
                ("regex-alternative", '"1[0-2]" dropped from the group at 0', "(0[1-9])(\\.[0-9]+)?x(?![\\s\\S])"),
                ("regex-range", '"0-9" -> "1-9" at 19', "(0[1-9]|1[0-2])(\\.[1-9]+)?x(?![\\s\\S])"),
                ("regex-range", '"0-9" -> "0-8" at 19', "(0[1-9]|1[0-2])(\\.[0-8]+)?x(?![\\s\\S])"),
                ("regex-quantifier", "+ -> * at 23", "(0[1-9]|1[0-2])(\\.[0-9]*)?x(?![\\s\\S])"),
                ("regex-quantifier", "? dropped at 25", "(0[1-9]|1[0-2])(\\.[0-9]+)x(?![\\s\\S])"),
                ("regex-class", '"\\\\s" dropped at 31', "(0[1-9]|1[0-2])(\\.[0-9]+)?x(?![\\S])"),
                ("regex-class", '"\\\\S" dropped at 33', "(0[1-9]|1[0-2])(\\.[0-9]+)?x(?![\\s])"),
            },
        ),
    ],
)
def test_pattern_edits_are_the_ones_named(pattern: str, expected: set[tuple[str, str, str]]) -> None:
    assert set(pattern_edits(pattern)) == expected


@pytest.mark.slow
def test_every_listed_equivalent_is_a_mutant_of_the_schemas() -> None:
    listed = json.loads((REPO_ROOT / "scripts" / "equivalents" / "schemas.json").read_text(encoding="utf-8"))
    assert set(listed) <= {mutant.id for mutant in all_mutants()}
    assert all(len(reason) > 80 for reason in listed.values())

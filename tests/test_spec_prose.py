"""spec/validation.md and the code name the same rules: every rule id in the prose exists, and every rule the
code or the schemas define is in the prose."""

from __future__ import annotations

import re

from seq_io.reference.beyond_schema import BEYOND_SCHEMA_RULES, NORMALIZATIONS
from seq_io.reference.rule_ids import schema_rule_ids
from seq_io.reference.spec_data import load_spec

SPEC = load_spec()
PROSE = (SPEC.root / "validation.md").read_text(encoding="utf-8")
IN_PROSE = set(re.findall(r"`([A-Z][A-Za-z]+\.[a-z]+(?:-[a-z]+)+)`", PROSE))


def test_every_schema_rule_is_named_in_the_prose() -> None:
    assert schema_rule_ids(SPEC) <= IN_PROSE, schema_rule_ids(SPEC) - IN_PROSE


def test_every_rule_beyond_the_schema_is_in_the_prose() -> None:
    assert set(BEYOND_SCHEMA_RULES) <= IN_PROSE, set(BEYOND_SCHEMA_RULES) - IN_PROSE


def test_normalizations_are_in_the_prose() -> None:
    assert {"Stream.sort-at", "DeploymentPolicy.fold-streaming"} <= IN_PROSE
    assert set(NORMALIZATIONS) == {"Stream", "DeploymentPolicy"}


def test_prose_names_no_rule_that_does_not_exist() -> None:
    known = schema_rule_ids(SPEC) | set(BEYOND_SCHEMA_RULES) | {"Stream.sort-at", "DeploymentPolicy.fold-streaming"}
    assert known >= IN_PROSE, IN_PROSE - known

"""The fast path (jiter, jsonschema-rs) decides every validation vector exactly as the path of record does, and
reports the same issues. The one difference allowed is the wording of a syntax error: each path names the position
where its own reader stopped."""

from __future__ import annotations

import pytest

import suite_cache
from seq_io import vectors
from seq_io.reference.issues import Issue
from seq_io.reference.validation import contract
from seq_io.reference.validation_cases import instance_text
from seq_io.reference.wire import WIRE_JSON_SYNTAX

FILES, _ = suite_cache.suite()
CASES = [(f.doc["type"], case) for f in FILES if f.kind == "validation" for case in f.cases]


@pytest.mark.parametrize(("type_name", "case"), CASES, ids=[c.id for _, c in CASES])
def test_fast_path_agrees(type_name: str, case: vectors.Case) -> None:
    text = instance_text(case.data)
    slow, fast = contract(fast=False).validate_text(type_name, text), contract(fast=True).validate_text(type_name, text)
    assert (fast.valid, _worded(fast.issues), fast.normalized) == (slow.valid, _worded(slow.issues), slow.normalized)


def _worded(issues: list[Issue]) -> list[tuple[str, str, str]]:
    return [(i.path, i.rule, "" if i.rule == WIRE_JSON_SYNTAX else i.message) for i in issues]

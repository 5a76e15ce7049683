"""The jsonschema-rs fast path decides every validation vector exactly as the validator of record does."""

from __future__ import annotations

import pytest
from seq_io_ref.validation import contract
from seq_io_tools import vectors
from seq_io_tools.validation_cases import instance_text

FILES, _ = vectors.load_suite()
CASES = [(f.doc["type"], case) for f in FILES if f.kind == "validation" for case in f.cases]


@pytest.mark.parametrize(("type_name", "case"), CASES, ids=[c.id for _, c in CASES])
def test_fast_path_agrees(type_name: str, case: vectors.Case) -> None:
    text = instance_text(case.data)
    slow, fast = contract(fast=False).validate_text(type_name, text), contract(fast=True).validate_text(type_name, text)
    assert (fast.valid, fast.issues, fast.normalized) == (slow.valid, slow.issues, slow.normalized)

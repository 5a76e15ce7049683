"""Each validation vector against sequence-base 0.4.28, the independent oracle.

A case agrees with upstream (accepted vs refused, and for cases with a normalized form, the normalized values)
unless it carries `upstream: {diverges: ...}`; a case that carries it must really disagree, so the list of
divergences (printed by `test_print_divergences`) stays exact. Types upstream has no model of (`oracle.NOT_UPSTREAM`)
have no oracle; `test_every_type_has_an_oracle_or_a_reason` keeps that list honest.
"""

from __future__ import annotations

from typing import Any

import pytest

import suite_cache
from oracle import NOT_UPSTREAM, upstream_verdict
from seq_io import vectors
from seq_io.reference.json_values import json_equal
from seq_io.reference.validation_cases import instance_text

FILES, _ = suite_cache.suite()
CASES = [
    (f.doc["type"], case)
    for f in FILES
    if f.kind == "validation" and f.doc["type"] not in NOT_UPSTREAM
    for case in f.cases
]


def _subset_equal(ours: Any, theirs: Any) -> bool:
    """Our normalized form against upstream's full dump: every key we keep must hold the same value there."""
    if isinstance(ours, dict) and isinstance(theirs, dict):
        return all(key in theirs and _subset_equal(value, theirs[key]) for key, value in ours.items())
    if isinstance(ours, list) and isinstance(theirs, list):
        return len(ours) == len(theirs) and all(_subset_equal(a, b) for a, b in zip(ours, theirs, strict=True))
    return json_equal(ours, theirs)


def disagrees(type_name: str, case: vectors.Case) -> str:
    """Why upstream decides the case differently from the vector, or "" when it agrees."""
    verdict = upstream_verdict(type_name, instance_text(case.data))
    if verdict.accepted != case.data["valid"]:
        return f"upstream {'accepts' if verdict.accepted else 'refuses'} it ({verdict.error})"
    if verdict.accepted and "normalized" in case.data and not _subset_equal(case.data["normalized"], verdict.dump):
        return f"upstream normalizes it to {verdict.dump}"
    return ""


@pytest.mark.parametrize(("type_name", "case"), CASES, ids=[c.id for _, c in CASES])
def test_case_agrees_with_upstream_unless_marked(type_name: str, case: vectors.Case) -> None:
    found = disagrees(type_name, case)
    marked = "upstream" in case.data
    if marked:
        assert found, f"{case.id} is marked as diverging from upstream, but upstream agrees"
    else:
        assert not found, f"{case.id}: {found}; mark it `upstream: {{diverges: ...}}` if that is deliberate"


def test_print_divergences() -> None:
    marked = [(case.id, case.data["upstream"]["diverges"]) for _, case in CASES if "upstream" in case.data]
    assert marked, "the spec documents divergences from upstream; the vectors must pin some"
    for case_id, why in marked:
        print(f"{case_id}: {why}")


def test_every_type_has_an_oracle_or_a_reason() -> None:
    from oracle import _upstream_types
    from seq_io.reference.spec_data import load_spec

    types = set(load_spec().type_names)
    assert set(_upstream_types()) | set(NOT_UPSTREAM) == types
    assert not set(_upstream_types()) & set(NOT_UPSTREAM)

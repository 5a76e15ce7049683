"""Every vector → the reference implementation (through the testee's answer and the runner's comparison) → each
case passes.

One test per case id, so a failure names the case and carries the judge's diff. The suite is loaded once; a vector
file that cannot be read fails its own test instead of silently dropping its cases. This file is also the judge of
both mutation scores of the reference (`make mutation`), so it holds nothing but the vectors.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

import pytest

from seq_io.reference.cases import REFERENCE_KINDS, judge, judge_validation
from seq_io.vectors import VECTORS_DIR, Case, Problem, VectorFile, relative

try:  # the suite the other test modules share, read once per process
    import suite_cache

    load_suite: Callable[[], tuple[list[VectorFile], list[Problem]]] = suite_cache.suite
except ImportError:  # make mutation's stage holds this file alone (scripts/mutation.py)
    from seq_io import vectors

    load_suite = vectors.load_suite


@cache
def _suite() -> tuple[list[tuple[str, Case]], list[tuple[str, Case]], list[Problem]]:
    files, problems = load_suite()
    cases = [
        (vector_file.kind, case)
        for vector_file in files
        if vector_file.kind in REFERENCE_KINDS
        for case in vector_file.cases
    ]
    validation = [
        (str(vector_file.doc["type"]), case)
        for vector_file in files
        if vector_file.kind == "validation"
        for case in vector_file.cases
    ]
    return cases, validation, problems


CASES, VALIDATION_CASES = _suite()[:2]


def test_the_vector_files_load() -> None:
    assert not _suite()[2], "\n".join(map(str, _suite()[2]))


@pytest.mark.parametrize("kind", REFERENCE_KINDS)
def test_every_kind_has_cases(kind: str) -> None:
    assert any(case_kind == kind for case_kind, _ in CASES), f"no case of kind {kind} under {relative(VECTORS_DIR)}"


@pytest.mark.parametrize(("kind", "case"), CASES, ids=[case.id for _, case in CASES])
def test_reference_passes_case(kind: str, case: Case) -> None:
    result = judge(kind, case)
    assert result.passed, f"{case.file}:{case.line}: {result.detail}"


@pytest.mark.parametrize(("type_name", "case"), VALIDATION_CASES, ids=[case.id for _, case in VALIDATION_CASES])
def test_reference_passes_validation_case(type_name: str, case: Case) -> None:
    result = judge_validation(type_name, case)
    assert result.passed, f"{case.file}:{case.line}: {result.detail}"

"""Every uploader scenario of conformance/vectors/uploader/ → the reference uploader (through the reference testee's
answer, held to the protocol's schemas, and the runner's comparison) → each case passes.

WHY a module of its own: `make conformance` plays the same cases through the testee protocol, but a failure there
names no test; here each case id is a test, in process, in the fast tier. It is also the judge of the uploader's
mutation score (`make mutation-uploader`, scripts/mutation.py), so it holds nothing but the vectors; the model's
cross-check of the hand-written ones is tests/test_uploader_model.py.
"""

from __future__ import annotations

import pytest

import suite_cache
from seq_io.reference.cases import judge
from seq_io.runner.suite import SuiteCase

CASES = [case for case in suite_cache.cases()[0] if case.kind == "uploader"]


def test_the_uploader_files_load() -> None:
    assert not [problem for problem in suite_cache.cases()[1] if "/uploader/" in problem.file]
    assert len(CASES) >= 170


@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_reference_uploader_passes(case: SuiteCase) -> None:
    result = judge("uploader", case.case)
    assert result.passed, f"{case.case.file}:{case.case.line}: {result.detail}"

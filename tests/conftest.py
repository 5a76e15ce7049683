"""Shared fixtures: the repository's spec as a validating Contract, and the loaded vector suite.

Under mutation testing (mutmut sets MUTANT_UNDER_TEST and runs the tests from its `mutants/` copy) the mutated
reference must shadow the installed one, so its folder goes first on the import path before anything imports it.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

if "MUTANT_UNDER_TEST" in os.environ:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "reference"))

import pytest
from seq_io_ref.validation import Contract, contract
from seq_io_tools import vectors


@pytest.fixture(scope="session")
def the_contract() -> Contract:
    return contract()


@pytest.fixture(scope="session")
def suite() -> list[vectors.VectorFile]:
    files, problems = vectors.load_suite()
    assert not problems, "\n".join(map(str, problems))
    return files

"""Shared fixtures: the repository's spec as a validating Contract, and the loaded vector suite."""

from __future__ import annotations

from pathlib import Path

import pytest

import suite_cache
from runner_fakes import make_suite
from seq_io import vectors
from seq_io.reference.validation import Contract, contract


@pytest.fixture(scope="session")
def the_contract() -> Contract:
    return contract()


@pytest.fixture(scope="session")
def suite() -> list[vectors.VectorFile]:
    files, problems = suite_cache.suite()
    assert not problems, "\n".join(map(str, problems))
    return files


@pytest.fixture
def suite_dir(tmp_path: Path) -> Path:
    """The runner tests' small suite (tests/runner_fakes.py) in a fresh folder."""
    return make_suite(tmp_path / "vectors")

"""The checkout's vector files, read once per test process → shared by every test module that needs them.

WHY: reading and linting the 85 vector files costs about 3 s of CPU, and a dozen modules need them at import time
(to parametrize their tests), so each read its own copy and collection alone took over a minute. The callers only
read what they get; a test that needs a changed suite writes its own files (runner_fakes.make_suite).
"""

from __future__ import annotations

from functools import cache

from seq_io import vectors
from seq_io.runner.suite import SuiteCase, suite_cases
from seq_io.vectors import VECTORS_DIR, Problem, VectorFile


@cache
def suite() -> tuple[list[VectorFile], list[Problem]]:
    """Every vector file of the checkout and the problems of those that could not be read."""
    return vectors.load_suite()


@cache
def cases() -> tuple[list[SuiteCase], list[Problem]]:
    """Every case of the checkout as the runner selects them, and the problems of the files."""
    files, problems = suite()
    return suite_cases(files, VECTORS_DIR), problems

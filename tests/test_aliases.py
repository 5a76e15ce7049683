"""The names users called before 0.2.0 → the deprecated aliases → the very same objects, each with a warning.

WHY: sequences-io-spec 0.2.0 moved the reference to `seq_io.reference`, the tools to `seq_io` and the data locator
to `seq_io.locate` (CHANGELOG.md says how to migrate). For one release the old imports and the old testee command
keep working, so a user's CI does not break on upgrade; these tests hold the aliases to "same object, one
DeprecationWarning naming the new name", and the last one makes sure they are gone once 0.3.0 is reached.
"""

from __future__ import annotations

import importlib
import subprocess
import sys
import tomllib
import warnings
from pathlib import Path

import pytest

import seq_io.locate
import seq_io.reference.schedule
import seq_io.reference.validation

REPO_ROOT = Path(__file__).resolve().parents[1]
TIMEOUT_S = 120


def _fresh_import(name: str) -> tuple[object, list[warnings.WarningMessage]]:
    """Import `name` as if for the first time (its alias package included) and record the warnings."""
    for loaded in [key for key in sys.modules if key.split(".")[0] in ("seq_io_ref", "seq_io_spec", "seq_io_tools")]:
        del sys.modules[loaded]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        module = importlib.import_module(name)
    return module, caught


@pytest.mark.parametrize(
    ("old", "new", "attribute"),
    [
        ("seq_io_ref.validation", seq_io.reference.validation, "to_json_value"),
        ("seq_io_ref.schedule", seq_io.reference.schedule, "of"),
        ("seq_io_spec", seq_io.locate, "spec_root"),
    ],
)
def test_an_old_import_gives_the_same_object_with_one_deprecation_warning(
    old: str, new: object, attribute: str
) -> None:
    module, caught = _fresh_import(old)
    assert getattr(module, attribute) is getattr(new, attribute)
    deprecations = [w for w in caught if issubclass(w.category, DeprecationWarning)]
    assert len(deprecations) == 1, [str(w.message) for w in caught]
    assert "0.3.0" in str(deprecations[0].message)


def test_the_old_testee_command_still_runs_the_reference_testee(tmp_path: Path) -> None:
    """`python -m seq_io_tools.reference_testee` as a user's CI calls it, through the runner, on one case."""
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "seq_io.cli",
            "run",
            "--impl",
            f"{sys.executable} -m seq_io_tools.reference_testee",
            "--id",
            "val-observations-0001",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert done.stdout.rstrip().splitlines()[-1].startswith("1 passed in ")


def test_the_aliases_are_removed_by_0_3_0() -> None:
    version = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    major, minor = (int(part) for part in version.split(".")[:2])
    assert (major, minor) < (0, 3), "0.3.0 removes src/seq_io_ref, src/seq_io_tools and src/seq_io_spec"

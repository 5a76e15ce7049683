"""A Contract built on another release's spec folder judges by that folder's schemas and rules only.

The generated models come from the repository's own schemas; applying them to 0.5.23 would refuse its own fields.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from seq_io.reference.spec_data import SpecError
from seq_io.reference.validation import contract

REPO_ROOT = Path(__file__).resolve().parents[1]
"""The checkout these tests run in."""

OLD = REPO_ROOT / "spec" / "releases" / "0.5.23"
OLD_POLICY = '{"handler_ref": "policies.pi0:Handler", "own_observations": "latest", "observation": null}'


def test_an_old_release_is_judged_without_the_current_models() -> None:
    old = contract(OLD)
    outcome = old.validate_text("DeploymentPolicy", OLD_POLICY)
    assert not old.models
    assert outcome.valid, outcome.issues
    assert outcome.model is None


def test_the_current_release_refuses_the_old_field_and_types_its_own() -> None:
    current = contract()
    assert current.models
    refused = current.validate_text("DeploymentPolicy", OLD_POLICY)
    assert [issue.rule for issue in refused.issues] == ["additionalProperties"]
    assert current.validate_text("Stream", '{"at": [0]}').model is not None


def test_a_release_folder_identical_to_spec_uses_the_models() -> None:
    assert contract(REPO_ROOT / "spec" / "releases" / "0.5.25").models


def test_a_spec_whose_schemas_refer_to_themselves_is_one_line_and_exit_2(tmp_path: Path) -> None:
    """A recursive `$ref` (here Stream's `at` items made a Stream) cannot be planned for the rules beyond the schema;
    the spec is refused with the cycle named, never a RecursionError."""
    folder = tmp_path / "spec"
    shutil.copytree(REPO_ROOT / "spec", folder, ignore=shutil.ignore_patterns("releases"))
    stream = json.loads((folder / "schemas" / "Stream.json").read_text(encoding="utf-8"))
    stream["properties"]["at"]["items"] = {"$ref": "Stream.json"}
    (folder / "schemas" / "Stream.json").write_text(json.dumps(stream), encoding="utf-8")
    with pytest.raises(SpecError, match=r"refer to themselves .*Stream\.json"):
        contract(folder)
    (tmp_path / "s.json").write_text('{"every": 1}', encoding="utf-8")
    iospec = str(Path(sys.executable).with_name("iospec"))
    done = subprocess.run(
        [iospec, "validate", "Stream", str(tmp_path / "s.json")],
        env={**os.environ, "SEQ_IO_SPEC_ROOT": str(folder)},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 2, done.stdout + done.stderr
    assert "refer to themselves" in done.stderr and "Traceback" not in done.stderr, done.stderr

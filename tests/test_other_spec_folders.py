"""A Contract built on another release's spec folder judges by that folder's schemas and rules only.

The generated models come from the repository's own schemas; applying them to 0.5.23 would refuse its own fields.
"""

from __future__ import annotations

from pathlib import Path

from seq_io_ref.validation import contract

REPO_ROOT = Path(__file__).resolve().parents[1]
"""The checkout these tests run in."""

OLD = REPO_ROOT / "spec" / "releases" / "0.5.23"
OLD_POLICY = ('{"handler_ref": "policies.pi0:Handler", "own_observations": "latest",'
              ' "observation": null}')


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

"""`make mutation`'s stage can run its judge: scripts/mutation.py stages a copy → pytest collects the judge there.

WHY: the mutation run is too slow for every check (2-8 min), and when its stage could not import the judge (a
shared conftest.py that grew an import of other tests' helpers), mutmut checked no mutant and the break went
unnoticed until the next `make mutation`. Collecting the judge in a fresh stage takes seconds and catches that.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

pytestmark = pytest.mark.slow

REPO_ROOT = Path(__file__).resolve().parents[1]
TIMEOUT_S = 300


def _mutation_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("mutation_script", REPO_ROOT / "scripts" / "mutation.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_the_judge_collects_in_a_fresh_stage(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    script = _mutation_script()
    monkeypatch.setattr(script, "STAGE", tmp_path / "stage")
    script.stage()
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", script.JUDGE],
        cwd=tmp_path / "stage",
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert "test_reference_passes_case" in done.stdout

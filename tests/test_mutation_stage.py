"""The stages of `make mutation` and `make mutation-keeper` can run their judges: scripts/mutation.py stages a copy
per judge → pytest collects that judge's tests there.

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
from typing import Any

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


SCRIPT = _mutation_script()
JUDGES = sorted({target.judge for target in SCRIPT.TARGETS}, key=lambda judge: judge.name)


@pytest.mark.parametrize("judge", JUDGES, ids=[judge.name for judge in JUDGES])
def test_each_judge_collects_in_a_fresh_stage(judge: Any, tmp_path: Path) -> None:
    SCRIPT.stage(judge, [target for target in SCRIPT.TARGETS if target.judge == judge], tmp_path / "stage")
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", *judge.selection],
        cwd=tmp_path / "stage",
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert all(selected.rsplit("::", 1)[-1] in done.stdout for selected in judge.selection), done.stdout[-2000:]

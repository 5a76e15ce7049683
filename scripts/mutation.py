"""Mutation score of the reference schedule against the conformance vectors alone: stage a copy → mutmut run →
statuses → score, with each survivor either killed by a vector or listed as equivalent (with a reason).

`make mutation` runs this. WHY a staging folder (build/mutation/): mutmut 3 names a mutant after its module path
relative to the working folder and only strips a `src/` prefix, while our reference lives in `reference/`; in the
stage the package sits at `src/seq_io_ref`, so mutant names match the module the tests import. The stage holds
only what the judging needs: the reference, spec/, the vectors and tests/test_reference_vectors.py, so the score
measures the vectors, not our unit tests. Equivalent mutants (a change no input can observe) are listed by name,
with the reason, in reference/mutation-equivalents.json; the script fails when the score is below the target, when
a survivor is neither killed nor listed, or when a listed name no longer survives.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
STAGE = ROOT / "build" / "mutation"
EQUIVALENTS = ROOT / "reference" / "mutation-equivalents.json"
TARGET = 0.90
# A mutant that makes a vector hang (mutmut's "timeout") or crash the test process ("segfault") is caught: a runner
# records such a case as failed.
DETECTED = {"killed", "timeout", "segfault"}
TIMEOUT_S = 3000
MUTMUT = str(Path(sys.executable).with_name("mutmut"))
MUTATED_FILE = "src/seq_io_ref/schedule.py"
JUDGE = "tests/test_reference_vectors.py"
STAGE_CONFIG = f"""\
[tool.mutmut]
source_paths = ["src"]
only_mutate = ["{MUTATED_FILE}"]
pytest_add_cli_args_test_selection = ["{JUDGE}"]
pytest_add_cli_args = ["-x", "-q", "-p", "no:cacheprovider"]
also_copy = ["spec", "conformance"]

[tool.pytest.ini_options]
testpaths = ["tests"]
"""


def stage() -> None:
    """A fresh copy of what the judging needs, with the reference package under src/."""
    shutil.rmtree(STAGE, ignore_errors=True)
    ignore = shutil.ignore_patterns("__pycache__", "node_modules", "js", "releases")
    shutil.copytree(ROOT / "reference" / "seq_io_ref", STAGE / "src" / "seq_io_ref", ignore=ignore)
    shutil.copytree(ROOT / "spec", STAGE / "spec", ignore=ignore)
    shutil.copytree(ROOT / "conformance", STAGE / "conformance", ignore=ignore)
    (STAGE / "tests").mkdir()
    for name in ("conftest.py", Path(JUDGE).name):
        shutil.copy2(ROOT / "tests" / name, STAGE / "tests" / name)
    (STAGE / "pyproject.toml").write_text(STAGE_CONFIG, encoding="utf-8")


def run(*args: str, timeout: int = TIMEOUT_S) -> str:
    done = subprocess.run([MUTMUT, *args], cwd=STAGE, capture_output=True, text=True, timeout=timeout, check=False)
    return done.stdout + done.stderr


def statuses() -> dict[str, str]:
    """mutant name → status, from `mutmut results --all true`."""
    found = {}
    for line in run("results", "--all", "true", timeout=300).splitlines():
        match = re.match(r"\s*([\w.ǁ]+__mutmut_\d+): (.+)$", line)
        if match:
            found[match.group(1)] = match.group(2).strip()
    return found


def last_lines(text: str, count: int) -> str:
    """The end of mutmut's output without its progress spinner lines."""
    lines = [line for line in text.splitlines() if not re.match(r"^\W*(Running|Generating|Listing|\d+/\d+)", line)]
    return "\n".join(lines[-count:])


def main() -> int:
    stage()
    try:
        print(last_lines(run("run", "--max-children", "2"), 15))
    except subprocess.TimeoutExpired:
        print(f"mutation: mutmut did not finish within {TIMEOUT_S} s")
        return 1
    result = statuses()
    if not result:
        print("mutation: mutmut reported no mutants; see the output above")
        return 1
    equivalents: dict[str, str] = json.loads(EQUIVALENTS.read_text(encoding="utf-8"))
    killed = [name for name, status in result.items() if status in DETECTED]
    survivors = sorted(name for name, status in result.items() if status not in DETECTED)
    unexplained = [name for name in survivors if name not in equivalents]
    stale = sorted(set(equivalents) - set(survivors))
    raw = len(killed) / len(result)
    # The mutation score as usually defined: killed mutants over the mutants that can be killed at all, i.e.
    # equivalent mutants (each listed with its reason) leave the denominator.
    score = len(killed) / max(1, len(result) - len(set(equivalents) & set(survivors)))
    print(f"mutants: {len(result)}, killed by the vectors: {len(killed)} (timeouts included), "
          f"survived: {len(survivors)} ({len(survivors) - len(unexplained)} listed as equivalent)")
    print(f"mutation score: {score:.1%} of the mutants that are not equivalent (target {TARGET:.0%}); "
          f"{raw:.1%} of all mutants")
    for name in unexplained:
        print(f"survivor not killed by any vector and not listed as equivalent: {name} "
              f"({result[name]}); see `cd {STAGE.relative_to(ROOT)} && mutmut show {name}`")
    for name in stale:
        print(f"listed as equivalent but no longer surviving: {name}: remove it from {EQUIVALENTS.name}")
    return 0 if score >= TARGET and not unexplained and not stale else 1


if __name__ == "__main__":
    sys.exit(main())

"""Mutation score of the reference schedule against the conformance vectors alone: mutmut run → survivors →
score, with each survivor either killed later by a new vector or listed as equivalent (with a reason).

`make mutation` runs this. mutmut mutates reference/seq_io_ref/schedule.py (configuration in pyproject.toml) and
judges each mutant by tests/test_reference_vectors.py only, so the score measures the vectors, not our unit tests.
Equivalent mutants (a change no input can observe) are listed by name in reference/mutation-equivalents.json;
the script fails when the score is below the target or when a survivor is neither killed nor listed.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EQUIVALENTS = ROOT / "reference" / "mutation-equivalents.json"
TARGET = 0.90
TIMEOUT_S = 3000
MUTMUT = str(Path(sys.executable).with_name("mutmut"))


def run(*args: str, timeout: int = TIMEOUT_S) -> str:
    done = subprocess.run([MUTMUT, *args], cwd=ROOT, capture_output=True, text=True, timeout=timeout, check=False)
    return done.stdout + done.stderr


def statuses() -> dict[str, str]:
    """mutant name → status, from `mutmut results --all true`."""
    found = {}
    for line in run("results", "--all", "true", timeout=300).splitlines():
        match = re.match(r"\s*([\w.]+__mutmut_\d+): (.+)$", line)
        if match:
            found[match.group(1)] = match.group(2).strip()
    return found


def main() -> int:
    shutil.rmtree(ROOT / "mutants", ignore_errors=True)
    print(run("run", "--max-children", "2")[-1500:])
    result = statuses()
    if not result:
        print("mutation: mutmut reported no mutants; see the output above")
        return 1
    equivalents: dict[str, str] = json.loads(EQUIVALENTS.read_text(encoding="utf-8"))
    killed = [name for name, status in result.items() if status == "killed"]
    survivors = sorted(name for name, status in result.items() if status != "killed")
    unexplained = [name for name in survivors if name not in equivalents]
    stale = sorted(set(equivalents) - set(survivors))
    score = len(killed) / len(result)
    adjusted = len(killed) / max(1, len(result) - len(set(equivalents) & set(survivors)))
    print(f"mutants: {len(result)}, killed by the vectors: {len(killed)}, survived: {len(survivors)} "
          f"({len(survivors) - len(unexplained)} listed as equivalent)")
    print(f"mutation score: {score:.1%} (target {TARGET:.0%}); excluding listed equivalents: {adjusted:.1%}")
    for name in unexplained:
        print(f"survivor not killed by any vector and not listed as equivalent: {name} "
              f"({result[name]}); see `mutmut show {name}`")
    for name in stale:
        print(f"listed as equivalent but no longer surviving: {name}: remove it from {EQUIVALENTS.name}")
    return 0 if score >= TARGET and not unexplained and not stale else 1


if __name__ == "__main__":
    sys.exit(main())

"""Mutation scores of the reference against the conformance vectors alone: stage a copy → mutmut run (the schedule
and the rules beyond the schema) → statuses → a score per module, with each survivor either killed by a vector or
listed as equivalent (with a reason) in that module's list.

`make mutation` runs this. WHY a staging folder (build/mutation/): mutmut 3 names a mutant after its module path
relative to the working folder and only strips a `src/` prefix; the stage holds the package at `src/seq_io`, as
the checkout does, so mutant names match the module the tests import. The stage holds only what the judging
needs: the package, spec/, the vectors and tests/test_reference_vectors.py (every vector
through the reference testee's answer and the runner's comparison), so the score measures the vectors, not our
unit tests. Both modules are mutated in one mutmut run (mutmut runs, for each mutant, the vectors whose judging
calls the mutated function). Equivalent mutants (a change no input can observe) are listed by name, with the
reason, in scripts/equivalents/schedule.json (schedule.py) and scripts/equivalents/beyond-schema.json
(beyond_schema.py); the script fails when a module's share of killed mutants is below its target, when a survivor
is neither killed nor listed, or when a listed name no longer survives.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
STAGE = ROOT / "build" / "mutation"


@dataclass(frozen=True)
class Target:
    """One mutated module: its file in the stage, its list of equivalent mutants, and the share of all its mutants
    the vectors must kill."""

    module: str
    equivalents: Path
    target: float

    @property
    def staged_file(self) -> str:
        return "src/" + self.module.replace(".", "/") + ".py"


TARGETS = (
    Target("seq_io.reference.schedule", ROOT / "scripts" / "equivalents" / "schedule.json", 0.90),
    Target("seq_io.reference.beyond_schema", ROOT / "scripts" / "equivalents" / "beyond-schema.json", 0.95),
)
# A mutant that makes a vector hang (mutmut's "timeout") or crash the test process ("segfault") is caught: a runner
# records such a case as failed.
DETECTED = {"killed", "timeout", "segfault"}
TIMEOUT_S = 3000
MUTMUT = str(Path(sys.executable).with_name("mutmut"))
JUDGE = "tests/test_reference_vectors.py"
STAGE_CONFIG = f"""\
[tool.mutmut]
source_paths = ["src"]
only_mutate = [{", ".join(json.dumps(target.staged_file) for target in TARGETS)}]
pytest_add_cli_args_test_selection = ["{JUDGE}"]
pytest_add_cli_args = ["-x", "-q", "-p", "no:cacheprovider"]
also_copy = ["spec", "conformance"]

[tool.pytest.ini_options]
testpaths = ["tests"]
"""


def stage() -> None:
    """A fresh copy of what the judging needs, with the package under src/ as in the checkout."""
    shutil.rmtree(STAGE, ignore_errors=True)
    ignore = shutil.ignore_patterns("__pycache__", "node_modules", "releases")
    shutil.copytree(ROOT / "src" / "seq_io", STAGE / "src" / "seq_io", ignore=ignore)
    shutil.copytree(ROOT / "spec", STAGE / "spec", ignore=ignore)
    shutil.copytree(ROOT / "conformance", STAGE / "conformance", ignore=ignore)
    (STAGE / "tests").mkdir()
    # The judge alone: it uses no fixture, and tests/conftest.py imports helpers of other tests.
    shutil.copy2(ROOT / JUDGE, STAGE / JUDGE)
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


def judge_target(target: Target, result: dict[str, str]) -> bool:
    """Print one module's score and every problem with its list of equivalents; True when it meets its target."""
    equivalents: dict[str, str] = json.loads(target.equivalents.read_text(encoding="utf-8"))
    killed = [name for name, status in result.items() if status in DETECTED]
    survivors = sorted(name for name, status in result.items() if status not in DETECTED)
    unexplained = [name for name in survivors if name not in equivalents]
    stale = sorted(set(equivalents) - set(survivors))
    raw = len(killed) / max(1, len(result))
    # The mutation score as usually defined: killed mutants over the mutants that can be killed at all, i.e.
    # equivalent mutants (each listed with its reason) leave the denominator.
    score = len(killed) / max(1, len(result) - len(set(equivalents) & set(survivors)))
    print(
        f"\n{target.module}: {len(result)} mutants, killed by the vectors: {len(killed)} (timeouts included), "
        f"survived: {len(survivors)} ({len(survivors) - len(unexplained)} listed as equivalent in "
        f"{target.equivalents.relative_to(ROOT)})"
    )
    print(
        f"mutation score: {raw:.1%} of all mutants (target {target.target:.0%}); {score:.1%} of the mutants that "
        "are not equivalent (target 100 %)"
    )
    for name in unexplained:
        print(
            f"survivor not killed by any vector and not listed as equivalent: {name} "
            f"({result[name]}); see `cd {STAGE.relative_to(ROOT)} && mutmut show {name}`"
        )
    for name in stale:
        print(f"listed as equivalent but no longer surviving: {name}: remove it from {target.equivalents.name}")
    return raw >= target.target and not unexplained and not stale


def main() -> int:
    started = time.perf_counter()
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
    if all(status == "not checked" for status in result.values()):
        print(
            f"mutation: mutmut checked no mutant: the judge ({JUDGE}) did not run in {STAGE.relative_to(ROOT)}; "
            "see the output above"
        )
        return 1
    verdicts = [
        judge_target(target, {name: status for name, status in result.items() if name.startswith(target.module + ".")})
        for target in TARGETS
    ]
    print(f"\nrun time: {time.perf_counter() - started:.0f} s (mutmut, 2 children)")
    return 0 if all(verdicts) else 1


if __name__ == "__main__":
    sys.exit(main())

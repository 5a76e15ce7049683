"""Mutation scores of the reference against the conformance vectors: the chosen targets → one stage per judge (a
copy of the package, spec/, the vectors and the judge's tests) → mutmut run → statuses → a score per module, with
each survivor either killed or listed as equivalent (with a reason) in that module's list.

`make mutation` runs the schedule and the rules beyond the schema (`python scripts/mutation.py`), `make
mutation-keeper` the stream keeper (`python scripts/mutation.py keeper`), `make mutation-uploader` the robot's
uploader (`python scripts/mutation.py uploader`). A target is a module, the judge whose
tests must kill its mutants, its list of equivalents (scripts/equivalents/<target>.json) and the share of all its
mutants to kill.

WHY a staging folder per judge (build/mutation/<judge>/): mutmut 3 names a mutant after its module path relative
to the working folder and only strips a `src/` prefix; the stage holds the package at `src/seq_io`, as the
checkout does, so mutant names match the module the tests import. A stage holds only what its judge needs, so the
score measures the vectors, not our unit tests: the schedule's judge is tests/test_reference_vectors.py (the
schedule, envelope and rows_of vectors through the reference testee's answer and the runner's comparison); the
keeper's is the reference half of tests/test_stream_vectors.py (every stream scenario the same way; the module
imports the brute-force model, so the stage holds scripts/seq_io_maint, but the model's tests are not selected),
plus the few tests of tests/test_keeper.py that reach what no vector can (KEEPER_TESTS) and
tests/test_keeper_messages.py (every refusal's message against its reviewed snapshot); the uploader's is
tests/test_uploader_vectors.py (every uploader scenario the same way) plus the tests of tests/test_uploader.py that
reach what no vector can (UPLOADER_TESTS). Each judge has its own
stage and mutmut run because mutmut runs, for each mutant, every selected test that calls the mutated function:
the stream scenarios call the schedule, and they must not judge its mutants. A mutant that makes a vector hang is
stopped by mutmut's per-mutant CPU limit (TIMEOUT_MULTIPLIER) and counts as detected. Equivalent mutants (a change
no input can observe) are listed by name with the reason; the script fails when a module's share of killed
mutants is below its target, when a survivor is neither killed nor listed, or when a listed name no longer
survives.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
STAGES = ROOT / "build" / "mutation"
EQUIVALENTS = ROOT / "scripts" / "equivalents"


@dataclass(frozen=True)
class Judge:
    """The tests whose failure kills a mutant, and what their stage must hold besides the package and spec/."""

    name: str
    """Its stage: build/mutation/<name>/."""
    description: str
    selection: tuple[str, ...]
    """The pytest selection (files or node ids) mutmut runs."""
    files: tuple[str, ...]
    """The test files and their helpers, copied into the stage's tests/."""
    folders: tuple[str, ...] = ()
    """Other folders of the checkout the tests import (relative to it), copied at the same place."""
    pythonpath: tuple[str, ...] = ()


@dataclass(frozen=True)
class Target:
    """One mutated module: the judge of its mutants, its list of equivalent mutants, and the share of all its
    mutants the vectors must kill."""

    name: str
    module: str
    judge: Judge
    target: float

    @property
    def staged_file(self) -> str:
        return "src/" + self.module.replace(".", "/") + ".py"

    @property
    def equivalents(self) -> Path:
        return EQUIVALENTS / f"{self.name}.json"


REFERENCE_VECTORS = Judge(
    "reference",
    "the schedule, envelope and rows_of vectors",
    ("tests/test_reference_vectors.py",),
    ("tests/test_reference_vectors.py",),
)
KEEPER_TESTS = tuple(
    f"tests/test_keeper.py::{name}"
    for name in (
        "test_each_error_id_is_named_in_the_prose_and_has_a_reason_in_the_schema",
        "test_every_error_body_is_a_valid_stream_error",
        "test_every_refusal_the_stream_vectors_provoke_has_a_valid_stream_error_body",
        "test_a_refused_body_names_the_issues_the_validator_finds_in_it",
        "test_a_keeper_refuses_a_clock_that_goes_back_and_an_impossible_idle_timeout",
        "test_a_keeper_takes_only_limits_in_their_range",
        "test_a_host_can_measure_and_withdraw_a_waiting_act_and_choose_how_frames_are_held",
        "test_a_call_applies_the_time_before_its_body_is_checked_and_a_checked_body_is_applied_alike",
    )
)
"""What no stream vector can reach: a refusal's HTTP body (spec/stream.md § 10 leaves it out of the vectors'
comparison) and a caller's misuse of a keeper (a scenario that would misuse one is refused before it is made). The
messages of those bodies and misuses are judged by tests/test_keeper_messages.py, whole."""
KEEPER_JUDGE = Judge(
    "keeper",
    "the stream vectors (and the keeper's tests of error bodies, messages and misuse)",
    ("tests/test_stream_vectors.py::test_reference_keeper_passes", *KEEPER_TESTS, "tests/test_keeper_messages.py"),
    (
        "tests/test_stream_vectors.py",
        "tests/suite_cache.py",
        "tests/test_keeper.py",
        "tests/test_keeper_messages.py",
        "tests/golden/keeper-messages.json",
    ),
    folders=("scripts/seq_io_maint",),
    pythonpath=("scripts",),
)
UPLOADER_TESTS = tuple(
    f"tests/test_uploader.py::{name}"
    for name in (
        "test_an_episode_id_or_backlog_out_of_range_is_a_value_error",
        "test_an_episode_id_or_backlog_of_another_type_is_a_value_error",
        "test_an_event_that_is_none_of_the_seven_is_a_value_error",
        "test_the_clock_must_not_go_back",
        "test_an_answer_or_failure_with_nothing_in_flight_is_ignored",
        "test_a_retry_that_fell_due_leaves_first_whatever_the_event",
        "test_next_due_is_when_a_backing_off_post_is_due_and_none_otherwise",
        "test_an_answer_to_an_act_that_failed_is_ignored",
        "test_headers_that_are_no_object_hold_no_header",
    )
)
"""What no uploader vector can reach: a caller's misuse (the vector files' schema and `iospec lint` send only
well-formed setups, events and headers, answers only to requests in flight), `next_due` (asked by a real-time
driver, never by the testee) and a clock that moves within an event other than `advance`."""
UPLOADER_JUDGE = Judge(
    "uploader",
    "the uploader vectors (and the uploader's tests of misuse and of a real-time caller)",
    ("tests/test_uploader_vectors.py::test_reference_uploader_passes", *UPLOADER_TESTS),
    ("tests/test_uploader_vectors.py", "tests/suite_cache.py", "tests/test_uploader.py"),
)
TARGETS = (
    Target("schedule", "seq_io.reference.schedule", REFERENCE_VECTORS, 0.90),
    Target("beyond-schema", "seq_io.reference.beyond_schema", REFERENCE_VECTORS, 0.95),
    Target("keeper", "seq_io.reference.keeper", KEEPER_JUDGE, 0.90),
    Target("uploader", "seq_io.reference.uploader", UPLOADER_JUDGE, 0.90),
)
"""The keeper's share is the schedule's although a quick check of bodies, which only ever decides sooner than the
validator of record, makes 57 of its mutants equivalent (keeper.json lists them): its messages, built from several
pieces, are pinned by tests/test_keeper_messages.py, so a mutant that changes only a message's text is killed, not
listed; docs/performance.md has the count."""
DEFAULT_TARGETS = ("schedule", "beyond-schema")
# A mutant that makes a vector hang (mutmut's "timeout") or crash the test process ("segfault") is caught: a runner
# records such a case as failed.
DETECTED = {"killed", "timeout", "segfault"}
TIMEOUT_S = 3000
TIMEOUT_MULTIPLIER = 5
"""A mutant's CPU limit: (its tests' time without mutants + 1 s) x this x 2 (mutmut's rule; its default is 15)."""
MUTMUT = str(Path(sys.executable).with_name("mutmut"))


def stage_config(judge: Judge, targets: list[Target]) -> str:
    """The stage's pyproject.toml: what mutmut mutates, the judge's selection, the per-mutant limit."""
    folders = sorted({"spec", "conformance", *(folder.split("/")[0] for folder in judge.folders)})
    pythonpath = f"pythonpath = {json.dumps(list(judge.pythonpath))}\n" if judge.pythonpath else ""
    return f"""\
[tool.mutmut]
source_paths = ["src"]
only_mutate = {json.dumps([target.staged_file for target in targets])}
pytest_add_cli_args_test_selection = {json.dumps(list(judge.selection))}
pytest_add_cli_args = ["-x", "-q", "-p", "no:cacheprovider"]
also_copy = {json.dumps(folders)}
timeout_multiplier = {TIMEOUT_MULTIPLIER}

[tool.pytest.ini_options]
testpaths = ["tests"]
{pythonpath}"""


def stage(judge: Judge, targets: list[Target], folder: Path) -> None:
    """A fresh copy of what the judge needs, with the package under src/ as in the checkout."""
    shutil.rmtree(folder, ignore_errors=True)
    ignore = shutil.ignore_patterns("__pycache__", "node_modules", "releases")
    for copied in ("src/seq_io", "spec", "conformance", *judge.folders):
        shutil.copytree(ROOT / copied, folder / copied, ignore=ignore)
    # The judge's files alone: tests/conftest.py imports helpers of other tests.
    for file in judge.files:
        (folder / file).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / file, folder / file)
    (folder / "pyproject.toml").write_text(stage_config(judge, targets), encoding="utf-8")


def run(folder: Path, *args: str, timeout: int = TIMEOUT_S) -> str:
    done = subprocess.run([MUTMUT, *args], cwd=folder, capture_output=True, text=True, timeout=timeout, check=False)
    return done.stdout + done.stderr


def statuses(folder: Path) -> dict[str, str]:
    """mutant name → status, from `mutmut results --all true`."""
    found = {}
    for line in run(folder, "results", "--all", "true", timeout=300).splitlines():
        match = re.match(r"\s*([\w.ǁ]+__mutmut_\d+): (.+)$", line)
        if match:
            found[match.group(1)] = match.group(2).strip()
    return found


def last_lines(text: str, count: int) -> str:
    """The end of mutmut's output without its progress spinner lines."""
    lines = [line for line in text.splitlines() if not re.match(r"^\W*(Running|Generating|Listing|\d+/\d+)", line)]
    return "\n".join(lines[-count:])


def judge_target(target: Target, result: dict[str, str], folder: Path) -> bool:
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
        f"\n{target.module}: {len(result)} mutants, killed by {target.judge.description}: {len(killed)} "
        f"(timeouts included), survived: {len(survivors)} ({len(survivors) - len(unexplained)} listed as "
        f"equivalent in {target.equivalents.relative_to(ROOT)})"
    )
    print(
        f"mutation score: {raw:.1%} of all mutants (target {target.target:.0%}); {score:.1%} of the mutants that "
        "are not equivalent (target 100 %)"
    )
    for name in unexplained:
        print(
            f"survivor not killed by any vector and not listed as equivalent: {name} "
            f"({result[name]}); see `cd {folder.relative_to(ROOT)} && mutmut show {name}`"
        )
    for name in stale:
        print(f"listed as equivalent but no longer surviving: {name}: remove it from {target.equivalents.name}")
    return raw >= target.target and not unexplained and not stale


def run_judge(judge: Judge, targets: list[Target]) -> bool:
    """Stage, run mutmut with 2 children, then judge each target; True when every target meets its goals."""
    folder = STAGES / judge.name
    started = time.perf_counter()
    stage(judge, targets, folder)
    try:
        print(last_lines(run(folder, "run", "--max-children", "2"), 15))
    except subprocess.TimeoutExpired:
        print(f"mutation: mutmut did not finish within {TIMEOUT_S} s in {folder.relative_to(ROOT)}")
        return False
    result = statuses(folder)
    if not result:
        print("mutation: mutmut reported no mutants; see the output above")
        return False
    if all(status == "not checked" for status in result.values()):
        print(
            f"mutation: mutmut checked no mutant: the judge ({', '.join(judge.selection)}) did not run in "
            f"{folder.relative_to(ROOT)}; see the output above"
        )
        return False
    verdicts = [
        judge_target(
            target, {name: status for name, status in result.items() if name.startswith(target.module + ".")}, folder
        )
        for target in targets
    ]
    print(f"\nrun time ({judge.description}): {time.perf_counter() - started:.0f} s (mutmut, 2 children)")
    return all(verdicts)


def chosen(names: list[str]) -> dict[Judge, list[Target]]:
    """The targets named, grouped by their judge, in the order of TARGETS."""
    groups: dict[Judge, list[Target]] = {}
    for target in TARGETS:
        if target.name in names:
            groups.setdefault(target.judge, []).append(target)
    return groups


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "targets",
        nargs="*",
        help=f"the modules to mutate (default: {' '.join(DEFAULT_TARGETS)})",
    )
    arguments = parser.parse_args(argv)
    names = arguments.targets or list(DEFAULT_TARGETS)
    unknown = sorted(set(names) - {target.name for target in TARGETS})
    if unknown:
        parser.error(f"no target {', '.join(unknown)}; the targets: {', '.join(target.name for target in TARGETS)}")
    verdicts = [run_judge(judge, targets) for judge, targets in chosen(names).items()]
    return 0 if all(verdicts) else 1


if __name__ == "__main__":
    sys.exit(main())

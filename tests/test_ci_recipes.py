"""The README's CI recipes (`<!-- ci-recipe: github -->`, `<!-- ci-recipe: shell -->`, docs/ci.md) → taken out of the
README as written → run for real against the reference testee on a small selection (`--kind rows_of`), from an
empty folder as a user's job would: the GitHub job's `run:` steps through bash with GITHUB_ACTIONS and
GITHUB_STEP_SUMMARY set, the shell script through bash.

WHY from the README itself: a recipe copied into CI must work as printed; a copy kept in a test would not catch the
README drifting. The job's install step is the one line not run (it installs the wheel `make dist` builds, which
tests/test_package.py builds and installs); it is checked to name this package's wheel.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import yaml

from runner_fakes import make_suite

REPO_ROOT = Path(__file__).resolve().parents[1]
README = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
VERSION = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
SELECTION = " --kind rows_of"
TIMEOUT_S = 300


def _block(name: str, language: str) -> str:
    found = re.search(rf"<!-- ci-recipe: {name} -->\n```{language}\n(.*?)\n```\n", README, re.DOTALL)
    assert found, f"README.md has no ```{language} block after <!-- ci-recipe: {name} -->"
    return found.group(1) + "\n"


def _environment(folder: Path, **extra: str) -> dict[str, str]:
    """A job's environment: this virtualenv's `iospec` and `python` first on PATH, nothing of GitHub's unless given."""
    base = {k: v for k, v in os.environ.items() if not k.startswith("GITHUB_")}
    return {**base, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{base['PATH']}", "HOME": str(folder), **extra}


def _bash(command: str, folder: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", "-e", "-c", command, "recipe", *args],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
        check=False,
    )


def _expected_failures(folder: Path, testee: str) -> None:
    """expected-failures.json as the README says to write it (`--fix`), for the selection the test runs."""
    env = _environment(folder)
    fixed = _bash(f'iospec run --impl "{testee}" --xfail expected-failures.json --fix{SELECTION}', folder, env)
    assert fixed.returncode == 0, fixed.stdout[-2000:] + fixed.stderr[-2000:]


def _job() -> dict[str, Any]:
    workflow = yaml.safe_load(_block("github", "yaml"))
    (job,) = workflow["jobs"].values()
    assert isinstance(job, dict)
    return job


def test_the_github_job_runs_as_written(tmp_path: Path) -> None:
    job = _job()
    testee = job["env"]["TESTEE"]
    assert testee == "python -m seq_io.reference.testee"
    _expected_failures(tmp_path, testee)
    steps = [step for step in job["steps"] if "run" in step]
    install = next(step for step in steps if step.get("name") == "install the runner")
    assert install["run"] == f"pip install sequences_io_spec-{VERSION}-py3-none-any.whl"
    summary = tmp_path / "step-summary.md"
    env = _environment(tmp_path, **job["env"], GITHUB_ACTIONS="true", GITHUB_STEP_SUMMARY=str(summary))
    for step in steps:
        if step is install:
            continue
        assert step["run"].startswith("iospec run ")
        done = _bash(step["run"] + SELECTION, tmp_path, env)
        assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
        assert not [line for line in done.stdout.splitlines() if line.startswith("::")]  # nothing fails
    written = summary.read_text(encoding="utf-8")
    assert written.startswith("## iospec run: seq-io-ref ") and ": passed" in written.splitlines()[0]
    assert re.search(r"^\| rows_of \| \d+ \| ", written, re.MULTILINE)
    assert (tmp_path / "build" / "conformance.xml").is_file() and (tmp_path / "build" / "conformance.json").is_file()


def test_the_github_job_annotates_a_testee_that_fails(tmp_path: Path) -> None:
    """The same step with another testee (the job's TESTEE) that answers one case wrongly: exit 1, an annotation."""
    job = _job()
    suite = make_suite(tmp_path / "vectors")
    broken = f"{sys.executable} {REPO_ROOT / 'tests' / 'fake_testees' / 'echo.py'} --wrong fake-0002 --kinds rows_of"
    _expected_failures(tmp_path, job["env"]["TESTEE"])
    (step,) = [step for step in job["steps"] if str(step.get("run", "")).startswith("iospec run ")]
    summary = tmp_path / "step-summary.md"
    env = _environment(tmp_path, TESTEE=broken, GITHUB_ACTIONS="true", GITHUB_STEP_SUMMARY=str(summary))
    done = _bash(step["run"] + f" --vectors {suite}" + SELECTION, tmp_path, env)
    assert done.returncode == 1, done.stdout[-2000:] + done.stderr[-2000:]
    commands = [line for line in done.stdout.splitlines() if line.startswith("::error ")]
    assert len(commands) == 1 and commands[0].startswith("::error file=vectors/rows-of/fake.yaml,line=")
    assert "FAILED" in summary.read_text(encoding="utf-8").splitlines()[0]


def test_the_shell_recipe_runs_as_written(tmp_path: Path) -> None:
    script = tmp_path / "conformance.sh"
    script.write_text(_block("shell", "sh"), encoding="utf-8")
    assert script.read_text(encoding="utf-8").startswith("#!/bin/sh\n")
    _expected_failures(tmp_path, "python -m seq_io.reference.testee")
    done = subprocess.run(
        ["bash", str(script), *SELECTION.split()],
        cwd=tmp_path,
        env=_environment(tmp_path),
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    markdown = (tmp_path / "build" / "conformance.md").read_text(encoding="utf-8")
    assert markdown.startswith("## iospec run: seq-io-ref ") and "| **all** |" in markdown
    assert (tmp_path / "build" / "conformance.xml").is_file() and (tmp_path / "build" / "conformance.json").is_file()

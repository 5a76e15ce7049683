"""The Python package as a user gets it: the checkout → `python -m build` (sdist, then the wheel built from that
sdist) → a new virtualenv in a temporary folder → the README's commands, run from an empty folder.

WHY one module-scoped build: building and installing cost about ten seconds, and every test here asks something of
the same installed copy, as a user would. Each test runs the installed `iospec` as a real process with a time bound
and checks what it prints and its exit code, so nothing here can pass on the checkout's own files (`iospec where`
must point into the virtualenv). Bad installs and bad spec folders must be one line on stderr and exit 2.
"""

from __future__ import annotations

import ast
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest

import suite_cache
from seq_io import locate

pytestmark = pytest.mark.build

REPO_ROOT = Path(__file__).resolve().parents[1]
"""The checkout these tests run in."""
PACKAGE_VERSION = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
SHIPPED_PACKAGES = {"seq_io", "seq_io_models", "seq_io_ref", "seq_io_tools", "seq_io_spec"}
"""The wheel's import packages: the package, the generated models, and the aliases kept for one release."""
BUILD_TIMEOUT_S = 300
RUN_TIMEOUT_S = 120


@dataclass(frozen=True)
class Installed:
    """A wheel installed into its own virtualenv, and an empty folder to run it from."""

    wheel: Path
    sdist: Path
    venv: Path
    empty: Path

    @property
    def python(self) -> Path:
        return self.venv / "bin" / "python"

    @property
    def data(self) -> Path:
        located = self.run("-c", "from seq_io import locate; print(locate.data_root())", tool="python")
        return Path(located.stdout.strip())

    def run(
        self, *args: str, tool: str = "iospec", env: dict[str, str] | None = None, cwd: Path | None = None
    ) -> subprocess.CompletedProcess[str]:
        """The installed `iospec` (or python) with a clean environment: no PYTHONPATH, no SEQ_IO_SPEC_ROOT."""
        base = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "SEQ_IO_SPEC_ROOT", "VIRTUAL_ENV")}
        return subprocess.run(
            [str(self.venv / "bin" / tool), *args],
            cwd=cwd or self.empty,
            env={**base, **(env or {})},
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=RUN_TIMEOUT_S,
            check=False,
        )


def _checked(command: list[str], cwd: Path) -> None:
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=BUILD_TIMEOUT_S, check=False)
    assert done.returncode == 0, f"{' '.join(command)} failed:\n{done.stdout[-2000:]}\n{done.stderr[-3000:]}"


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    root = tmp_path_factory.mktemp("package")
    dist, venv, empty = root / "dist", root / "venv", root / "empty"
    empty.mkdir()
    _checked([sys.executable, "-m", "build", "--outdir", str(dist), str(REPO_ROOT)], root)
    (wheel,), (sdist,) = dist.glob("*.whl"), dist.glob("*.tar.gz")
    _checked([sys.executable, "-m", "venv", str(venv)], root)
    _checked([str(venv / "bin" / "pip"), "install", "--quiet", "--disable-pip-version-check", str(wheel)], root)
    return Installed(wheel, sdist, venv, empty)


def _one_clear_line(done: subprocess.CompletedProcess[str], *words: str) -> None:
    assert done.returncode == 2, (done.returncode, done.stdout, done.stderr)
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert all(word in lines[0] for word in words), lines[0]


# -- what the distributions hold ---------------------------------------------------------------------------------


def test_the_wheel_carries_the_whole_spec_and_conformance_folders_and_no_dev_dependency(installed: Installed) -> None:
    names = set(zipfile.ZipFile(installed.wheel).namelist())
    tracked = subprocess.run(
        ["git", "-C", str(REPO_ROOT), "ls-files", "spec", "conformance"],
        capture_output=True,
        text=True,
        timeout=RUN_TIMEOUT_S,
        check=True,
    ).stdout.split()
    expected = {f"seq_io/{path}" for path in tracked}
    assert expected <= names, sorted(expected - names)[:10]
    assert "seq_io/examples/uploader.py" in names and "seq_io/examples/policy.json" in names
    assert not [n for n in names if "/js/" in n or "node_modules" in n or "__pycache__" in n]
    metadata = next(zipfile.ZipFile(installed.wheel).read(n).decode() for n in names if n.endswith("/METADATA"))
    requires = [
        line.removeprefix("Requires-Dist: ") for line in metadata.splitlines() if line.startswith("Requires-Dist:")
    ]

    def named(lines: list[str]) -> set[str]:
        return {re.split(r"[=<>!~; \[]", line, maxsplit=1)[0].lower() for line in lines}

    base = named([r for r in requires if "extra ==" not in r])
    fast = named([r for r in requires if "extra == 'fast'" in r])
    dev_only = named([r for r in requires if "extra == 'dev'" in r]) - fast
    assert {"jsonschema", "referencing", "pydantic", "pyyaml"} <= base
    assert not base & dev_only, f"the base install must not pull in development tools: {base & dev_only}"
    assert fast, "the optional [fast] extra stays"


def test_the_wheel_metadata_names_the_contract_version_read_from_contract_json(installed: Installed) -> None:
    version = json.loads((REPO_ROOT / "spec" / "contract.json").read_text(encoding="utf-8"))["contract_version"]
    names = zipfile.ZipFile(installed.wheel).namelist()
    metadata = next(zipfile.ZipFile(installed.wheel).read(n).decode() for n in names if n.endswith("/METADATA"))
    assert f"(contract {version})" in next(line for line in metadata.splitlines() if line.startswith("Summary:"))
    assert f"contract-{version}" in next(line for line in metadata.splitlines() if line.startswith("Keywords:"))
    assert version not in (REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8"), "derive it, never copy it"


def _maintainer_modules() -> set[str]:
    """Every importable name scripts/ defines: its scripts and the modules of its packages."""
    scripts = REPO_ROOT / "scripts"
    names = {path.stem for path in scripts.glob("*.py")}
    names |= {path.stem for path in scripts.glob("*/*.py") if path.stem != "__init__"}
    return names | {path.parent.name for path in scripts.glob("*/__init__.py")}


def _imported_names(source: str) -> set[str]:
    """Every module name a Python source imports, each dotted part apart (`a.b` gives `a` and `b`)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names |= {part for alias in node.names for part in alias.name.split(".")}
        elif isinstance(node, ast.ImportFrom) and node.module:
            names |= set(node.module.split(".")) | {alias.name for alias in node.names}
    return names


def test_the_wheel_holds_no_maintainer_module_and_nothing_it_ships_imports_one(installed: Installed) -> None:
    maintainer = _maintainer_modules()
    assert {"seq_io_maint", "schema_mutants", "stream_model", "codegen_numbers", "mutation"} <= maintainer
    wheel = zipfile.ZipFile(installed.wheel)
    tops = {name.split("/", 1)[0] for name in wheel.namelist() if not name.split("/", 1)[0].endswith(".dist-info")}
    assert tops == SHIPPED_PACKAGES, f"unexpected top-level entries in the wheel: {tops ^ SHIPPED_PACKAGES}"
    modules = [name for name in wheel.namelist() if name.endswith(".py") and "/examples/" not in name]
    inside = [name for name in modules if Path(name).stem in maintainer]
    assert not inside, f"maintainer modules in the wheel: {inside}"
    importing = {
        name: sorted(_imported_names(wheel.read(name).decode()) & maintainer)
        for name in modules
        if _imported_names(wheel.read(name).decode()) & maintainer
    }
    assert not importing, f"shipped modules that import maintainer modules: {importing}"


def test_every_shipped_module_imports_in_a_virtualenv_without_the_checkout(installed: Installed) -> None:
    probe = (
        "import importlib, pkgutil, warnings\n"
        "warnings.simplefilter('ignore', DeprecationWarning)\n"
        "import seq_io, seq_io_models\n"
        "for package in (seq_io, seq_io_models):\n"
        "    for info in pkgutil.walk_packages(package.__path__, package.__name__ + '.'):\n"
        "        if '.examples' in info.name or info.name.endswith('__main__'):\n"
        "            continue\n"
        "        try:\n"
        "            importlib.import_module(info.name)\n"
        "        except ModuleNotFoundError as error:\n"
        "            if error.name not in ('h11', 'httpx'):  # the [http] extra\n"
        "                raise\n"
        "print('imported')\n"
    )
    done = installed.run("-c", probe, tool="python")
    assert (done.returncode, done.stdout.strip()) == (0, "imported"), done.stderr[-2000:]


def test_the_sdist_holds_the_sources_and_no_installed_modules(installed: Installed) -> None:
    with tarfile.open(installed.sdist) as sdist:
        names = [name.split("/", 1)[1] for name in sdist.getnames() if "/" in name]
    for needed in (
        "pyproject.toml",
        "hatch_build.py",
        "spec/contract.json",
        "conformance/vectors.json",
        "src/seq_io/locate.py",
        "generated/python/seq_io_models/__init__.py",
        "LICENSE",
    ):
        assert needed in names
    assert not [n for n in names if "node_modules" in n or n.startswith((".venv", "build/", "reports/"))]
    assert not [n for n in names if n.startswith(("scripts/", "implementations/", "tests/"))], "maintainers' only"


# -- the README's commands, from an empty folder -------------------------------------------------------------------


def test_the_installed_package_reads_its_own_data_not_the_checkout(installed: Installed) -> None:
    assert (
        installed.data
        == installed.venv / "lib" / f"python{sys.version_info[0]}.{sys.version_info[1]}" / "site-packages" / "seq_io"
    )
    where = installed.run("where")
    assert where.returncode == 0 and "(the installed package)" in where.stdout
    assert str(REPO_ROOT) not in where.stdout


def test_where_gives_scripts_paths_inside_the_installed_package(installed: Installed) -> None:
    done = installed.run("where", "--json")
    assert done.returncode == 0, done.stderr
    paths = json.loads(done.stdout)
    assert paths.pop("source") == "installed"
    assert all(Path(path).exists() and Path(path).is_relative_to(installed.data) for path in paths.values()), paths
    examples = installed.run("where", "examples")
    assert examples.returncode == 0 and examples.stdout.count("\n") == 1
    assert sorted(p.name for p in Path(examples.stdout.strip()).iterdir() if p.suffix in (".py", ".json")) == [
        "policy.json",
        "uploader.py",
    ]
    spec = installed.run("where", "spec")
    assert spec.returncode == 0 and Path(spec.stdout.strip()) == installed.data / "spec"


def test_version_prints_the_package_and_the_contract_version(installed: Installed) -> None:
    done = installed.run("--version")
    assert done.returncode == 0
    expected = f"iospec {PACKAGE_VERSION} (sequences-io-spec), contract {locate.contract_version()}"
    assert done.stdout.strip() == expected


def test_validate(installed: Installed) -> None:
    (installed.empty / "decl.json").write_text('{"streams": {"cam": {"at": [0, -15]}}}', encoding="utf-8")
    (installed.empty / "bad.json").write_text('{"streams": {"cam": {"at": [1]}}}', encoding="utf-8")
    good = installed.run("validate", "Observations", "decl.json")
    assert (good.returncode, good.stdout) == (0, "decl.json: valid Observations\n")
    bad = installed.run("validate", "Observations", "bad.json")
    assert bad.returncode == 1 and "$.streams.cam.at[0]" in bad.stdout


def test_the_whole_suite_passes_through_the_runner_with_the_installed_reference_testee(installed: Installed) -> None:
    files, _ = suite_cache.suite()
    cases = sum(len(f.cases) for f in files)
    done = installed.run(
        "run",
        "--impl",
        f"{installed.python} -m seq_io.reference.testee",
        "--validate-traffic",
        "--json",
        "report.json",
        "--junit",
        "junit.xml",
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert done.stdout.rstrip().splitlines()[-1].startswith(f"{cases} passed in ")
    report = json.loads((installed.empty / "report.json").read_text(encoding="utf-8"))
    assert report["ok"] and report["testee"]["name"] == "seq-io-ref" and report["totals"]["pass"] == cases


def _opens_at(where: str, case_id: str, data: Path) -> None:
    """`where` (path:line as printed) is a file inside the installed package whose line names `case_id`."""
    path, line = where.rsplit(":", 1)
    assert Path(path).is_absolute() and Path(path).is_relative_to(data), where
    assert Path(path).read_text(encoding="utf-8").splitlines()[int(line) - 1].strip() == f"- id: {case_id}"


def test_paths_printed_by_the_installed_runner_open_inside_site_packages(installed: Installed) -> None:
    """The vectors live in site-packages: a failure, `iospec show` and `--collect-only` name them whole."""
    listed = installed.empty / "passes-anyway.json"
    listed.write_text('{"entries": [{"id": "sch-windows-0001", "reason": "listed, but it passes"}]}', encoding="utf-8")
    testee = f"{installed.python} -m seq_io.reference.testee"
    done = installed.run("run", "--impl", testee, "--id", "sch-windows-0001", "--xfail", listed.name, "-q")
    assert done.returncode == 1, done.stdout + done.stderr
    header = next(line for line in done.stdout.splitlines() if line.startswith("XPASS sch-windows-0001"))
    _opens_at(header.rsplit("  ", 1)[1], "sch-windows-0001", installed.data)
    shown = installed.run("show", "sch-windows-0001")
    assert shown.returncode == 0, shown.stderr
    _opens_at(shown.stdout.splitlines()[0].split("  ", 1)[1], "sch-windows-0001", installed.data)
    collected = installed.run("run", "--collect-only", "--id", "sch-windows-0001")
    assert collected.returncode == 0, collected.stderr
    _opens_at(collected.stdout.splitlines()[0].split("  ", 1)[1], "sch-windows-0001", installed.data)


def test_the_installed_runner_runs_a_0_5_23_testee_against_the_release_it_carries(installed: Installed) -> None:
    """The wheel carries the release snapshots: a testee declaring 0.5.23 runs the 0.5.23 vectors from the package."""
    testee = REPO_ROOT / "tests" / "fake_testees" / "validator_0_5_23.py"
    done = installed.run("run", "--impl", f"{installed.python} {testee}", "--json", "report.json")
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    report = json.loads((installed.empty / "report.json").read_text(encoding="utf-8"))
    assert report["contract_version"] == "0.5.23" and report["not_in_contract"]
    assert report["cases"] and all("spec/releases/0.5.23/vectors/" in case["file"] for case in report["cases"])
    assert (installed.data / "spec" / "releases" / "0.5.23" / "vectors" / "validation").is_dir()


def test_timeline_lint_and_rules(installed: Installed) -> None:
    timeline = installed.run("timeline", '{"streams": {"cam": {"at": [-2, 0]}}}', "--acts", "0,5")
    assert timeline.returncode == 0 and "2 acts" in timeline.stdout
    lint = installed.run("lint")
    assert lint.returncode == 0 and "0 problem(s)" in lint.stdout
    assert installed.run("rules").returncode == 0


def test_bump_review_on_folders_given_explicitly_agrees_with_the_checkout(installed: Installed) -> None:
    spec = installed.data / "spec"
    done = installed.run(
        "bump-review", "--base", str(spec / "releases" / "0.5.23"), "--head", str(spec), "--json", "review.json"
    )
    ours = subprocess.run(
        [
            sys.executable,
            "-m",
            "seq_io.cli",
            "bump-review",
            "--base",
            "spec/releases/0.5.23",
            "--head",
            "spec",
            "--json",
            str(installed.empty / "checkout-review.json"),
        ],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=RUN_TIMEOUT_S,
        check=False,
    )
    assert done.returncode == ours.returncode, done.stderr
    installed_review, checkout_review = (
        json.loads((installed.empty / name).read_text(encoding="utf-8"))
        for name in ("review.json", "checkout-review.json")
    )
    for part in ("gate", "summary", "changes"):
        assert installed_review[part] == checkout_review[part], part
    assert installed_review["behaviour"]["changes"] == checkout_review["behaviour"]["changes"]


def test_maintainer_commands_refuse_to_write_into_the_installed_package(installed: Installed) -> None:
    _one_clear_line(installed.run("ids"), "read-only")
    _one_clear_line(installed.run("export"), "read-only")
    assert installed.run("export", "--check").returncode == 0


# -- bad installs and bad spec folders: one line, exit 2 ---------------------------------------------------------


def test_a_broken_spec_root_is_one_line_and_exit_2(installed: Installed, tmp_path: Path) -> None:
    (installed.empty / "decl.json").write_text('{"streams": null}', encoding="utf-8")
    missing = tmp_path / "nowhere"
    _one_clear_line(
        installed.run("validate", "Observations", "decl.json", env={"SEQ_IO_SPEC_ROOT": str(missing)}),
        "SEQ_IO_SPEC_ROOT",
        "no such folder",
    )
    not_a_spec = tmp_path / "empty"
    not_a_spec.mkdir()
    _one_clear_line(
        installed.run("validate", "Observations", "decl.json", env={"SEQ_IO_SPEC_ROOT": str(not_a_spec)}),
        "not a spec folder",
    )
    broken = tmp_path / "broken"
    shutil.copytree(installed.data / "spec", broken)
    (broken / "contract.json").write_text('{"contract_version": ', encoding="utf-8")
    for argv in (
        ["validate", "Observations", "decl.json"],
        ["timeline", '{"streams": null}', "--acts", "0"],
        ["run", "--impl", f"{installed.python} -m seq_io.reference.testee"],
    ):
        _one_clear_line(installed.run(*argv, env={"SEQ_IO_SPEC_ROOT": str(broken)}), "contract.json", "not valid JSON")
    testee = installed.run("-m", "seq_io.reference.testee", tool="python", env={"SEQ_IO_SPEC_ROOT": str(broken)})
    _one_clear_line(testee, "contract.json")


def test_a_wheel_installed_without_its_data_is_one_line_and_exit_2(installed: Installed, tmp_path: Path) -> None:
    target = tmp_path / "site"
    _checked(
        [
            str(installed.venv / "bin" / "pip"),
            "install",
            "--quiet",
            "--disable-pip-version-check",
            "--no-deps",
            "--target",
            str(target),
            str(installed.wheel),
        ],
        tmp_path,
    )
    shutil.rmtree(target / "seq_io" / "spec")
    (installed.empty / "decl.json").write_text('{"streams": null}', encoding="utf-8")
    done = installed.run(
        "-m", "seq_io.cli", "validate", "Observations", "decl.json", tool="python", env={"PYTHONPATH": str(target)}
    )
    _one_clear_line(done, "data is missing", "spec/contract.json", "reinstall")
    version = installed.run("-m", "seq_io.cli", "--version", tool="python", env={"PYTHONPATH": str(target)})
    assert version.returncode == 0 and "contract unknown (the data is missing or unreadable)" in version.stdout


# -- the editable install inside the checkout -----------------------------------------------------------------------


def test_the_editable_install_uses_the_checkouts_own_files() -> None:
    assert locate.checkout_root() == REPO_ROOT
    assert locate.data_root() == REPO_ROOT
    assert locate.spec_root() == REPO_ROOT / "spec"
    assert locate.data_problem() is None

"""The npm package as a user gets it: `npm pack` of implementations/js (its prepack step copies the spec, vectors.json
and the TypeScript types in) → `npm install <tarball>` into an empty folder → its `seq-io-testee` bin through the
runner, its exports from Node and its types from TypeScript.

WHY one module-scoped pack: packing and installing take a few seconds, and each test asks something of the same
installed copy. Every process has a time bound; nothing here can pass on the checkout's own files (the installed
package must report its own `data/` folder).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tarfile
from dataclasses import dataclass
from pathlib import Path

import pytest

import suite_cache

pytestmark = [pytest.mark.node, pytest.mark.build]

REPO_ROOT = Path(__file__).resolve().parents[1]
"""The checkout these tests run in."""
JS = REPO_ROOT / "implementations" / "js"
TIMEOUT_S = 180


@dataclass(frozen=True)
class Installed:
    tarball: Path
    folder: Path

    @property
    def package(self) -> Path:
        return self.folder / "node_modules" / "seq-io-js"

    @property
    def testee(self) -> Path:
        return self.folder / "node_modules" / ".bin" / "seq-io-testee"


def _run(command: list[str], cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        command,
        cwd=cwd,
        env={**os.environ, **(env or {})},
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
        check=False,
    )


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    root = tmp_path_factory.mktemp("npm")
    dist, folder = root / "dist", root / "empty"
    dist.mkdir()
    folder.mkdir()
    packed = _run(["npm", "pack", "--silent", "--pack-destination", str(dist)], JS)
    assert packed.returncode == 0, packed.stderr
    (tarball,) = dist.glob("*.tgz")
    done = _run(["npm", "install", "--no-audit", "--no-fund", "--prefer-offline", str(tarball)], folder)
    assert done.returncode == 0, done.stderr
    return Installed(tarball, folder)


def test_packing_leaves_no_copy_in_the_checkout(installed: Installed) -> None:
    assert not (JS / "data").exists(), "postpack removes data/, so no copy can shadow the spec being edited"


def test_the_package_json_declares_engines_files_exports_and_bin() -> None:
    manifest = json.loads((JS / "package.json").read_text(encoding="utf-8"))
    assert manifest["engines"] == {"node": ">=20"}
    assert set(manifest["files"]) >= {"src/", "data/"}
    assert manifest["bin"] == {"seq-io-testee": "src/testee.js"}
    assert manifest["exports"]["."] == "./src/index.js" and "./types" in manifest["exports"]
    assert set(manifest["dependencies"]) == {"ajv"}, "everything else is for development only"


def test_the_tarball_holds_the_schemas_the_bundle_and_the_types_as_in_the_checkout(installed: Installed) -> None:
    with tarfile.open(installed.tarball) as tar:
        members = {m.name.removeprefix("package/"): m for m in tar.getmembers()}
        schemas = sorted(p.name for p in (REPO_ROOT / "spec" / "schemas").glob("*.json"))
        assert sorted(n.split("/")[-1] for n in members if n.startswith("data/spec/schemas/")) == schemas
        for inside, outside in (
            ("data/conformance/vectors.json", "conformance/vectors.json"),
            ("data/spec/contract.json", "spec/contract.json"),
            ("data/types/contract.d.ts", "generated/ts/contract.d.ts"),
        ):
            extracted = tar.extractfile(members[inside])
            assert extracted is not None and extracted.read() == (REPO_ROOT / outside).read_bytes(), inside
    assert not [n for n in members if n.startswith(("test/", "scripts/", "node_modules/", "data/spec/releases/"))]


def test_the_installed_bin_passes_the_whole_suite_through_the_runner(installed: Installed) -> None:
    files, _ = suite_cache.suite()
    cases = sum(len(f.cases) for f in files)
    done = _run(
        [
            str(REPO_ROOT / ".venv" / "bin" / "iospec"),
            "run",
            "--impl",
            "node_modules/.bin/seq-io-testee",
            "--validate-traffic",
            "--json",
            "report.json",
        ],
        installed.folder,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert done.stdout.rstrip().splitlines()[-1].startswith(f"{cases} passed in ")
    report = json.loads((installed.folder / "report.json").read_text(encoding="utf-8"))
    assert report["testee"]["name"] == "seq-io-js"


def test_the_installed_package_reads_its_own_data_and_exports_the_implementation(installed: Installed) -> None:
    script = (
        'import * as io from "seq-io-js"; import { envelope } from "seq-io-js/envelope";'
        'const r = io.validateText("Stream", \'{"at": [0, -3]}\');'
        "console.log(JSON.stringify({root: io.DATA_ROOT, version: io.contractVersion(), r,"
        " picks: io.picks(io.of({streams: {a: {at: [-1, 0]}}}, null), 5), envelope: typeof envelope}));"
    )
    done = _run(["node", "--input-type=module", "-e", script], installed.folder)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert Path(out["root"]) == installed.package / "data"
    assert out["version"] == json.loads((REPO_ROOT / "spec" / "contract.json").read_text())["contract_version"]
    assert out["r"] == {"valid": True, "normalized": {"at": [-3, 0]}}
    assert out["picks"] == [[4, ["a"]], [5, ["a"]]] and out["envelope"] == "function"
    version = _run([str(installed.testee), "--version"], installed.folder)
    package_version = json.loads((JS / "package.json").read_text(encoding="utf-8"))["version"]
    assert (
        version.returncode == 0 and version.stdout.strip() == f"seq-io-js {package_version}, contract {out['version']}"
    )


def test_the_installed_types_compile_in_a_typescript_project(installed: Installed) -> None:
    (installed.folder / "use.ts").write_text(
        'import type { Observations, DeploymentPolicy } from "seq-io-js/types";\n'
        'import type { TesteeHello } from "seq-io-js/protocol-types";\n'
        'export const o: Observations = { streams: { cam: { at: [-15, 0] } }, unit: "steps" };\n'
        'export const p: DeploymentPolicy = { handler_ref: "m:f", observations: o };\n'
        'export const h: TesteeHello["type"] = "hello";\n',
        encoding="utf-8",
    )
    tsc = [
        str(JS / "node_modules" / ".bin" / "tsc"),
        "--ignoreConfig",
        "--strict",
        "--noEmit",
        "--module",
        "nodenext",
        "--moduleResolution",
        "nodenext",
    ]
    assert _run([*tsc, "use.ts"], installed.folder).returncode == 0
    (installed.folder / "wrong.ts").write_text(
        'import type { Observations } from "seq-io-js/types";\n'
        "export const o: Observations = { streams: { cam: { offsets: [0] } } };\n",
        encoding="utf-8",
    )
    wrong = _run([*tsc, "wrong.ts"], installed.folder)
    assert wrong.returncode != 0 and "offsets" in wrong.stdout


def test_an_installed_package_without_its_data_is_one_line_and_exit_2(installed: Installed, tmp_path: Path) -> None:
    copy = tmp_path / "project"
    shutil.copytree(installed.folder, copy, symlinks=True)
    shutil.rmtree(copy / "node_modules" / "seq-io-js" / "data" / "spec")
    done = _run(["node_modules/.bin/seq-io-testee"], copy)
    assert done.returncode == 2 and "Error" not in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert "the spec cannot be read" in done.stderr and "reinstall" in done.stderr
    bad_env = _run(["node_modules/.bin/seq-io-testee"], installed.folder, env={"SEQ_IO_SPEC_DIR": str(tmp_path)})
    assert bad_env.returncode == 2 and "SEQ_IO_SPEC_DIR" in bad_env.stderr


def test_the_two_packages_keep_the_same_version() -> None:
    """spec/CHANGELOG.md: the wheel and the npm package of one commit carry one version number."""
    pyproject = (REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8")
    python_version = next(line.split('"')[1] for line in pyproject.splitlines() if line.startswith("version = "))
    assert json.loads((JS / "package.json").read_text(encoding="utf-8"))["version"] == python_version

"""conformance/vectors.json: the committed bundle is what the YAML files give today (no drift), holds exactly
their data (same values, same number types, same member order), validates file by file against the
vector-file schema, and `iospec export --check` fails on drift and on a broken suite.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from seq_io import export
from seq_io.strict_yaml import load_file
from seq_io.vectors import CONFORMANCE, FILE_SCHEMA, vector_paths


@pytest.fixture(scope="module")
def committed() -> dict[str, Any]:
    value: dict[str, Any] = json.loads(export.BUNDLE.read_text(encoding="utf-8"))
    return value


@pytest.mark.slow
def test_the_committed_bundle_has_not_drifted() -> None:
    wanted = export.render()
    current = export.BUNDLE.read_text(encoding="utf-8")
    assert current == wanted, "conformance/vectors.json is stale: run `iospec export` (make export)"


def test_every_file_of_the_bundle_validates_against_the_vector_file_schema(committed: dict[str, Any]) -> None:
    validator = Draft202012Validator(json.loads(FILE_SCHEMA.read_text(encoding="utf-8")))
    assert committed["files"], "the bundle holds no file"
    for entry in committed["files"]:
        errors = [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(entry["document"])]
        assert not errors, (entry["path"], errors[:3])
        schema = (export.BUNDLE.parent / entry["path"]).parent / entry["document"]["$schema"]
        assert schema.resolve() == FILE_SCHEMA.resolve(), "`$schema` must resolve from the bundle's folder"


def test_the_bundle_holds_exactly_the_yaml_data(committed: dict[str, Any]) -> None:
    paths = vector_paths()
    assert [entry["path"] for entry in committed["files"]] == [
        path.relative_to(CONFORMANCE).as_posix() for path in paths
    ]
    assert committed["format_version"] == export.FORMAT_VERSION
    for entry, path in zip(committed["files"], paths, strict=True):
        # json.dumps keeps member order and tells 1 from 1.0, which == would not.
        assert json.dumps(entry["document"]) == json.dumps(load_file(path).value), entry["path"]


@pytest.fixture
def small(tmp_path: Path) -> Path:
    """A vectors folder with one real file in it (the whole suite takes seconds to read)."""
    root = tmp_path / "vectors" / "envelope"
    root.mkdir(parents=True)
    (root / "envelope.yaml").write_bytes((CONFORMANCE / "vectors/envelope/envelope.yaml").read_bytes())
    return root.parent


def test_check_fails_on_drift_and_export_repairs_it(
    small: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    output = tmp_path / "vectors.json"
    args = ["--vectors", str(small), "--output", str(output)]
    assert export.main(["--check", *args]) == 1
    assert "cannot be read" in capsys.readouterr().err
    assert export.main(args) == 0
    assert export.main(["--check", *args]) == 0
    output.write_text(output.read_text(encoding="utf-8").replace('"t": 20', '"t": 21', 1), encoding="utf-8")
    assert export.main(["--check", *args]) == 1
    err = capsys.readouterr().err
    assert "is stale" in err and '-        "t": 21' in err and '+        "t": 20' in err


def test_a_broken_vector_file_is_named_not_exported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "bad.yaml").write_text("kind: rows_of\nkind: rows_of\n")
    output = tmp_path / "out.json"
    assert export.main(["--vectors", str(tmp_path), "--output", str(output)]) == 1
    err = capsys.readouterr().err
    assert "bad.yaml:2" in err and "twice" in err and not output.exists()


def test_the_export_does_not_depend_on_hash_seeds(small: Path, tmp_path: Path) -> None:
    output = tmp_path / "vectors.json"
    output.write_text(export.render(small), encoding="utf-8")
    env = os.environ | {"PYTHONHASHSEED": "12345"}
    done = subprocess.run(
        [sys.executable, "-m", "seq_io.export", "--check", "--vectors", str(small), "--output", str(output)],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]

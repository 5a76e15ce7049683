"""The `iospec` command as a user meets it: exit codes, one error per line, never a traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

IOSPEC = [sys.executable, "-m", "seq_io.cli"]


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([*IOSPEC, *args], input=stdin, capture_output=True, text=True, timeout=120, check=False)


def test_valid_file(tmp_path: Path) -> None:
    path = tmp_path / "decl.json"
    path.write_text('{"streams": {"cam": {"at": [0, -15]}, "state": {}}}')
    done = run("validate", "Observations", str(path))
    assert done.returncode == 0 and "valid Observations" in done.stdout


def test_invalid_file_lists_each_error_with_path_and_rule(tmp_path: Path) -> None:
    path = tmp_path / "decl.json"
    path.write_text('{"streams": {" cam": {"at": [1]}}, "every": 1}')
    done = run("validate", "Observations", str(path))
    assert done.returncode == 1
    lines = done.stdout.strip().splitlines()
    assert any("$.streams.cam.at[0]" not in line and "[Observations.stream-key]" in line for line in lines)
    assert any('$.streams[" cam"].at[0]' in line and "[maximum]" in line for line in lines)
    assert all(line.startswith(str(path)) for line in lines)
    assert "Traceback" not in done.stdout + done.stderr


@pytest.mark.parametrize(
    ("args", "stdin", "code", "words"),
    [
        (("validate", "Nope", "-"), "{}", 2, "no type 'Nope'"),
        (("validate", "Stream", "/no/such/file.json"), "", 2, "cannot read"),
        (("validate", "Stream", "-"), '{"at": [NaN]}', 1, "wire.json-syntax"),
        (("validate", "Stream", "-"), '{"at": [-1e400]}', 1, "wire.non-finite-number"),
        (("validate", "Stream", "-"), "\xff{", 1, "wire.json-syntax"),
        (("validate", "Stream", "-"), "[" * 50000, 1, "wire.too-deep"),
    ],
)
def test_bad_input_is_a_message(args: tuple[str, ...], stdin: str, code: int, words: str) -> None:
    done = run(*args, stdin=stdin)
    assert done.returncode == code
    assert words in done.stdout + done.stderr
    assert "Traceback" not in done.stdout + done.stderr


@pytest.mark.parametrize(
    ("content", "words"),
    [
        ('{"title": "Stream", "$id": "x",\n "type": 5}', "not a valid 2020-12 schema"),
        ('{"title": "Stream",\n "$id": }', "Stream.json:2: not valid JSON"),
    ],
)
def test_a_broken_spec_folder_is_a_message(tmp_path: Path, content: str, words: str) -> None:
    (tmp_path / "schemas").mkdir()
    (tmp_path / "contract.json").write_text('{"contract_version": "0.0.0", "limits": {}}')
    (tmp_path / "schemas" / "Stream.json").write_text(content)
    done = subprocess.run(
        [*IOSPEC, "validate", "Stream", "-"],
        input="{}",
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={**os.environ, "SEQ_IO_SPEC_ROOT": str(tmp_path)},
    )
    assert done.returncode == 2 and words in done.stderr
    assert "Traceback" not in done.stderr


def test_a_reader_that_stops_early_gets_no_traceback() -> None:
    """`iospec run --collect-only | head -1`: the pipe closes after one line; the command stops quietly."""
    with subprocess.Popen(
        [*IOSPEC, "run", "--impl", "unused", "--collect-only"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    ) as process:
        assert process.stdout is not None and process.stderr is not None
        first = process.stdout.readline()
        process.stdout.close()
        try:
            errors = process.stderr.read().decode()
            code = process.wait(timeout=120)
        finally:
            process.kill()
    assert first.strip(), "the list printed nothing before the pipe closed"
    assert "Traceback" not in errors and "BrokenPipe" not in errors, errors
    assert code == 1

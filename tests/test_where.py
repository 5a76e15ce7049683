"""`iospec where`: one path for a script (`iospec where NAME`), every path as JSON (`--json`), and each path one
that exists. tests/test_package.py runs the same against the installed wheel."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from seq_io import cli


def test_where_json_names_every_path_and_each_exists(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["where", "--json"]) == 0
    paths = json.loads(capsys.readouterr().out)
    assert paths.pop("source") == "checkout"
    assert set(paths) == set(cli.WHERE)
    assert all(Path(path).exists() for path in paths.values()), paths
    assert (Path(paths["examples"]) / "uploader.py").is_file()
    assert Path(paths["schemas"]) == Path(paths["spec"]) / "schemas"


@pytest.mark.parametrize("name", ["spec", "examples", "contract"])
def test_where_name_prints_one_path(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["where", name]) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 1 and Path(out.strip()).exists()
    assert cli.main(["where", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)[name] == out.strip()


def test_where_refuses_an_unknown_name(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        cli.main(["where", "spex"])
    assert exited.value.code == 2 and "invalid choice: 'spex'" in capsys.readouterr().err

"""`iospec run` reads only the vector files a selection needs (seq_io.vector_index), and a broken file is reported as
itself under any filter: the committed index against the YAML files, each filter's files against the whole
suite's answer, the files the index cannot vouch for, and broken files in a temporary vectors folder.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

import suite_cache
from runner_fakes import cli, closing_line, fake
from seq_io import vector_index, vectors
from seq_io.runner import cli as runner
from seq_io.runner import suite
from seq_io.runner.suite import load_cases, select
from seq_io.vector_index import Filters
from seq_io.vectors import VECTORS_DIR, Problem, VectorFile

REFERENCE = [sys.executable, "-m", "seq_io.reference.testee"]


def test_the_committed_index_has_not_drifted() -> None:
    files, problems = suite_cache.suite()
    assert not problems
    wanted = vector_index.render(files, VECTORS_DIR)
    assert vector_index.INDEX.read_text(encoding="utf-8") == wanted, (
        "conformance/vectors-index.json is stale: run `iospec export` (make export)"
    )


@pytest.mark.parametrize(
    "filters",
    [
        Filters(ids=["sch-windows-0001"]),
        Filters(ids=["val-camera-edge-0003", "str-long-0002"]),
        Filters(ids=["sch-w*"]),
        Filters(kinds=["rows_of"]),
        Filters(kinds=["schedule"], ids=["*-0001"]),
        Filters(groups=["schedule/windows/*"]),
        Filters(groups=["window-and-alone"]),
        Filters(tags=["typical"], kinds=["envelope"]),
    ],
    ids=lambda f: repr(f),
)
def test_a_selection_reads_exactly_the_files_holding_its_cases(
    filters: Filters, monkeypatch: pytest.MonkeyPatch
) -> None:
    every, _ = suite_cache.cases()
    wanted = select(every, ids=filters.ids, groups=filters.groups, tags=filters.tags, kinds=filters.kinds)
    assert wanted
    read: list[Path] = []
    real = vectors.load_files

    def spy(paths: list[Path]) -> tuple[list[VectorFile], list[Problem]]:
        read.extend(paths)
        return real(paths)

    monkeypatch.setattr(suite, "load_files", spy)
    cases, problems = load_cases(VECTORS_DIR, filters)
    assert not problems
    assert sorted({VECTORS_DIR / case.case.file.split("vectors/", 1)[1] for case in wanted}) == read
    chosen = select(cases, ids=filters.ids, groups=filters.groups, tags=filters.tags, kinds=filters.kinds)
    assert [case.id for case in chosen] == [case.id for case in wanted]


def test_without_filters_every_file_is_read() -> None:
    assert vector_index.needed(VECTORS_DIR, Filters()) == sorted(VECTORS_DIR.rglob("*.yaml"))


def test_a_file_the_index_does_not_vouch_for_is_read_whatever_the_filters(tmp_path: Path) -> None:
    root = tmp_path / "vectors"
    shutil.copytree(VECTORS_DIR, root)
    edited = root / "validation" / "camera.yaml"
    edited.write_text(edited.read_text(encoding="utf-8") + "# edited\n", encoding="utf-8")
    added = root / "stream" / "new.yaml"
    added.write_text("kind: stream\n", encoding="utf-8")
    needed = vector_index.needed(root, Filters(ids=["sch-windows-0001"]))
    assert needed == [root / "schedule" / "windows.yaml", added, edited]
    (root / "schedule" / "windows.yaml").unlink()
    assert vector_index.needed(root, Filters(ids=["sch-windows-0001"])) == [added, edited]


def test_a_missing_or_foreign_index_reads_every_file(tmp_path: Path) -> None:
    everything = sorted(VECTORS_DIR.rglob("*.yaml"))
    assert vector_index.needed(VECTORS_DIR, Filters(kinds=["rows_of"]), tmp_path / "none.json") == everything
    foreign = tmp_path / "index.json"
    foreign.write_text('{"format_version": 99, "files": []}', encoding="utf-8")
    assert vector_index.needed(VECTORS_DIR, Filters(kinds=["rows_of"]), foreign) == everything


def _broken_folder(tmp_path: Path, breakage: tuple[str, str]) -> tuple[Path, Path]:
    """A vectors folder holding copies of schedule/windows.yaml (broken: `old` replaced by `new`, first time only)
    and of validation/camera.yaml (intact)."""
    root = tmp_path / "vectors"
    for name in ("schedule/windows.yaml", "validation/camera.yaml"):
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(VECTORS_DIR / name, root / name)
    broken = root / "schedule" / "windows.yaml"
    old, new = breakage
    text = broken.read_text(encoding="utf-8")
    assert old in text
    broken.write_text(text.replace(old, new, 1), encoding="utf-8")
    return root, broken


BREAKAGES = {
    # name: ((text replaced, its replacement), the line the problem is on, what is said)
    "yaml": (
        ("        t: 20\n", "        t: @20\n"),
        "        t: @20",
        "$: not valid YAML: found character that cannot",
    ),
    "schema": (
        ("        t: 20\n", "        t: 20\n        bogus: 1\n"),
        "      - id: sch-windows-0001",
        "$.groups[0].cases[0]: Additional properties are not allowed ('bogus' was unexpected)",
    ),
}


@pytest.mark.parametrize("breakage", BREAKAGES)
@pytest.mark.parametrize(
    "selection",
    [["--id", "sch-windows-0001"], ["--kind", "schedule"], ["--group", "window-and-alone"], ["--id", "sch-*"]],
)
def test_a_broken_file_is_reported_as_itself_not_as_an_empty_selection(
    tmp_path: Path, breakage: str, selection: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    change, at, words = BREAKAGES[breakage]
    root, broken = _broken_folder(tmp_path, change)
    line = broken.read_text(encoding="utf-8").splitlines().index(at) + 1
    assert runner.main(cli(root, fake("echo"), *selection)) == 2
    err = capsys.readouterr().err
    assert f"{broken}:{line}: {words}" in err, err
    assert "select no case" not in err and "matches no" not in err, err
    assert "Traceback" not in err


def test_a_broken_file_beside_a_selection_is_a_problem_of_the_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root, broken = _broken_folder(tmp_path, BREAKAGES["yaml"][0])
    assert runner.main(cli(root, REFERENCE, "--id", "val-camera-0001")) == 1
    out = capsys.readouterr().out
    assert f"suite: {broken}:" in out and "not valid YAML" in out
    assert closing_line(out) == (1, 1)


def test_an_unreachable_worker_is_refused_before_any_vector_file_is_read(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from seq_io import cli as iospec

    def no_reading(paths: list[Path]) -> tuple[list[VectorFile], list[Problem]]:
        raise AssertionError(f"{len(paths)} vector file(s) read before the worker was reached")

    monkeypatch.setattr(suite, "load_files", no_reading)
    assert iospec.main(["probe", "--worker", "http://127.0.0.1:9", "--timeout", "2"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("iospec probe: cannot use the worker at http://127.0.0.1:9: ") and err.count("\n") == 1, err


def test_the_probe_reads_only_the_stream_files_its_selection_needs(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from seq_io import cli as iospec

    read: list[Path] = []
    real = vectors.load_files

    def spy(paths: list[Path]) -> tuple[list[VectorFile], list[Problem]]:
        read.extend(paths)
        return real(paths)

    config = tmp_path / "worker.json"
    config.write_text('{"wait_s": 0.2}', encoding="utf-8")
    monkeypatch.setattr(suite, "load_files", spy)
    # No worker listens: the configuration file stands in for its answer, and the one replay fails to connect.
    iospec.main(["probe", "--worker", "http://127.0.0.1:9", "--worker-config", str(config), "--id", "str-act-0001"])
    capsys.readouterr()
    assert read == [VECTORS_DIR / "stream" / "act.yaml"]


def test_fix_keeps_a_list_s_own_schema_reference(
    suite_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from seq_io.runner import xfail

    listed = tmp_path / "list.json"
    header = {"$schema": "../my/xfail.schema.json", "description": "ours"}
    listed.write_text(json.dumps(header | {"entries": []}), encoding="utf-8")
    assert runner.main(cli(suite_dir, fake("echo", "--wrong", "fake-0001"), "--xfail", str(listed), "--fix")) == 0
    capsys.readouterr()
    written = json.loads(listed.read_text(encoding="utf-8"))
    assert {key: written[key] for key in header} == header and [e["id"] for e in written["entries"]] == ["fake-0001"]
    listed.unlink()
    assert runner.main(cli(suite_dir, fake("echo", "--wrong", "fake-0001"), "--xfail", str(listed), "--fix")) == 0
    capsys.readouterr()
    assert json.loads(listed.read_text(encoding="utf-8"))["$schema"] == xfail.schema_id()
    assert xfail.schema_id().startswith("https://")

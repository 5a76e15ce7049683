"""`iospec lint` refuses an expectation naming a rule id or an error id that spec/ does not define: file, line, JSON
path, the unknown id and the closest known one; and the error ids it knows are those of the spec's error-id tables.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from seq_io import cli
from seq_io.reference import keeper
from seq_io.reference.rule_ids import error_ids
from seq_io.reference.spec_data import load_spec
from seq_io.vectors import VECTORS_DIR

# name → (file, text replaced, its replacement, what the problem says after its path start, the hint)
TYPOS = {
    "schedule error": (
        "schedule/invalid.yaml",
        "        expect: {error: schedule.invalid-declaration}\n",
        "        expect: {error: schedule.invalid-declaraton}\n",
        "$.groups[0].cases[0].expect.error: 'schedule.invalid-declaraton' is not an error id the spec defines",
        "did you mean 'schedule.invalid-declaration'?",
    ),
    "stream outcome error": (
        "stream/act.yaml",
        "expect: {error: stream.act-not-after-previous, status: 409, last_act: 3}",
        "expect: {error: stream.act-not-after-last, status: 409, last_act: 3}",
        "].expect.error: 'stream.act-not-after-last' is not an error id the spec defines",
        "did you mean 'stream.act-not-after-previous'?",
    ),
    "validation rule": (
        "validation/camera.yaml",
        'error: {path: "$.width", rule: minimum}',
        'error: {path: "$.width", rule: minimun}',
        ".error.rule: 'minimun' is not a rule id the spec defines",
        "did you mean 'minimum'?",
    ),
}


@pytest.mark.parametrize("typo", TYPOS)
def test_an_unknown_expected_id_is_named_with_file_line_path_and_the_closest_id(
    typo: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    name, old, new, said, hint = TYPOS[typo]
    root = tmp_path / "vectors"
    (root / name).parent.mkdir(parents=True)
    copy = root / name
    shutil.copyfile(VECTORS_DIR / name, copy)
    assert cli.main(["lint", "--vectors", str(root)]) == 0  # the copy itself is clean
    capsys.readouterr()
    text = copy.read_text(encoding="utf-8")
    assert old in text
    copy.write_text(text.replace(old, new, 1), encoding="utf-8")
    line = next(n for n, row in enumerate(copy.read_text(encoding="utf-8").splitlines(), 1) if new.strip() in row)
    assert cli.main(["lint", "--vectors", str(root)]) == 1
    out = capsys.readouterr().out
    problems = [row for row in out.splitlines() if row.startswith(f"{copy}:")]
    assert len(problems) == 1, out
    assert problems[0].startswith(f"{copy}:{line}: $.groups[") and said in problems[0] and hint in problems[0], out


def test_the_known_error_ids_are_the_spec_tables() -> None:
    known = error_ids(load_spec())
    assert set(keeper.ERRORS) | {keeper.INVALID_SCENARIO} <= known  # spec/stream.md § 10, and STR-SCENARIO
    assert {"schedule.invalid-declaration", "envelope.frame-missing", "rows_of.ragged"} <= known  # spec/schedule.md
    assert not any(name.startswith("wire.") for name in known)  # spec/validation.md's table is of rule ids

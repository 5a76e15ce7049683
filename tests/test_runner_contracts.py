"""`iospec run` against an implementation of an older contract: the testee's hello declares a released version → the
runner runs that release's vectors (spec/releases/<version>/vectors/), reports the kinds the release lacks as "not in
contract X", and records the version run; a version the runner does not carry is one line and exit 2.

Every testee here is a real process: tests/fake_testees/validator_0_5_23.py is a validator of contract 0.5.23 (the
reference engine on the 0.5.23 snapshot, normalizing nothing as 0.5.23 did), the reference testee declares 0.5.25,
and bad_handshake declares a version nobody released.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from runner_fakes import FAKES, REPORT_SCHEMA, fake
from seq_io import locate
from seq_io.runner import cli as runner
from seq_io.runner import contracts, protocol, run
from seq_io.runner.kinds import KINDS
from seq_io.runner.suite import load_cases

RELEASE = locate.spec_root() / "releases" / "0.5.23"
OLD_TESTEE = [sys.executable, str(FAKES / "validator_0_5_23.py")]
PROTOCOL_DIR = locate.conformance_root() / "protocol"


def _schema(name: str) -> Draft202012Validator:
    return Draft202012Validator(json.loads((PROTOCOL_DIR / f"{name}.schema.json").read_text(encoding="utf-8")))


def test_each_snapshot_says_its_kinds_by_its_folders() -> None:
    """0.5.23 had validation only (spec/CHANGELOG.md, 0.5.25: the schedule, envelope, rows_of, stream and uploader
    came with 0.5.25); the package's own version has every kind the runner knows."""
    old, head = contracts.of("0.5.23"), contracts.of(locate.contract_version())
    assert old is not None and head is not None
    assert old.kinds == ("validation",) and old.vectors == RELEASE / "vectors"
    assert old.absent_kinds == ("schedule", "envelope", "rows_of", "stream", "uploader")
    assert head.kinds == KINDS and head.absent_kinds == ()


def test_the_runner_hello_lists_every_version_it_carries_newest_first() -> None:
    versions = contracts.versions()
    assert versions[0] == locate.contract_version() and {"0.5.23", "0.5.25"} <= set(versions)
    assert list(versions) == sorted(versions, key=lambda v: tuple(map(int, v.split("."))), reverse=True)
    hello = protocol.runner_hello(versions[0], versions)
    assert hello["contract_version"] == versions[0] and hello["contract_versions"] == list(versions)
    assert not list(_schema("runner-hello").iter_errors(hello))
    assert list(_schema("runner-hello").iter_errors(hello | {"contract_versions": []}))
    assert list(_schema("runner-hello").iter_errors(hello | {"contract_versions": ["0.5"]}))


def test_a_testee_declaring_0_5_23_runs_the_0_5_23_vectors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "report.json"
    code = runner.main(["--impl", " ".join(OLD_TESTEE), "--json", str(out), "--validate-traffic"])
    printed = capsys.readouterr().out
    assert code == 0, printed[-3000:]
    report = json.loads(out.read_text(encoding="utf-8"))
    assert not [e.message for e in REPORT_SCHEMA.iter_errors(report)]
    assert report["contract_version"] == "0.5.23" and report["testee"]["name"] == "validator-0.5.23"
    assert report["not_in_contract"] == ["schedule", "envelope", "rows_of", "stream", "uploader"]
    released, problems = load_cases(RELEASE / "vectors")
    assert not problems and released
    assert [case["id"] for case in report["cases"]] == [case.id for case in released]
    assert {case["file"].split("/vectors/")[0] for case in report["cases"]} == {"spec/releases/0.5.23"}
    assert report["passed"] == len(released) and report["failed"] == 0  # no kind it lacks counts against it
    assert "contract 0.5.23" in printed
    assert "not in contract 0.5.23 (not run, not failures): schedule, envelope, rows_of, stream, uploader" in printed


def test_a_kind_the_declared_contract_lacks_is_named_as_such(capsys: pytest.CaptureFixture[str]) -> None:
    assert runner.main(["--impl", " ".join(OLD_TESTEE), "--kind", "schedule"]) == 2
    err = capsys.readouterr().err
    assert err == "iospec run: --kind schedule: not in contract 0.5.23, whose vectors hold validation\n"


def test_the_package_own_version_still_runs_conformance_vectors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "report.json"
    argv = ["--impl", f"{sys.executable} -m seq_io.reference.testee", "--id", "val-camera-000*", "--json", str(out)]
    assert runner.main(argv) == 0, capsys.readouterr().out[-2000:]
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["contract_version"] == locate.contract_version() and "not_in_contract" not in report
    assert {case["file"].rsplit("/", 1)[0] for case in report["cases"]} == {"conformance/vectors/validation"}


def test_a_version_the_runner_does_not_carry_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert runner.main(["--impl", " ".join(fake("bad_handshake", "--how", "version"))]) == 2
    captured = capsys.readouterr()
    carried = " and ".join([", ".join(contracts.versions()[:-1]), contracts.versions()[-1]])
    assert captured.err == (
        'iospec run: the testee\'s hello was refused: the testee implements contract "0.0.1"; this runner carries the '
        f"vectors of contract {carried}; the hello's contract_version names the contract the testee implements, one "
        'of those (conformance/protocol.md, "Handshake")\n'
    )
    assert captured.out == ""


SWITCHING_TESTEE = """
import json, sys
from pathlib import Path
starts = Path(sys.argv[1])
starts.write_text(starts.read_text() + "x")
version = "0.5.25" if len(starts.read_text()) == 1 else "0.5.23"
sys.stdin.readline()
hello = {"type": "hello", "protocol": 1, "implementation": {"name": "switch", "version": "0"},
         "contract_version": version, "kinds": ["rows_of", "schedule"]}
print(json.dumps(hello), flush=True)
sys.stdin.readline()
sys.exit(3)
"""


def test_a_restarted_testee_declaring_another_version_is_refused(suite_dir: Path, tmp_path: Path) -> None:
    """The version of a run is the first session's: a testee that crashes and comes back declaring another contract
    would mix the vectors of two versions in one report."""
    script, starts = tmp_path / "switch.py", tmp_path / "starts"
    script.write_text(SWITCHING_TESTEE, encoding="utf-8")
    starts.write_text("", encoding="utf-8")
    cases, problems = load_cases(suite_dir)
    assert not problems
    versions = contracts.versions()
    testee = run.StdioTestee([sys.executable, str(script), str(starts)], versions[0], carried=versions)
    report = run.run_cases(cases, testee)
    first, second = report.records[:2]
    assert first.outcome == "fail" and "exited" in first.verdict.detail
    assert second.outcome == "error"
    assert "the restarted testee declares contract 0.5.23, its first session 0.5.25" in second.verdict.detail
    assert report.contract_version == "0.5.25" and len(starts.read_text()) == 2


def test_collect_only_lists_the_cases_of_a_contract_it_names(capsys: pytest.CaptureFixture[str]) -> None:
    """`--contract` picks the carried version whose cases `--collect-only` lists: 0.5.23's are its snapshot's, the
    default the newest; an unknown version, a kind that version lacks and `--contract` on a run are one line, exit 2."""
    old, problems = load_cases(RELEASE / "vectors")
    assert not problems and old
    assert runner.main(["--collect-only", "-q", "--contract", "0.5.23"]) == 0
    assert capsys.readouterr().out.split() == [case.id for case in old]
    assert runner.main(["--collect-only", "--contract", "0.5.23", "--id", old[0].id]) == 0
    assert f"{old[0].id}  spec/releases/0.5.23/vectors/" in capsys.readouterr().out
    assert runner.main(["--collect-only", "-q"]) == 0
    assert len(capsys.readouterr().out.split()) > len(old)
    refused = {
        "--contract 0.4.0: not a contract version this runner carries (": ["--collect-only", "--contract", "0.4.0"],
        "--kind stream: not in contract 0.5.23": ["--collect-only", "--contract", "0.5.23", "--kind", "stream"],
        "--contract goes with --collect-only": ["--impl", " ".join(OLD_TESTEE), "--contract", "0.5.23"],
    }
    for words, argv in refused.items():
        assert runner.main(argv) == 2, argv
        printed = capsys.readouterr()
        assert words in printed.err and len(printed.err.splitlines()) == 1 and not printed.out, printed

"""Hostile inputs, one test each: the refusal and its rule id, decided within a bounded time.

Each check runs in a subprocess with a timeout (a hang bound, not a timing assertion: the machines are shared, so
the bound is generous; a reader that hangs, recurses without end or fills memory fails it). The speed of these
refusals is measured by `scripts/bench_hostile.py`, against `json.loads` of the same text.
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from seq_io.reference.issues import QUOTE_CHARS
from seq_io.reference.wire import MAX_DOCUMENT_BYTES

REPO_ROOT = Path(__file__).resolve().parents[1]

HANG_BOUND_S = 120
"""A refusal that takes longer than this is a hang. The benchmark shows each takes milliseconds to a second."""


def run_python(code: str) -> str:
    """Run `code` with the package importable; its stdout. Fails the test if it runs past HANG_BOUND_S."""
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=HANG_BOUND_S,
        cwd=REPO_ROOT,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


CHECK = """
from seq_io.reference.validation import contract
def refused(outcome, path, rule):
    assert not outcome.valid and any((i.path, i.rule) == (path, rule) for i in outcome.issues), outcome.issues
    assert len(outcome.issues) <= 100
    print("ok")
"""

pytestmark = pytest.mark.slow

# (label, code run after CHECK; every check runs on the default path and on the pure-Python path of record)
CASES = {
    "integer of 4,301 digits (text)": """
        for c in (contract(), contract(fast=False)):
            refused(c.validate_text("ObserveFrame", '{"seq": 0, "inputs": 1' + "0" * 4300 + "}"), "$.inputs",
                    "wire.integer-too-long")
    """,
    "integer of 10,000,000 digits (text)": """
        for c in (contract(), contract(fast=False)):
            refused(c.validate_text("ObserveFrame", '{"seq": 0, "inputs": -9' + "9" * 9_999_999 + "}"),
                    "$.inputs", "wire.integer-too-long")
    """,
    "integer of 4,301 digits (value)": """
        for c in (contract(), contract(fast=False)):
            refused(c.validate_value("ObserveFrame", {"seq": 0, "inputs": 10**4300}), "$.inputs",
                    "wire.integer-too-long")
    """,
    "10**400 as a value is decided as the same text": """
        for c in (contract(), contract(fast=False)):
            refused(c.validate_value("ActRequest", {"inputs": 10**400}), "$.inputs", "wire.non-finite-number")
            refused(c.validate_text("ActRequest", '{"inputs": 1' + "0" * 400 + "}"), "$.inputs",
                    "wire.non-finite-number")
    """,
    "a list that contains itself": """
        loop = []
        loop.append(loop)
        for c in (contract(), contract(fast=False)):
            refused(c.validate_value("ActRequest", {"inputs": loop}), "$", "wire.too-deep")
    """,
    "a dict that contains itself": """
        loop = {}
        loop["a"] = [loop]
        for c in (contract(), contract(fast=False)):
            refused(c.validate_value("ActRequest", {"inputs": loop}), "$", "wire.too-deep")
    """,
    "a value nested 100,000 deep": """
        deep = 0
        for _ in range(100_000):
            deep = [deep]
        for c in (contract(), contract(fast=False)):
            refused(c.validate_value("ActRequest", {"inputs": deep}), "$", "wire.too-deep")
    """,
    "a text nested 100,000 deep": """
        for c in (contract(), contract(fast=False)):
            refused(c.validate_text("ActRequest", '{"inputs": ' + "[" * 100_000 + "]" * 100_000 + "}"), "$",
                    "wire.too-deep")
    """,
    "depth does not depend on the caller's stack": """
        import sys
        text = '{"inputs": ' + "[" * 199 + "0" + "]" * 199 + "}"
        value = 0
        for _ in range(199):
            value = [value]
        def at_depth(n):
            if n:
                return at_depth(n - 1)
            return [(c.validate_text("ActRequest", text).valid, c.validate_value("ActRequest", {"inputs": value}).valid)
                    for c in (contract(), contract(fast=False))]
        for c in (contract(), contract(fast=False)):  # built before the stack is deep
            c.validate_text("ActRequest", "{}")
        shallow = at_depth(0)
        deep = at_depth(sys.getrecursionlimit() - 60)
        assert shallow == deep == [(True, True), (True, True)], (shallow, deep)
        print("ok")
    """,
    "a list shared 2**60 times over": """
        shared = [0]
        for _ in range(60):
            shared = [shared, shared]
        for c in (contract(), contract(fast=False)):
            refused(c.validate_value("ActRequest", {"inputs": shared}), "$", "reader.too-large")
    """,
    "uniqueItems on 10,000 distinct objects": """
        text = '{"at": [' + ", ".join(f'{{"i": {i}}}' for i in range(10_000)) + "]}"
        for c in (contract(), contract(fast=False)):
            refused(c.validate_text("Stream", text), "$.at", "maxItems")
    """,
    "uniqueItems on 256 distinct deep objects": """
        deep = "[" * 150 + "0" + "]" * 150
        text = '{"at": [' + ", ".join(f'{{"i": {i}, "d": {deep}}}' for i in range(256)) + "]}"
        for c in (contract(), contract(fast=False)):
            refused(c.validate_text("Stream", text), "$.at[0]", "type")
    """,
    "100,000 stream keys": """
        text = '{"streams": {' + ", ".join(f'"k{i}": {{}}' for i in range(100_000)) + "}}"
        for c in (contract(), contract(fast=False)):
            refused(c.validate_text("Observations", text), "$.streams", "maxProperties")
    """,
    "100,000 duplicate keys": """
        text = '{"inputs": {' + ", ".join('"a": 1' for _ in range(100_000)) + "}}"
        for c in (contract(), contract(fast=False)):
            refused(c.validate_text("ActRequest", text), "$.inputs", "wire.duplicate-key")
    """,
    "100,000 overflowing numbers": """
        text = '{"inputs": [' + ", ".join("1e400" for _ in range(100_000)) + "]}"
        for c in (contract(), contract(fast=False)):
            refused(c.validate_text("ActRequest", text), "$.inputs[0]", "wire.non-finite-number")
    """,
    "200,000 frames, each refused": """
        text = '{"episode_id": "e", "frames": [' + ", ".join('{"seq": -1, "inputs": 0}' for _ in range(200_000)) + "]}"
        for c in (contract(), contract(fast=False)):
            refused(c.validate_text("ObserveRequest", text), "$.frames[0].seq", "minimum")
    """,
    "a key of 10,000,000 characters is quoted short": f"""
        text = '{{"' + "x" * 10_000_000 + '": 1}}'
        for c in (contract(), contract(fast=False)):
            outcome = c.validate_text("Stream", text)
            refused(outcome, "$", "additionalProperties")
            assert all(len(i.message) < 300 for i in outcome.issues), [len(i.message) for i in outcome.issues]
            assert '"' + "x" * {QUOTE_CHARS} not in outcome.issues[0].message
    """,
    "a stream key of 1,000,000 characters": """
        text = '{"streams": {"' + " " * 1_000_000 + '": {}}}'
        for c in (contract(), contract(fast=False)):
            refused(c.validate_text("Observations", text), "$.streams", "Observations.stream-key")
    """,
    "a document over the size limit": """
        from seq_io.reference import wire
        wire.MAX_DOCUMENT_BYTES = 1000  # the same code path as 128 MiB, without filling the machine's memory
        import seq_io.reference.fast_wire as fast_wire
        fast_wire.MAX_DOCUMENT_BYTES = 1000
        for c in (contract(), contract(fast=False)):
            refused(c.validate_text("ActRequest", '{"inputs": "' + "x" * 1000 + '"}'), "$", "reader.too-large")
            refused(c.validate_value("ActRequest", {"inputs": "x" * 1000}), "$", "reader.too-large")
    """,
    "picks, needed and wanted at 2**53 - 1 after -1": """
        from seq_io.reference import schedule
        for declaration in ({"streams": {"f": {"every": 1}}}, {"every": 1}):
            plan = schedule.of(declaration)
            for call in (lambda: schedule.picks(plan, 2**53 - 1, -1), lambda: schedule.needed(plan, 2**53 - 1, -1),
                         lambda: schedule.wanted(plan, -1, 2**53 - 1)):
                try:
                    call()
                except schedule.ScheduleError as error:
                    assert error.rule == "schedule.result-too-large", error
                else:
                    raise AssertionError("not refused")
        print("ok")
    """,
}


@pytest.mark.parametrize("code", CASES.values(), ids=list(CASES))
def test_hostile_input_is_refused_in_bounded_time(code: str) -> None:
    assert "ok" in run_python(CHECK + textwrap.dedent(code))


# ------------------------------------------------------------------ iospec validate on files that are not documents


def iospec_validate(path: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "seq_io.cli", "validate", "Observations", path],
        capture_output=True,
        text=True,
        timeout=HANG_BOUND_S,
        cwd=REPO_ROOT,
        check=False,
    )


@pytest.mark.parametrize("kind", ["a character device", "a FIFO (named pipe)", "a directory"])
def test_iospec_validate_refuses_what_is_not_a_regular_file(tmp_path: Path, kind: str) -> None:
    if kind == "a character device":
        path = "/dev/zero"
    elif kind == "a directory":
        path = str(tmp_path)
    else:
        path = str(tmp_path / "fifo")
        os.mkfifo(path)  # nobody writes to it: a reader that opens it blocking would hang
        assert stat.S_ISFIFO(os.stat(path).st_mode)
    done = iospec_validate(path)
    assert done.returncode == 2
    assert done.stderr == f"iospec: cannot read {path}: it is {kind}, not a regular file\n"
    assert done.stdout == ""


def test_iospec_validate_refuses_a_file_over_the_size_limit(tmp_path: Path) -> None:
    big = tmp_path / "big.json"
    with big.open("wb") as handle:  # sparse: no disk is used
        handle.truncate(MAX_DOCUMENT_BYTES + 1)
    done = iospec_validate(str(big))
    assert done.returncode == 1
    assert done.stdout.count("\n") == 1 and "[reader.too-large]" in done.stdout and done.stderr == ""


def test_iospec_validate_quotes_a_huge_key_short(tmp_path: Path) -> None:
    document = tmp_path / "key.json"
    document.write_text('{"streams": {}, "' + "k" * 5_000_000 + '": 1}', encoding="utf-8")
    done = iospec_validate(str(document))
    assert done.returncode == 1
    assert "[additionalProperties]" in done.stdout and len(done.stdout) < 400

"""`iospec probe` against real worker processes: the reference worker passes every applicable stream case, and
each deliberately broken worker (tests/broken_worker.py) fails exactly the cases its fault touches, which the test
works out from the vectors themselves; a worker without test keepers runs what its configuration matches; a
worker that hangs or resets connections fails per case and the probe still ends."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

import suite_cache
from http_processes import BROKEN, REPO, children, probe, probe_started, running, worker
from runner_fakes import closing_line
from seq_io.reference.keeper import FRAMES_MISSING, FRAMES_OVER_LIMIT
from seq_io.runner.kinds import expected_outcome
from seq_io.runner.suite import SuiteCase

pytestmark = [pytest.mark.realclock, pytest.mark.slow]

STREAM = [case for case in suite_cache.cases()[0] if case.kind == "stream"]
BY_ID = {case.id: case for case in STREAM}
TIMING = "the machine could not keep the timing"
"""How the probe reports a scenario whose timing a loaded machine broke even after its retries: an error of the
run, never the worker's failure (conformance/worker.md, "Time on a real clock")."""


@pytest.fixture(autouse=True)
def no_leftovers() -> Iterator[None]:
    yield
    assert children() == [], "a test left a process behind"


def run_probe(url: str, tmp_path: Path, *flags: str) -> tuple[int, dict[str, Any], str]:
    report = tmp_path / "report.json"
    done = probe(
        url,
        "--json",
        str(report),
        "--junit",
        str(tmp_path / "junit.xml"),
        "--tap",
        str(tmp_path / "results.tap"),
        "--jobs",
        "16",
        *flags,
    )
    assert "Traceback" not in done.stderr, done.stderr
    return done.returncode, json.loads(report.read_text()), done.stdout


def failing(report: dict[str, Any]) -> set[str]:
    """The cases the probe blamed on the worker."""
    return {case["id"] for case in report["cases"] if case["status"] == "fail"}


def timing_errors(report: dict[str, Any]) -> set[str]:
    """The cases a loaded machine kept from being judged; any other kind of error fails the test."""
    errors = {
        case["id"]: f"{case.get('detail', '')} {case.get('note', '')}"
        for case in report["cases"]
        if case["status"] == "error"
    }
    other = {case_id: text for case_id, text in errors.items() if TIMING not in text}
    assert not other, f"errors that are not the machine's timing: {other}"
    return set(errors)


def not_applicable(report: dict[str, Any]) -> set[str]:
    return {case["id"] for case in report["cases"] if case.get("note", "").startswith("not applicable over HTTP:")}


def operations(case: SuiteCase) -> list[dict[str, Any]]:
    """A scenario's operations with their expectations (none for a keeper that cannot be made, STR-SETUP)."""
    return [] if "expect" in case.case.data else list(case.case.data["operations"])


def test_the_reference_worker_passes_every_applicable_case(tmp_path: Path) -> None:
    with running(worker("--testing", "--quiet")) as process:
        code, report, stdout = run_probe(process.url, tmp_path)
        assert process.stop() == 0
    late = timing_errors(report)
    assert code == (1 if late else 0), stdout
    assert report["totals"]["fail"] == 0, f"the reference worker was blamed: {sorted(failing(report))}"
    assert report["totals"]["pass"] + report["totals"]["xfail"] + len(late) == len(STREAM)
    assert len(late) <= len(STREAM) // 4, f"the machine's timing kept too many cases from being judged: {late}"
    skipped = {case["id"] for case in report["cases"] if case["outcome"] == "xfail"}
    assert skipped == not_applicable(report)
    for case_id in skipped:  # each is reported with its reason, never silently
        assert f"  {case_id}: " in stdout
    assert len(skipped) <= len(STREAM) // 10
    assert (tmp_path / "junit.xml").read_text().count("<testcase ") == len(STREAM)
    schema = json.loads((REPO / "conformance" / "schema" / "report.schema.json").read_text())
    assert not list(Draft202012Validator(schema).iter_errors(report))
    assert closing_line(stdout) == (report["passed"], len(late))


def _with_skipped(case: SuiteCase) -> bool:
    return any(isinstance(op.get("observe"), dict) and op["observe"].get("skipped") for op in operations(case))


def _over_limit(case: SuiteCase) -> bool:
    return any("observe" in op and op["expect"].get("error") == FRAMES_OVER_LIMIT for op in operations(case))


def _fails_at_an_advance(case: SuiteCase) -> bool:
    """An act fails at an advance, with no idle timeout: then only the deadline's timer can answer it in time (with
    an idle timeout, the worker's idle sweep ticks the keeper and answers it too)."""
    ops = operations(case) if case.case.data.get("episode_idle") is None else []
    return any(
        "act" in op
        and expected_outcome(i, op).get("error") == FRAMES_MISSING
        and "advance" in ops[expected_outcome(i, op)["at"]]
        for i, op in enumerate(ops)
    )


def _resends_differ(case: SuiteCase) -> bool:
    seen: dict[tuple[str, int], Any] = {}
    for op in operations(case):
        body = op.get("observe")
        if not (isinstance(body, dict) and "through" in op["expect"]):
            continue
        for frame in body.get("frames", []):
            key = (body["episode_id"], frame["seq"])
            if key in seen and seen[key] != frame["inputs"]:
                return True
            seen.setdefault(key, frame["inputs"])
    return False


def _answers_something(case: SuiteCase) -> bool:
    return any("observe" in op or ("act" in op and "waiting" not in op["expect"]) for op in operations(case))


# fault → (the cases it can break, worked out from the vectors; cases it must break; `exact`: all it can break)
FAULTS: dict[str, tuple[Any, set[str], bool]] = {
    "forget-skipped": (_with_skipped, {"str-through-0001", "str-wait-0001", "str-wait-0005"}, False),
    "resend-replaces": (_resends_differ, {"str-resend-0001", "str-resend-0002", "str-resend-0003"}, False),
    "limit-500": (_over_limit, set(), True),
    "lazy-deadline": (_fails_at_an_advance, {"str-wait-0009", "str-wait-0014"}, True),
    "no-header": (_answers_something, set(), True),
}


@pytest.mark.parametrize("fault", sorted(FAULTS))
def test_a_broken_worker_fails_exactly_the_cases_its_fault_touches(fault: str, tmp_path: Path) -> None:
    can_break, must_break, exact = FAULTS[fault]
    with running([*BROKEN, fault, "--testing", "--quiet"]) as process:
        code, report, _ = run_probe(process.url, tmp_path)
        assert process.stop() == 0
    assert code == 1
    broken, late = failing(report), timing_errors(report)
    touched = {case.id for case in STREAM if can_break(case)} - not_applicable(report)
    assert must_break - late <= broken, f"not caught: {sorted(must_break - late - broken)}"
    assert broken <= touched, f"failed without the fault touching them: {sorted(broken - touched)}"
    if exact:
        assert broken == touched - late, f"not caught: {sorted(touched - late - broken)}"
    assert broken, "the fault went unnoticed"


def test_a_hanging_worker_fails_per_case_and_the_probe_ends(tmp_path: Path) -> None:
    chosen = ["str-act-0001", "str-act-0002", "str-wait-0020"]
    with running([*BROKEN, "hang-act", "--testing", "--quiet", "--shutdown-timeout", "1"]) as process:
        code, report, _ = run_probe(process.url, tmp_path, "--timeout", "3", *(f"--id={i}" for i in chosen))
        process.stop()
    assert code == 1 and failing(report) == set(chosen)
    for case in report["cases"]:
        said = (  # an act that waits is known to hang sooner: the worker never lists it as waiting
            r"neither answered the act nor listed it as waiting"
            if case["id"] == "str-wait-0020"
            else r"no whole answer to POST /stream/keepers/k\d+/act within"
        )
        assert re.search(said, case["detail"]), case


def test_a_worker_that_resets_connections_fails_per_case(tmp_path: Path) -> None:
    chosen = [
        case.id
        for case in STREAM
        if case.case.data["declaration"] is None
        and not case.case.data.get("limits")
        and case.case.data.get("episode_idle") is None
    ][:4]
    config = tmp_path / "worker.json"
    config.write_text(json.dumps({"declaration": None, "wait_s": 1.0}))
    with running([*BROKEN, "reset"]) as process:
        code, report, _ = run_probe(
            process.url, tmp_path, "--worker-config", str(config), *(f"--id={i}" for i in chosen)
        )
        process.stop()
    assert code == 1 and failing(report) == set(chosen) and len(chosen) == 4
    for case in report["cases"]:
        assert "failed" in case["detail"] and "Error" in case["detail"], case


def test_a_worker_without_test_keepers_runs_what_its_configuration_matches(tmp_path: Path) -> None:
    policy = Path(__file__).parent / "policies" / "every-one.json"
    matching = {
        case.id
        for case in STREAM
        if case.case.data["declaration"] == {"every": 1}
        and "rate" not in case.case.data
        and not case.case.data.get("limits")
        and case.case.data.get("episode_idle") is None
    }
    xfail = tmp_path / "not-run.json"
    with running(worker("--policy", str(policy), "--wait-s", "1", "--no-episode-idle", "--quiet")) as process:
        code, report, stdout = run_probe(process.url, tmp_path)
        fixed = probe(process.url, "--xfail", str(xfail), "--fix", "--group", "stream/act/*")
        again, listed, _ = run_probe(process.url, tmp_path, "--xfail", str(xfail), "--group", "stream/act/*")
        assert process.stop() == 0
    ran = {case["id"] for case in report["cases"] if case["outcome"] == "pass"}
    assert ran and ran <= matching, sorted(ran - matching)
    not_run = {case["id"] for case in report["cases"] if case["status"] == "skip"} - not_applicable(report)
    assert not_run >= {case.id for case in STREAM} - matching - not_applicable(report)
    for case in report["cases"]:  # a matching case not run needs a longer wait than this worker's 1 s
        if case["id"] in not_run & matching:
            assert "differs in wait;" in case["detail"], case
    not_ok = {case["id"] for case in report["cases"] if not case["ok"]}
    assert code == 1 and not_ok - timing_errors(report) == not_run  # not run fails, unless the list says so
    assert "by the configuration they need" in stdout and "MAX_STREAM_FRAMES" in stdout
    assert fixed.returncode == 0 and again == (1 if timing_errors(listed) else 0), fixed.stdout
    assert listed["totals"]["fail"] == listed["totals"]["skip"] == 0 and listed["totals"]["xfail"] > 0


def test_an_unreachable_worker_is_one_line_and_exit_2(tmp_path: Path) -> None:
    done = probe("http://127.0.0.1:9", "--timeout", "2")
    assert (
        done.returncode == 2
        and "cannot use the worker at http://127.0.0.1:9: GET /stream/info failed: ConnectError" in done.stderr
    )
    assert done.stderr.strip().count("\n") == 0


def test_start_runs_the_worker_for_the_length_of_the_probe(tmp_path: Path) -> None:
    command = " ".join([*worker("--testing", "--quiet")])
    done = probe_started(command, "--group", "stream/act/*", "--json", str(tmp_path / "report.json"))
    report = json.loads((tmp_path / "report.json").read_text())
    late = timing_errors(report)
    assert done.returncode == (1 if late else 0), done.stdout + done.stderr
    acts = sum(c.group.startswith("stream/act/") for c in STREAM)
    assert closing_line(done.stdout) == (acts - len(late), len(late))


def test_start_with_a_command_that_never_listens_is_one_line() -> None:
    done = probe_started("sleep 60", "--group", "stream/act/*", timeout=120)
    assert done.returncode == 2 and "did not print `listening on URL`" in done.stderr


@pytest.mark.parametrize(("command", "said"), [("", "--start is empty"), ("'unclosed", "cannot be split into words")])
def test_start_with_no_command_is_one_line(command: str, said: str) -> None:
    done = probe_started(command, "--group", "stream/act/*", timeout=120)
    assert done.returncode == 2 and said in done.stderr and "Traceback" not in done.stderr, done.stderr

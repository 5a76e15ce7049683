"""iospec uploader-check (conformance/uploader-http.md): how played requests are attributed, timed and judged; the
recording worker's HTTP; the reference SDK passing every uploader vector over real HTTP; and SDKs that hang, print
garbage, flood the worker, cut their bodies off or leave a daemon behind, each failing its own case with the run
going on and no process left.

The small suite (`tiny`) has three identical scenarios under the episode ids a, b and c, so that a hostile SDK can
misbehave in b alone (tests/broken_uploaders.py, `--on b`), plus one whose setup `of` refuses. Their expectations
are derived by hand in their `why`.
"""

from __future__ import annotations

import json
import re
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from runner_fakes import REPORT_SCHEMA, gone
from seq_io.reference.spec_data import load_spec
from seq_io.runner.reports import Report
from seq_io.runner.suite import SuiteCase, load_cases, select
from seq_io.uploader_check import cli, engine, sdk, worker
from seq_io.uploader_check.engine import Playback, Played
from seq_io.uploader_check.run import check
from seq_io.uploader_check.worker import Answer, Arrival, Drop, RecordingWorker
from seq_io.vectors import VECTORS_DIR

BROKEN = Path(__file__).parent / "broken_uploaders.py"
LATE = Path(__file__).parent / "late_uploader.py"
REFERENCE = [sys.executable, "-m", "seq_io.reference.uploader_driver"]
EVENTS = """
          - {plan: 2}
          - {observe: {n: 0, inputs: {x: 0}}, expect: [{post: {frames: [{seq: 0, inputs: {x: 0}}]}}]}
          - {answer: {to: post, status: 200}}
          - {observe: {n: 1, inputs: {x: 1}}, expect: [{post: {frames: [{seq: 1, inputs: {x: 1}}]}}]}
          - {answer: {to: post, status: 200}}
          - {act: {t: 2, inputs: {x: 2}}, expect: [{act: {seq: 2, inputs: {x: 2}}}]}
          - {answer: {to: act, status: 200}}"""
TINY = f"""$schema: ../../schema/vector-file.schema.json
kind: uploader
id_prefix: tiny-up
description: Three copies of one scenario, and a setup that is refused.
groups:
  - group: two-frames
    why: >-
      With {{"every": 1}} wanted(s, -1, 2) lists 0 and 1, whole (UPL-WANTED, UPL-CUT); each is posted at once, no post
      being in flight (UPL-POST-PROMPT); the act carries its own observation whole (UPL-ACT-BODY).
    declaration: {{every: 1}}
    cases:
      - id: tiny-up-0001
        why: The scenario of the group, in episode a.
        episode_id: a
        events:{EVENTS}
      - id: tiny-up-0002
        why: The scenario of the group, in episode b.
        episode_id: b
        events:{EVENTS}
      - id: tiny-up-0003
        why: The scenario of the group, in episode c.
        episode_id: c
        events:{EVENTS}
  - group: refused
    why: >-
      {{"every": 0}} is not a valid Observations (`every` is above 0): `of` refuses it, so no uploader is made
      (UPL-SETUP) and the driver answers the start with schedule.invalid-declaration.
    declaration: {{every: 0}}
    cases:
      - id: tiny-up-0004
        why: As the group says.
        episode_id: d
        expect: {{error: schedule.invalid-declaration}}
        events:
          - {{plan: 1}}
"""


@pytest.fixture
def tiny(tmp_path: Path) -> Path:
    folder = tmp_path / "vectors"
    (folder / "uploader").mkdir(parents=True)
    (folder / "uploader" / "tiny.yaml").write_text(TINY, encoding="utf-8")
    return folder


def tiny_cases(folder: Path) -> list[SuiteCase]:
    cases, problems = load_cases(folder)
    assert not problems, problems
    return cases


def hostile(how: str, pids: Path) -> list[str]:
    return [sys.executable, str(BROKEN), how, "--on", "b", "--pid-file", str(pids)]


def outcomes(report: Report) -> dict[str, str]:
    return {record.case.id: record.outcome for record in report.records}


# -- attributing, timing and judging (no clock, no process) ------------------------------------------------


def arrival(seconds: float, sort: str = "post", body: bytes = b"{}", **headers: str) -> Arrival:
    path = {"post": "/observe", "act": "/act"}.get(sort, "/other")
    return Arrival(seconds, "POST", path, {"content-type": "application/json", **headers}, body)


def test_an_at_within_the_tolerance_is_taken_as_its_expectation() -> None:
    assert engine.snapped(0.04, None, 0.0, 0.05) == 0.0
    assert engine.snapped(0.06, None, 0.0, 0.05) == 0.06
    assert engine.snapped(0.3, 0.25, 0.0, 0.1) == 0.25
    window = {"from": 0.1, "to": 0.2}
    assert engine.snapped(0.05, window, 0.0, 0.1) == 0.1
    assert engine.snapped(0.15, window, 0.0, 0.1) == 0.15
    assert engine.snapped(0.29, window, 0.0, 0.1) == 0.2
    assert engine.snapped(0.31, window, 0.0, 0.1) == 0.31


def test_a_retry_come_early_belongs_to_the_advance_that_expects_it() -> None:
    """A post fails at event 1 (real 1.0, reading 0.0); zero-time events take real time until the advance at 1.3, so
    the retry due 0.1 s after the failure comes before the advance began: it is the advance's, timed from the
    failure."""
    failed_at = (1.0, 0.0)
    played = [Played(0.0, 0.0, 0.0), Played(1.0, 0.0, 0.0), Played(1.2, 0.0, 0.0)]
    played.append(Played(1.3, 0.0, 0.3, advance=True, timed_from=failed_at))
    expects: list[list[dict[str, Any]]] = [[], [], [], [{"post": {}, "at": {"from": 0.1, "to": 0.2}}]]
    early = arrival(1.12)
    assert engine.attribute(played, expects, [early], 0.01) == [[], [], [], [early]]
    assert played[3].at(early.seconds) == pytest.approx(0.12)
    too_early = arrival(1.05)
    assert engine.attribute(played, expects, [too_early], 0.01) == [[], [too_early], [], []]
    assert engine.attribute(played, expects, [too_early], 0.06) == [[], [], [], [too_early]]


def test_a_request_sent_before_the_event_that_causes_it_stays_where_it_arrived() -> None:
    """A post a robot or worker event should cause, sent before that event (a post that does not wait for the one
    in flight), is not moved to it, however close: only an advance has requests no event causes."""
    played = [Played(0.0, 0.0, 0.0), Played(0.01, 0.0, 0.0)]
    expects: list[list[dict[str, Any]]] = [[], [{"post": {}}]]
    early = arrival(0.005)
    assert engine.attribute(played, expects, [early], 0.1) == [[early], []]


def test_a_request_come_late_goes_back_only_to_tell_a_failure_on_timing() -> None:
    played = [Played(0.0, 0.0, 0.0), Played(0.01, 0.0, 0.0), Played(0.02, 0.0, 0.0)]
    expects: list[list[dict[str, Any]]] = [[{"post": {}}], [], []]
    late = arrival(0.05)
    assert engine.attribute(played, expects, [late], 0.1, late=True) == [[late], [], []]
    assert engine.attribute(played, expects, [late], 0.01, late=True) == [[], [], [late]]
    assert engine.attribute(played, expects, [late], 0.1) == [[], [], [late]]


def test_a_request_no_event_expects_stays_where_it_arrived() -> None:
    played = [Played(0.0, 0.0, 0.0), Played(0.01, 0.0, 0.0)]
    expects: list[list[dict[str, Any]]] = [[{"post": {}}], [{"act": {}}]]
    first, extra, act = arrival(0.001), arrival(0.002), arrival(0.011, "act")
    assert engine.attribute(played, expects, [first, extra, act], 0.1) == [[first, extra], [act]]


def test_a_post_and_an_act_of_one_event_are_compared_in_the_vectors_order() -> None:
    played = [Played(0.0, 0.0, 0.0)]
    act, post = arrival(0.001, "act"), arrival(0.002)
    assert engine.attribute(played, [[{"post": {}}, {"act": {}}]], [act, post], 0.1) == [[post, act]]
    assert engine.attribute(played, [[{"post": {}}]], [act, post], 0.1) == [[act, post]]


@pytest.mark.parametrize(
    ("body", "words"),
    [(b'{"a": 1', "not JSON"), (b"\xff{}", "not UTF-8"), (b'{"a": 1, "a": 2}', "not JSON"), (b"NaN", "not JSON")],
)
def test_a_body_that_is_not_json_is_recorded_as_a_sentence(body: bytes, words: str) -> None:
    value, problem = engine.body_value(arrival(0.0, body=body))
    assert problem is not None and words in problem and value == f"({problem})"
    assert engine.body_value(arrival(0.0, body=b'{"n": 9007199254740993}')) == ({"n": 9007199254740993}, None)


def test_what_an_uploader_must_not_send_over_http_is_named() -> None:
    assert worker.http_problems("POST", "/observe", {"content-type": "application/json; charset=utf-8"}) == []
    assert any("GET /act" in p for p in worker.http_problems("GET", "/act", {"content-type": "application/json"}))
    assert any("text/plain" in p for p in worker.http_problems("POST", "/act", {"content-type": "text/plain"}))
    assert any("None" in p for p in worker.http_problems("POST", "/observe", {}))


def _tiny_data(folder: Path) -> dict[str, Any]:
    from seq_io.runner.uploader_judge import uploader_case_data

    return uploader_case_data(tiny_cases(folder)[0])


def test_http_problems_are_differences_of_their_own(tiny: Path) -> None:
    data = _tiny_data(tiny)
    played = [Played(float(index), 0.0, 0.0) for index in range(len(data["events"]))]
    posts = [
        b'{"episode_id":"a","frames":[{"seq":0,"inputs":{"x":0}}]}',
        b'{"episode_id":"a","frames":[{"seq":1,"inputs":{"x":1}}]}',
    ]
    act = b'{"episode_id":"a","seq":2,"inputs":{"x":2}}'
    good = [arrival(1.001, body=posts[0]), arrival(3.001, body=posts[1]), arrival(5.001, "act", body=act)]
    assert engine.judge(data, Playback(played, good), 0.1).status == "pass"
    wrong = [good[0], Arrival(3.001, "POST", "/observe", {"content-type": "text/plain"}, posts[1]), good[2]]
    verdict = engine.judge(data, Playback(played, wrong), 0.1)
    assert verdict.status == "fail" and verdict.differences[0].at == "$.requests[3][0]"
    assert "text/plain" in str(verdict.differences[0].got)
    flooded = engine.judge(data, Playback(played, good, flooded=3), 0.1)
    assert flooded.status == "fail" and "floods" in flooded.detail


def test_a_testee_hello_is_refused_with_a_sentence() -> None:
    version = load_spec().contract_version
    testee_hello = {"type": "hello", "protocol": 1, "implementation": {"name": "x", "version": "1"}, "kinds": []}
    with pytest.raises(ValueError, match="testee protocol"):
        sdk.checked_hello(testee_hello | {"contract_version": version}, version)
    good = {"type": "hello", "driver": 1, "implementation": {"name": "x", "version": "1"}, "contract_version": version}
    assert sdk.checked_hello(good, version).kinds == ("uploader",)
    with pytest.raises(ValueError, match="driver protocol 2"):
        sdk.checked_hello(good | {"driver": 2}, version)


# -- the recording worker over a real socket -----------------------------------------------------------------


@pytest.mark.realclock
def test_the_recording_worker_holds_answers_and_drops_as_the_scenario_says() -> None:
    recording = RecordingWorker("x-seq-observe/1")
    scenario = recording.scenario()
    try:
        with httpx.Client(base_url=scenario.url, trust_env=False, timeout=10) as client:
            import concurrent.futures

            with concurrent.futures.ThreadPoolExecutor(4) as pool:
                default = pool.submit(client.post, "/observe", json={"episode_id": "e"})
                assert scenario.wait_for(1, time.monotonic() + 10) == 1
                assert scenario.release("post", Answer(200))
                answered = default.result(10)
                assert answered.headers["seq-accept-formats"] == "x-seq-observe/1" and answered.content == b""
                assert answered.headers["connection"] == "close"
                bare = pool.submit(client.post, "/act", json={"seq": 1})
                scenario.wait_for(2, time.monotonic() + 10)
                assert scenario.release("act", Answer(409, {}, {"error": {}}, True))
                refused = bare.result(10)
                assert refused.status_code == 409 and "seq-accept-formats" not in refused.headers
                assert refused.json() == {"error": {}} and refused.headers["content-type"] == "application/json"
                dropped = pool.submit(client.post, "/observe", content=b"[1]", headers={"content-type": "text/plain"})
                scenario.wait_for(3, time.monotonic() + 10)
                assert scenario.release("post", Drop())
                with pytest.raises(httpx.HTTPError):
                    dropped.result(10)
                assert not scenario.release("post", Answer(200))  # none held: ignored
                chunked = pool.submit(client.post, "/observe", content=iter([b'{"a":', b"1}"]))
                scenario.wait_for(4, time.monotonic() + 10)
                scenario.release("post", Answer(200))
                chunked.result(10)
                assert scenario.wait_taken(3, time.monotonic() + 10)
        arrivals = scenario.arrivals()
        assert [(a.sort, a.body) for a in arrivals] == [
            ("post", b'{"episode_id":"e"}'),
            ("act", b'{"seq":1}'),
            ("post", b"[1]"),
            ("post", b'{"a":1}'),
        ]
        assert not any(a.problems for a in arrivals)
        assert "text/plain" in worker.http_problems(arrivals[2].method, arrivals[2].path, arrivals[2].headers)[0]
    finally:
        recording.finish(scenario)
        recording.close()


# -- whole runs -----------------------------------------------------------------------------------------------


@pytest.mark.realclock
def test_the_reference_passes_the_small_suite_and_writes_the_runners_reports(
    tiny: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["--sdk", f"{sys.executable} -m seq_io.reference.uploader_driver", "--vectors", str(tiny)]
    paths = {name: tmp_path / "reports" / f"report.{name}" for name in ("json", "junit", "tap")}
    code = cli.main([*argv, *(arg for name, path in paths.items() for arg in (f"--{name}", str(path)))])
    out = capsys.readouterr().out
    assert code == 0, out
    assert out.startswith("iospec uploader-check: seq-io-ref-uploader") and re.search(
        r"\n4 passed in \d+\.\d\d s\n$", out
    )
    report = json.loads(paths["json"].read_text(encoding="utf-8"))
    assert not list(REPORT_SCHEMA.iter_errors(report))
    assert report["totals"]["pass"] == 4 and report["testee"]["kinds"] == ["uploader"]
    assert "<testsuites" in paths["junit"].read_text() and paths["tap"].read_text().startswith("TAP version 14")


@pytest.mark.realclock
@pytest.mark.slow
@pytest.mark.timeout(1200)
def test_the_reference_passes_every_uploader_vector_over_http() -> None:
    cases = select(load_cases(VECTORS_DIR / "uploader")[0], kinds=["uploader"])
    assert cases, "the suite has no uploader vectors"
    # Correctness, not speed: on a loaded 2-core machine four scenarios at once (the command's default) starve each
    # other's real clocks, and the longest ones (hundreds of events over real HTTP) can pass the command's 10 s
    # answer timeout and 60 s of slack. Two at a time, each with 60 s per answer and ten times the slack: under a
    # load of 6 on 2 cores, a 400-event scenario once used up 180 s of slack (CI run of stop 28), and a correct
    # uploader spends its slack only when the machine is slow; a wrong one still fails on its expectations.
    slack = engine.Settings(scenario_slack=10 * engine.SCENARIO_SLACK)
    report = check(cases, REFERENCE, timeout=60.0, jobs=2, settings=slack)
    failing = {record.case.id: record.verdict.detail for record in report.records if not record.ok}
    assert not failing and not report.problems, (failing, report.problems)
    assert report.passed == len(cases)


LATE_ACT = f"""$schema: ../../schema/vector-file.schema.json
kind: uploader
id_prefix: late-up
description: The scenario of tiny, then a plan.
groups:
  - group: act-then-plan
    why: >-
      As tiny's two-frames (UPL-WANTED, UPL-CUT, UPL-POST-PROMPT, UPL-ACT-BODY); the plan after the act causes no
      request, no observation having come since (UPL-WANTED).
    declaration: {{every: 1}}
    cases:
      - id: late-up-0001
        why: As the group says.
        episode_id: a
        events:{EVENTS}
          - {{plan: 4}}
"""


@pytest.mark.realclock
def test_a_request_later_than_the_tolerance_is_waited_for_not_answered_with_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """tests/late_uploader.py sends its first act 0.5 s late. The runner waits for it (at most the widest
    tolerance) before the `answer` that ends it, so the act gets its answer, the robot's `plan` is acknowledged at
    once, and the case is judged on timing (played once more on an idle machine) and passes. Answering nothing
    instead left the act held: the driver, waiting for its act before the robot's next event, then answered the plan
    only after its own act timeout, past the runner's 10 s."""
    folder = tmp_path / "vectors" / "uploader"
    folder.mkdir(parents=True)
    (folder / "late.yaml").write_text(LATE_ACT, encoding="utf-8")
    assert cli.main(["--sdk", f"{sys.executable} {LATE}", "--vectors", str(folder.parent)]) == 0
    printed = capsys.readouterr()
    assert "1 passed" in printed.out.splitlines()[-1], printed


@pytest.mark.realclock
@pytest.mark.parametrize(
    ("how", "words"),
    [
        ("hangs", "no answer within"),
        ("garbage", "not a protocol message"),
        ("floods", "floods the worker"),
        ("cuts-bodies", "closed in the middle of the body"),
    ],
)
def test_a_hostile_sdk_fails_its_own_case_and_leaves_no_process(
    tiny: Path, tmp_path: Path, how: str, words: str
) -> None:
    pids = tmp_path / "pids"
    # A hanging SDK is judged by the answer timeout itself, so it gets a short one; the others must be caught by
    # what they do (a flood takes hundreds of real requests, over 3 s on a loaded machine), so theirs is generous.
    timeout = 3.0 if how == "hangs" else 30.0
    report = check(tiny_cases(tiny), hostile(how, pids), timeout=timeout, max_timeouts=0, jobs=1)
    assert outcomes(report) == {
        "tiny-up-0001": "pass",
        "tiny-up-0002": "fail",
        "tiny-up-0003": "pass",
        "tiny-up-0004": "pass",
    }
    failed = next(record for record in report.records if record.case.id == "tiny-up-0002")
    assert words in failed.verdict.detail, failed.verdict.detail
    assert not report.problems, report.problems
    assert all(gone(int(pid)) for pid in pids.read_text().split())


@pytest.mark.realclock
def test_a_daemon_the_sdk_leaves_behind_is_killed_and_reported(tiny: Path, tmp_path: Path) -> None:
    pids = tmp_path / "pids"
    report = check(tiny_cases(tiny), hostile("spawns", pids), jobs=1)
    assert report.passed == 4
    sdk_pid, daemon = (int(pid) for pid in pids.read_text().split())
    assert gone(sdk_pid) and gone(daemon)
    assert [problem.source for problem in report.problems] == ["session"]
    assert f"pid {daemon}" in report.problems[0].message


@pytest.mark.realclock
def test_an_sdk_that_cannot_start_ends_the_run_with_every_case_not_run(tiny: Path) -> None:
    report = check(tiny_cases(tiny), [sys.executable, "-c", "pass"], start_timeout=5.0)
    assert {record.outcome for record in report.records} == {"error"}
    assert all("handshake failed" in record.verdict.detail for record in report.records)


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--sdk", ""], "--sdk is empty"),
        (["--sdk", "x", "--tolerance", "5"], "--tolerance is at most 1"),
        (["--sdk", "x", "--id", "nothing-*"], "matches no case id"),
        (["--sdk", "x", "--fix"], "--fix needs --xfail"),
    ],
)
def test_a_usage_mistake_is_one_line_and_exit_2(
    tiny: Path, argv: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main([*argv, "--vectors", str(tiny)]) == 2
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err

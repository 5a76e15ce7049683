"""The runner's uploader comparison (conformance/protocol.md, "Comparison", uploader bullet): a few scenarios written
here as vector cases, played end to end (the runner's request, the reference testee, the protocol's schemas, the
comparison), then answers changed one way at a time: what § 9 of spec/uploader.md leaves free must pass, anything
else must fail with the event and the place named, and a malformed answer must fail, never raise.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from seq_io.reference.cases import judge
from seq_io.reference.testee import answer
from seq_io.runner.compare import request
from seq_io.runner.kinds import TABLE
from seq_io.runner.protocol import Traffic
from seq_io.runner.suite import SuiteCase
from seq_io.runner.uploader_judge import judge_requests, uploader_case_data
from seq_io.runner.verdict import ABSENT, Verdict
from seq_io.vectors import Case

GROUP: dict[str, Any] = {
    "group": "judge",
    "declaration": {"streams": {"cam": {"at": [-1, 0]}, "arm": {}}},
    "episode_id": "ep-judge",
}
"""Group defaults (conformance/README.md, kind uploader): WINDOW wants the step right before each act, for `cam`."""

CUT: dict[str, Any] = {
    "id": "upl-judge-0001",
    "why": "UPL-WANTED, UPL-CUT, UPL-SKIP-UNWANTED, UPL-POST-PROMPT: before the act at 3, `cam` of 2 is wanted; 0 and "
    "1 are lazy skips that ride along with the post of 2; the act carries its own inputs whole.",
    "events": [
        {"plan": 3},
        {"observe": {"n": 0, "inputs": {"cam": "c0", "arm": "a0"}}},
        {"observe": {"n": 1, "inputs": {"cam": "c1", "arm": "a1"}}},
        {
            "observe": {"n": 2, "inputs": {"cam": "c2", "arm": "a2"}},
            "expect": [{"post": {"frames": [{"seq": 2, "inputs": {"cam": "c2"}}], "skipped": [0, 1]}}],
        },
        {"answer": {"to": "post", "status": 200}},
        {
            "act": {"t": 3, "inputs": {"cam": "c3", "arm": "a3"}},
            "expect": [{"act": {"seq": 3, "inputs": {"cam": "c3", "arm": "a3"}}}],
        },
        {"answer": {"to": "act", "status": 200}},
    ],
}

RETRY: dict[str, Any] = {
    "id": "upl-judge-0002",
    "why": "UPL-RETRY, UPL-RETRY-BACKOFF: the post of 0 fails at 0.0; its retry is due in [0.1, 0.2] and is sent "
    "during the advance to 0.5; 1 and 2, made meanwhile, leave together when the retry is answered (UPL-POST-ONE).",
    "declaration": {"every": 1},
    "episode_id": "ep-retry",
    "events": [
        {"plan": 3},
        {"observe": {"n": 0, "inputs": [0]}, "expect": [{"post": {"frames": [{"seq": 0, "inputs": [0]}]}}]},
        {"fail": {"to": "post", "reason": "connection"}},
        {"observe": {"n": 1, "inputs": [1]}},
        {"observe": {"n": 2, "inputs": [2]}},
        {"advance": 0.5, "expect": [{"post": {"frames": [{"seq": 0, "inputs": [0]}]}, "at": {"from": 0.1, "to": 0.2}}]},
        {
            "answer": {"to": "post", "status": 200},
            "expect": [{"post": {"frames": [{"seq": 1, "inputs": [1]}, {"seq": 2, "inputs": [2]}]}}],
        },
        {"act": {"t": 3, "inputs": [3]}, "expect": [{"act": {"seq": 3, "inputs": [3]}}]},
    ],
}

OVER_LIMIT: dict[str, Any] = {
    "id": "upl-judge-0003",
    "why": "UPL-OVER-LIMIT, then UPL-FORMATS: 0 is refused 413 and declared skipped with frame 1, pending; the 200 to "
    "that post lacks the format, so the stream is off: the drop of 2 sends nothing, the act still goes.",
    "declaration": {"every": 1},
    "episode_id": "ep-413",
    "backlog": 5,
    "events": [
        {"plan": 3},
        {"observe": {"n": 0, "inputs": 0}, "expect": [{"post": {"frames": [{"seq": 0, "inputs": 0}]}}]},
        {"observe": {"n": 1, "inputs": 1}},
        {"advance": 0.25},
        {
            "answer": {"to": "post", "status": 413},
            "expect": [{"post": {"frames": [{"seq": 1, "inputs": 1}], "skipped": [0]}, "at": 0.25}],
        },
        {"answer": {"to": "post", "status": 200, "headers": {}}},
        {"drop": 2},
        {"act": {"t": 3, "inputs": 3}, "expect": [{"act": {"seq": 3, "inputs": 3}}]},
    ],
}

REFUSED: dict[str, Any] = {
    "id": "upl-judge-0004",
    "why": "UPL-SETUP: counts in seconds with no rate; `of` refuses, and the case is that refusal.",
    "declaration": {"unit": "seconds", "streams": {"cam": {"at": [-0.5, 0]}}},
    "events": [{"plan": 1}],
    "expect": {"error": "schedule.rate-required"},
}

SCENARIOS = [CUT, RETRY, OVER_LIMIT, REFUSED]


def suite_case(data: dict[str, Any]) -> SuiteCase:
    case = Case(data["id"], "uploader/judge.yaml", 1, GROUP, data)
    return SuiteCase("uploader", case, None, "uploader/judge/judge", frozenset())


def requests_of(data: dict[str, Any]) -> list[list[dict[str, Any]]]:
    """The reference testee's requests for a scenario, through the runner's own request."""
    reply = answer(request(suite_case(data)))
    assert reply["type"] == "result", reply
    requests: list[list[dict[str, Any]]] = reply["result"]["requests"]
    return requests


def verdict(data: dict[str, Any], requests: Any) -> Verdict:
    return judge_requests(uploader_case_data(suite_case(data)), requests)


@pytest.mark.parametrize("data", SCENARIOS, ids=[data["id"] for data in SCENARIOS])
def test_the_reference_passes_each_scenario_end_to_end(data: dict[str, Any]) -> None:
    # judge(): the runner's request, the testee's answer held to conformance/protocol/*.schema.json, the comparison.
    outcome = judge("uploader", suite_case(data).case)
    assert outcome.passed, outcome.detail
    assert not Traffic().problems("case", request(suite_case(data)))


def test_the_request_applies_group_defaults_and_leaves_expect_out() -> None:
    given = TABLE["uploader"].input(suite_case(CUT))
    assert given["declaration"] == GROUP["declaration"] and given["episode_id"] == "ep-judge"
    assert "rate" not in given and "backlog" not in given
    assert all(len(event) == 1 and "expect" not in event for event in given["events"])
    assert TABLE["uploader"].input(suite_case(OVER_LIMIT))["backlog"] == 5
    assert TABLE["uploader"].input(suite_case(RETRY))["episode_id"] == "ep-retry"  # the case's own value wins


def test_a_right_answer_passes_and_the_judge_is_the_kind_s() -> None:
    requests = requests_of(CUT)
    assert verdict(CUT, requests).status == "pass"
    assert TABLE["uploader"].judge(suite_case(CUT), {"requests": requests}).status == "pass"


def test_frames_and_skipped_numbers_are_sets() -> None:
    requests = requests_of(CUT)
    requests[3][0]["observe"]["skipped"].reverse()
    assert verdict(CUT, requests).status == "pass"
    requests = requests_of(RETRY)
    requests[6][0]["observe"]["frames"].reverse()
    assert verdict(RETRY, requests).status == "pass"
    requests = requests_of(OVER_LIMIT)
    requests[4][0]["observe"] = {"skipped": [0], "frames": [{"inputs": 1, "seq": 1}], "episode_id": "ep-413"}
    assert verdict(OVER_LIMIT, requests).status == "pass"


def test_an_absent_list_equals_an_empty_one() -> None:
    requests = requests_of(RETRY)
    requests[1][0]["observe"]["skipped"] = []
    assert verdict(RETRY, requests).status == "pass"


@pytest.mark.parametrize("at", [0.1, 0.15, 0.2])
def test_a_retry_passes_anywhere_in_its_window(at: float) -> None:
    requests = requests_of(RETRY)
    requests[5][0]["at"] = at
    assert verdict(RETRY, requests).status == "pass"


@pytest.mark.parametrize("at", [0.09, 0.21, 0.5, "0.1", None, True])
def test_a_retry_outside_its_window_fails(at: Any) -> None:
    requests = requests_of(RETRY)
    requests[5][0]["at"] = at
    found = verdict(RETRY, requests)
    assert found.status == "fail"
    assert found.detail.startswith("the first event that differs is event 5 (advance)")
    assert [d.at for d in found.differences] == ["$.requests[5][0].at"]


def test_an_at_off_fails() -> None:
    requests = requests_of(OVER_LIMIT)
    requests[4][0]["at"] = 0.0  # sent at the answer's reading, 0.25
    found = verdict(OVER_LIMIT, requests)
    assert found.status == "fail" and "event 4 (answer)" in found.detail
    assert [(d.at, d.expected, d.got) for d in found.differences] == [("$.requests[4][0].at", 0.25, 0.0)]


def test_an_extra_request_fails() -> None:
    requests = requests_of(CUT)
    requests[1].append({"at": 0.0, "observe": {"episode_id": "ep-judge", "skipped": [0]}})
    found = verdict(CUT, requests)
    assert found.status == "fail" and "event 1 (observe)" in found.detail
    assert found.differences[0].at == "$.requests[1][0]" and "sent, not expected" in found.differences[0].note


def test_a_missing_request_fails() -> None:
    requests = requests_of(CUT)
    requests[5] = []
    found = verdict(CUT, requests)
    assert found.status == "fail" and "event 5 (act)" in found.detail
    assert found.differences[0].got is ABSENT and "expected, not sent" in found.differences[0].note


@pytest.mark.parametrize(
    ("change", "path"),
    [
        (lambda body: body["frames"][0]["inputs"].update(arm="a2"), "$.requests[3][0].observe.frames[0].inputs.arm"),
        (lambda body: body.update(episode_id="other"), "$.requests[3][0].observe.episode_id"),
        (lambda body: body.update(extra=1), "$.requests[3][0].observe.extra"),
        (lambda body: body["frames"][0].update(seq=1), "$.requests[3][0].observe.frames"),
        (lambda body: body["frames"].append({"seq": 7, "inputs": {}}), "$.requests[3][0].observe.frames[1]"),
        (lambda body: body["skipped"].append(0), "$.requests[3][0].observe.skipped[2]"),
        (lambda body: body["skipped"].remove(1), "$.requests[3][0].observe.skipped"),
        (lambda body: body["skipped"].append(7), "$.requests[3][0].observe.skipped[2]"),
        (lambda body: body.pop("frames"), "$.requests[3][0].observe.frames"),
    ],
    ids=[
        "inputs",
        "episode-id",
        "extra-member",
        "wrong-seq",
        "extra-frame",
        "duplicate-skip",
        "missing-skip",
        "extra-skip",
        "no-frames",
    ],
)
def test_a_wrong_post_body_fails_at_its_place(change: Any, path: str) -> None:
    requests = requests_of(CUT)
    change(requests[3][0]["observe"])
    found = verdict(CUT, requests)
    assert found.status == "fail" and "event 3 (observe)" in found.detail
    assert path in [d.at for d in found.differences], found.detail


def test_a_duplicate_skipped_number_is_named() -> None:
    requests = requests_of(CUT)
    requests[3][0]["observe"]["skipped"] = [0, 1, 0]
    found = verdict(CUT, requests)
    assert found.status == "fail" and "twice" in found.detail


def test_a_duplicate_frame_fails_even_with_equal_inputs() -> None:
    requests = requests_of(CUT)
    frames = requests[3][0]["observe"]["frames"]
    frames.append(copy.deepcopy(frames[0]))
    assert verdict(CUT, requests).status == "fail"


@pytest.mark.parametrize(
    "act",
    [
        {"episode_id": "ep-judge", "seq": 3, "inputs": {"cam": "c3"}},
        {"episode_id": "ep-judge", "seq": 4, "inputs": {"cam": "c3", "arm": "a3"}},
        {"episode_id": "ep-judge", "seq": 3, "inputs": {"cam": "c3", "arm": "a3"}, "seed": 1},
        {"seq": 3, "inputs": {"cam": "c3", "arm": "a3"}},
    ],
    ids=["cut-inputs", "wrong-seq", "extra-member", "no-episode-id"],
)
def test_a_wrong_act_body_fails(act: dict[str, Any]) -> None:
    requests = requests_of(CUT)
    requests[5][0]["act"] = act
    found = verdict(CUT, requests)
    assert found.status == "fail" and "event 5 (act)" in found.detail


def test_a_post_where_an_act_was_expected_fails_on_both_members() -> None:
    requests = requests_of(CUT)
    requests[5][0] = {"at": 0.0, "observe": {"episode_id": "ep-judge", "skipped": [3]}}
    found = verdict(CUT, requests)
    assert {d.at for d in found.differences} == {"$.requests[5][0].act", "$.requests[5][0].observe"}


@pytest.mark.parametrize(
    ("requests", "where"),
    [
        (None, "$.requests"),
        ({"0": []}, "$.requests"),
        ("requests", "$.requests"),
        ([[]] * 6, "$.requests[6]"),
        ([[]] * 8, "$.requests[7]"),
        ([[], [], [], [{"at": 0.0}], [], [], []], "$.requests[3][0].observe"),
        ([[], [], [], ["post"], [], [], []], "$.requests[3][0]"),
        ([[], [], [], {"at": 0.0}, [], [], []], "$.requests[3]"),
        ([[], [], [], [{"at": 0.0, "observe": []}], [], [], []], "$.requests[3][0].observe"),
        (
            [[], [], [], [{"at": 0.0, "observe": {"episode_id": "ep-judge", "frames": 2}}], [], [], []],
            "$.requests[3][0].observe.frames",
        ),
        (
            [[], [], [], [{"at": 0.0, "observe": {"episode_id": "ep-judge", "frames": [[2]]}}], [], [], []],
            "$.requests[3][0].observe.frames[0]",
        ),
        (
            [
                [],
                [],
                [],
                [{"at": 0.0, "observe": {"episode_id": "ep-judge", "frames": [{"seq": "2", "inputs": {}}]}}],
                [],
                [],
                [],
            ],
            "$.requests[3][0].observe.frames[0]",
        ),
        (
            [[], [], [], [{"at": 0.0, "observe": {"episode_id": "ep-judge", "skipped": {"0": 1}}}], [], [], []],
            "$.requests[3][0].observe.skipped",
        ),
        (
            [[], [], [], [{"at": 0.0, "observe": {"episode_id": "ep-judge", "skipped": [0.5, True]}}], [], [], []],
            "$.requests[3][0].observe.skipped[1]",
        ),
    ],
    ids=[
        "null",
        "object",
        "string",
        "too-short",
        "too-long",
        "neither-observe-nor-act",
        "request-not-an-object",
        "event-not-a-list",
        "body-not-an-object",
        "frames-not-a-list",
        "frame-not-an-object",
        "seq-a-string",
        "skipped-not-a-list",
        "skipped-not-numbers",
    ],
)
def test_a_malformed_answer_is_a_failing_verdict(requests: Any, where: str) -> None:
    found = verdict(CUT, requests)
    assert found.status == "fail" and found.detail
    assert where in [d.at for d in found.differences], found.detail


def test_every_difference_is_counted_and_the_first_ten_shown() -> None:
    requests = requests_of(CUT)
    requests[3][0]["observe"]["skipped"] = list(range(10, 40))
    found = verdict(CUT, requests)
    assert len(found.differences) == 10 and found.more == 32 - 10  # 0 and 1 missing, 30 unexpected
    assert "and 22 more differences" in found.detail

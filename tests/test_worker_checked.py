"""Large observe and act bodies checked in the parse child (src/seq_io/worker/bodies.py, `read_checked`) → the same
answers, byte for byte, as the keeper gives in-process (`Keeper.post`/`act` with frames held compact, written by
`held.dumps`) and as the inline path gives for the same value in a small body.

WHY: a body over INLINE_BYTES is read and checked (`check_observe`, `check_act`) in a child process, and only the
checked result crosses back, so the two paths share the keeper's check but not its caller. A scenario that runs every
outcome of the check (valid, invalid body, negative skipped, seq and episode id required, a refusal of the keeper's
state, a limit, an act that waits and is completed) pins that nothing differs. One real worker serves all of it, on
test keepers; its acts wait long enough (`wait_s`) that no deadline passes during the scenario.
"""

from __future__ import annotations

import concurrent.futures
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from http_processes import Running, children, running, worker
from seq_io.reference import held
from seq_io.reference.keeper import Keeper, Limits, StreamError
from seq_io.worker.bodies import INLINE_BYTES

pytestmark = pytest.mark.realclock

JSON = {"content-type": "application/json"}
DECLARATION = {"streams": {"cam": {"at": [-1, 0]}}}
LIMITS = {"MAX_STREAM_BYTES": 6 * INLINE_BYTES}
POLICY = Path(__file__).parent / "policies" / "every-one.json"
PAD = b" " * (INLINE_BYTES + 1)
"""Whitespace after a small body: the same value, but a body the worker reads in its child."""


@pytest.fixture(scope="module")
def testing() -> Iterator[Running]:
    with running(worker("--policy", str(POLICY), "--testing", "--wait-s", "0.5")) as process:
        yield process
        assert process.stop() == 0
    assert children() == [], "the worker left a process behind"


def _keeper(url: str) -> str:
    made = httpx.post(
        url + "/stream/keepers",
        json={"declaration": DECLARATION, "limits": LIMITS, "wait_s": 30},
        trust_env=False,
        timeout=10,
    )
    assert made.status_code == 201, made.text
    return str(url + made.json()["base"])


Step = tuple[str, Any]
"""("observe" | "act", body), or ("wait", (act body, observe body)): an act that waits and the post completing it."""


def _scenario(text: str) -> list[Step]:
    """Every outcome of the check and of the keeper after it; `text` is a frame's payload (its size picks the path)."""
    return [
        ("observe", {"episode_id": "e", "frames": [{"seq": 0, "inputs": {"cam": text, "arm": [1.5, -2]}}]}),
        ("act", {"episode_id": "e", "seq": 1, "inputs": {"cam": text + "1", "arm": []}}),
        ("observe", {"episode_id": "e", "frames": [{"seq": -1, "inputs": text}]}),
        ("observe", {"episode_id": "e", "frames": [{"seq": 2.0, "inputs": text}], "skipped": [-3]}),
        ("observe", {"episode_id": "e", "frames": [{"seq": 2.0, "inputs": [text]}], "skipped": [3.0]}),
        ("act", {"episode_id": "e", "inputs": text}),
        ("act", {"seq": 9, "inputs": text}),
        ("act", {"episode_id": "e", "seq": 1, "inputs": text}),
        ("act", {"episode_id": "e", "seq": "one", "inputs": text}),
        ("observe", {"episode_id": "f", "frames": [{"seq": n, "inputs": text * 3} for n in range(4)]}),
        ("wait", ({"episode_id": "g", "seq": 2, "inputs": {"cam": text}}, {"episode_id": "g", "skipped": [0, 1]})),
        ("act", {"episode_id": "e", "seq": 3, "inputs": {"cam": "\u00e9" + text}}),
    ]


def _send(url: str, path: str, body: Any, pad: bytes) -> bytes:
    data = json.dumps(body, ensure_ascii=False).encode() + pad
    answer = httpx.post(url + path, content=data, headers=JSON, trust_env=False, timeout=30)
    return bytes(answer.status_code.to_bytes(2, "big") + answer.content)


def _over_http(url: str, steps: list[Step], pad: bytes = b"") -> list[bytes]:
    answers: list[bytes] = []
    for kind, body in steps:
        if kind != "wait":
            answers.append(_send(url, "/" + kind, body, pad))
            continue
        act, completing = body
        with concurrent.futures.ThreadPoolExecutor(1) as pool:
            waiting = pool.submit(_send, url, "/act", act, pad)
            deadline = time.monotonic() + 10
            while not httpx.get(url + "/stream/waiting", trust_env=False, timeout=10).json()["waiting"]:
                assert time.monotonic() < deadline, "the act never waited"
                time.sleep(0.02)
            answers.append(_send(url, "/observe", completing, pad))
            answers.append(waiting.result(30))
    return answers


def _answer(status: int, body: Any) -> bytes:
    return bytes(status.to_bytes(2, "big") + held.dumps(body).encode())


def _in_process(steps: list[Step]) -> list[bytes]:
    """The scenario through the keeper itself, frames held compact as a worker holds them."""
    keeper = Keeper.of(DECLARATION, limits=Limits.scaled(LIMITS), store=held.compact)
    answers: list[bytes] = []

    def call(kind: str, body: Any) -> bytes:
        try:
            if kind == "observe":
                return _answer(200, {"through": keeper.post(body, 0.0)})
            acted = keeper.act(body, 0.0)
        except StreamError as error:
            return _answer(error.status, error.body())
        assert not acted.waiting
        return _answer(200, {"outputs": acted.handed})

    for kind, body in steps:
        if kind != "wait":
            answers.append(call(kind, body))
            continue
        act, completing = body
        assert keeper.act(act, 0.0).waiting
        answers.append(call("observe", completing))
        (answer,) = keeper.take_events().answers
        answers.append(_answer(200, {"outputs": answer.handed}))
    return answers


def test_large_bodies_checked_in_the_child_answer_as_the_keeper_does_in_process(testing: Running) -> None:
    steps = _scenario("x" * INLINE_BYTES)  # a body carrying a frame passes INLINE_BYTES
    assert sum(len(json.dumps(body)) > INLINE_BYTES for _, body in steps) >= 6
    over_http = _over_http(_keeper(testing.url), steps)
    expected = _in_process(steps)
    assert over_http == expected
    statuses = [int.from_bytes(answer[:2], "big") for answer in expected]
    assert statuses == [200, 200, 400, 400, 200, 400, 400, 409, 400, 413, 200, 200, 200]


def test_a_small_body_and_the_same_value_padded_past_the_inline_size_answer_alike(testing: Running) -> None:
    steps = _scenario("small")
    inline = _over_http(_keeper(testing.url), steps)
    in_child = _over_http(_keeper(testing.url), steps, PAD)
    assert inline == in_child == _in_process(steps)

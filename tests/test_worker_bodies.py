"""Request bodies → values, off the event loop (src/seq_io/worker/bodies.py), and the worker's own bounds: the fast
path decides as the reader of record does; a large body is read in a child while other requests are answered; a
child out of time or memory, a full queue and a shutdown each give a shaped answer; waiting acts' inputs are counted
(--max-waiting-bytes); episodes end by default after an idle hour (--no-episode-idle turns it off)."""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import json
import time
from collections.abc import Iterator
from multiprocessing import forkserver, resource_tracker
from pathlib import Path
from typing import Any

import httpx
import pytest

from http_processes import Running, children, running, worker
from seq_io.reference.keeper import Limits
from seq_io.reference.wire import parse_json_text
from seq_io.worker import cli
from seq_io.worker.bodies import (
    HTTP_TOO_COSTLY,
    BodyParser,
    BodyRefused,
    ParseSettings,
    parse_inline,
    read_value,
)
from seq_io.worker.host import KeeperHost, StreamConfig

JSON = {"content-type": "application/json"}

TEXTS = [
    '{"a": [1, 2.5, "x", null, true]}',
    '{"a": 1,',
    '{"a": 1, "a": 2}',
    "[" * 201 + "]" * 201,
    "[" * 201 + "]" * 200,
    '{"n": 12345678901234567890123}',
    '{"n": 9007199254740993.0}',
    '{"n": 1e400}',
    '"\\ud800"',
    '{"x": NaN}',
    "[1, 2] 3",
    "",
]


@pytest.mark.parametrize("text", TEXTS)
def test_the_fast_path_decides_as_the_reader_of_record(text: str) -> None:
    value, issues = parse_json_text(text)
    answer = read_value(text.encode())
    if issues:
        assert answer[0] == "issues"
        assert [(path, rule) for path, rule, _ in answer[1]] == [(issue.path, issue.rule) for issue in issues]
    else:
        assert answer[:2] == ("value", value)


def test_a_body_that_is_not_utf8_is_refused_in_words() -> None:
    with pytest.raises(BodyRefused) as refused:
        parse_inline(b'{"a": "\xff"}')
    assert refused.value.reply.status == 400
    assert "not UTF-8" in refused.value.reply.body["error"]["message"]


def _run(coroutine: Any) -> Any:
    return asyncio.run(coroutine)


def _large(parser: BodyParser, data: bytes) -> Any:
    async def go() -> Any:
        return await parser.parse(data)

    return _run(go())


def _refusal(parser: BodyParser, data: bytes) -> dict[str, Any]:
    with pytest.raises(BodyRefused) as refused:
        _large(parser, data)
    return {"status": refused.value.reply.status, **refused.value.reply.body["error"]}


SMALL_INLINE = ParseSettings(inline_bytes=16)


@pytest.mark.realclock
def test_a_large_body_is_read_in_a_child_with_the_same_answers() -> None:
    parser = BodyParser(SMALL_INLINE)
    assert _large(parser, b'{"frames": [1, 2, 3], "e": "x"}') == {"frames": [1, 2, 3], "e": "x"}
    refused = _refusal(parser, b'{"frames": [1, 2, 3], "e": "x"')
    assert refused["status"] == 400 and refused["details"]["issues"] == [{"path": "$", "rule": "wire.json-syntax"}]
    refused = _refusal(parser, b'{"frames": [1, 2, 3], "frames": 1}')
    assert refused["details"]["issues"] == [{"path": "$", "rule": "wire.duplicate-key"}]


@pytest.mark.realclock
def test_a_child_out_of_memory_or_time_is_a_shaped_refusal() -> None:
    body = b"[" + b",".join([b"[]"] * 6_000_000) + b"]"  # 18 MB of text, 400 MB of Python lists
    refused = _refusal(BodyParser(ParseSettings(inline_bytes=16, memory_bytes=300 * 2**20, timeout_s=20)), body)
    assert refused["status"] == 400 and refused["details"]["issues"][0]["rule"] == HTTP_TOO_COSTLY
    assert "--parse-memory" in refused["message"]
    refused = _refusal(BodyParser(ParseSettings(inline_bytes=16, timeout_s=0.001)), body)
    assert refused["status"] == 400 and "--parse-timeout" in refused["message"]


@pytest.mark.realclock
def test_a_full_queue_is_503_busy_and_a_shutdown_abandons_the_parse() -> None:
    async def go() -> list[Any]:
        parser = BodyParser(ParseSettings(workers=1, queue=0, inline_bytes=16))
        slow = b'{"a": ["x"' + b', "x"' * 400_000 + b'], "a": 1}'  # a duplicate key: the reader of record reads it
        first = asyncio.ensure_future(parser.parse(slow))
        await asyncio.sleep(0.05)
        answers: list[Any] = []
        try:
            await parser.parse(slow)
        except BodyRefused as refused:
            answers.append(refused.reply)
        parser.close()
        try:
            await asyncio.wait_for(first, 10)
        except BodyRefused as refused:
            answers.append(refused.reply)
        return answers

    begun = time.monotonic()
    busy, abandoned = _run(go())
    assert (busy.status, busy.body["error"]["details"]["reason"]) == (503, "busy")
    assert (abandoned.status, abandoned.body["error"]["details"]["reason"]) == (503, "shutting_down")
    assert time.monotonic() - begun < 10


def _host(max_waiting_bytes: int) -> KeeperHost:
    config = StreamConfig({"every": 1}, None, None, Limits.of_contract(), 1.0, max_waiting_bytes)
    return KeeperHost(config)


def test_waiting_acts_inputs_are_bounded_together() -> None:
    async def go() -> list[Any]:
        host = _host(25)
        first = asyncio.ensure_future(host.act({"episode_id": "a", "seq": 3, "inputs": "x" * 18}))  # size 20
        await asyncio.sleep(0)
        full = await host.act({"episode_id": "b", "seq": 3, "inputs": "y" * 8})  # size 10: 30 > 25
        held = host.waiting_bytes, host.waiting()
        host.observe({"episode_id": "a", "skipped": [0, 1, 2]})
        handed = await asyncio.wait_for(first, 5)
        after = host.waiting_bytes
        fits = asyncio.ensure_future(host.act({"episode_id": "b", "seq": 3, "inputs": "y" * 8}))
        await asyncio.sleep(0)
        waiting = host.waiting()
        host.close(full)
        await fits
        return [full, held, handed, after, waiting]

    full, held, handed, after, waiting = _run(go())
    assert (full.status, full.body["error"]["details"]["reason"]) == (503, "waiting_full")
    assert held == (20, ["a"])
    assert handed.status == 200 and after == 0 and waiting == ["b"]


def _args(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    cli.add_arguments(parser)
    return parser.parse_args(list(argv))


def test_episodes_end_after_an_idle_hour_unless_told_otherwise() -> None:
    assert cli.episode_idle(_args()) == cli.DEFAULT_EPISODE_IDLE == 3600
    assert cli.episode_idle(_args("--episode-idle", "20")) == 20
    assert cli.episode_idle(_args("--no-episode-idle")) is None
    with pytest.raises(cli.UsageError, match="contradict"):
        cli.episode_idle(_args("--no-episode-idle", "--episode-idle", "20"))
    assert _args("--parse-memory", "512MiB", "--max-waiting-bytes", "1024").parse_memory == 512 * 2**20


@pytest.fixture(autouse=True)
def no_fork_server_left() -> Iterator[None]:
    """The tests that read bodies in this process start its fork server and resource tracker: stop them after."""
    before = set(children())
    yield
    forkserver._forkserver._stop()  # type: ignore[attr-defined]
    resource_tracker._resource_tracker._stop()  # type: ignore[attr-defined]
    assert set(children()) <= before, "this test left a process behind"


@pytest.fixture
def every_one() -> Iterator[Running]:
    policy = Path(__file__).parent / "policies" / "every-one.json"
    with running(worker("--policy", str(policy), "--wait-s", "2", "--episode-idle", "10", "--quiet")) as process:
        yield process
        assert process.stop() == 0


@pytest.mark.realclock
def test_a_large_broken_body_stalls_no_other_client(every_one: Running) -> None:
    url = every_one.url
    frames = b",".join([b'{"seq": 0, "inputs": "abcdefgh"}'] * 60_000)
    broken = b'{"episode_id": "big", "frames": [' + frames + b'], "frames": []}'  # only the reader of record explains
    with httpx.Client(timeout=30) as client, concurrent.futures.ThreadPoolExecutor(2) as pool:
        info = client.get(f"{url}/stream/info").json()
        assert info["episode_idle"] == 10
        big = pool.submit(client.post, f"{url}/observe", content=broken, headers=JSON)
        time.sleep(0.05)
        begun = time.monotonic()
        act = pool.submit(client.post, f"{url}/act", json={"episode_id": "r", "seq": 1, "inputs": 1})
        posted = client.post(f"{url}/observe", json={"episode_id": "r", "frames": [{"seq": 0, "inputs": 0}]})
        acted = act.result(timeout=20)
        quick = time.monotonic() - begun
        refused = big.result(timeout=30)
    assert posted.json() == {"through": 0}
    assert acted.status_code == 200 and acted.json() == {"outputs": {"observations": [0, 1], "steps": [0, 1]}}
    assert quick < 1.5, f"the other client waited {quick:.2f} s"
    assert refused.status_code == 400
    assert json.loads(refused.content)["error"]["details"]["issues"] == [{"path": "$", "rule": "wire.duplicate-key"}]

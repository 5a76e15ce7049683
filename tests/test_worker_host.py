"""The keeper host in process, on a clock the test moves: answers of waiting acts reach the right requests even when
the timer has not fired yet, and closing answers every waiting act."""

from __future__ import annotations

import asyncio
import json

from seq_io.reference.held import dumps
from seq_io.reference.keeper import Limits
from seq_io.worker.host import KeeperHost, StreamConfig, unavailable


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def host(clock: Clock) -> KeeperHost:
    return KeeperHost(StreamConfig({"every": 1}, None, None, Limits.of_contract(), 1.0), clock=clock)


def test_an_act_arriving_after_its_predecessors_deadline_gets_its_own_answer() -> None:
    async def scenario() -> None:
        clock = Clock()
        keeper = host(clock)
        first = asyncio.create_task(keeper.act({"episode_id": "e", "seq": 2, "inputs": "a"}))
        await asyncio.sleep(0)
        clock.now += 1.5  # past the first act's deadline (1.0 real s), before any timer ran
        second = asyncio.create_task(keeper.act({"episode_id": "e", "seq": 1, "inputs": "b"}))
        await asyncio.sleep(0.05)  # long enough for the answers to travel, far shorter than the 1 s timer
        assert first.done() and first.result().body["error"]["details"] == {
            "reason": "frames_missing",
            "missing": [0, 1],
        }
        assert not second.done() and keeper.waiting() == ["e"]
        assert keeper.observe({"episode_id": "e", "frames": [{"seq": 0, "inputs": "z"}]}).body == {"through": 0}
        handed = (await asyncio.wait_for(second, 1)).body  # frames are held as their text (seq_io.reference.held)
        assert json.loads(dumps(handed)) == {"outputs": {"observations": ["z", "b"], "steps": [0, 1]}}

    asyncio.run(scenario())


def test_closing_answers_every_waiting_act_and_every_later_request() -> None:
    async def scenario() -> None:
        keeper = host(Clock())
        acts = [asyncio.create_task(keeper.act({"episode_id": name, "seq": 3, "inputs": 0})) for name in "abc"]
        await asyncio.sleep(0)
        closed = unavailable("shutting_down", "bye")
        keeper.close(closed)
        assert [(await act).status for act in acts] == [503, 503, 503]
        assert keeper.observe({"episode_id": "a"}) == closed and keeper.waiting() == []

    asyncio.run(scenario())

"""A fault's name → the reference uploader wrapped so that it breaks exactly one rule of spec/uploader.md → run as an
SDK through the reference driver (`python tests/broken_uploaders.py FAULT`), or played on the virtual clock (`play`
in process, or `--testee` for `iospec run`), so that tests can check which vector cases each fault fails, over HTTP
and in the deterministic mode.

WHY it is shaped this way: each fault wraps `seq_io.reference.uploader.Uploader` through its two public methods
(`event`, `next_due`), changing what it is told or what it sends, and never its internals; so the faults stay one
small class each, follow the reference as it changes, and a fault's failing cases can only come from the rule it
breaks. The faults are those an SDK author is likely to write:

- `too-little`: uploads only what the next act reads (`needed`), not what a later act's window reaches back to
  (`wanted`): such a frame is declared lost instead (UPL-WANTED);
- `everything`: uploads every observation whole, as if the declaration were `{"every": 1}` (UPL-WANTED, UPL-CUT);
- `never-batches`: posts each observation at once even while a post is in flight (UPL-POST-ONE, UPL-POST-BATCH);
- `forgets-skipped`: never sends `skipped` (UPL-SKIP-UNWANTED, UPL-DROPPED, UPL-OVER-LIMIT);
- `new-numbers`: resends a failed post with every number moved up by one (UPL-RETRY, UPL-ONCE);
- `acts-first`: holds its posts back until the robot's next act, then sends them after it (UPL-POST-PROMPT);
- `retries-413`: takes a 413 for a 503 and retries the refused post (UPL-OVER-LIMIT);
- `ignores-503`: takes a 5xx or a failure for a 200, so it never retries (UPL-RETRY).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
from collections import deque
from collections.abc import Callable
from typing import Any

from seq_io.reference import schedule as sch
from seq_io.reference.schedule import ScheduleError
from seq_io.reference.uploader import Uploader
from seq_io.reference.uploader_driver import Driver, Uploading, main

OBSERVE_FORMAT = {"Seq-Accept-Formats": "x-seq-observe/1"}
Requests = list[dict[str, Any]]


class Wrapped:
    """The reference uploader behind the two methods the driver calls; a fault overrides `event`."""

    def __init__(self, declaration: Any, rate: Any, episode_id: str, backlog: int | None = None) -> None:
        self.inner = Uploader(declaration, rate, episode_id, backlog)
        self.episode_id = episode_id
        self.schedule = sch.of(declaration, rate)
        self.planned = 0

    def event(self, event: dict[str, Any], now: float) -> Requests:
        return self.inner.event(event, now)

    def next_due(self) -> float | None:
        return self.inner.next_due()

    def track(self, event: dict[str, Any]) -> None:
        """Follow the robot's plan (the reference keeps its own, and its last act, which it shows)."""
        if "plan" in event:
            self.planned = int(event["plan"])

    def wanted(self) -> dict[int, tuple[str, ...] | None]:
        return dict(sch.wanted(self.schedule, self.inner.last_act, self.planned))


class TooLittle(Wrapped):
    def event(self, event: dict[str, Any], now: float) -> Requests:
        self.track(event)
        if "observe" in event:
            n = int(event["observe"]["n"])
            if n in self.wanted() and n not in sch.needed(self.schedule, self.planned, self.inner.last_act):
                event = {"drop": n}
        return self.inner.event(event, now)


class Everything(Wrapped):
    def __init__(self, declaration: Any, rate: Any, episode_id: str, backlog: int | None = None) -> None:
        sch.of(declaration, rate)  # a declaration `of` refuses is still refused
        every: dict[str, Any] = {"every": 1}
        if isinstance(declaration, dict) and "when_behind" in declaration:
            every["when_behind"] = declaration["when_behind"]
        super().__init__(every, rate, episode_id, backlog)


def _cut(inputs: Any, keys: tuple[str, ...] | None) -> Any:
    return {k: inputs[k] for k in keys if k in inputs} if keys is not None and isinstance(inputs, dict) else inputs


class NeverBatches(Wrapped):
    """While a post is in flight or backing off, each observation goes in a post of its own, at once; answers are
    taken in the order the posts were sent, and those to its own posts are not the reference's business."""

    def __init__(self, declaration: Any, rate: Any, episode_id: str, backlog: int | None = None) -> None:
        super().__init__(declaration, rate, episode_id, backlog)
        self.posts: deque[bool] = deque()
        """One entry per post in flight, oldest first: True for the reference's, False for one of its own."""

    def _inner(self, event: dict[str, Any], now: float) -> Requests:
        sent = self.inner.event(event, now)
        self.posts.extend(True for request in sent if "observe" in request)
        return sent

    def event(self, event: dict[str, Any], now: float) -> Requests:
        self.track(event)
        to = (event.get("answer") or event.get("fail") or {}).get("to")
        if to == "post":
            return self._inner(event, now) if self.posts and self.posts.popleft() else []
        busy = bool(self.posts) or self.inner.next_due() is not None
        if not (("observe" in event or "drop" in event) and busy and sch.reads_past(self.schedule)):
            return self._inner(event, now)
        n = int(event["observe"]["n"] if "observe" in event else event["drop"])
        wanted = self.wanted()
        body: dict[str, Any] = {"episode_id": self.episode_id}
        if "observe" in event and n in wanted:
            body["frames"] = [{"seq": n, "inputs": _cut(event["observe"]["inputs"], wanted[n])}]
        else:
            body["skipped"] = [n]
        self.posts.append(False)
        return [{"at": now, "observe": body}]


class ForgetsSkipped(Wrapped):
    """Sends no `skipped`; a post left with nothing to carry is not sent, and counts as answered."""

    def event(self, event: dict[str, Any], now: float) -> Requests:
        out: Requests = []
        pending = deque(self.inner.event(event, now))
        while pending:
            request = pending.popleft()
            body = request.get("observe")
            if body is None:
                out.append(request)
                continue
            body = {key: value for key, value in body.items() if key != "skipped"}
            if body.get("frames"):
                out.append({"at": request["at"], "observe": body})
            else:
                pending.extend(self.inner.event({"answer": {"to": "post", "status": 200}}, now))
        return out


class NewNumbers(Wrapped):
    def __init__(self, declaration: Any, rate: Any, episode_id: str, backlog: int | None = None) -> None:
        super().__init__(declaration, rate, episode_id, backlog)
        self.sent: set[str] = set()

    def event(self, event: dict[str, Any], now: float) -> Requests:
        out = []
        for request in self.inner.event(event, now):
            body = request.get("observe")
            if body is not None:
                text = json.dumps(body, sort_keys=True)
                if text in self.sent:
                    body = dict(body)
                    body["frames"] = [{**frame, "seq": frame["seq"] + 1} for frame in body.get("frames", [])]
                    body["skipped"] = [n + 1 for n in body.get("skipped", [])]
                    request = {"at": request["at"], "observe": body}
                self.sent.add(text)
            out.append(request)
        return out


class ActsFirst(Wrapped):
    def __init__(self, declaration: Any, rate: Any, episode_id: str, backlog: int | None = None) -> None:
        super().__init__(declaration, rate, episode_id, backlog)
        self.held: Requests = []

    def event(self, event: dict[str, Any], now: float) -> Requests:
        sent = self.inner.event(event, now)
        self.held += [request for request in sent if "observe" in request]
        acts = [request for request in sent if "act" in request]
        if not acts:
            return []
        held, self.held = self.held, []
        return acts + [{"at": now, "observe": request["observe"]} for request in held]


class Retries413(Wrapped):
    def event(self, event: dict[str, Any], now: float) -> Requests:
        answer = event.get("answer")
        if answer is not None and answer["to"] == "post" and answer["status"] == 413:
            event = {"answer": {**answer, "status": 503}}
        return self.inner.event(event, now)


class Ignores503(Wrapped):
    def event(self, event: dict[str, Any], now: float) -> Requests:
        answer = event.get("answer") or event.get("fail")
        if answer is not None and answer["to"] == "post" and ("fail" in event or answer["status"] >= 500):
            event = {"answer": {"to": "post", "status": 200, "headers": OBSERVE_FORMAT}}
        return self.inner.event(event, now)


FAULTS: dict[str, Callable[[Any, Any, str, int | None], Uploading]] = {
    "too-little": TooLittle,
    "everything": Everything,
    "never-batches": NeverBatches,
    "forgets-skipped": ForgetsSkipped,
    "new-numbers": NewNumbers,
    "acts-first": ActsFirst,
    "retries-413": Retries413,
    "ignores-503": Ignores503,
}


def play(make: Callable[[Any, Any, str, int | None], Uploading], scenario: dict[str, Any]) -> list[Requests] | str:
    """The deterministic mode: the scenario's events on the virtual clock (UPL-CLOCK) → the requests sent during
    each event, or the rule id of the setup's refusal."""
    try:
        uploader = make(
            scenario.get("declaration"), scenario.get("rate"), scenario["episode_id"], scenario.get("backlog")
        )
    except ScheduleError as error:
        return error.rule
    clock = 0.0
    played: list[Requests] = []
    for event in scenario["events"]:
        given = {key: value for key, value in event.items() if key != "expect"}
        if "advance" in given:
            clock += given["advance"]
        played.append(uploader.event(given, clock))
    return played


FOREVER = 30.0
"""How long a hanging SDK hangs: past any timeout the tests give, short enough that a runner which failed to bound
a wait fails its test after half a minute instead of hanging."""
HOSTILE = ("hangs", "garbage", "floods", "cuts-bodies", "spawns")
FLOOD = 1500
"""Requests a flooding SDK sends (more than the recording worker records per scenario)."""


class Hostile(Driver):
    """The reference driver, misbehaving on the first robot event of the scenarios whose episode id is `on`: it
    hangs, prints a line that is not JSON, floods the worker with posts, sends posts whose connection closes in the
    middle of the body, or (`spawns`, at its start) leaves a grandchild in a session of its own. Each writes its
    pid, and a grandchild's, to `pid_file`, so that a test can check that none outlived the run."""

    def __init__(self, how: str, on: str, pid_file: str | None) -> None:
        super().__init__()
        self.how, self.on, self.pid_file = how, on, pid_file
        self.targeted = False
        self._note(os.getpid())
        if how == "spawns":
            child = subprocess.Popen(  # a daemon of its own session: only the run's environment mark finds it
                [sys.executable, "-c", f"import time; time.sleep({FOREVER})"], start_new_session=True
            )
            self._note(child.pid)

    def _note(self, pid: int) -> None:
        if self.pid_file is not None:
            with open(self.pid_file, "a", encoding="utf-8") as pids:
                pids.write(f"{pid}\n")

    async def answer(self, message: dict[str, Any]) -> dict[str, Any]:
        if message.get("type") == "start":
            self.targeted = message.get("episode_id") == self.on
        elif self.targeted and message.get("type") in ("plan", "observe", "drop", "act"):
            self.targeted = False
            await self._misbehave(self.episode.worker if self.episode is not None else "")
        return await super().answer(message)

    async def _misbehave(self, worker: str) -> None:
        if self.how == "hangs":
            await asyncio.sleep(FOREVER)
        elif self.how == "garbage":
            sys.stdout.buffer.write(b"\x00this is not JSON\n")
            sys.stdout.buffer.flush()
        elif self.how == "floods":
            await _flood(worker, FLOOD)
        elif self.how == "cuts-bodies":
            host, port = worker.removeprefix("http://").split(":")
            _, writer = await asyncio.open_connection(host, int(port))
            head = "POST /observe HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n"
            writer.write(head.encode() + b'{"episode_')
            await writer.drain()
            writer.close()


async def _flood(worker: str, requests: int) -> None:
    """Posts, each on a connection of its own, as fast as the worker takes them, never waiting for an answer."""
    host, port = worker.removeprefix("http://").split(":")
    body = b'{"episode_id":"flood","skipped":[0]}'
    head = f"POST /observe HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
    for _ in range(requests):
        try:
            _, writer = await asyncio.open_connection(host, int(port))
        except OSError:  # the scenario ended and its worker closed: the flood is over
            return
        writer.write(head.encode() + body)
        writer.close()


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="a deliberately wrong SDK for iospec uploader-check")
    parser.add_argument("fault", choices=[*FAULTS, *HOSTILE])
    parser.add_argument("--on", default="", help="hostile faults: the episode id of the scenarios to misbehave in")
    parser.add_argument("--pid-file", help="hostile faults: append this process's pid (and a grandchild's) here")
    parser.add_argument("--testee", action="store_true", help="faults: be a testee for iospec run (protocol v1)")
    return parser.parse_args()


def _testee(make: Callable[[Any, Any, str, int | None], Uploading]) -> int:
    """The reference testee with the fault in place of the reference uploader, for `iospec run`."""
    from seq_io.reference import testee

    setattr(testee, "Uploader", make)  # noqa: B010  # this process only: the testee's uploader kind plays the fault
    return testee.main([])


if __name__ == "__main__":
    options = _arguments()
    if options.fault in FAULTS and options.testee:
        sys.exit(_testee(FAULTS[options.fault]))
    if options.fault in FAULTS:
        sys.exit(main(Driver(FAULTS[options.fault]), f"broken-uploader-{options.fault}"))
    sys.exit(main(Hostile(options.fault, options.on, options.pid_file), f"hostile-sdk-{options.fault}"))

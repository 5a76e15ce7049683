"""The reference uploader as an SDK under test: driver-protocol lines on stdin (conformance/uploader-http.md: a
scenario's start, the robot's events, its end) → `seq_io.reference.uploader.Uploader` on the real monotonic clock →
its requests sent to the worker with httpx, each answer or failure fed back to it, each retry fired when
`next_due()` says → one acknowledgement line per line read, on stdout.

WHY it is shaped this way: the uploader is a state machine that never reads a clock or does I/O (spec/uploader.md
UPL-CLOCK), so everything that makes it an SDK is here, and kept small. One asyncio loop runs the stdin reader,
every request in flight and the retry timer, so the uploader is only ever called from one thread and needs no
lock; the clock it is given is the seconds since the scenario's start. A robot waits for its act (its control loop
needs the action), so a robot event that follows an act is handed over only once that act's request has ended:
that keeps the uploader's last act (UPL-ACT-PREV) in step with the robot, as the driver protocol requires. A
request's time limit is this SDK's choice (spec/uploader.md § 9): `POST_TIMEOUT` for a post, which a worker answers
at once, and `ACT_TIMEOUT` for an act, more than `STREAM_WAIT_S` plus a round trip (UPL-HTTP). `end` cancels what
the episode still has in flight before it is acknowledged, so no request of a finished scenario reaches the worker
of the next one. Run: `python -m seq_io.reference.uploader_driver` (needs the HTTP extra, for httpx).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys
import time
import traceback
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from seq_io.reference import testee
from seq_io.reference.keeper import stream_wait_s
from seq_io.reference.schedule import ScheduleError
from seq_io.reference.spec_data import SpecError, load_spec
from seq_io.reference.uploader import Uploader
from seq_io.reference.wire import number_value

if TYPE_CHECKING:
    import httpx

NAME = "seq-io-ref-uploader"
DRIVER = 1
"""The driver protocol's version (conformance/uploader-http.md)."""
POST_TIMEOUT = 10.0
"""Seconds a post may take before this SDK counts it failed (its choice, spec/uploader.md § 9)."""
ACT_TIMEOUT = stream_wait_s() + 5.0
"""Seconds an act may take: a worker may hold it `STREAM_WAIT_S` before answering (UPL-HTTP)."""
MAX_LINE = 64 * 1024 * 1024
INTERNAL_ERROR = "driver.internal-error"
PATHS = {"post": "/observe", "act": "/act"}
JSON_TYPE = {"Content-Type": "application/json"}
ROBOT_EVENTS = ("plan", "observe", "drop", "act")


class Uploading(Protocol):
    """What the driver needs of an uploader: `Uploader`'s two methods."""

    def event(self, event: dict[str, Any], now: float) -> list[dict[str, Any]]: ...

    def next_due(self) -> float | None: ...


Make = Callable[[Any, Any, str, "int | None"], Uploading]
"""What makes an uploader from a start line's declaration, rate, episode id and backlog: `Uploader` itself, or a
deliberately wrong one (tests/broken_uploaders.py)."""


class Episode:
    """One scenario's uploader, its worker and everything it has in flight."""

    def __init__(self, uploader: Uploading, worker: str, client: httpx.AsyncClient) -> None:
        self.uploader, self.worker, self.client = uploader, worker.rstrip("/"), client
        self.origin = time.monotonic()
        self.reading = 0.0
        self.tasks: set[asyncio.Task[None]] = set()
        self.act: asyncio.Task[None] | None = None
        """The last act's request, which the robot waits for before its next event."""
        self.timer: asyncio.TimerHandle | None = None

    async def robot(self, event: dict[str, Any]) -> None:
        """A robot event, handed over once the last act's request ended (answered or failed)."""
        if self.act is not None:
            await asyncio.wait({self.act})  # bounded by the act's own time limit
            self.act = None
        self.feed(event)

    def feed(self, event: dict[str, Any]) -> None:
        """Hand one event to the uploader at the current reading, send what it asks for, re-arm the retry timer."""
        now = time.monotonic() - self.origin
        if "advance" in event:
            event = {"advance": max(0.0, now - self.reading)}
        self.reading = max(self.reading, now)
        for request in self.uploader.event(event, self.reading):
            sort = "post" if "observe" in request else "act"
            task = asyncio.get_running_loop().create_task(
                self._send(sort, request["observe" if sort == "post" else "act"])
            )
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)
            if sort == "act":
                self.act = task
        self._arm()

    def _arm(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        due = self.uploader.next_due()
        if due is not None:
            loop = asyncio.get_running_loop()
            wait = due - (time.monotonic() - self.origin)
            self.timer = loop.call_at(loop.time() + max(0.0, wait), self._fed, {"advance": 0.0})

    def _fed(self, event: dict[str, Any]) -> None:
        """`feed` from a timer or a response: a bug of the uploader is written to stderr, and the session goes on."""
        try:
            self.feed(event)
        except Exception:
            traceback.print_exc(file=sys.stderr)

    async def _send(self, sort: str, body: Any) -> None:
        import httpx

        content = json.dumps(body, allow_nan=False, separators=(",", ":")).encode("ascii")
        timeout = POST_TIMEOUT if sort == "post" else ACT_TIMEOUT
        try:
            response = await self.client.post(
                self.worker + PATHS[sort], content=content, headers=JSON_TYPE, timeout=timeout
            )
        except httpx.TimeoutException:
            self._fed({"fail": {"to": sort, "reason": "timeout"}})
            return
        except httpx.HTTPError:
            self._fed({"fail": {"to": sort, "reason": "connection"}})
            return
        answer: dict[str, Any] = {"to": sort, "status": response.status_code, "headers": dict(response.headers)}
        with contextlib.suppress(ValueError):
            answer["body"] = response.json()
        self._fed({"answer": answer})

    async def close(self) -> None:
        """Cancel the retry timer and every request in flight, and close the episode's connections."""
        if self.timer is not None:
            self.timer.cancel()
        for task in list(self.tasks):
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        await self.client.aclose()


def robot_event(message: dict[str, Any]) -> dict[str, Any]:
    """A robot line → the uploader's event (conformance/protocol.md, kind `uploader`)."""
    kind = message["type"]
    if kind == "plan":
        return {"plan": message["t"]}
    if kind == "observe":
        return {"observe": {"n": message["n"], "inputs": message["inputs"]}}
    if kind == "drop":
        return {"drop": message["n"]}
    return {"act": {"t": message["t"], "inputs": message["inputs"]}}


class Driver:
    """The session: one episode at a time, one acknowledgement per line."""

    def __init__(self, make: Make = Uploader) -> None:
        self.make = make
        self.episode: Episode | None = None

    async def end(self) -> None:
        episode, self.episode = self.episode, None
        if episode is not None:
            await episode.close()

    async def answer(self, message: dict[str, Any]) -> dict[str, Any]:
        import httpx

        kind = message.get("type")
        if kind == "start":
            await self.end()
            try:
                uploader = self.make(
                    message.get("declaration"), message.get("rate"), message["episode_id"], message.get("backlog")
                )
            except ScheduleError as error:
                return {"type": "error", "rule": error.rule, "message": error.message}
            except ValueError as error:  # an episode id or a backlog out of range: no vector sends one
                return {"type": "error", "rule": INTERNAL_ERROR, "message": str(error)}
            self.episode = Episode(uploader, message["worker"], httpx.AsyncClient(trust_env=False))
        elif kind == "end":
            await self.end()
        elif kind in ROBOT_EVENTS:
            if self.episode is not None:
                await self.episode.robot(robot_event(message))
        else:
            return {"type": "error", "rule": INTERNAL_ERROR, "message": f"no such line type: {kind!r}"}
        return {"type": "ok"}


def hello(name: str = NAME) -> dict[str, Any]:
    return {
        "type": "hello",
        "driver": DRIVER,
        "implementation": {"name": name, "version": testee.version()},
        "contract_version": load_spec().contract_version,
    }


def _line(message: dict[str, Any]) -> bytes:
    return json.dumps(message, separators=(",", ":")).encode("ascii") + b"\n"


async def serve(reader: asyncio.StreamReader, write: Callable[[bytes], None], driver: Driver, name: str) -> int:
    """The runner's hello, ours, then one acknowledgement per line until stdin closes (exit status 0)."""
    first = await reader.readline()
    if not first:
        return 0
    try:
        greeting = json.loads(first)
    except ValueError:
        greeting = None
    if not (isinstance(greeting, dict) and greeting.get("type") == "hello"):
        print(f"{name}: the first line is not a hello: {first[:200]!r}", file=sys.stderr)
        return 2
    write(_line(hello(name)))
    while raw := await reader.readline():
        if not raw.strip():
            continue
        try:
            answer = await driver.answer(json.loads(raw, parse_float=number_value))
        except Exception as error:  # a bug, or a line that is not the protocol: said on this line, the session goes on
            traceback.print_exc(file=sys.stderr)
            answer = {"type": "error", "rule": INTERNAL_ERROR, "message": f"{type(error).__name__}: {error}"}
        write(_line(answer))
    await driver.end()
    return 0


async def _warm_up() -> None:
    """One request to a port where nothing listens: a process's first request costs tens of milliseconds of lazy
    imports inside httpx, which would otherwise make the first scenario's first request late."""
    import httpx

    async with httpx.AsyncClient(trust_env=False) as client:
        with contextlib.suppress(httpx.HTTPError):
            await client.post("http://127.0.0.1:9/", content=b"", timeout=1.0)


async def _serve_stdio(driver: Driver, name: str) -> int:
    await _warm_up()
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=MAX_LINE)
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)

    def write(data: bytes) -> None:
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()

    return await serve(reader, write, driver, name)


def main(driver: Driver | None = None, name: str = NAME) -> int:
    """Serve the driver protocol on stdin and stdout (with the reference uploader unless `driver` says
    otherwise); the exit status."""
    try:
        import httpx  # noqa: F401  # the extra's presence, checked before the hello
    except ImportError as error:
        print(
            f"{name}: needs the HTTP extra ({error.name} is missing): pip install 'sequences-io-spec[http]'",
            file=sys.stderr,
        )
        return 2
    try:
        load_spec()
    except SpecError as error:
        print(f"{name}: the spec cannot be read: {error}", file=sys.stderr)
        return 2
    try:
        return asyncio.run(_serve_stdio(driver or Driver(), name))
    except BrokenPipeError:  # the runner went away; nothing is left to answer
        return 1


if __name__ == "__main__":
    sys.exit(main())

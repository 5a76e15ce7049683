"""An SDK's HTTP requests on a loopback port → each one read (bounded), timestamped and recorded as an `Arrival`,
then held until the scenario's worker event for it releases it with an answer or a dropped connection → the
arrivals, in the order they came, for the engine to attribute and judge.

WHY it is shaped this way:

- It is a few hundred lines of HTTP/1.1 over asyncio streams, not a web framework, because the worker must do
  what frameworks hide: hold a request unanswered for as long as the scenario says, close a connection without
  answering (`fail`), answer with exactly the vector's headers (or none), and record a body that is not JSON, too
  large or cut off mid-way as what the SDK sent rather than refuse it with a page of its own. It needs no extra
  dependency either, so `iospec uploader-check` runs where the package runs.
- One event loop in one background thread serves every scenario of a run; each scenario gets a fresh listening
  socket (`Scenario`), closed at its end with every connection it holds, so nothing an SDK sends late can be
  counted in the next scenario. The engine's thread waits on a condition variable for the arrivals it expects and
  releases held requests through the loop (`run_coroutine_threadsafe`).
- Every answer says `Connection: close`, so each connection carries one request, and the SDK closing it is the
  one sign, visible from here, that it has read the answer (`wait_taken`): the engine waits for it before the
  robot's next event, so that event never overtakes an answer the SDK has not taken in.
- Every resource is bounded (conformance/uploader-http.md, "Limits"): the size of a request head and body, the
  requests per scenario and the connections open at once. An SDK that floods, hangs mid-request or sends garbage
  costs its own case, never the run.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
import time
from collections import deque
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from http import HTTPStatus
from typing import Any, TypeVar

MAX_BODY = 8 * 1024 * 1024
"""Bytes of one request body; a larger body is recorded as too large and its connection closed."""
MAX_HEAD = 64 * 1024
"""Bytes of one request line plus its headers."""
MAX_HEADERS = 100
MAX_REQUESTS = 1000
"""Requests recorded per scenario; beyond, the SDK floods: further connections are closed unread."""
MAX_CONNECTIONS = 64
"""Connections open at once per scenario; beyond, a new one is closed at once (and counted as a flood)."""
OPEN_TIMEOUT = 10.0
FRAMING = ("content-length", "connection", "transfer-encoding")
"""Response headers the worker writes itself, whatever the vector's `headers` say: the body's length, and
`Connection: close`, so that the SDK's closing the connection tells that it read the answer."""
SORTS = {"/observe": "post", "/act": "act"}
"""The two requests an uploader sends (spec/uploader.md UPL-HTTP), by path."""

T = TypeVar("T")


@dataclass(frozen=True)
class Answer:
    """How the worker answers a held request: a status, the response headers (None: the vector gave none, so the
    worker's usual `Seq-Accept-Formats` header) and a JSON body (`has_body` False: an empty body)."""

    status: int
    headers: dict[str, str] | None = None
    body: Any = None
    has_body: bool = False


@dataclass(frozen=True)
class Drop:
    """The held request fails without an answer: its connection is closed (`fail`, for either reason)."""


@dataclass
class Arrival:
    """One request as it came: when its request line arrived (time.monotonic), what it was, and why it could not be
    read to its end (`problems`; `http_problems` says what else is wrong with it)."""

    seconds: float
    method: str
    path: str
    headers: dict[str, str]
    body: bytes
    problems: list[str] = field(default_factory=list)

    @property
    def sort(self) -> str:
        """`post`, `act`, or `other` (another path or method, or a request that could not be read)."""
        return SORTS.get(self.path, "other") if self.method == "POST" else "other"


class _Unreadable(Exception):
    """The request cannot be read to its end; the connection is closed after recording why."""


def _default_headers(observe_format: str) -> dict[str, str]:
    return {"Seq-Accept-Formats": observe_format}


def _response(answer: Answer, observe_format: str) -> bytes:
    headers = dict(_default_headers(observe_format) if answer.headers is None else answer.headers)
    body = b""
    if answer.has_body:
        body = json.dumps(answer.body, ensure_ascii=False, separators=(",", ":")).encode("utf-8", "surrogatepass")
        if not any(name.lower() == "content-type" for name in headers):
            headers["Content-Type"] = "application/json"
    try:
        reason = HTTPStatus(answer.status).phrase
    except ValueError:
        reason = "Status"
    lines = [f"HTTP/1.1 {answer.status} {reason}"]
    lines += [f"{name}: {value}" for name, value in headers.items() if name.lower() not in FRAMING]
    lines += [f"Content-Length: {len(body)}", "Connection: close"]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1", "replace") + body


async def _head(reader: asyncio.StreamReader, first: bytes) -> tuple[str, str, dict[str, str]]:
    """The request line (already read: `first`) and the headers, names lower-cased (repeated ones joined by
    commas, as HTTP allows for list-valued headers)."""
    parts = first.decode("latin-1").rstrip("\r\n").split(" ")
    if len(parts) != 3 or not parts[2].startswith("HTTP/1."):
        raise _Unreadable(f"not an HTTP/1.x request line: {first[:120]!r}")
    method, target, _ = parts
    headers: dict[str, str] = {}
    size = len(first)
    while True:
        line = await reader.readline()
        size += len(line)
        if not line.endswith(b"\n"):
            raise _Unreadable("the connection closed in the middle of the request head")
        if size > MAX_HEAD or len(headers) > MAX_HEADERS:
            raise _Unreadable(f"the request head is larger than {MAX_HEAD} bytes or {MAX_HEADERS} headers")
        if line in (b"\r\n", b"\n"):
            return method, target.split("?", 1)[0], headers
        name, colon, value = line.decode("latin-1").partition(":")
        if not colon:
            raise _Unreadable(f"a header line without a colon: {line[:120]!r}")
        key = name.strip().lower()
        headers[key] = f"{headers[key]}, {value.strip()}" if key in headers else value.strip()


async def _exactly(reader: asyncio.StreamReader, size: int, got: int) -> bytes:
    try:
        return await reader.readexactly(size)
    except asyncio.IncompleteReadError as cut:
        raise _Unreadable(
            f"the connection closed in the middle of the body ({got + len(cut.partial)} bytes came)"
        ) from None


async def _chunked(reader: asyncio.StreamReader) -> bytes:
    body = bytearray()
    while True:
        line = await reader.readline()
        if not line.endswith(b"\n"):
            raise _Unreadable(f"the connection closed in the middle of the chunked body ({len(body)} bytes came)")
        try:
            size = int(line.split(b";", 1)[0].strip(), 16)
        except ValueError:
            raise _Unreadable(f"a chunk size that is not hexadecimal: {line[:40]!r}") from None
        if size < 0 or len(body) + size > MAX_BODY:
            raise _Unreadable(f"the body is larger than {MAX_BODY} bytes")
        if size == 0:
            while (trailer := await reader.readline()) not in (b"\r\n", b"\n"):
                if not trailer:
                    raise _Unreadable("the connection closed in the middle of the chunked body's trailer")
            return bytes(body)
        body += await _exactly(reader, size, len(body))
        if await _exactly(reader, 2, len(body)) != b"\r\n":
            raise _Unreadable("a chunk is not followed by CRLF")


async def _body(reader: asyncio.StreamReader, headers: dict[str, str]) -> bytes:
    if "chunked" in headers.get("transfer-encoding", "").lower():
        return await _chunked(reader)
    length = headers.get("content-length", "0").strip()
    if not length.isdigit():
        raise _Unreadable(f"the Content-Length {length!r} is not a number of bytes")
    if int(length) > MAX_BODY:
        raise _Unreadable(f"the body is larger than {MAX_BODY} bytes (Content-Length {length})")
    return await _exactly(reader, int(length), 0)


def http_problems(method: str, path: str, headers: dict[str, str]) -> list[str]:
    """How a request departs from spec/uploader.md UPL-HTTP: POST /observe or /act, `Content-Type:
    application/json` (a charset parameter allowed)."""
    problems = []
    if method != "POST" or path not in SORTS:
        problems.append(f"{method} {path}: an uploader sends only POST /observe and POST /act (UPL-HTTP)")
    media = headers.get("content-type")
    if media is None or media.split(";", 1)[0].strip().lower() != "application/json":
        problems.append(f"Content-Type {media!r}: an uploader's requests are application/json (UPL-HTTP)")
    return problems


class Scenario:
    """One scenario's listening socket, its arrivals and its held requests. Methods without a leading `a` are
    called from the engine's thread; the coroutines run on the worker's loop."""

    def __init__(self, loop: asyncio.AbstractEventLoop, observe_format: str) -> None:
        self._loop = loop
        self._format = observe_format
        self._changed = threading.Condition()
        self._arrivals: list[Arrival] = []
        self.flooded = 0
        """Requests and connections refused because the scenario's limits were reached."""
        self._held: dict[str, deque[asyncio.Future[Answer | Drop]]] = {"post": deque(), "act": deque()}
        self._unended = {"post": 0, "act": 0}
        """Held requests no worker event has ended yet, by sort (read by the engine's thread under `_changed`)."""
        self._writers: set[asyncio.StreamWriter] = set()
        self._taken = 0
        """Answers whose connection the SDK closed after reading them."""
        self._server: asyncio.Server | None = None
        self.url = ""

    # -- the loop's side ----------------------------------------------------------------------------------

    async def aopen(self) -> None:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0, limit=MAX_HEAD)
        port = self._server.sockets[0].getsockname()[1]
        self.url = f"http://127.0.0.1:{port}"

    async def aclose(self) -> None:
        if self._server is not None:
            self._server.close()
        for queue in self._held.values():
            for future in queue:
                if not future.done():
                    future.set_result(Drop())
        for writer in list(self._writers):
            writer.close()
        if self._server is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._server.wait_closed(), 2.0)

    def _record(self, arrival: Arrival, held: bool = False) -> None:
        with self._changed:
            self._arrivals.append(arrival)
            if held:
                self._unended[arrival.sort] += 1
            self._changed.notify_all()

    def _full(self) -> bool:
        return len(self._arrivals) >= MAX_REQUESTS or len(self._writers) >= MAX_CONNECTIONS

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if self._full():
            with self._changed:
                self.flooded += 1
            writer.close()
            return
        self._writers.add(writer)
        try:
            await self._one(reader, writer)
        except (ConnectionError, OSError, asyncio.CancelledError):
            pass
        finally:
            self._writers.discard(writer)
            writer.close()

    async def _one(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """Serve the one request of a connection (every answer closes it)."""
        try:
            first = await reader.readline()
        except ValueError:  # a request line longer than the reader's limit
            first = b"(a request line longer than the limit)"
        if not first:
            return
        seconds = time.monotonic()
        try:
            method, path, headers = await _head(reader, first)
        except (_Unreadable, ValueError) as error:
            self._record(Arrival(seconds, "?", "?", {}, b"", [str(error)]))
            return
        try:
            if headers.get("expect", "").lower() == "100-continue":
                writer.write(b"HTTP/1.1 100 Continue\r\n\r\n")
            body = await _body(reader, headers)
        except (_Unreadable, ValueError) as error:
            self._record(Arrival(seconds, method, path, headers, b"", [str(error)]))
            return
        arrival = Arrival(seconds, method, path, headers, body)
        if arrival.sort == "other":
            self._record(arrival)
            writer.write(_response(Answer(404 if method == "POST" else 405), self._format))
            await writer.drain()
            return
        future: asyncio.Future[Answer | Drop] = self._loop.create_future()
        self._held[arrival.sort].append(future)
        self._record(arrival, held=True)
        outcome = await future
        if isinstance(outcome, Answer):
            writer.write(_response(outcome, self._format))
            await writer.drain()
            with contextlib.suppress(ConnectionError, OSError):
                while await reader.read(65536):  # until the SDK, having read the answer, closes the connection
                    pass
            with self._changed:
                self._taken += 1
                self._changed.notify_all()

    async def _release(self, sort: str, outcome: Answer | Drop) -> bool:
        queue = self._held[sort]
        while queue:
            future = queue.popleft()
            if not future.done():
                future.set_result(outcome)
                with self._changed:
                    self._unended[sort] -= 1
                return True
        return False

    # -- the engine's side --------------------------------------------------------------------------------

    def release(self, sort: str, outcome: Answer | Drop) -> bool:
        """Answer (or drop) the oldest held request of `sort`; whether one was held (protocol.md: an event with
        none in flight is ignored)."""
        return asyncio.run_coroutine_threadsafe(self._release(sort, outcome), self._loop).result(OPEN_TIMEOUT)

    def wait_held(self, sort: str, deadline: float) -> bool:
        """Wait until a request of `sort` is held that no worker event has ended, or until `deadline`; whether one
        is."""
        with self._changed:
            return self._changed.wait_for(lambda: self._unended[sort] > 0, max(0.0, deadline - time.monotonic()))

    def wait_taken(self, answered: int, deadline: float) -> bool:
        """Wait until the SDK closed the connections of `answered` answers (it read them), or until `deadline`."""
        with self._changed:
            return self._changed.wait_for(lambda: self._taken >= answered, max(0.0, deadline - time.monotonic()))

    def count(self) -> int:
        with self._changed:
            return len(self._arrivals)

    def wait_for(self, count: int, deadline: float) -> int:
        """Wait until `count` requests arrived or time.monotonic() reaches `deadline`; how many arrived."""
        with self._changed:
            self._changed.wait_for(lambda: len(self._arrivals) >= count, max(0.0, deadline - time.monotonic()))
            return len(self._arrivals)

    def arrivals(self) -> list[Arrival]:
        with self._changed:
            return list(self._arrivals)


class RecordingWorker:
    """The event loop thread that serves every scenario of a run; `scenario()` opens one, `close` ends them all."""

    def __init__(self, observe_format: str) -> None:
        self._format = observe_format
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="recording-worker", daemon=True)
        self._thread.start()

    def _call(self, work: Callable[[], Coroutine[Any, Any, T]], timeout: float = OPEN_TIMEOUT) -> T:
        return asyncio.run_coroutine_threadsafe(work(), self._loop).result(timeout)

    def scenario(self) -> Scenario:
        """A fresh listening socket on 127.0.0.1 (a port the system chose) for one scenario."""
        scenario = Scenario(self._loop, self._format)
        self._call(scenario.aopen)
        return scenario

    def finish(self, scenario: Scenario) -> None:
        """Close the scenario's socket and every connection it holds (held requests are dropped unanswered)."""
        with contextlib.suppress(Exception):
            self._call(scenario.aclose)

    def close(self) -> None:
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(5.0)
        if not self._thread.is_alive():
            self._loop.close()

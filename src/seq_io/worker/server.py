"""The worker's own HTTP/1.1 server: a listening socket → accepted connections (bounded in number, the oldest idle
one evicted when full) → h11 parses each request's head within `--header-timeout` → the app routes it
(`Worker.route`) → the body is read within `--max-body-bytes` and `--body-timeout` → the app answers
(`Worker.handle`) → a JSON answer with `Seq-Accept-Formats` → one ASCII JSON log line → the next request on the
connection (pipelined or within `--keep-alive`) or close. A first SIGINT/SIGTERM drains; a second one forces.

WHY it is shaped this way, and not an ASGI server: every byte the worker writes is decided here, so every answer,
including those to malformed HTTP, oversize heads, too many connections and the shutdown, is a StreamError-shaped
body with the header (conformance/worker.md); a connection is timed from its accept, so clients that send nothing,
or one byte a second, cannot hold the connection limit; the limit counts connections that have not yet sent a
request as the first to go (after a grace period, so that a burst of good clients does not evict itself), so a
well-behaved client still gets served when an attacker opens thousands; a full table leaves newcomers in the
kernel's backlog for a moment before it refuses them, so a burst of quick requests is served; and
running out of file descriptors pauses accepting for a moment with one log line instead of a traceback per try.
h11 does the parsing (no I/O of its own, pure Python, strict about framing); asyncio streams do the I/O.

The shutdown: stop accepting, let the app drain (waiting acts answered 503 at once), answer 503 `shutting_down` to
every request whose body is still arriving, close idle connections, finish the requests being handled (bounded by
`--shutdown-timeout`), then return.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import http
import json
import resource
import signal
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TextIO

import h11

from seq_io.reference.keeper import FORMATS_HEADER
from seq_io.worker.app import (
    MEDIA_TYPE,
    Route,
    Worker,
    body_timed_out,
    dump,
    internal_error,
    shaped,
    shutting_down,
    too_large,
)
from seq_io.worker.cli import DEFAULT_HEADER_TIMEOUT_S, DEFAULT_KEEP_ALIVE_S, DEFAULT_MAX_CONNECTIONS
from seq_io.worker.host import Reply, observe_format

RESERVED_FDS = 128
"""File descriptors kept free of connections: the log, the policy file, the event loop's own."""
MAX_HEAD_BYTES = 16 * 1024
"""A request line and headers longer than this are 431 (h11's own bound, named here)."""
READ_SIZE = 65536
ACCEPT_PAUSE_S = 0.1
ACCEPT_BATCH = 64
FULL_PAUSE_S = 0.05
"""How long accepting pauses, at a time, when the table is full and no connection can be evicted."""
FULL_WAIT_S = 1.0
"""How long new connections wait in the backlog for room before they are answered 503 `too_many_connections`: a
burst of quick requests is served, a table full of long ones is refused."""
EVICT_GRACE_S = 1.0
"""A connection that has begun a request and not finished it is safe from eviction this long (at most half
--header-timeout)."""
PRESSED_GRACE_S = 0.05
"""When more than half of a full table is connections that have not sent a whole first request, they are the attack
(silent or dripping clients): one of them is safe from eviction only this long, unless bytes it sent wait unread
(in the stream's buffer or the kernel's), so that a well-behaved client does not wait behind them. Otherwise (a burst
of clients whose requests are being served) EVICT_GRACE_S holds, so that clients slow to write their first bytes
are not evicted by each other."""
OUT_OF_FDS = {errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM}


@dataclass(frozen=True)
class ServerSettings:
    """The HTTP layer's bounds (conformance/worker.md, the flags)."""

    header_timeout_s: float = DEFAULT_HEADER_TIMEOUT_S
    keep_alive_s: float = DEFAULT_KEEP_ALIVE_S
    max_connections: int = DEFAULT_MAX_CONNECTIONS
    shutdown_timeout_s: float = 30.0


def connection_cap(requested: int) -> int:
    """`requested`, at most RLIMIT_NOFILE - RESERVED_FDS (and at least 1)."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return requested
    return max(1, min(requested, soft - RESERVED_FDS))


class Cut(Exception):
    """The server ended a connection's task: evicted, drained or forced."""


@dataclass(eq=False)
class Connection:
    """One accepted connection: its parser, its streams, where it is, and whether the server cut it."""

    socket: socket.socket
    accepted: float
    parser: h11.Connection
    reader: asyncio.StreamReader | None = None
    writer: asyncio.StreamWriter | None = None
    task: asyncio.Task[None] | None = None
    phase: str = "head"  # head (no whole request yet) | body | handling
    served: int = 0
    cut: str | None = None  # why the server cancelled its task: evict | drain | close | force


def _headers(reply: Reply, extra: tuple[tuple[str, str], ...], close: bool, length: int) -> list[tuple[str, str]]:
    headers = [
        ("content-type", MEDIA_TYPE),
        ("content-length", str(length)),
        (FORMATS_HEADER.lower(), observe_format()),
        *extra,
    ]
    if close:
        headers.append(("connection", "close"))
    return headers


def _phrase(status: int) -> bytes:
    try:
        return http.HTTPStatus(status).phrase.encode("ascii")
    except ValueError:
        return b""


def _unread(connection: Connection) -> bool:
    """Whether bytes the client sent wait unread: in the stream's buffer or in the kernel's."""
    buffered = getattr(connection.reader, "_buffer", None)  # asyncio.StreamReader keeps no public count
    if buffered:
        return True
    try:
        return bool(connection.socket.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT))
    except (BlockingIOError, InterruptedError):
        return False
    except OSError:
        return False  # reset or closed: nothing to serve there


def raw_answer(reply: Reply) -> bytes:
    """A whole HTTP/1.1 answer that closes the connection, for a connection no parser serves (too many)."""
    body = dump(reply.body)
    head = f"HTTP/1.1 {reply.status} {_phrase(reply.status).decode()}\r\n" + "".join(
        f"{name}: {value}\r\n" for name, value in _headers(reply, (), True, len(body))
    )
    return head.encode("latin-1") + b"\r\n" + body


class HttpServer:
    """Serves one `Worker` on one listening socket until `stop` (see the module docstring)."""

    def __init__(self, worker: Worker, settings: ServerSettings, log: TextIO | None) -> None:
        self.worker, self.settings, self.log = worker, settings, log
        self.limit = connection_cap(settings.max_connections)
        self.evict_grace_s = min(EVICT_GRACE_S, settings.header_timeout_s / 2)
        self.connections: dict[Connection, None] = {}  # insertion order: oldest first
        self.body_timeout_s = worker.settings.body_timeout_s
        self.max_body_bytes = worker.settings.max_body_bytes
        self._listener: socket.socket | None = None
        self._accepting = False
        self._out_of_fds_said = False
        self._full_since: float | None = None
        self._stop: asyncio.Event | None = None
        self._force: asyncio.Event | None = None

    # -- the log ----------------------------------------------------------------------------------------------

    def write_log(self, line: dict[str, Any]) -> None:
        if self.log is None:
            return
        try:
            self.log.write(json.dumps(line, ensure_ascii=True) + "\n")
            self.log.flush()
        except (OSError, ValueError):
            pass  # a closed or broken log must not take the worker down

    # -- accepting --------------------------------------------------------------------------------------------

    def start_accepting(self, listener: socket.socket) -> None:
        listener.setblocking(False)
        listener.listen(min(socket.SOMAXCONN, 4096))
        self._listener = listener
        self._accepting = True
        asyncio.get_running_loop().add_reader(listener.fileno(), self._accept_ready)

    def stop_accepting(self) -> None:
        if self._listener is None:
            return
        loop = asyncio.get_running_loop()
        if self._accepting:
            loop.remove_reader(self._listener.fileno())
        self._accepting = False
        self._listener.close()
        self._listener = None

    def _accept_ready(self) -> None:
        assert self._listener is not None
        for _ in range(ACCEPT_BATCH):
            room = self._make_room()
            if room == "wait":  # young connections will send their requests or age into evictable ones
                self._pause_accepting(FULL_PAUSE_S)
                return
            try:
                client, _ = self._listener.accept()
            except (BlockingIOError, InterruptedError):
                return
            except OSError as error:
                if error.errno in OUT_OF_FDS:
                    self._out_of_fds(error)
                    return
                continue  # ECONNABORTED and the like: that client is gone, the next one may not be
            self._out_of_fds_said = False
            if room == "refuse":
                self._refuse(client)
            else:
                self._admit(client)

    def _out_of_fds(self, error: OSError) -> None:
        """Out of file descriptors: stop accepting for ACCEPT_PAUSE_S, say it once per shortage."""
        if not self._out_of_fds_said:
            self._out_of_fds_said = True
            self.write_log(
                {
                    "event": "accept_paused",
                    "error": error.strerror or str(error),
                    "connections": len(self.connections),
                    "hint": "raise `ulimit -n` or lower --max-connections",
                }
            )
        self._pause_accepting(ACCEPT_PAUSE_S)

    def _pause_accepting(self, seconds: float) -> None:
        """Leave new connections in the kernel's backlog for a while (or until a connection ends)."""
        loop = asyncio.get_running_loop()
        assert self._listener is not None
        if self._accepting:
            loop.remove_reader(self._listener.fileno())
        self._accepting = False
        loop.call_later(seconds, self._resume_accepting)

    def _resume_accepting(self) -> None:
        if self._listener is not None and not self._accepting:
            self._accepting = True
            asyncio.get_running_loop().add_reader(self._listener.fileno(), self._accept_ready)

    def _admit(self, client: socket.socket) -> None:
        client.setblocking(False)
        with contextlib.suppress(OSError):  # not TCP, or already reset
            client.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        connection = Connection(client, time.monotonic(), h11.Connection(h11.SERVER, MAX_HEAD_BYTES))
        self.connections[connection] = None
        connection.task = asyncio.get_running_loop().create_task(self._serve(connection))

    def _make_room(self) -> str:
        """Whether a new connection may come in: "yes" (below the limit, or one was evicted for it), "wait" (leave
        it in the kernel's backlog a while: the table holds connections too young to evict, or has been full of busy
        ones for less than FULL_WAIT_S), "refuse" (full of busy connections for longer: answer 503)."""
        if len(self.connections) < self.limit or self._evict():
            self._full_since = None
            return "yes"
        if any(c.phase == "head" and c.served == 0 and c.cut is None for c in self.connections):
            return "wait"  # each will send its request (busy) or pass the grace period (evictable)
        now = time.monotonic()
        if self._full_since is None:
            self._full_since = now
        return "wait" if now - self._full_since < FULL_WAIT_S else "refuse"

    def _evict(self) -> bool:
        """Cut the oldest connection that has not sent a whole request, preferring those that never did (a slow or
        silent client, once older than the grace period: a burst of good clients must not evict each other before
        they could send) over idle keep-alives; False when there is none."""
        now = time.monotonic()
        waiting = [c for c in self.connections if c.phase == "head" and c.served == 0 and c.cut is None]
        grace_end = now - self.evict_grace_s
        pressed_end = now - PRESSED_GRACE_S if 2 * len(waiting) > len(self.connections) else grace_end
        idle: Connection | None = None
        for connection in self.connections:
            if connection.phase != "head" or connection.cut is not None:
                continue
            if connection.served == 0:
                if connection.accepted <= grace_end or (connection.accepted <= pressed_end and not _unread(connection)):
                    self._cut(connection, "evict")
                    return True
            elif idle is None:
                idle = connection
        if idle is None:
            return False
        self._cut(idle, "evict")
        return True

    def _refuse(self, client: socket.socket) -> None:
        reply = shaped(
            503,
            "unavailable",
            "too_many_connections",
            f"the worker holds {self.limit} connections, each busy with a request (--max-connections); retry",
        )
        with contextlib.suppress(OSError):
            client.send(raw_answer(reply))
        client.close()
        self.write_log({"method": None, "path": None, "status": 503, "outcome": "refused", "ms": 0.0})

    def _cut(self, connection: Connection, why: str) -> None:
        """End a connection's task from outside; it leaves the table now so that its place is free at once."""
        connection.cut = why
        self.connections.pop(connection, None)
        if why == "evict":
            age = round((time.monotonic() - connection.accepted) * 1000, 3)
            self.write_log({"event": "evicted", "served": connection.served, "age_ms": age})
        if connection.writer is not None:
            connection.writer.close()
        if connection.task is not None:
            connection.task.cancel()

    # -- one connection ---------------------------------------------------------------------------------------

    async def _serve(self, connection: Connection) -> None:
        loop = asyncio.get_running_loop()
        try:
            reader = asyncio.StreamReader(limit=READ_SIZE, loop=loop)
            protocol = asyncio.StreamReaderProtocol(reader, loop=loop)
            transport, _ = await loop.connect_accepted_socket(lambda: protocol, connection.socket)
            connection.reader = reader
            connection.writer = asyncio.StreamWriter(transport, protocol, reader, loop)
            if connection.cut is not None:
                return
            while await self._one_request(connection):
                connection.parser.start_next_cycle()
        except (asyncio.CancelledError, Cut):
            if connection.cut is None:
                raise
        except (ConnectionError, OSError):
            pass  # the client went away; its request's line says so
        except Exception as error:  # a bug of the server: one log line, the connection closed, never a traceback
            self.write_log({"event": "connection_error", "error": repr(error)[:300]})
        finally:
            self.connections.pop(connection, None)
            self._resume_accepting()  # accepting may have paused for a full table
            if connection.writer is not None:
                connection.writer.close()
            else:
                connection.socket.close()

    async def _receive(self, connection: Connection, deadline: float) -> None:
        """Feed the parser the next bytes; TimeoutError past the deadline; b"" (end of stream) as h11 wants it."""
        assert connection.reader is not None
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise TimeoutError
        async with asyncio.timeout(remaining):
            data = await connection.reader.read(READ_SIZE)
        connection.parser.receive_data(data)

    async def _read_head(self, connection: Connection) -> h11.Request | None:
        """The next request's head, or None when the connection ends first (closed, timed out, malformed: the
        latter answered here)."""
        settings = self.settings
        parser = connection.parser
        deadline = connection.accepted + settings.header_timeout_s if connection.served == 0 else None
        while True:
            try:
                event = parser.next_event()
            except h11.RemoteProtocolError as error:
                await self._protocol_error(connection, error)
                return None
            if isinstance(event, h11.Request):
                size = len(event.method) + len(event.target) + sum(len(n) + len(v) + 4 for n, v in event.headers)
                if size > MAX_HEAD_BYTES:  # h11 bounds only heads that arrive in pieces
                    await self._protocol_error(connection, h11.RemoteProtocolError("too large", 431))
                    return None
                names = {name for name, _ in event.headers}
                if b"content-length" in names and b"transfer-encoding" in names:  # RFC 9112 § 6.3: may refuse
                    smuggling = "both Content-Length and Transfer-Encoding (a request-smuggling risk); send one"
                    await self._protocol_error(connection, h11.RemoteProtocolError(smuggling, 400))
                    return None
                return event
            if event is not h11.NEED_DATA:
                return None  # ConnectionClosed, or a client that sent more after Connection: close
            started = bool(parser.trailing_data[0])
            if deadline is None and started:
                deadline = time.monotonic() + settings.header_timeout_s
            try:
                if deadline is None:  # an idle keep-alive: a whole --keep-alive for the next request's first byte
                    await self._receive(connection, time.monotonic() + settings.keep_alive_s)
                else:
                    await self._receive(connection, deadline)
            except TimeoutError:
                if started:  # a head begun and not finished; a silent connection is no request
                    self.write_log(
                        {
                            "method": None,
                            "path": None,
                            "status": None,
                            "outcome": "header_timeout",
                            "received": len(parser.trailing_data[0]),
                            "ms": round((time.monotonic() - connection.accepted) * 1000, 3),
                        }
                    )
                return None

    async def _protocol_error(self, connection: Connection, error: h11.RemoteProtocolError) -> None:
        begun = time.monotonic()
        if error.error_status_hint == 431:
            reply = shaped(
                431, "headers_too_large", "headers_too_large", f"the request's head passed {MAX_HEAD_BYTES} bytes"
            )
        else:
            reply = shaped(
                400, "bad_request", "malformed_http", f"the request is not HTTP/1.1 as RFC 9112 says: {error}"
            )
        outcome = await self._answer(connection, reply, (), close=True)
        self._log_request(None, None, reply.status, outcome, begun, {})

    async def _one_request(self, connection: Connection) -> bool:
        """Read, route, answer one request; True when the connection stays open for the next."""
        event = await self._read_head(connection)
        if event is None:
            return False
        begun = time.monotonic()
        connection.phase = "body"
        method = event.method.decode("ascii", "replace")
        path = event.target.decode("ascii", "replace").split("?", 1)[0]
        headers: dict[str, str] = {}
        for name, value in event.headers:
            key = name.decode("latin-1")
            text = value.decode("latin-1")
            headers[key] = f"{headers[key]}, {text}" if key in headers else text
        route = self._route(method, path, headers)
        reply: Reply | None = route.reply
        if reply is not None:
            connection.phase = "handling"  # answered from its head: a drain no longer cuts it
        else:
            reply = await self._read_and_handle(connection, route, path, headers)
        if reply is None:  # the client went away mid-body: nobody to answer
            self._log_request(method, path, None, "cut", begun, route.log)
            return False
        close = self.worker.draining or not self._request_done(connection)
        outcome = await self._answer(connection, reply, route.headers, close=close)
        self._log_request(method, path, reply.status, outcome, begun, route.log)
        connection.served += 1
        connection.phase = "head"
        return outcome == "answered" and connection.parser.our_state is h11.DONE and not close

    @staticmethod
    def _request_done(connection: Connection) -> bool:
        """Whether the client finished sending its request: true at once for a request without a body; a body left
        unread (answered from the head alone) means the connection closes after the answer."""
        parser = connection.parser
        if parser.their_state is h11.SEND_BODY:
            try:
                event = parser.next_event()
            except h11.RemoteProtocolError:
                return False
            return isinstance(event, h11.EndOfMessage)
        return parser.their_state is h11.DONE

    def _route(self, method: str, path: str, headers: dict[str, str]) -> Route:
        if self.worker.draining:
            return Route(shutting_down())
        try:
            return self.worker.route(method, path, headers)
        except Exception as error:  # a bug of the worker: one log line, a shaped 500, never a traceback
            return Route(internal_error(), log={"error": repr(error)[:300]})

    async def _read_and_handle(
        self, connection: Connection, route: Route, path: str, headers: dict[str, str]
    ) -> Reply | None:
        try:
            read = await self._read_body(connection, headers)
        except asyncio.CancelledError:
            if connection.cut != "drain":
                raise
            task = asyncio.current_task()
            if task is not None:
                task.uncancel()
            connection.cut = None
            return shutting_down()
        if not isinstance(read, bytearray):
            return read
        connection.phase = "handling"
        try:
            return await self.worker.handle(route, path, read)
        except Exception as error:  # a bug of the worker: one log line, a shaped 500, never a traceback
            route.log["error"] = repr(error)[:300]
            return internal_error()

    async def _read_body(self, connection: Connection, headers: dict[str, str]) -> bytearray | Reply | None:
        """The body whole, a refusal (too large, too slow, malformed framing), or None when the client left. A
        bytearray: the body parser empties it once a child process has the bytes (bodies.py), so that a large body
        is not held twice while its check comes back."""
        limit = self.max_body_bytes
        declared = headers.get("content-length", "").strip()
        if declared.isdigit() and int(declared) > limit:
            return too_large(limit, int(declared))
        parser = connection.parser
        if parser.they_are_waiting_for_100_continue and connection.writer is not None:
            connection.writer.write(parser.send(h11.InformationalResponse(status_code=100, headers=[])) or b"")
        deadline = time.monotonic() + self.body_timeout_s
        body = bytearray()
        while True:
            try:
                event = parser.next_event()
            except h11.RemoteProtocolError as error:
                if parser.their_state is h11.ERROR and not parser.trailing_data[0] and parser.trailing_data[1]:
                    return None  # closed mid-body
                return shaped(400, "bad_request", "malformed_http", f"the body's framing is broken: {error}")
            if isinstance(event, h11.Data):
                if len(body) + len(event.data) > limit:
                    return too_large(limit)
                body += event.data
            elif isinstance(event, h11.EndOfMessage):
                return body
            elif event is h11.NEED_DATA:
                try:
                    await self._receive(connection, deadline)
                except TimeoutError:
                    return body_timed_out(self.body_timeout_s)
            else:
                return None

    async def _answer(
        self, connection: Connection, reply: Reply, extra: tuple[tuple[str, str], ...], *, close: bool
    ) -> str:
        """Write the answer; "answered", or "cut" when the client cannot take it."""
        writer = connection.writer
        assert writer is not None
        try:
            body = dump(reply.body)
        except (TypeError, ValueError) as error:
            reply, body = internal_error(), dump(internal_error().body)
            self.write_log({"event": "internal", "error": repr(error)[:300]})
        parser = connection.parser
        try:
            data = parser.send(
                h11.Response(
                    status_code=reply.status,
                    headers=_headers(reply, extra, close, len(body)),
                    reason=_phrase(reply.status),
                )
            )
            data = (data or b"") + (parser.send(h11.Data(data=body)) or b"") + (parser.send(h11.EndOfMessage()) or b"")
        except h11.LocalProtocolError:
            return "cut"
        if writer.is_closing():
            return "cut"
        writer.write(data)
        try:
            async with asyncio.timeout(max(self.body_timeout_s, 1.0)):
                await writer.drain()
        except (TimeoutError, ConnectionError, OSError):
            return "cut"
        return "answered"

    def _log_request(
        self, method: str | None, path: str | None, status: int | None, outcome: str, begun: float, log: dict[str, Any]
    ) -> None:
        self.write_log(
            {
                "method": method,
                "path": path[:200] if path is not None else None,
                "status": status,
                "outcome": outcome,
                **log,
                "ms": round((time.monotonic() - begun) * 1000, 3),
            }
        )

    # -- the shutdown -----------------------------------------------------------------------------------------

    def on_signal(self) -> None:
        assert self._stop is not None and self._force is not None
        if self._stop.is_set():
            self._force.set()
        self._stop.set()

    def begin_drain(self) -> None:
        """Stop accepting; the app answers its waiting acts; bodies still arriving get 503; idle connections close."""
        self.stop_accepting()
        self.worker.drain()
        for connection in list(self.connections):
            if connection.phase == "body":
                connection.cut = "drain"
                if connection.task is not None:
                    connection.task.cancel()
            elif connection.phase == "head":
                self._cut(connection, "close")

    async def finish(self) -> None:
        """Wait for the requests being handled, at most --shutdown-timeout or until a second signal; then cut."""
        assert self._force is not None
        tasks = [c.task for c in self.connections if c.task is not None]
        if tasks:
            forced = asyncio.ensure_future(self._force.wait())
            every = asyncio.ensure_future(asyncio.wait(tasks))
            await asyncio.wait([every, forced], timeout=self.settings.shutdown_timeout_s, return_when="FIRST_COMPLETED")
            forced.cancel()
            every.cancel()
        leftover = list(self.connections)
        for connection in leftover:
            self._cut(connection, "force")
        rest = [c.task for c in leftover if c.task is not None]
        if rest:
            await asyncio.wait(rest, timeout=1.0)

    async def run(self, listener: socket.socket, started: Callable[[], None]) -> None:
        """Serve until a signal, then drain and finish."""
        loop = asyncio.get_running_loop()
        self._stop, self._force = asyncio.Event(), asyncio.Event()
        loop.set_exception_handler(self._loop_error)
        signals = (signal.SIGINT, signal.SIGTERM)
        for sig in signals:
            loop.add_signal_handler(sig, self.on_signal)
        try:
            self.worker.root.start_sweeping()
            self.start_accepting(listener)
            self.write_log(
                {
                    "event": "listening",
                    "max_connections": self.limit,
                    "requested_max_connections": self.settings.max_connections,
                    "capped_by": "RLIMIT_NOFILE" if self.limit < self.settings.max_connections else None,
                }
            )
            started()
            await self._stop.wait()
            self.begin_drain()
            await self.finish()
        finally:
            self.stop_accepting()
            # From here a signal finds nothing left to force: blocked, it can no longer kill the exiting process
            # (asyncio restores the default handlers when the loop closes), whose exit status stays 0.
            signal.pthread_sigmask(signal.SIG_BLOCK, signals)
            for sig in signals:
                loop.remove_signal_handler(sig)

    def _loop_error(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        """asyncio's unhandled errors as one log line each, never a traceback on stderr."""
        error = context.get("exception")
        self.write_log({"event": "loop_error", "message": str(context.get("message")), "error": repr(error)[:300]})


def serve(
    worker: Worker,
    listener: socket.socket,
    started: Callable[[], None],
    settings: ServerSettings,
    log: TextIO | None,
) -> None:
    """Serve until a signal; returns once the requests in flight are answered (or the timeout cut them off)."""
    asyncio.run(HttpServer(worker, settings, log).run(listener, started))
    for sig in (signal.SIGINT, signal.SIGTERM):  # a late signal, pending while blocked, is dropped on exit
        signal.signal(sig, signal.SIG_IGN)

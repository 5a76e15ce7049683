"""The worker's HTTP layer tried as an attacker would, over raw loopback sockets: clients that send nothing or one
byte at a time, idle keep-alives, more connections than `--max-connections`, malformed HTTP, oversize heads, paths
with a trailing slash, pipelined requests, a SIGTERM while a body arrives, an out-of-range port, and the log's
shape. Every answer must be a StreamError-shaped JSON body with `Seq-Accept-Formats` (conformance/worker.md).

Each test starts its own worker with short timeouts (or shares one), waits with bounds, and stops what it started.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import io
import json
import resource
import select
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from http_processes import REPO, Running, children, running, worker

pytestmark = pytest.mark.realclock

POLICY = REPO / "tests" / "policies" / "every-one.json"
SOCKET_TIMEOUT = 5.0


@pytest.fixture(autouse=True)
def nothing_new_left() -> Iterator[None]:
    before = set(children())
    yield
    assert set(children()) <= before, "this test left a process behind"


@pytest.fixture(scope="module")
def short() -> Iterator[Running]:
    """A worker with short HTTP timeouts, shared by the tests that do not stop it."""
    with running(
        worker("--policy", str(POLICY), "--wait-s", "0.5", "--header-timeout", "0.6", "--keep-alive", "0.6")
    ) as process:
        yield process
        assert process.stop() == 0


def address(url: str) -> tuple[str, int]:
    host, port = url.removeprefix("http://").rsplit(":", 1)
    return host, int(port)


def connect(url: str) -> socket.socket:
    sock = socket.create_connection(address(url), timeout=SOCKET_TIMEOUT)
    sock.settimeout(SOCKET_TIMEOUT)
    return sock


def request(method: str, path: str, body: Any = None, *, extra: bytes = b"") -> bytes:
    data = b"" if body is None else json.dumps(body).encode()
    head = f"{method} {path} HTTP/1.1\r\nHost: t\r\n".encode()
    if body is not None:
        head += b"Content-Type: application/json\r\nContent-Length: " + str(len(data)).encode() + b"\r\n"
    return head + extra + b"\r\n" + data


class Answer:
    """One HTTP answer read off a raw socket: status, lower-case headers, JSON body."""

    def __init__(self, status: int, headers: dict[str, str], body: bytes) -> None:
        self.status, self.headers, self.raw = status, headers, body

    def json(self) -> Any:
        return json.loads(self.raw)


def read_answer(sock: socket.socket, buffer: bytearray | None = None) -> Answer:
    """Read exactly one answer (headers and Content-Length bytes); leftover bytes stay in `buffer`."""
    pending = bytearray() if buffer is None else buffer
    while b"\r\n\r\n" not in pending:
        chunk = sock.recv(65536)
        assert chunk, f"the connection closed before an answer: {bytes(pending)!r}"
        pending += chunk
    head, _, rest = bytes(pending).partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split(" ")[1])
    headers = {name.lower(): value.strip() for name, value in (line.split(":", 1) for line in lines[1:])}
    length = int(headers["content-length"])
    body = bytearray(rest)
    while len(body) < length:
        chunk = sock.recv(65536)
        assert chunk, "the connection closed in the middle of an answer's body"
        body += chunk
    pending[:] = body[length:]
    return Answer(status, headers, bytes(body[:length]))


def assert_shaped(answer: Answer, status: int, reason: str) -> dict[str, Any]:
    assert answer.status == status, answer.raw
    assert answer.headers["seq-accept-formats"] == "x-seq-observe/1"
    assert answer.headers["content-type"] == "application/json"
    error = answer.json()["error"]
    assert isinstance(error["code"], str) and isinstance(error["message"], str)
    assert error["details"]["reason"] == reason
    return dict(error)


def closed_within(sock: socket.socket, seconds: float) -> float:
    """Seconds until the worker closes the connection (reading and dropping whatever it sends); fails past
    `seconds`."""
    begun = time.monotonic()
    sock.settimeout(seconds)
    try:
        while sock.recv(65536):
            pass
    except TimeoutError:
        pytest.fail(f"the worker kept the connection open for {seconds} s")
    except ConnectionResetError:
        pass
    return time.monotonic() - begun


def test_a_silent_client_is_closed_after_the_header_timeout(short: Running) -> None:
    with connect(short.url) as sock:
        took = closed_within(sock, 5.0)
    assert took >= 0.4, f"closed after {took:.3f} s, before the 0.6 s header timeout"


def test_a_dripping_client_is_closed_after_the_header_timeout(short: Running) -> None:
    """One byte at a time, each well within any per-read timeout: the bound is on the whole head."""
    begun = time.monotonic()
    with connect(short.url) as sock:
        try:
            for byte in request("GET", "/stream/info", extra=b"X-Pad: " + b"a" * 200 + b"\r\n"):
                sock.send(bytes([byte]))
                time.sleep(0.05)
                assert time.monotonic() - begun < 5.0, "the worker kept reading a head for 5 s"
        except (BrokenPipeError, ConnectionResetError):
            pass  # closed by the worker while we were still sending: what the test wants
        closed_within(sock, 5.0)
    assert time.monotonic() - begun < 5.0
    assert any(line.get("outcome") == "header_timeout" for line in short.log_lines())


def test_an_idle_keep_alive_is_closed_and_a_busy_one_served(short: Running) -> None:
    with connect(short.url) as sock:
        pending = bytearray()
        for _ in range(3):  # within the keep-alive, the same connection serves the next request
            sock.sendall(request("GET", "/stream/info"))
            assert read_answer(sock, pending).status == 200
            time.sleep(0.2)
        took = closed_within(sock, 5.0)
    assert took >= 0.2, f"closed after {took:.3f} s of idleness"


def test_pipelined_requests_are_answered_in_order(short: Running) -> None:
    episode = "pipelined"
    frames = [{"seq": n, "inputs": n} for n in range(3)]
    burst = (
        request("POST", "/observe", {"episode_id": episode, "frames": frames[:2]})
        + request("GET", "/stream/info")
        + request("POST", "/observe", {"episode_id": episode, "frames": frames[2:]})
        + request("POST", "/act", {"episode_id": episode, "seq": 3, "inputs": "own"})
    )
    with connect(short.url) as sock:
        sock.sendall(burst)
        pending = bytearray()
        answers = [read_answer(sock, pending) for _ in range(4)]
    assert [a.status for a in answers] == [200, 200, 200, 200]
    assert answers[0].json() == {"through": 1} and answers[2].json() == {"through": 2}
    assert "formats" in answers[1].json()
    assert answers[3].json()["outputs"]["steps"] == [0, 1, 2, 3]


@pytest.mark.parametrize(
    "garbage",
    [
        b"GARBAGE\r\n\r\n",
        b"POST /observe HTTP/1.1\r\nHost: t\r\nContent-Length: nope\r\n\r\n",
        b"POST /observe HTTP/1.1\r\nHost: t\r\nBad Header\r\n\r\n",
        b"GET /stream/info HTTP/1.1\r\n\r\n",  # no Host: RFC 9112 makes it a 400
        b"POST /observe HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
        b"zz\r\n",
        # RFC 9112 § 6.3: both framings at once is how requests are smuggled; refused, not waited on
        b"POST /observe HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: 2\r\n"
        b"Transfer-Encoding: chunked\r\n\r\n{}",
    ],
)
def test_malformed_http_is_a_shaped_400(short: Running, garbage: bytes) -> None:
    with connect(short.url) as sock:
        sock.sendall(garbage)
        answer = read_answer(sock)
        assert_shaped(answer, 400, "malformed_http")
        assert answer.headers["connection"] == "close"
        closed_within(sock, 5.0)


def test_an_oversize_head_is_a_shaped_431(short: Running) -> None:
    with connect(short.url) as sock:
        # answered and closed before the rest arrived: the answer is still in our receive buffer
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            sock.sendall(request("GET", "/stream/info", extra=b"X-Big: " + b"b" * 40_000 + b"\r\n"))
        assert_shaped(read_answer(sock), 431, "headers_too_large")


@pytest.mark.parametrize(("method", "path"), [("POST", "/observe/"), ("GET", "/observe/"), ("GET", "/nothing")])
def test_a_trailing_slash_is_a_shaped_404_not_a_redirect(short: Running, method: str, path: str) -> None:
    with connect(short.url) as sock:
        sock.sendall(request(method, path, {"episode_id": "x"} if method == "POST" else None))
        assert_shaped(read_answer(sock), 404, "not_found")


def test_log_lines_are_ascii_json_with_an_outcome(short: Running) -> None:
    episode = "split\u2028here\u00e9"
    with connect(short.url) as sock:
        sock.sendall(request("POST", "/observe", {"episode_id": episode, "frames": [{"seq": 0, "inputs": 0}]}))
        assert read_answer(sock).status == 200
    give_up = time.monotonic() + 10
    while not any(line.get("episode") == episode for line in short.log_lines()):
        assert time.monotonic() < give_up, "no log line for the request within 10 s"
        time.sleep(0.05)
    raw = Path(short._stderr.name).read_bytes()
    assert raw.isascii(), "the log holds non-ASCII bytes"
    for text in raw.decode("ascii").splitlines():
        line = json.loads(text)  # every line is one JSON object, nothing else on stderr
        assert isinstance(line, dict)
        if "method" in line:
            assert line["outcome"] in ("answered", "cut", "refused", "header_timeout"), line
    assert len(raw.decode("ascii").splitlines()) == len(raw.splitlines())  # no U+2028 split for anyone


def test_when_full_a_silent_connection_is_evicted_for_a_good_client() -> None:
    with running(worker("--policy", str(POLICY), "--wait-s", "5", "--max-connections", "8")) as process:
        silent = [connect(process.url) for _ in range(8)]
        try:
            time.sleep(0.2)  # all eight accepted before the good client comes
            with connect(process.url) as good:
                good.sendall(request("GET", "/stream/info"))
                assert read_answer(good).status == 200
            closed_within(silent[0], 5.0)  # the oldest silent one made room
        finally:
            for sock in silent:
                sock.close()
        time.sleep(0.3)  # the worker has seen them close (else they would be evicted first, as silent ones)
        busy = [connect(process.url) for _ in range(8)]
        try:
            for number, sock in enumerate(busy):  # eight acts waiting for frames that never come (5 s)
                sock.sendall(request("POST", "/act", {"episode_id": f"busy-{number}", "seq": 3, "inputs": 0}))
            time.sleep(0.5)  # the acts are read and waiting
            with connect(process.url) as refused:
                answer = read_answer(refused)
                assert_shaped(answer, 503, "too_many_connections")
                assert answer.headers["connection"] == "close"
        finally:
            for sock in busy:
                sock.close()
        assert process.stop() == 0


def evicted_ages(process: Running, count: int) -> list[float]:
    """The ages (ms) the log gives for the evictions so far, waiting up to 10 s for at least `count`."""
    give_up = time.monotonic() + 10
    while True:
        ages = [line["age_ms"] for line in process.log_lines() if line.get("event") == "evicted"]
        if len(ages) >= count:
            return ages
        assert time.monotonic() < give_up, f"{len(ages)} eviction(s) logged within 10 s, {count} expected"
        time.sleep(0.05)


def test_silence_is_evicted_at_once_when_it_fills_the_table_and_only_after_the_grace_when_it_does_not() -> None:
    """conformance/worker.md, "Connections": a table mostly of connections without a whole first request is an
    attack, and a good client must not wait behind it; a table mostly of busy connections is a burst of clients,
    and one slow to write its first bytes keeps its place for the grace period."""
    with running(worker("--policy", str(POLICY), "--wait-s", "5", "--max-connections", "8")) as process:
        silent = [connect(process.url) for _ in range(8)]
        try:
            time.sleep(0.2)
            with connect(process.url) as good:
                good.sendall(request("GET", "/stream/info"))
                assert read_answer(good).status == 200
            age = evicted_ages(process, 1)[0]
            assert age < 900, f"a silent connection was evicted at {age} ms, after waiting out the 1 s grace"
            time.sleep(0.1)
            before = len(evicted_ages(process, 1))
        finally:
            for sock in silent:
                sock.close()
        time.sleep(0.3)
        busy = [connect(process.url) for _ in range(5)]
        quiet: list[socket.socket] = []
        try:
            for number, sock in enumerate(busy):
                sock.sendall(request("POST", "/act", {"episode_id": f"busy-{number}", "seq": 3, "inputs": 0}))
            time.sleep(0.3)  # five acts wait; three quiet clients join them
            quiet = [connect(process.url) for _ in range(3)]
            time.sleep(0.1)
            with connect(process.url) as good:
                good.sendall(request("GET", "/stream/info"))
                assert read_answer(good).status == 200
            age = evicted_ages(process, before + 1)[before]
            assert age >= 1000, f"a quiet client among busy ones was evicted at {age} ms, inside the grace"
        finally:
            for sock in busy + quiet:
                sock.close()
        assert process.stop() == 0


def test_sigterm_answers_a_body_still_arriving_503_and_exits_at_once() -> None:
    argv = worker("--policy", str(POLICY), "--wait-s", "30", "--quiet")
    with running(argv) as process:
        body = json.dumps({"episode_id": "late", "frames": [{"seq": 0, "inputs": 0}]}).encode()
        arriving = connect(process.url)
        idle = connect(process.url)
        silent = connect(process.url)
        try:
            arriving.sendall(
                b"POST /observe HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
                b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body[:10]
            )
            idle.sendall(request("GET", "/stream/info"))
            assert read_answer(idle).status == 200
            time.sleep(0.3)  # the head of the arriving post is read
            begun = time.monotonic()
            process.process.send_signal(signal.SIGTERM)
            answer = read_answer(arriving)
            assert_shaped(answer, 503, "shutting_down")
            code = process.process.wait(10)
            took = time.monotonic() - begun
        finally:
            for sock in (arriving, idle, silent):
                sock.close()
        assert code == 0
        assert took < 3.0, f"the worker took {took:.2f} s to exit after SIGTERM"
        assert process.stderr() == "", "with --quiet, nothing on stderr"


@pytest.mark.parametrize("port", ["99999", "-5", "http"])
def test_a_port_out_of_range_is_a_usage_error(port: str) -> None:
    done = subprocess.run(worker("--port", port), capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert done.stderr.startswith("usage:") and done.stderr.strip().splitlines()[-1].count("--port") == 1


def test_the_connection_limit_is_capped_by_the_open_file_limit_and_said_at_start() -> None:
    def low_limit() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (300, 300))

    argv = worker("--max-connections", "1024")
    process = subprocess.Popen(
        argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=low_limit, cwd=REPO
    )
    try:
        assert process.stdout is not None and process.stderr is not None
        ready, _, _ = select.select([process.stderr], [], [], 30)  # bounded: a worker that never starts fails
        assert ready, "the worker wrote no start line within 30 s"
        start = json.loads(process.stderr.readline())  # the first log line, written before the address is printed
        assert start == {
            "event": "listening",
            "max_connections": 300 - 128,
            "requested_max_connections": 1024,
            "capped_by": "RLIMIT_NOFILE",
        }
        process.send_signal(signal.SIGTERM)
        assert process.wait(10) == 0
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(10)
        for stream in (process.stdout, process.stderr):
            if stream is not None:
                stream.close()


def test_a_client_gone_mid_body_is_logged_cut_not_a_status_0(short: Running) -> None:
    with connect(short.url) as sock:
        sock.sendall(
            b"POST /observe HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n"
            b'{"episode_id": "gone-mid-body"'
        )
        time.sleep(0.2)
    give_up = time.monotonic() + 10
    while not (cut := [line for line in short.log_lines() if line.get("outcome") == "cut"]):
        assert time.monotonic() < give_up, "no `cut` log line within 10 s"
        time.sleep(0.05)
    assert cut[-1]["path"] == "/observe" and cut[-1]["status"] is None
    assert all(line.get("status") != 0 for line in short.log_lines())


class _ExhaustedListener(socket.socket):
    """A listening socket whose accept fails with EMFILE while `failing` is set, as when the process is out of
    file descriptors."""

    failing = True
    tries = 0

    def accept(self) -> tuple[socket.socket, Any]:
        if self.failing:
            self.tries += 1
            raise OSError(errno.EMFILE, "Too many open files")
        return super().accept()


def test_out_of_file_descriptors_pauses_accepting_with_one_log_line() -> None:
    from seq_io.reference.keeper import Limits
    from seq_io.worker.app import Worker, WorkerSettings
    from seq_io.worker.host import StreamConfig
    from seq_io.worker.server import ACCEPT_PAUSE_S, HttpServer, ServerSettings

    log = io.StringIO()
    worker_ = Worker(StreamConfig(None, None, None, Limits.of_contract(), 1.0), WorkerSettings(log=None))
    server = HttpServer(worker_, ServerSettings(), log)
    listener = _ExhaustedListener(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))

    async def scenario() -> bytes:
        server.start_accepting(listener)
        reader, writer = await asyncio.open_connection(*listener.getsockname()[:2])
        await asyncio.sleep(ACCEPT_PAUSE_S * 5)  # five pauses' worth of failing accepts
        listener.failing = False
        writer.write(b"GET /stream/info HTTP/1.1\r\nHost: t\r\n\r\n")
        async with asyncio.timeout(5):
            answer = await reader.readuntil(b"\r\n\r\n")
        writer.close()
        server.stop_accepting()
        return answer

    try:
        answer = asyncio.run(scenario())
    finally:
        listener.close()
    assert answer.startswith(b"HTTP/1.1 200")
    lines = [json.loads(line) for line in log.getvalue().splitlines()]
    assert [line["event"] for line in lines if "event" in line] == ["accept_paused"]
    assert 2 <= listener.tries <= 10, f"{listener.tries} accept tries in {ACCEPT_PAUSE_S * 5} s: a busy loop"

"""Tiny misbehaving HTTP servers for the probe's budget tests: `python tests/hostile_servers.py MODE` → a socket
server on a free loopback port that prints `listening on URL` and a JSON line like `iospec worker` → every request
answered as MODE says (dripped, endless, huge, never, or a slow DELETE) until SIGTERM.

WHY it is shaped this way: each attack on the probe is a few lines over raw sockets, not a web framework, so the
server does exactly the wrong thing a hostile or broken worker would do (a framework would fix up the framing), and
it runs as a real process on loopback, as the probe meets a worker.

Modes:
  drip-info       GET /stream/info: a Content-Length of 1000, then one byte every 3 s
  endless-info    GET /stream/info: 200 with no length, then bytes for as long as the client reads
  huge-info       GET /stream/info: a Content-Length of 10 GiB, then bytes for as long as the client reads
  silent-info     GET /stream/info: the request is read and never answered
  slow-delete     a worker with test keepers whose DELETE of a keeper never answers (its other answers are 404s)
  drip-observe    a worker without test keepers ({"every": 1}, wait 1 s) whose /observe and /act drip
"""

from __future__ import annotations

import contextlib
import json
import signal
import socket
import socketserver
import sys
import time
from typing import Any

MODES = ("drip-info", "endless-info", "huge-info", "silent-info", "slow-delete", "drip-observe")
CHUNK = b"[" * 65536
INFO: dict[str, Any] = {
    "implementation": {"name": "hostile", "version": "0"},
    "formats": ["x-seq-observe/1"],
    "declaration": {"every": 1},
    "rate": None,
    "episode_idle": None,
    "wait_s": 1.0,
}


def _head(status: str, headers: dict[str, str]) -> bytes:
    lines = [f"HTTP/1.1 {status}", *(f"{name}: {value}" for name, value in headers.items()), "", ""]
    return "\r\n".join(lines).encode("ascii")


def _json(status: str, body: Any) -> bytes:
    data = json.dumps(body).encode("utf-8")
    headers = {"content-type": "application/json", "content-length": str(len(data))}
    return _head(status, headers | {"seq-accept-formats": "x-seq-observe/1"}) + data


def _forever(connection: socket.socket, head: bytes) -> None:
    """`head`, then bytes until the client goes away."""
    connection.sendall(head)
    while True:
        connection.sendall(CHUNK)


def _drip(connection: socket.socket) -> None:
    connection.sendall(_head("200 OK", {"content-type": "application/json", "content-length": "1000"}))
    while True:
        connection.sendall(b" ")
        time.sleep(3)


def _never(connection: socket.socket) -> None:
    """Hold the connection open without a byte until the client closes it."""
    while connection.recv(65536):
        pass


class Handler(socketserver.BaseRequestHandler):
    mode = ""

    def handle(self) -> None:
        connection: socket.socket = self.request
        try:
            while self._one(connection):
                pass
        except OSError:
            pass  # the client went away: what a probe that gives up does

    def _one(self, connection: socket.socket) -> bool:
        """Read one request and answer it as the mode says; False when the connection is over."""
        data = b""
        while b"\r\n\r\n" not in data:
            more = connection.recv(65536)
            if not more:
                return False
            data += more
        head, _, body = data.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        method, path = lines[0].split(" ")[:2]
        length = next((int(line.split(":")[1]) for line in lines if line.lower().startswith("content-length:")), 0)
        while len(body) < length:
            more = connection.recv(65536)
            if not more:
                return False
            body += more
        return self._answer(connection, method, path)

    def _answer(self, connection: socket.socket, method: str, path: str) -> bool:
        mode = self.mode
        if path == "/stream/info" and mode.endswith("-info"):
            if mode == "drip-info":
                _drip(connection)
            elif mode == "endless-info":
                _forever(connection, _head("200 OK", {"content-type": "application/json", "connection": "close"}))
            elif mode == "huge-info":
                _forever(
                    connection, _head("200 OK", {"content-type": "application/json", "content-length": "10737418240"})
                )
            else:
                _never(connection)
            return False
        if path == "/stream/info":
            connection.sendall(_json("200 OK", INFO | {"testing": mode == "slow-delete"}))
        elif mode == "slow-delete" and method == "POST" and path == "/stream/keepers":
            connection.sendall(_json("201 Created", {"key": "k1", "base": "/stream/keepers/k1"}))
        elif mode == "slow-delete" and method == "DELETE":
            _never(connection)
            return False
        elif mode == "drip-observe":
            _drip(connection)
        else:
            error = {"code": "not_found", "message": "no such path", "details": {"reason": "not_found"}}
            connection.sendall(_json("404 Not Found", {"error": error}))
        return True


class Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True


def main(argv: list[str]) -> int:
    if len(argv) != 1 or argv[0] not in MODES:
        print(f"usage: hostile_servers.py {{{','.join(MODES)}}}", file=sys.stderr)
        return 2
    Handler.mode = argv[0]
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    with Server(("127.0.0.1", 0), Handler) as server:
        url = f"http://127.0.0.1:{server.server_address[1]}"
        print(f"listening on {url}", flush=True)
        print(json.dumps({"listening": url, "mode": argv[0]}), flush=True)
        with contextlib.suppress(SystemExit):
            server.serve_forever()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

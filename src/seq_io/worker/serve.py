"""A `Worker` and a bound socket → uvicorn serving the worker's app on it → the first SIGINT/SIGTERM drains the
worker and stops the server, a second one forces it → return (the command then exits 0).

WHY it is apart from the command: it is the one module that imports uvicorn, so `iospec worker` can say in one
line that the HTTP extra is missing, and tests and the benchmark can serve an app in process the same way. uvicorn's
own signal handling is replaced because it re-raises the signal once the server has stopped (exit status -15, or
a KeyboardInterrupt for SIGINT), and because the worker must drain before uvicorn waits for its connections: a
waiting act would otherwise hold the shutdown for up to STREAM_WAIT_S.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import socket
from collections.abc import Callable, Generator

import uvicorn
from starlette.types import ASGIApp

from seq_io.worker.app import Worker, application

DEFAULT_CONCURRENCY = 2048
"""Connections served at once; uvicorn answers 503 beyond (a bound on what many clients can hold open)."""


class WorkerServer(uvicorn.Server):
    """uvicorn's server with the worker's signal handling: the first signal drains and stops, a second one forces."""

    def __init__(self, config: uvicorn.Config, drain: Callable[[], None], started: Callable[[], None]) -> None:
        super().__init__(config)
        self._drain, self._started = drain, started

    @contextlib.contextmanager
    def capture_signals(self) -> Generator[None, None, None]:
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, self._on_signal)
        try:
            yield
        finally:
            for sig in (signal.SIGINT, signal.SIGTERM):
                loop.remove_signal_handler(sig)

    def _on_signal(self) -> None:
        if self.should_exit:
            self.force_exit = True
            return
        self._drain()
        self.should_exit = True

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        if not self.should_exit:
            self._started()


def server_config(app: ASGIApp, shutdown_timeout_s: float) -> uvicorn.Config:
    return uvicorn.Config(
        app,
        log_config=None,
        log_level="warning",
        access_log=False,
        lifespan="on",
        limit_concurrency=DEFAULT_CONCURRENCY,
        timeout_keep_alive=5,
        timeout_graceful_shutdown=max(1, round(shutdown_timeout_s)),
    )


def serve(worker: Worker, sock: socket.socket, started: Callable[[], None], *, shutdown_timeout_s: float) -> None:
    """Serve until a signal; returns once in-flight requests are answered (or the timeout cut them off)."""
    server = WorkerServer(server_config(application(worker), shutdown_timeout_s), worker.drain, started)
    asyncio.run(server.serve(sockets=[sock]))

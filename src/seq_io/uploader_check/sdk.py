"""The `--sdk` command line → a child process speaking the driver protocol (conformance/uploader-http.md) → its
hello, then one acknowledgement per line the runner sends, every wait bounded; or a `Broken` saying what went wrong
and what the SDK printed.

WHY it is shaped this way: the process handling is the testee runner's own (`seq_io.runner.protocol.Session`: a
session and process group of its own, non-blocking pipes, one deadline per wait, every descendant killed through
`seq_io.runner.processes`), so an SDK that hangs, floods its stdout, exits or forks a daemon is handled exactly as a
testee is, and leaves no process behind. Only the messages differ: the driver protocol's hello carries `driver`
instead of `protocol`, so that a testee given to `uploader-check` by mistake (or a driver given to `iospec run`) is
refused at the handshake with a sentence saying so.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from seq_io.runner import processes
from seq_io.runner.protocol import Broken, Hello, Session, encode

DRIVER = 1
"""The driver protocol's version (conformance/uploader-http.md, "Versioning")."""
ACK = "ok"


def runner_hello(contract_version: str) -> dict[str, Any]:
    return {"type": "hello", "driver": DRIVER, "contract_version": contract_version}


def checked_hello(message: dict[str, Any], contract_version: str) -> Hello:
    """The SDK's hello → `Hello` (kinds: `uploader`); ValueError saying why the SDK is refused."""
    if message.get("type") != "hello":
        raise ValueError(f"the first line must be a hello; its type is {json.dumps(message.get('type'))}")
    if "driver" not in message and "protocol" in message:
        raise ValueError(
            "this hello is the testee protocol's (conformance/protocol.md, for iospec run); uploader-check "
            "speaks the driver protocol (conformance/uploader-http.md)"
        )
    driver = message.get("driver")
    if type(driver) is not int or driver != DRIVER:
        raise ValueError(f"the SDK speaks driver protocol {json.dumps(driver)}; this runner speaks {DRIVER}")
    if message.get("contract_version") != contract_version:
        raise ValueError(
            f"the SDK implements contract {json.dumps(message.get('contract_version'))}; the vectors are for "
            f"{contract_version}"
        )
    implementation = message.get("implementation")
    if not (
        isinstance(implementation, dict)
        and isinstance(implementation.get("name"), str)
        and isinstance(implementation.get("version"), str)
    ):
        raise ValueError("the hello's `implementation` must be an object with `name` and `version` strings")
    return Hello(implementation["name"], implementation["version"], ("uploader",))


class _DriverSession(Session):
    def unread(self) -> bytes:
        """What the SDK printed that no acknowledgement took (read now, without waiting), removed."""
        self._poll()
        data = bytes(self._out)
        self._out.clear()
        self._scanned = 0
        return data


class Sdk:
    """The SDK under test: one child process at a time, started on demand and restarted after any failure that
    breaks the conversation (`kill`)."""

    def __init__(
        self,
        argv: list[str],
        contract_version: str,
        *,
        timeout: float,
        start_timeout: float,
        shutdown_grace: float = 2.0,
        announce: Callable[[str], None] | None = None,
    ) -> None:
        self.argv, self.contract_version = argv, contract_version
        self.timeout, self.start_timeout, self.shutdown_grace = timeout, start_timeout, shutdown_grace
        self.announce = announce
        self.token = processes.new_token()
        """Marks every process of this run's SDKs (processes.MARK), so that none outlives the run."""
        self._session: _DriverSession | None = None
        self._hello: Hello | None = None

    def hello(self) -> Hello:
        """The handshake of the running session; a new session when there is none or the last one ended."""
        if self._session is not None and self._session.ended() is not None:
            self.kill()
        if self._session is None or self._hello is None:
            session = _DriverSession(self.argv, Path.cwd(), self.token)
            session.send(runner_hello(self.contract_version))
            try:
                message = session.receive(self.start_timeout)
                self._hello = checked_hello(message, self.contract_version)
            except Broken as broken:
                session.kill()
                raise Broken(f"handshake failed: {broken.detail}", broken.printed, timed_out=broken.timed_out) from None
            except ValueError as error:
                session.kill()
                raise Broken(f"handshake refused: {error}", session.printed(encode(message))) from None
            self._session = session
        return self._hello

    def tell(self, message: dict[str, Any], timeout: float | None = None) -> tuple[dict[str, Any], float]:
        """Send one line and read its acknowledgement: (`ok`, or an `error` answer to a `start`; the seconds it
        took). `Broken` when the SDK answers anything else, prints more than one line, or is silent for `timeout`."""
        session = self._session
        assert session is not None, "hello() starts the session"
        wait = self.timeout if timeout is None else max(0.0, min(timeout, self.timeout))
        stray = session.unread()
        if stray:
            raise Broken(
                "after its last acknowledgement the SDK printed output that answers nothing", session.printed(stray)
            )
        begun = time.monotonic()
        session.send(message)
        answer = session.receive(wait)
        took = time.monotonic() - begun
        kind = answer.get("type")
        if kind == ACK or (kind == "error" and message["type"] == "start" and isinstance(answer.get("rule"), str)):
            return answer, took
        expected = '{"type": "ok"}' + (' or {"type": "error", "rule": …}' if message["type"] == "start" else "")
        raise Broken(
            f"the SDK answered a {message['type']} line with {json.dumps(answer)[:200]} instead of {expected}",
            session.printed(encode(answer)),
        )

    def kill(self) -> None:
        """End the SDK, its process group and every process it started, now; the next `hello` starts another."""
        session, self._session, self._hello = self._session, None, None
        if session is not None:
            session.kill()

    def close(self) -> list[str]:
        """End the session as the driver protocol says (close stdin; the SDK exits 0 within the grace) and kill
        whatever it left running; what went wrong, if any."""
        session, self._session, self._hello = self._session, None, None
        if session is None:
            return []
        return session.close(self.shutdown_grace, self.announce)

"""Testee protocol v1 on the wire: a command line → a child process speaking JSON Lines → its hello, then one
answer object per request, every wait bounded; or a `Broken` saying what went wrong and what was printed.

WHY it is shaped this way:

- One thread, non-blocking pipes and a selector (POSIX): writing a request, reading the answer and draining
  stderr share one deadline, so a testee that stops reading its stdin, floods stderr, prints half a line or
  never answers costs at most the timeout, and there is no reader thread to leak when it is killed.
- The testee runs in a process group of its own, so a wrapper (a shell script, `npm run`) is killed together
  with the children that hold its pipes.
- Only what keeps the conversation in step is checked here (a JSON object per line, a known `type`, the right
  `id`, the handshake's versions): a violation means the next line can no longer be trusted, so the caller
  kills and restarts. Whether an answer is *right* is `compare`'s (and `kinds`') business; the JSON Schemas of every
  message (conformance/protocol/) are applied on request by `Traffic`, with a linear `uniqueItems`
  (bounded_schema.linear_unique_validator_class): the hello's `kinds` has no `maxItems`, and jsonschema's own
  check compares every pair of items it cannot sort (10,000 objects there: 50 million comparisons).
"""

from __future__ import annotations

import contextlib
import json
import os
import selectors
import signal
import subprocess
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import IO, Any

from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from seq_io.reference.bounded_schema import linear_unique_validator_class
from seq_io.reference.issues import format_path
from seq_io.reference.wire import parse_json_text, wire_limits
from seq_io.runner import processes
from seq_io.vectors import CONFORMANCE

PROTOCOL = 1
PROTOCOL_DIR = CONFORMANCE / "protocol"
KEPT = 4096
"""Bytes of stderr (its tail) and of unexpected stdout kept for a failure report."""
MAX_LINE = 64 * 1024 * 1024
"""An answer line longer than this is refused instead of filling memory."""
ANSWER_TYPES = ("result", "error", "skipped")
PROTOCOL_DEPTH_MARGIN = 16
"""A message may nest an instance this many levels deeper than MAX_JSON_DEPTH (protocol.md, "Limits")."""
ANNOUNCE_AFTER = 0.5
"""Seconds a closing testee may take before `Session.close` says what it is waiting for."""
_CHUNK = 65536
UNCARRIED = "this runner carries the vectors of contract"
"""How a refusal of the testee's contract version goes on (a reader of the refusal recognizes it by this)."""


@dataclass(frozen=True)
class Printed:
    """What the testee printed that a failure report shows: stdout that was not a proper answer, the tail of
    stderr, and how the process ended (None: it was still running)."""

    stdout: str = ""
    stderr: str = ""
    exit: str | None = None

    def __bool__(self) -> bool:
        return bool(self.stdout or self.stderr or self.exit)


class Broken(Exception):
    """The conversation cannot go on: the testee exited, did not answer in time (`timed_out`), or broke the
    protocol."""

    def __init__(self, detail: str, printed: Printed = Printed(), *, timed_out: bool = False) -> None:
        super().__init__(detail)
        self.detail = detail
        self.printed = printed
        self.timed_out = timed_out


@dataclass(frozen=True)
class Stray:
    """Output that answers nothing, charged to the case whose answer it followed (`after`; None: it came
    before the session's first answer, so it is the next case's)."""

    after: str | None
    stdout: str
    what: str
    """What the testee did, completing "after its answer the testee …": "printed output that answers nothing
    (a second answer to …)", "exited (exit status 3)"."""


@dataclass(frozen=True)
class Hello:
    """The testee's handshake, checked."""

    name: str
    version: str
    kinds: tuple[str, ...]
    contract: str = ""
    """The contract version the testee declares (one the runner carries)."""


def _text(data: bytes | bytearray, limit: int = KEPT) -> str:
    text = bytes(data[-limit:]).decode("utf-8", errors="replace")
    return text if len(data) <= limit else "…" + text


def _ended(returncode: int | None) -> str | None:
    if returncode is None:
        return None
    if returncode < 0:
        try:
            return f"killed by signal {signal.Signals(-returncode).name}"
        except ValueError:
            return f"killed by signal {-returncode}"
    return f"exit status {returncode}"


def encode(message: dict[str, Any]) -> bytes:
    """One protocol line. ASCII escapes keep any string (even a lone surrogate) intact; NaN cannot be sent."""
    return json.dumps(message, allow_nan=False, separators=(",", ":")).encode("ascii") + b"\n"


def decode(line: bytes) -> dict[str, Any]:
    """A line → the JSON object it holds, under the contract's wire rules; ValueError saying why not."""
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ValueError(f"the line is not UTF-8 ({error.reason} at byte {error.start})") from None
    # A message may quote a refused string, and wraps an instance in a few levels of its own (protocol.md).
    value, issues = parse_json_text(text, lone_surrogates=True, max_depth=wire_limits().depth + PROTOCOL_DEPTH_MARGIN)
    if issues:
        raise ValueError(f"the line is not JSON: {issues[0].message}")
    if not isinstance(value, dict):
        raise ValueError("the line is JSON but not an object")
    return value


def envelope_problem(answer: dict[str, Any], request_id: str) -> str | None:
    """What makes `answer` not an answer to the request `request_id` at all (None: it is one)."""
    kind = answer.get("type")
    if kind not in ANSWER_TYPES:
        return f"the answer's type is {json.dumps(kind)}, not one of {', '.join(ANSWER_TYPES)}"
    if answer.get("id") != request_id:
        return f"the answer carries the id {json.dumps(answer.get('id'))}, not the request's {json.dumps(request_id)}"
    if kind == "result" and not isinstance(answer.get("result"), dict):
        return "a result answer must carry a `result` object"
    if kind == "error" and not isinstance(answer.get("rule"), str):
        return "an error answer must carry its `rule` id as a string"
    return None


def _versions_text(versions: Sequence[str]) -> str:
    return versions[0] if len(versions) == 1 else f"{', '.join(versions[:-1])} and {versions[-1]}"


def checked_hello(message: dict[str, Any], carried: str | Sequence[str]) -> Hello:
    """The testee's hello → `Hello`; ValueError saying why the testee is refused. `carried`: the contract versions
    the runner has vectors for (a testee declaring another one is refused)."""
    versions = (carried,) if isinstance(carried, str) else tuple(carried)
    if message.get("type") != "hello":
        raise ValueError(f"the first line must be a hello; its type is {json.dumps(message.get('type'))}")
    protocol = message.get("protocol")
    if type(protocol) is not int or protocol != PROTOCOL:
        raise ValueError(f"the testee speaks protocol {json.dumps(protocol)}; this runner speaks {PROTOCOL}")
    declared = message.get("contract_version")
    if not isinstance(declared, str) or declared not in versions:
        raise ValueError(
            f"the testee implements contract {json.dumps(declared)}; {UNCARRIED} {_versions_text(versions)}"
        )
    kinds = message.get("kinds")
    if not isinstance(kinds, list) or not all(isinstance(kind, str) for kind in kinds):
        raise ValueError("the hello's `kinds` must be a list of kind names")
    implementation = message.get("implementation")
    if not (
        isinstance(implementation, dict)
        and isinstance(implementation.get("name"), str)
        and isinstance(implementation.get("version"), str)
    ):
        raise ValueError("the hello's `implementation` must be an object with `name` and `version` strings")
    return Hello(implementation["name"], implementation["version"], tuple(kinds), declared)


def runner_hello(contract_version: str, carried: Sequence[str] = ()) -> dict[str, Any]:
    """The runner's hello: the newest contract it carries, and every version it carries (newest first)."""
    versions = list(carried) or [contract_version]
    return {"type": "hello", "protocol": PROTOCOL, "contract_version": contract_version, "contract_versions": versions}


class Session:
    """One running testee. Not reusable once `Broken` was raised: kill it and start another."""

    def __init__(self, argv: list[str], cwd: Path, token: str | None = None) -> None:
        self.token = token or processes.new_token()
        try:
            self._process = subprocess.Popen(
                argv,
                cwd=cwd,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                start_new_session=True,
                env=processes.environment(self.token),
            )
        except (OSError, ValueError) as error:
            raise Broken(f"cannot start the testee {argv[0]!r}: {error}") from None
        self._stdin, self._stdout, self._stderr = self._pipes()
        for stream in (self._stdin, self._stdout, self._stderr):
            os.set_blocking(stream.fileno(), False)
        self._selector = selectors.DefaultSelector()
        self._selector.register(self._stdout, selectors.EVENT_READ)
        self._selector.register(self._stderr, selectors.EVENT_READ)
        self._pending = bytearray()  # request bytes not yet written
        self._out = bytearray()  # stdout read, not yet taken as a line
        self._scanned = 0  # bytes of _out known to hold no newline
        self._err = bytearray()  # stderr tail
        self._out_closed = self._err_closed = False
        self.last_answered: str | None = None
        """The id of the case this session answered last (None: none yet)."""
        self._strays: list[Stray] = []

    @property
    def pid(self) -> int:
        return self._process.pid

    def _pipes(self) -> tuple[IO[bytes], IO[bytes], IO[bytes]]:
        process = self._process
        assert process.stdin is not None and process.stdout is not None and process.stderr is not None
        return process.stdin, process.stdout, process.stderr

    # -- the event loop ------------------------------------------------------------------------------------

    def _on_ready(self, stream: Any) -> None:
        if stream is self._stdin:
            try:
                written = os.write(self._stdin.fileno(), self._pending[:_CHUNK])
            except BlockingIOError:
                return
            except OSError:  # the testee closed its stdin (or died): nothing more can be sent
                written = len(self._pending)
            del self._pending[:written]
            if not self._pending:
                self._selector.unregister(self._stdin)
            return
        try:
            data = os.read(stream.fileno(), _CHUNK)
        except BlockingIOError:
            return
        if stream is self._stdout:
            self._out += data
            self._out_closed = not data
        else:
            self._err += data
            del self._err[:-KEPT]
            self._err_closed = not data
        if not data:
            self._selector.unregister(stream)

    def _pump(self, deadline: float, done: Callable[[], bool], step: float | None = None) -> bool:
        """Serve the pipes until `done()` (True) or the deadline (False). `step` bounds each wait, for a `done`
        that no pipe event announces (a process exit); without it, closed pipes end the wait at once."""
        while not done():
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return False
            wait = remaining if step is None else min(step, remaining)
            if not self._selector.get_map():
                if step is None:
                    return False
                time.sleep(wait)
                continue
            for key, _ in self._selector.select(wait):
                self._on_ready(key.fileobj)
        return True

    def _poll(self) -> None:
        """Take in whatever is ready now, without waiting."""
        if self._selector.get_map():
            for key, _ in self._selector.select(0):
                self._on_ready(key.fileobj)

    def _has_line(self) -> bool:
        found = self._out.find(b"\n", self._scanned)
        self._scanned = len(self._out) if found < 0 else found
        return found >= 0 or self._out_closed or len(self._out) > MAX_LINE

    def _line(self, deadline: float, timeout: float, shown: bytes | bytearray = b"") -> bytes:
        """The next line of stdout by `deadline`; `Broken` (with `shown` and what is pending) otherwise."""
        self._pump(deadline, self._has_line)
        end = self._out.find(b"\n")
        if end < 0:
            if len(self._out) > MAX_LINE:
                raise Broken(f"the testee printed more than {MAX_LINE} bytes without a newline", self.printed(shown))
            if not self._out_closed:
                raise Broken(f"no answer within {timeout:g} s", self.printed(shown), timed_out=True)
            self._wait_exit(2.0)
            how = "closed its stdout" if self._process.poll() is None else "exited"
            raise Broken(
                f"the testee {how} without answering" if not self._out else f"the testee {how} in the middle of a line",
                self.printed(shown),
            )
        line = bytes(self._out[:end])
        del self._out[: end + 1]
        self._scanned = 0
        return line

    # -- what callers use ----------------------------------------------------------------------------------

    def printed(self, stdout: bytes | bytearray = b"") -> Printed:
        return Printed(_text(stdout + self._out), _text(self._err), _ended(self._process.poll()))

    def send(self, message: dict[str, Any]) -> None:
        if not self._pending:  # else the selector is still writing the previous bytes: these follow
            self._selector.register(self._stdin, selectors.EVENT_WRITE)
        self._pending += encode(message)

    def receive(self, timeout: float) -> dict[str, Any]:
        """The next line as a JSON object, within `timeout` seconds; `Broken` otherwise."""
        line = self._line(time.monotonic() + timeout, timeout)
        try:
            return decode(line)
        except ValueError as error:
            raise Broken(
                f"the testee printed a line that is not a protocol message: {error}", self.printed(line + b"\n")
            ) from None

    def handshake(
        self, contract_version: str, timeout: float, carried: Sequence[str] = ()
    ) -> tuple[Hello, dict[str, Any]]:
        """Send the runner's hello (`contract_version`, the newest carried, and all of `carried`) and check the
        testee's: it must declare one of `carried` (or `contract_version` when `carried` is empty)."""
        self.send(runner_hello(contract_version, carried))
        try:
            message = self.receive(timeout)
        except Broken as broken:
            raise Broken(f"handshake failed: {broken.detail}", broken.printed, timed_out=broken.timed_out) from None
        try:
            return checked_hello(message, tuple(carried) or contract_version), message
        except ValueError as error:
            raise Broken(f"handshake refused: {error}", self.printed(encode(message))) from None

    def ended(self) -> str | None:
        """How the testee ended between requests (it exited, or closed its stdout), or None: it is waiting."""
        self._poll()
        if self._process.poll() is not None or self._out_closed:
            self._wait_exit(0.5)
            return _ended(self._process.poll()) or "it closed its stdout"
        return None

    def exchange(self, request: dict[str, Any], timeout: float) -> dict[str, Any]:
        """Send one case and return its answer, checked to be an answer to it; `Broken` otherwise.

        Output that answers nothing (a line that is not a protocol message, a JSON object that is no answer, a
        second answer to the previous case) is not this case's answer: what arrived before the request was
        sent, and what arrives after it but before this case's answer, followed the previous answer and is
        kept as a `Stray` of the previous case (`take_strays`). When no answer comes, it is what the testee
        printed instead of answering, and this case fails with it."""
        self._poll()
        before = bytes(self._out)
        self._out.clear()
        self._scanned = 0
        self.send(request)
        deadline = time.monotonic() + timeout
        between = bytearray()
        first_stray = ""
        while True:
            try:
                line = self._line(deadline, timeout, between)
            except Broken as broken:
                self._stray(before, "")
                if between:
                    broken.detail += "; before that it printed output that answers nothing" + (
                        f" ({first_stray})" if first_stray else ""
                    )
                raise
            answer, why = self._classify(line, request["id"])
            if answer is not None:
                problem = envelope_problem(answer, request["id"])
                if problem is not None:
                    self._stray(before, "")
                    raise Broken(problem, self.printed(between + encode(answer)))
                self._stray(before + between, first_stray)
                self.last_answered = request["id"]
                return answer
            between += line + b"\n"
            del between[:-KEPT]
            first_stray = first_stray or why

    def _classify(self, line: bytes, request_id: str) -> tuple[dict[str, Any] | None, str]:
        """(the answer, "") when `line` is an answer to `request_id` (possibly a wrong one, which
        `envelope_problem` then refuses); (None, why) when it is output that answers nothing."""
        try:
            message = decode(line)
        except ValueError as error:
            return None, f"a line that is not a protocol message: {error}"
        if message.get("type") not in ANSWER_TYPES:
            return None, f"a JSON object of type {json.dumps(message.get('type'))}, which is no answer"
        if message.get("id") != request_id and message.get("id") == self.last_answered:
            return None, f"a second answer to {self.last_answered}"
        return message, ""

    def _stray(self, data: bytes | bytearray, why: str) -> None:
        if data:
            what = "printed output that answers nothing" + (f" ({why})" if why else "")
            self._strays.append(Stray(self.last_answered, _text(data), what))

    def take_strays(self) -> list[Stray]:
        strays, self._strays = self._strays, []
        return strays

    def _wait_exit(self, timeout: float) -> None:
        """Give an exiting testee a moment to finish, reading its last stderr words."""
        deadline = time.monotonic() + timeout
        self._pump(deadline, lambda: self._err_closed and self._out_closed, step=0.05)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self._process.wait(max(0.0, deadline - time.monotonic()))

    def _kill_all(self, found: list[processes.Process]) -> list[processes.Process]:
        """SIGKILL every process the testee started (`processes`: `found` earlier, or found now), then its
        process group and the testee itself; those killed besides the testee."""
        found += processes.started_by(self._process.pid, self.token)
        unique = {process.pid: process for process in found if process.pid != self._process.pid}
        killed = processes.kill(list(unique.values()))
        if self._process.poll() is None:  # not reaped yet, so its pid (the group's id) cannot name another group
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self._process.pid, signal.SIGKILL)
            with contextlib.suppress(ProcessLookupError):
                self._process.kill()
        return killed

    def kill(self) -> None:
        """End the testee, its process group and every process it started, now."""
        self._kill_all(processes.started_by(self._process.pid, self.token))
        self._release()

    def _release(self) -> None:
        with contextlib.suppress(subprocess.TimeoutExpired):
            self._process.wait(5)
        self._selector.close()
        for stream in (self._stdin, self._stdout, self._stderr):
            with contextlib.suppress(OSError):
                stream.close()

    def close(self, grace: float, announce: Callable[[str], None] | None = None) -> list[str]:
        """End the session as the protocol says (close stdin, the testee exits 0) and kill whatever it left
        running; what went wrong, if any. Output after the last answer becomes a `Stray` of that case.
        `announce` is told what is being waited for when the testee does not exit at once."""
        found = processes.started_by(self._process.pid, self.token)  # while the parent chain still holds
        if self._pending:
            self._selector.unregister(self._stdin)
            self._pending.clear()
        with contextlib.suppress(OSError):
            self._stdin.close()
        problems: list[str] = []
        exited = lambda: self._process.poll() is not None  # noqa: E731
        start = time.monotonic()
        if (
            not self._pump(start + min(ANNOUNCE_AFTER, grace), exited, step=0.02)
            and announce is not None
            and grace > ANNOUNCE_AFTER
        ):
            announce(
                f"waiting up to {grace:g} s for the testee (pid {self._process.pid}) to exit after its stdin was closed"
            )
        if not self._pump(start + grace, exited, step=0.02):
            problems.append(f"the testee did not exit within {grace:g} s after its stdin was closed; it was killed")
        self._poll()
        self._stray(self._out, "")
        self._out.clear()
        left = self._kill_all(found)
        if left and not problems:
            problems.append(
                f"the testee left {len(left)} process(es) running after it exited, killed now: "
                f"{processes.describe(left)}"
            )
        with contextlib.suppress(subprocess.TimeoutExpired):
            self._process.wait(5)
        if self._process.returncode not in (0, None) and not problems:
            problems.append(
                f"the testee ended with {_ended(self._process.returncode)} instead of exit "
                f"status 0 (stderr: {_text(self._err, 400)!r})"
            )
        self._release()
        return problems


@cache
def _validators() -> dict[str, Any]:
    """Message name → its validator (Draft 2020-12, `uniqueItems` linear)."""
    paths = sorted(PROTOCOL_DIR.glob("*.schema.json"))
    schemas = {path.name.removesuffix(".schema.json"): json.loads(path.read_text(encoding="utf-8")) for path in paths}
    registry: Registry[Any] = Registry().with_resources(
        (schema["$id"], Resource.from_contents(schema, default_specification=DRAFT202012))
        for schema in schemas.values()
    )
    validator_class = linear_unique_validator_class()
    return {name: validator_class(schema, registry=registry) for name, schema in schemas.items()}


class Traffic:
    """`--validate-traffic`: every message checked against its schema in conformance/protocol/."""

    shown = 3

    def problems(self, name: str, message: Any) -> list[str]:
        """Sentences for each way `message` breaks protocol/<name>.schema.json (empty: it conforms)."""
        errors = sorted(_validators()[name].iter_errors(message), key=lambda e: list(e.absolute_path))
        found = [f"{format_path(list(e.absolute_path))}: {e.message}" for e in errors[: self.shown]]
        more = f" (and {len(errors) - self.shown} more)" if len(errors) > self.shown else ""
        return [f"protocol/{name}.schema.json: {'; '.join(found)}{more}"] if found else []

    def answer_problems(self, kind: str, answer: dict[str, Any]) -> list[str]:
        problems = self.problems("answer", answer)
        if not problems and answer["type"] == "result":
            problems = self.problems(f"result-{kind}", answer["result"])
        return problems

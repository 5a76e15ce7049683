"""A request body's bytes → the JSON value the reader of record (`seq_io.reference.wire.parse_json_text`) reads from
them, or a refusal in the StreamError shape (`BodyRefused`): UTF-8 decoding → jiter (`fast_wire.read`) and the wire
screen → the reader of record only where jiter cannot vouch → for an `observe` or `act` body, the keeper's stateless
check (`host.checked`: a CheckedPost or CheckedAct, frames as compact text, or the keeper's StreamError). A small
body is read inline; a large one in a child process while the event loop goes on serving other requests.

WHY it is shaped this way:

- The reader of record is pure Python: a 4 MiB body costs it seconds, and on the event loop those seconds froze every
  other client (their acts were even failed at deadlines that passed meanwhile). jiter reads the same body in tens of
  milliseconds. The fast path decides exactly as the validation API's text path does (`Contract.validate_text`):
  jiter's syntax refusal is the reader of record's (`$`, `wire.json-syntax`), a value that passes the wire screen is
  the reader of record's value, and everything else (duplicate keys, long integers, deep nesting) is read again by
  the reader of record, which explains.
- Bodies up to INLINE_BYTES are read inline: even the reader of record reads them in well under a second, and a
  process hop would cost more than it saves. A larger body goes to a child of a `forkserver` context (a fork of a
  small clean process, not of the worker with its threads and sockets), one child per body, at most `workers` at
  once and `queue` more waiting; beyond that the body is refused at once with 503 `busy`, so that a flood of large
  bodies queues nothing unbounded. The child runs under an address-space limit (`memory_bytes`, RLIMIT_AS): a body
  whose value would not fit is a MemoryError there, not in the worker. A child that runs past `timeout_s` is killed.
  Whatever happens to the child (a MemoryError, a kill, a crash) the request gets a shaped answer, never a
  traceback, and the worker's memory is untouched.
- The child of an `observe` or `act` body checks it too and sends back only the checked result: a few numbers and
  the frames' compact texts, which unpickle as fast as copying them. Sending the value would cost the worker as much
  as building it, and reading the body again (as the child of any other body has the worker do) plus the schema
  check and the compaction froze the event loop for hundreds of milliseconds per 16 MiB.
- `close` (the worker drains on SIGTERM) kills every child: their requests are answered 503 `shutting_down` at once
  instead of holding the shutdown for a parse nobody will use.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import resource
from dataclasses import dataclass
from functools import cache
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any

from seq_io.reference import fast_wire
from seq_io.reference.keeper import INVALID_BODY, StreamError
from seq_io.reference.wire import WIRE_JSON_SYNTAX, parse_json_text
from seq_io.worker.host import Reply, checked, unavailable

OTHER = "other"
"""The kind of a body that is only read (a test keeper's configuration); `observe` and `act` bodies are also checked."""

INLINE_BYTES = 256 * 1024
"""Bodies up to this many bytes are read on the event loop (the fast path reads them in about a millisecond)."""
DEFAULT_PARSE_WORKERS = 1
DEFAULT_PARSE_QUEUE = 4
DEFAULT_PARSE_TIMEOUT_S = 30.0
DEFAULT_PARSE_MEMORY = 2 * 1024**3
HTTP_TOO_COSTLY = "http.body-too-costly"
"""The rule of a body refused because reading it took more time or memory than this worker gives one body."""
SHUTTING_DOWN = "the worker is shutting down; nothing of this request was kept"


class BodyRefused(Exception):
    """A body that does not become a value: `reply` is the whole answer (status and StreamError-shaped body)."""

    def __init__(self, reply: Reply) -> None:
        super().__init__(reply.body["error"]["message"])
        self.reply = reply


@dataclass(frozen=True)
class ParseSettings:
    """How large bodies are read: child processes at once, bodies waiting for one, and each one's time and memory."""

    workers: int = DEFAULT_PARSE_WORKERS
    queue: int = DEFAULT_PARSE_QUEUE
    timeout_s: float = DEFAULT_PARSE_TIMEOUT_S
    memory_bytes: int = DEFAULT_PARSE_MEMORY
    inline_bytes: int = INLINE_BYTES


def invalid_body(rule: str, message: str) -> Reply:
    """400 `stream.invalid-body` with one issue at `$`: a body refused before the keeper saw it."""
    error = StreamError(
        INVALID_BODY,
        f"the body is not a valid request: {message}",
        issues=[{"path": "$", "rule": rule, "message": message}],
    )
    return Reply(error.status, error.body())


@cache
def _screen() -> Any:
    """The wire screen (fast_wire.SCREEN) as a jsonschema-rs check, or None when jsonschema-rs is missing."""
    try:
        import jsonschema_rs
    except ImportError:
        return None
    return jsonschema_rs.Draft202012Validator(fast_wire.SCREEN).is_valid


def _fast_value(text: str) -> tuple[bool, Any, list[tuple[str, str, str]]]:
    """(decided, value, issues) from jiter: decided is False when only the reader of record can answer."""
    value = fast_wire.read(text)
    if isinstance(value, fast_wire.Refused):
        issue = value.issue
        return True, None, [(issue.path, issue.rule, str(issue))]
    screen = _screen()
    if value is not fast_wire.NOT_READ and screen is not None and screen(value):
        return True, value, []
    return False, None, []


def read_value(data: bytes | str) -> tuple[Any, ...]:
    """What the reader of record decides for a body, read on the fast path whenever it can vouch: ("value", v, by
    jiter: bool), ("issues", [(path, rule, sentence), ...]) or ("not_utf8", sentence). A body already decoded
    (`decoded`) is taken as its text."""
    text = decoded(data) if isinstance(data, bytes) else data
    if isinstance(text, tuple):
        return text
    decided, value, issues = _fast_value(text)
    if not decided:
        value, record = parse_json_text(text)
        issues = [(issue.path, issue.rule, str(issue)) for issue in record]
    return ("issues", issues) if issues else ("value", value, decided)


def decoded(data: bytes) -> str | tuple[str, str]:
    """The body's text, or ("not_utf8", sentence)."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        return ("not_utf8", f"the body is not UTF-8 ({error.reason} at byte {error.start})")


def read_checked(data: bytes | str, kind: str) -> tuple[Any, ...]:
    """`read_value`, and for an `observe` or `act` body the keeper's stateless check of its value as well:
    ("checked", CheckedPost | CheckedAct) or ("refused", rule, message, details) in place of ("value", ...). The
    refusal crosses a pipe as its parts: a StreamError does not unpickle."""
    return _with_check(read_value(data), kind)


def _with_check(answer: tuple[Any, ...], kind: str) -> tuple[Any, ...]:
    """A `read_value` answer, checked as `read_checked` says."""
    if kind == OTHER or answer[0] != "value":
        return answer
    result = checked(kind, answer[1])
    if isinstance(result, StreamError):
        return ("refused", result.rule, result.message, result.details)
    return ("checked", result)


def _by_jiter(data: bytes) -> Any:
    """The value of a body a child found jiter reads exactly (it passed the wire screen there), read again here."""
    import jiter

    return jiter.from_json(data, allow_inf_nan=False, catch_duplicate_keys=True)


def _refusal(issues: list[tuple[str, str, str]]) -> BodyRefused:
    refused = StreamError(
        INVALID_BODY,
        f"the body is not JSON as spec/validation.md reads it: {issues[0][2]}",
        issues=[{"path": path, "rule": rule} for path, rule, _ in issues],
    )
    return BodyRefused(Reply(refused.status, refused.body()))


def _decided(answer: tuple[Any, ...]) -> Any:
    """The value of a `read_value` answer, or its refusal raised."""
    if answer[0] == "not_utf8":
        raise BodyRefused(invalid_body(WIRE_JSON_SYNTAX, answer[1]))
    if answer[0] == "issues":
        raise _refusal(answer[1])
    if answer[0] == "refused":
        return StreamError(answer[1], answer[2], **answer[3])  # the keeper's refusal, answered by the host
    return answer[1]  # a value, or a checked body


def parse_inline(data: bytes, kind: str = OTHER) -> Any:
    """A body read (and checked, `read_checked`) here and now (BodyRefused when it is not JSON)."""
    return _decided(read_checked(data, kind))


# -- the child ---------------------------------------------------------------------------------------------------


def _child(conn: Connection, memory_bytes: int, kind: str) -> None:
    """The child's whole life: limit its memory, read the body's bytes, answer what `read_checked` decides or
    ("too_costly",), exit. A checked post or act crosses the pipe as its few numbers and its frames' compact
    texts (seq_io.reference.held), so the worker never reads a large valid body nor builds its value. Its stderr
    goes nowhere: what a child dying of its limit prints (a MemoryError, a Rust allocation failure) is not the
    worker's log; the worker's answer says what happened."""
    os.environ["RUST_BACKTRACE"] = "0"  # a Rust panic out of memory would hang capturing its backtrace
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 2)
    with contextlib.suppress(ValueError, OSError):  # a lower hard limit already in force bounds the child as well
        resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
    try:
        # Each form of the body is dropped once the next one is made (bytes → text → value → checked), so the child
        # holds at most two of them at once.
        text = decoded(conn.recv_bytes())
        answer = read_value(text) if isinstance(text, str) else text
        del text
        answer = _with_check(answer, kind)
        # jiter's value is the reader of record's: the worker reads it again itself (as fast as unpickling
        # the value would be slow), so only the verdict crosses the pipe
        conn.send(("by_jiter",) if answer[0] == "value" and answer[2] else answer)
    except (EOFError, OSError):  # the worker went away or killed the parse: nobody to answer
        pass
    except BaseException:
        try:
            conn.send(("too_costly",))
        except BaseException:
            os._exit(3)
    finally:
        conn.close()


@cache
def _context() -> Any:
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["seq_io.worker.bodies"])
    return context


def start_forkserver() -> None:
    """Start the fork server now (it takes a moment), so that the first large body does not wait for it."""
    from multiprocessing import forkserver

    _context()
    forkserver.ensure_running()


class BodyParser:
    """Reads bodies: small ones inline, large ones in children, within the settings' bounds (see the module)."""

    def __init__(self, settings: ParseSettings | None = None) -> None:
        self.settings = settings or ParseSettings()
        self._slots: asyncio.Semaphore | None = None
        self._pending = 0
        self._children: set[BaseProcess] = set()
        self.closed = False

    async def parse(self, data: bytes | bytearray, kind: str = OTHER) -> Any:
        """The body's value, or for `kind` "observe" or "act" its check (`read_checked`); BodyRefused when it is not
        JSON, costs too much, or cannot be read now. A bytearray given for an observe or act body read in a child
        is emptied once the child has it: the worker never holds a large body while its check comes back."""
        if len(data) <= self.settings.inline_bytes:
            return parse_inline(bytes(data), kind)
        if self.closed:
            raise BodyRefused(unavailable("shutting_down", SHUTTING_DOWN))
        settings = self.settings
        if self._pending >= settings.workers + settings.queue:
            raise BodyRefused(
                unavailable(
                    "busy",
                    f"the worker is reading {self._pending} large bodies already ({settings.workers} at once, "
                    f"{settings.queue} waiting: --parse-workers, --parse-queue); try again in a moment",
                )
            )
        if self._slots is None:
            self._slots = asyncio.Semaphore(settings.workers)
        self._pending += 1
        try:
            async with self._slots:
                if self.closed:
                    raise BodyRefused(unavailable("shutting_down", SHUTTING_DOWN))
                answer = await self._in_child(data, kind)
        finally:
            self._pending -= 1
        if answer == ("by_jiter",) and not self.closed:  # only for OTHER bodies, which _talk leaves whole
            return _by_jiter(bytes(data))
        return self._answer(answer)

    def _answer(self, answer: tuple[Any, ...] | None) -> Any:
        settings = self.settings
        if self.closed:
            raise BodyRefused(unavailable("shutting_down", SHUTTING_DOWN))
        if answer is None:
            raise BodyRefused(
                invalid_body(
                    HTTP_TOO_COSTLY,
                    f"reading the body took more than {settings.timeout_s:g} s (--parse-timeout); send smaller bodies",
                )
            )
        if answer[0] in ("too_costly", "died"):
            raise BodyRefused(
                invalid_body(
                    HTTP_TOO_COSTLY,
                    f"the body's value needs more than {settings.memory_bytes // 2**20} MiB of memory to read "
                    "(--parse-memory); send smaller bodies",
                )
            )
        return _decided(answer)

    async def _in_child(self, data: bytes | bytearray, kind: str) -> tuple[Any, ...] | None:
        """The child's answer, ("died",) when it ended without one (out of memory, it aborts), or None when it was
        killed (the timeout, `close`)."""
        context = _context()
        ours, theirs = context.Pipe(duplex=True)
        child = context.Process(target=_child, args=(theirs, self.settings.memory_bytes, kind), daemon=True)
        try:
            child.start()
        finally:
            theirs.close()
        self._children.add(child)
        talk = asyncio.ensure_future(asyncio.to_thread(_talk, ours, data, kind != OTHER))
        try:
            async with asyncio.timeout(self.settings.timeout_s):
                answer = await asyncio.shield(talk)
            return ("died",) if answer is None else answer
        except TimeoutError:
            return None
        finally:
            child.kill()  # a no-op once it exited; the thread's recv then ends with EOF
            await asyncio.gather(talk, return_exceptions=True)
            ours.close()
            child.join(timeout=5)
            self._children.discard(child)

    def close(self) -> None:
        """Abandon every parse: kill the children (their requests are answered 503 `shutting_down`)."""
        self.closed = True
        for child in list(self._children):
            child.kill()


def _talk(conn: Connection, data: bytes | bytearray, release: bool) -> tuple[Any, ...] | None:
    """Send the body, empty it when `release` (a bytearray nobody reads again), wait for the child's answer (a
    thread: the event loop never blocks on the pipe)."""
    try:
        conn.send_bytes(data)
        if release and isinstance(data, bytearray):
            data.clear()
        answer = conn.recv()
    except (EOFError, OSError, MemoryError):
        return None
    return answer if isinstance(answer, tuple) and answer else None

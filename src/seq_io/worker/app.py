"""A request's head (method, path, headers) → a `Route`: an answer at once (404, 405, a refused content type) or
the work to do once the server has read the body → the wire reader of spec/validation.md → the keeper host
(`host.py`) → a `Reply` (status and JSON body). The HTTP server (`server.py`) frames it, adds the
`Seq-Accept-Formats` header and writes the log line.

The surface (conformance/worker.md says it for users): `POST /observe` and `POST /act` exactly as spec/stream.md
§ 10 (STR-HTTP) says; `GET /stream/info`, where the worker states its configuration and its wait; and, only when
started with `--testing`, the test keepers a probe uses (`POST /stream/keepers`, `/stream/keepers/{key}/observe`,
`/act`, `/stream/waiting`, `DELETE`).

WHY it is shaped this way:

- Routing is two steps because the server must know before it reads a byte of the body whether to read it: a
  request to an unknown path or with the wrong content type is answered from its head alone. Everything the spec
  decides (statuses, bodies) is written here explicitly as plain functions, free of any HTTP library, and every
  answer is a JSON body of the StreamError shape, including 404, 405, 500 and 503, which spec/stream.md does not
  define (their codes are outside StreamError's enum, and worker.md lists them).
- The body's bytes are read by the server within `max_body_bytes` and `body_timeout_s` (memory per request is
  bounded whatever the client sends); they are parsed here, at one call site (`parse_body`).
- A refused body is `stream.invalid-body` (400) with the reader's issues: bytes that are not UTF-8, text that
  breaks the wire rules, a content type other than application/json, a body over the size limit. The keeper's
  stateless check of an observe or act value (STR-POST-BODY, STR-ACT-BODY: `check_observe`, `check_act`) runs
  where the body is read (a large one in the parse child), and the host applies the checked result.
- Shutdown: once draining, a request that was not received whole is answered 503 (`shutting_down`), and the host
  answers its waiting acts 503 at once (`host.KeeperHost.close`).
"""

from __future__ import annotations

import re
import sys
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TextIO

from seq_io.reference import held
from seq_io.reference.keeper import (
    INVALID_BODY,
    INVALID_SCENARIO,
    CheckedAct,
    CheckedPost,
    Limits,
    StreamError,
    episode_idle_of,
)
from seq_io.reference.schedule import ScheduleError
from seq_io.reference.wire import MAX_DOCUMENT_BYTES
from seq_io.worker.bodies import OTHER, BodyParser, invalid_body
from seq_io.worker.bodies import BodyRefused as BodyRefused  # where app users (the benchmark) find it
from seq_io.worker.host import (
    MAX_TEST_WAIT_S,
    MIN_TEST_WAIT_S,
    KeeperHost,
    Reply,
    StreamConfig,
    observe_format,
    unavailable,
)

DEFAULT_MAX_BODY_BYTES = MAX_DOCUMENT_BYTES
"""A body the worker reads whole is a document its reader must accept: the same bound (spec/validation.md)."""
"""Twice MAX_STREAM_BYTES: a post carrying a whole episode's worth of frames, spelled loosely, still fits."""
DEFAULT_BODY_TIMEOUT_S = 60.0
MAX_TEST_KEEPERS = 256
TEST_KEEPER_IDLE_S = 300.0
MEDIA_TYPE = "application/json"
HTTP_CONTENT_TYPE = "http.content-type"
HTTP_TOO_LARGE = "http.body-too-large"
HTTP_BODY_TIMEOUT = "http.body-timeout"
HTTP_DISCONNECTED = "http.client-disconnected"


@dataclass
class WorkerSettings:
    """Everything the app needs besides the root keeper's configuration."""

    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES
    body_timeout_s: float = DEFAULT_BODY_TIMEOUT_S
    testing: bool = False
    parser: BodyParser = field(default_factory=BodyParser)
    log: TextIO | None = field(default_factory=lambda: sys.stderr)
    implementation: tuple[str, str] = ("seq-io-ref-worker", "0")


def shaped(status: int, code: str, reason: str, message: str, **details: Any) -> Reply:
    """An answer outside spec/stream.md's table, in the StreamError shape (conformance/worker.md)."""
    return Reply(status, {"error": {"code": code, "message": message, "details": {"reason": reason, **details}}})


def media_type_refusal(content_type: str | None) -> Reply | None:
    """The 400 for a body that is not declared application/json (UTF-8), or None when it is."""
    if content_type is None:
        return invalid_body(HTTP_CONTENT_TYPE, "the request has no Content-Type; send application/json")
    media, *parameters = (part.strip() for part in content_type.split(";"))
    charset_ok = all(
        not p.lower().startswith("charset=") or p[8:].strip('"').lower() in ("utf-8", "utf8") for p in parameters
    )
    if media.lower() != MEDIA_TYPE or not charset_ok:
        return invalid_body(HTTP_CONTENT_TYPE, f"the Content-Type is {content_type!r}; send application/json (UTF-8)")
    return None


def too_large(limit: int, declared: int | None = None) -> Reply:
    """The 400 for a body over `--max-body-bytes`: declared up front, or passed while it arrived."""
    if declared is not None:
        return invalid_body(
            HTTP_TOO_LARGE, f"the body has {declared} bytes, more than this worker reads ({limit}, --max-body-bytes)"
        )
    return invalid_body(
        HTTP_TOO_LARGE, f"the body passed {limit} bytes, more than this worker reads (--max-body-bytes)"
    )


def body_timed_out(seconds: float) -> Reply:
    return invalid_body(HTTP_BODY_TIMEOUT, f"the body did not arrive whole within {seconds:g} s (--body-timeout)")


async def parse_body(body: bytes | bytearray, parser: BodyParser, kind: str = OTHER) -> Any:
    """The request's JSON value under the wire rules of spec/validation.md (BodyRefused otherwise), read by
    `parser` (bodies.py: small bodies inline, large ones in a child process, off the event loop); for `kind`
    "observe" or "act" the keeper's stateless check of it (`host.checked`) instead of the value."""
    return await parser.parse(body, kind)


def _summary(checked: Any) -> dict[str, Any]:
    """What a log line says about a checked post or act: its episode and the numbers it carries (nothing for a
    refused body)."""
    out: dict[str, Any] = {}
    if isinstance(checked, CheckedPost):
        out["episode"] = checked.episode_id[:80]
        numbers = [number for number, _, _ in checked.frames]
        if numbers:
            out["seq"] = [min(numbers), max(numbers)]
        out["frames"] = len(numbers)
        if checked.skipped:
            out["skipped"] = len(checked.skipped)
    elif isinstance(checked, CheckedAct):
        if checked.episode_id is not None:
            out["episode"] = checked.episode_id[:80]
        if checked.seq is not None:
            out["seq"] = [checked.seq, checked.seq]
    return out


class Worker:
    """The application state: the root keeper, the test keepers, the settings and whether it is draining."""

    def __init__(self, config: StreamConfig, settings: WorkerSettings) -> None:
        self.root = KeeperHost(config)
        self.settings = settings
        self.keepers: dict[str, KeeperHost] = {}
        self._next_key = 0
        self.draining = False

    def drain(self) -> None:
        """Begin the shutdown: waiting acts are answered now, requests not yet received whole get 503."""
        self.draining = True
        self.settings.parser.close()
        reply = unavailable("shutting_down", "the worker is shutting down; nothing of this request was kept")
        for host in [self.root, *self.keepers.values()]:
            host.close(reply)

    def info(self) -> dict[str, Any]:
        name, version = self.settings.implementation
        return {
            "implementation": {"name": name, "version": version},
            "formats": [observe_format()],
            **self.root.config.info(),
            "testing": self.settings.testing,
        }

    def route(self, method: str, path: str, headers: Mapping[str, str]) -> Route:
        """What to do with a request, from its head alone (see `Route`)."""
        found = _match(path, self.settings.testing)
        if found is None:
            return Route(shaped(404, "not_found", "not_found", f"nothing is served at {path[:200]}"))
        endpoint, key = found
        allowed = ALLOWED[endpoint]
        if method != allowed:
            reply = shaped(405, "method_not_allowed", "method_not_allowed", f"{method} is not served at {path}")
            return Route(reply, headers=(("allow", allowed),))
        host = self.root if key is None or endpoint in ("keeper", "keepers") else self.keepers.get(key)
        if host is None:
            return Route(
                shaped(404, "not_found", "not_found", f"no test keeper {key!r} (deleted, expired, or never made)")
            )
        if endpoint == "info":
            return Route(Reply(200, self.info()))
        if endpoint == "waiting":
            return Route(Reply(200, {"waiting": host.waiting()}))
        if endpoint == "keeper":
            return Route(self.delete_keeper(key or ""))
        refused = media_type_refusal(headers.get("content-type"))
        if refused is not None:
            return Route(refused)
        work: Callable[[Any], Awaitable[Reply]]
        if endpoint == "observe":
            work = _sync(host.observe_checked)
        elif endpoint == "act":
            work = host.act_checked
        else:
            work = _sync(self.make_keeper)
        return Route(None, work=work, kind=endpoint if endpoint in ("observe", "act") else OTHER)

    async def handle(self, route: Route, path: str, body: bytes | bytearray) -> Reply:
        """The answer to a request whose body the server has read whole."""
        assert route.work is not None
        try:
            value = await parse_body(body, self.settings.parser, route.kind)
        except BodyRefused as refused:
            return refused.reply
        route.log.update(_summary(value))
        if self.draining:  # the body was still arriving when the shutdown began
            return shutting_down()
        return await route.work(value)

    def make_keeper(self, body: Any) -> Reply:
        self._expire_keepers()
        if len(self.keepers) >= MAX_TEST_KEEPERS:
            return shaped(
                429,
                "too_many_requests",
                "too_many_keepers",
                f"{MAX_TEST_KEEPERS} test keepers exist; delete some first",
            )
        try:
            config = test_config(body, self.root.config)
            host = KeeperHost(config)
        except ConfigurationRefused as refused:
            return refused.reply
        except ScheduleError as error:  # `of` refuses the declaration or the rate (STR-SETUP)
            where = "$.rate" if error.rule in ("schedule.rate-required", "schedule.invalid-rate") else "$.declaration"
            return ConfigurationRefused(where, error.rule, error.message).reply
        self._next_key += 1
        key = f"k{self._next_key}"
        self.keepers[key] = host
        host.start_sweeping()
        return Reply(201, {"key": key, "base": f"/stream/keepers/{key}", **config.info()})

    def delete_keeper(self, key: str) -> Reply:
        host = self.keepers.pop(key, None)
        if host is None:
            return shaped(404, "not_found", "unknown_keeper", f"no test keeper {key!r}")
        host.close(unavailable("keeper_deleted", "the test keeper was deleted"))
        return Reply(200, {"deleted": key})

    def _expire_keepers(self) -> None:
        cutoff = time.monotonic() - TEST_KEEPER_IDLE_S
        for key in [k for k, host in self.keepers.items() if host.last_used < cutoff]:
            self.delete_keeper(key)


KEEPER_CONFIGURATION = "worker.keeper-configuration"
"""The rule of a test keeper's configuration that only conformance/worker.md defines (its members, `wait_s`)."""


class ConfigurationRefused(Exception):
    """A test keeper's configuration refused: 400 `invalid_body` whose one issue names where and by which rule
    (conformance/worker.md, "Test keepers")."""

    def __init__(self, path: str, rule: str, message: str) -> None:
        super().__init__(message)
        error = StreamError(
            INVALID_BODY,
            f"the test keeper cannot be made: {message}",
            issues=[{"path": path, "rule": rule, "message": message}],
        )
        self.reply = Reply(error.status, error.body())


def test_config(body: Any, root: StreamConfig) -> StreamConfig:
    """A test keeper's configuration from a JSON body, numbers read by value (STR-SCENARIO); absent members take
    the contract's values. ConfigurationRefused names what STR-SETUP or this endpoint refuses."""
    if not isinstance(body, dict) or "declaration" not in body:
        raise ConfigurationRefused(
            "$",
            KEEPER_CONFIGURATION,
            "a test keeper needs an object with at least `declaration` (an Observations or null)",
        )
    unknown = sorted(body.keys() - {"declaration", "rate", "episode_idle", "limits", "wait_s"})
    if unknown:
        raise ConfigurationRefused(f"$.{unknown[0]}", KEEPER_CONFIGURATION, f"unknown members {unknown}")
    try:
        limits = Limits.scaled(body.get("limits"))
    except ValueError as error:
        raise ConfigurationRefused("$.limits", INVALID_SCENARIO, str(error)) from None
    try:
        idle = episode_idle_of(body.get("episode_idle"))
    except ValueError as error:
        raise ConfigurationRefused("$.episode_idle", INVALID_SCENARIO, str(error)) from None
    wait_s = body.get("wait_s", root.wait_s)
    if type(wait_s) not in (int, float) or not MIN_TEST_WAIT_S <= wait_s <= MAX_TEST_WAIT_S:
        raise ConfigurationRefused(
            "$.wait_s",
            KEEPER_CONFIGURATION,
            f"wait_s is a number of seconds from {MIN_TEST_WAIT_S:g} to {MAX_TEST_WAIT_S:g}",
        )
    return StreamConfig(body["declaration"], body.get("rate"), idle, limits, float(wait_s))


def shutting_down() -> Reply:
    return unavailable("shutting_down", "the worker is shutting down; nothing of this request was kept")


def internal_error() -> Reply:
    return shaped(
        500, "internal", "internal_error", "the worker failed on this request (a bug); its log has the details"
    )


def _sync(function: Callable[[Any], Reply]) -> Callable[[Any], Awaitable[Reply]]:
    async def work(value: Any) -> Reply:
        return function(value)

    return work


@dataclass
class Route:
    """A request's fate from its head: `reply` to answer at once (no body is read), or `work` to run on the parsed
    body (for `kind` "observe" or "act", the body's check: `host.checked`). `headers` are added to the answer
    (`Allow`); `log` collects what the request's log line says."""

    reply: Reply | None
    headers: tuple[tuple[str, str], ...] = ()
    work: Callable[[Any], Awaitable[Reply]] | None = None
    kind: str = OTHER
    log: dict[str, Any] = field(default_factory=dict)


ALLOWED = {"observe": "POST", "act": "POST", "info": "GET", "waiting": "GET", "keepers": "POST", "keeper": "DELETE"}
"""The one method each endpoint serves (others: 405 with `Allow`)."""

_ROOT = {"/observe": "observe", "/act": "act", "/stream/info": "info"}
_TESTING = {"/stream/waiting": "waiting", "/stream/keepers": "keepers"}
_KEEPER = re.compile(r"/stream/keepers/([^/]+)(/observe|/act|/stream/waiting)?")
_KEEPER_PATHS = {None: "keeper", "/observe": "observe", "/act": "act", "/stream/waiting": "waiting"}


def _match(path: str, testing: bool) -> tuple[str, str | None] | None:
    """(endpoint, test keeper key or None) of a path; None when nothing is served there. No redirects: a trailing
    slash is another path."""
    if path in _ROOT:
        return _ROOT[path], None
    if not testing:
        return None
    if path in _TESTING:
        return _TESTING[path], None
    found = _KEEPER.fullmatch(path)
    if found is None:
        return None
    return _KEEPER_PATHS[found.group(2)], found.group(1)


def dump(value: Any) -> bytes:
    """A JSON body: compact, UTF-8, no NaN (the wire rules); held frames are spliced in as their text."""
    return held.dumps(value).encode("utf-8")

"""HTTP requests → bounded body reading, the wire reader of spec/validation.md → the keeper host (`host.py`) → JSON
answers with the `Seq-Accept-Formats` header, plus one structured log line per request on stderr.

The surface (conformance/worker.md says it for users): `POST /observe` and `POST /act` exactly as spec/stream.md
§ 10 (STR-HTTP) says; `GET /stream/info`, where the worker states its configuration and its wait; and, only when
started with `--testing`, the test keepers a probe uses (`POST /stream/keepers`, `/stream/keepers/{key}/observe`,
`/act`, `/stream/waiting`, `DELETE`).

WHY it is shaped this way:

- Starlette gives the routing, the request stream and the responses; everything the spec decides (statuses,
  bodies, the header) is written here explicitly, and every path ends in a JSON body of the StreamError shape,
  including 404, 405, 500 and 503, which spec/stream.md does not define (their codes are outside StreamError's
  enum, and worker.md lists them).
- A body is read chunk by chunk and refused as soon as it passes `max_body_bytes`, before any parsing: a
  Content-Length above the limit is refused without reading a byte, a chunked body when its running count passes
  it, and a body that trickles in is cut off after `body_timeout_s`. Memory per request is therefore bounded by the
  limit whatever the client sends.
- A refused body is `stream.invalid-body` (400) with the reader's issues: bytes that are not UTF-8, text that
  breaks the wire rules, a content type other than application/json, a body over the size limit. The keeper
  checks the value itself (STR-POST-BODY, STR-ACT-BODY) through the validation API's fast path.
- Shutdown: once draining, a request that was not received whole is answered 503 (`shutting_down`), and the host
  answers its waiting acts 503 at once (`host.KeeperHost.close`).
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any, TextIO

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import Response
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from seq_io.reference import held
from seq_io.reference.keeper import (
    FORMATS_HEADER,
    INVALID_BODY,
    INVALID_SCENARIO,
    Limits,
    StreamError,
    episode_idle_of,
)
from seq_io.reference.schedule import ScheduleError
from seq_io.reference.wire import MAX_DOCUMENT_BYTES
from seq_io.worker.bodies import BodyParser
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


def _shaped(status: int, code: str, reason: str, message: str, **details: Any) -> Reply:
    """An answer outside spec/stream.md's table, in the StreamError shape (conformance/worker.md)."""
    return Reply(status, {"error": {"code": code, "message": message, "details": {"reason": reason, **details}}})


def _invalid_body(rule: str, message: str) -> Reply:
    error = StreamError(
        INVALID_BODY,
        f"the body is not a valid request: {message}",
        issues=[{"path": "$", "rule": rule, "message": message}],
    )
    return Reply(error.status, error.body())


def _check_media_type(request: Request) -> None:
    header = request.headers.get("content-type")
    if header is None:
        raise BodyRefused(_invalid_body(HTTP_CONTENT_TYPE, "the request has no Content-Type; send application/json"))
    media, *parameters = (part.strip() for part in header.split(";"))
    charset_ok = all(
        not p.lower().startswith("charset=") or p[8:].strip('"').lower() in ("utf-8", "utf8") for p in parameters
    )
    if media.lower() != MEDIA_TYPE or not charset_ok:
        raise BodyRefused(
            _invalid_body(HTTP_CONTENT_TYPE, f"the Content-Type is {header!r}; send application/json (UTF-8)")
        )


async def read_json_body(request: Request, settings: WorkerSettings) -> Any:
    """The request's JSON value, read within the size and time limits (BodyRefused otherwise)."""
    _check_media_type(request)
    limit = settings.max_body_bytes
    declared = request.headers.get("content-length")
    if declared is not None and declared.strip().isdigit() and int(declared) > limit:
        raise BodyRefused(
            _invalid_body(
                HTTP_TOO_LARGE,
                f"the body has {int(declared)} bytes, more than this worker reads ({limit}, --max-body-bytes)",
            )
        )
    chunks: list[bytes] = []
    total = 0
    try:
        async with asyncio.timeout(settings.body_timeout_s):
            async for chunk in request.stream():
                total += len(chunk)
                if total > limit:
                    raise BodyRefused(
                        _invalid_body(
                            HTTP_TOO_LARGE,
                            f"the body passed {limit} bytes, more than this worker reads (--max-body-bytes)",
                        )
                    )
                chunks.append(chunk)
    except ClientDisconnect:  # nobody is left to read the answer; the log line still tells
        raise BodyRefused(
            _invalid_body(HTTP_DISCONNECTED, "the client went away before its body arrived whole")
        ) from None
    except TimeoutError:
        raise BodyRefused(
            _invalid_body(HTTP_BODY_TIMEOUT, f"the body did not arrive whole within {settings.body_timeout_s:g} s")
        ) from None
    return await settings.parser.parse(b"".join(chunks))


def _summary(body: Any, path: str) -> dict[str, Any]:
    """What a log line says about a request body: its episode and the numbers it carries."""
    if not isinstance(body, dict):
        return {}
    out: dict[str, Any] = {}
    if isinstance(body.get("episode_id"), str):
        out["episode"] = body["episode_id"][:80]
    if path.endswith("/observe"):
        frames = body.get("frames")
        numbers = (
            [f["seq"] for f in frames if isinstance(f, dict) and isinstance(f.get("seq"), int | float)]
            if isinstance(frames, list)
            else []
        )
        if numbers:
            out["seq"] = [min(numbers), max(numbers)]
        out["frames"] = len(frames) if isinstance(frames, list) else None
        skipped = body.get("skipped")
        if isinstance(skipped, list) and skipped:
            out["skipped"] = len(skipped)
    elif isinstance(body.get("seq"), int | float):
        out["seq"] = [body["seq"], body["seq"]]
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

    def host(self, request: Request) -> KeeperHost:
        key = request.path_params.get("key")
        if key is None:
            return self.root
        host = self.keepers.get(key)
        if host is None:
            raise HTTPException(404, f"no test keeper {key!r} (deleted, expired, or never made)")
        return host

    def make_keeper(self, body: Any) -> Reply:
        self._expire_keepers()
        if len(self.keepers) >= MAX_TEST_KEEPERS:
            return _shaped(
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
            return _shaped(404, "not_found", "unknown_keeper", f"no test keeper {key!r}")
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


def _dump(value: Any) -> bytes:
    return held.dumps(value).encode("utf-8")  # held frames are spliced in as their text


def respond(reply: Reply, headers: dict[str, str] | None = None) -> Response:
    return Response(_dump(reply.body), reply.status, headers=headers, media_type=MEDIA_TYPE)


def build_app(worker: Worker) -> Starlette:  # noqa: C901 (the routes are closures over the worker, counted as one)
    """The Starlette application of one worker."""
    settings = worker.settings

    async def with_body(request: Request, work: Callable[[Any], Awaitable[Reply]]) -> Response:
        try:
            body = await read_json_body(request, settings)
        except BodyRefused as refused:
            return respond(refused.reply)
        request.state.log = _summary(body, request.url.path)
        if worker.draining:  # the body was still arriving when the shutdown began
            return respond(
                unavailable("shutting_down", "the worker is shutting down; nothing of this request was kept")
            )
        return respond(await work(body))

    async def observe(request: Request) -> Response:
        host = worker.host(request)

        async def work(body: Any) -> Reply:
            return host.observe(body)

        return await with_body(request, work)

    async def act(request: Request) -> Response:
        return await with_body(request, worker.host(request).act)

    async def info(request: Request) -> Response:
        return respond(Reply(200, worker.info()))

    async def waiting(request: Request) -> Response:
        return respond(Reply(200, {"waiting": worker.host(request).waiting()}))

    async def keepers(request: Request) -> Response:
        async def work(body: Any) -> Reply:
            return worker.make_keeper(body)

        return await with_body(request, work)

    async def delete_keeper(request: Request) -> Response:
        return respond(worker.delete_keeper(request.path_params["key"]))

    routes = [
        Route("/observe", observe, methods=["POST"]),
        Route("/act", act, methods=["POST"]),
        Route("/stream/info", info, methods=["GET"]),
    ]
    if settings.testing:
        routes += [
            Route("/stream/waiting", waiting, methods=["GET"]),
            Route("/stream/keepers", keepers, methods=["POST"]),
            Route("/stream/keepers/{key}", delete_keeper, methods=["DELETE"]),
            Route("/stream/keepers/{key}/observe", observe, methods=["POST"]),
            Route("/stream/keepers/{key}/act", act, methods=["POST"]),
            Route("/stream/keepers/{key}/stream/waiting", waiting, methods=["GET"]),
        ]

    async def http_error(request: Request, error: Exception) -> Response:
        assert isinstance(error, HTTPException)
        if error.status_code == 405:
            reply = _shaped(
                405, "method_not_allowed", "method_not_allowed", f"{request.method} is not served at {request.url.path}"
            )
            return respond(reply, {"Allow": (error.headers or {}).get("Allow", "")})
        if error.status_code == 404:
            return respond(
                _shaped(
                    404,
                    "not_found",
                    "not_found",
                    error.detail if error.detail != "Not Found" else f"nothing is served at {request.url.path}",
                )
            )
        return respond(_shaped(error.status_code, "http_error", "http_error", str(error.detail)))

    async def crashed(request: Request, error: Exception) -> Response:
        print(f"iospec worker: internal error on {request.method} {request.url.path}: {error!r}", file=sys.stderr)
        return respond(
            _shaped(
                500,
                "internal",
                "internal_error",
                "the worker failed on this request (a bug); its stderr has the details",
            )
        )

    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        worker.root.start_sweeping()
        yield

    app = Starlette(
        routes=routes,
        exception_handlers={HTTPException: http_error, Exception: crashed},
        lifespan=asynccontextmanager(lifespan),
    )
    return app


class Framing:
    """Pure ASGI middleware: the `Seq-Accept-Formats` header on every answer, early 503 while draining, and one
    JSON log line per request (method, path, status, episode, seq range, duration)."""

    def __init__(self, app: ASGIApp, worker: Worker) -> None:
        self.app, self.worker = app, worker
        self.header = (FORMATS_HEADER.lower().encode("latin-1"), observe_format().encode("latin-1"))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        begun = time.monotonic()
        status = {"code": 0}

        async def framed_send(message: Message) -> None:
            if message["type"] == "http.response.start":
                status["code"] = message["status"]
                message["headers"] = [*message.get("headers", []), self.header]
            await send(message)

        try:
            if self.worker.draining:
                reply = unavailable("shutting_down", "the worker is shutting down; nothing of this request was kept")
                await respond(reply)(scope, receive, framed_send)
            else:
                await self.app(scope, receive, framed_send)
        except ClientDisconnect:
            status["code"] = 499
        finally:
            self._log(scope, status["code"], time.monotonic() - begun)

    def _log(self, scope: Scope, status: int, seconds: float) -> None:
        log = self.worker.settings.log
        if log is None:
            return
        state = scope.get("state") or {}
        line = {
            "method": scope["method"],
            "path": scope["path"],
            "status": status,
            **state.get("log", {}),
            "ms": round(seconds * 1000, 3),
        }
        try:
            log.write(json.dumps(line, ensure_ascii=False) + "\n")
            log.flush()
        except (OSError, ValueError):
            pass  # a closed or broken log must not take the worker down


def application(worker: Worker) -> ASGIApp:
    return Framing(build_app(worker), worker)

"""One HTTP call of the probe: a method, a URL, a body and a deadline → the request sent and the whole answer read
(status, headers, at most MAX_ANSWER_BYTES of body) within that deadline → an `Answer`, or `CallFailed` whose text
says in words what went wrong.

WHY it is shaped this way: the probe talks to workers it must not trust. httpx's timeouts apply to each read, so a
server that drips one byte every few seconds, or never stops sending, held the probe forever or filled its memory.
Every request of the probe therefore goes through `call`: one deadline over the whole exchange (waiting for a
pooled connection, connecting, sending, the headers and every byte of the body), enforced by `asyncio.timeout`
around a streamed response, and a cap on the body counted as it arrives (a `Content-Length` over the cap is refused
before any of the body is read). The answer is asked for without content coding (`Accept-Encoding: identity`) and
read raw, so a small compressed body cannot expand past the cap either. The budgets that are larger than one
request (a scenario's, the run's) are set by the callers, from the constants here (conformance/worker.md, "Time
budgets and the answer cap").
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import httpx

MAX_ANSWER_BYTES = 8 * 1024 * 1024
"""The largest answer body the probe reads (8 MiB): a StreamError or an act's echo of a scenario is far smaller."""
REQUEST_ALLOWANCE_S = 1.0
"""Real seconds a scenario's budget allows each of its requests beyond the scenario's own waits: a healthy worker
answers in milliseconds, so only a worker slow on every request (or a machine stalled for long) runs out."""


class CallFailed(Exception):
    """A call that brought back no whole answer: its text says what happened (the deadline, the cap, the connection)."""


class Unusable(Exception):
    """The worker (or an argument) cannot be used at all: the probe says so in one line and exits 2."""


@dataclass(frozen=True)
class Answer:
    """A whole answer: its status, headers and body (at most MAX_ANSWER_BYTES)."""

    status_code: int
    headers: httpx.Headers
    content: bytes

    @property
    def text(self) -> str:
        return self.content.decode("utf-8", errors="replace")

    def json(self) -> Any:
        """The body as JSON (ValueError when it is not)."""
        return json.loads(self.content)


def _path(url: str) -> str:
    return urlsplit(url).path or "/"


def _size(value: int) -> str:
    return f"{value / (1024 * 1024):g} MiB"


async def call(
    client: httpx.AsyncClient,
    method: str,
    url: str,
    *,
    deadline_s: float,
    content: bytes | None = None,
    headers: dict[str, str] | None = None,
    budget: str = "--timeout",
) -> Answer:
    """`method url` with the whole exchange due within `deadline_s` and the body capped at MAX_ANSWER_BYTES;
    `budget` names where the deadline comes from, for the message."""
    what = f"{method} {_path(url)}"
    sent_headers = {"accept-encoding": "identity"} | (headers or {})
    try:
        async with asyncio.timeout(deadline_s):
            return await _exchange(client, method, url, what, content, sent_headers, deadline_s)
    except (TimeoutError, httpx.TimeoutException):
        raise CallFailed(f"no whole answer to {what} within {deadline_s:g} s ({budget})") from None
    except httpx.HTTPError as error:
        raise CallFailed(f"{what} failed: {type(error).__name__}: {error}") from None


async def _exchange(
    client: httpx.AsyncClient,
    method: str,
    url: str,
    what: str,
    content: bytes | None,
    headers: dict[str, str],
    deadline_s: float,
) -> Answer:
    async with client.stream(method, url, content=content, headers=headers, timeout=deadline_s) as response:
        declared = response.headers.get("content-length", "").strip()
        if declared.isdigit() and int(declared) > MAX_ANSWER_BYTES:
            raise CallFailed(
                f"the answer to {what} announces {int(declared)} bytes, more than the {_size(MAX_ANSWER_BYTES)} "
                "the probe reads"
            )
        body = bytearray()
        async for chunk in response.aiter_raw():
            body += chunk
            if len(body) > MAX_ANSWER_BYTES:
                raise CallFailed(f"the answer to {what} is larger than the {_size(MAX_ANSWER_BYTES)} the probe reads")
        return Answer(response.status_code, response.headers, bytes(body))

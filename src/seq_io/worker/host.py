"""One keeper behind the HTTP surface: request bodies (already checked by the keeper's stateless half, `checked`, or
parsed JSON values) and a real monotonic clock →
the pure keeper of spec/stream.md → `Reply`s (status + JSON body; a handed frame is its held text,
`seq_io.reference.held`, which `held.dumps` writes as is), with the answers of waiting acts delivered to
the requests that wait for them.

WHY it is shaped this way:

- The keeper (`seq_io.reference.keeper`) is pure and synchronous; this host is the only place that owns it. Every call
  into it runs on the event loop's thread without an `await` in between, so no two requests ever see it half
  changed: that is the whole locking story (no lock, no thread). An act that waits is an `asyncio.Future`; its
  request awaits the future, so a waiting act blocks nothing else, neither other episodes nor posts of its own.
- Time is the keeper's clock, fed here: `(monotonic - start) / scale` with `scale = wait_s / STREAM_WAIT_S`. With
  the contract's wait (`wait_s` 10.0) the keeper sees real seconds; a test worker started with `--wait-s 0.2` runs
  its keeper on a clock 50 times faster, so that an act waits 0.2 real seconds and an idle timeout of 10 stream
  seconds ends an episode after 0.2 real seconds. The keeper keeps STREAM_WAIT_S = 10.0 as STR-SETUP demands and
  every duration of the stream shrinks by the same factor, which is what a scaled-down scenario needs.
- A waiting act must be answered at its deadline even when no request comes: one timer, set for the earliest
  deadline (deadlines only grow, so the first waiting act is the earliest), ticks the keeper when it passes. Idle
  episodes end lazily at the next call, which is enough for the answers (STR-EXPIRY), and a slow periodic tick
  frees their memory.
- `close` answers every waiting act at once (503, the worker is going away) instead of keeping a shutdown or a
  deleted test keeper waiting up to STREAM_WAIT_S.
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from seq_io.reference.held import compact
from seq_io.reference.keeper import (
    CheckedAct,
    CheckedPost,
    Keeper,
    Limits,
    StreamError,
    check_act,
    check_observe,
    stream_wait_s,
)
from seq_io.reference.spec_data import load_spec

UNAVAILABLE = 503
DEFAULT_MAX_WAITING_BYTES = 256 * 2**20
"""The sizes (STR-SIZE) of the inputs of all acts waiting in one keeper together (conformance/worker.md, "Memory")."""
MIN_TEST_WAIT_S, MAX_TEST_WAIT_S = 0.00001, 3600.0
"""The real waits a test keeper takes (conformance/worker.md, "Test keepers")."""


@dataclass(frozen=True)
class Reply:
    """One answer of the stream surface: an HTTP status and its JSON body."""

    status: int
    body: Any


@dataclass(frozen=True)
class StreamConfig:
    """What a keeper is made from (STR-SETUP) and how fast its clock runs: `wait_s` real seconds per act wait."""

    declaration: Any
    rate: Any
    episode_idle: int | None
    limits: Limits
    wait_s: float
    max_waiting_bytes: int = DEFAULT_MAX_WAITING_BYTES

    @property
    def scale(self) -> float:
        """Real seconds per keeper second."""
        return self.wait_s / stream_wait_s()

    def info(self) -> dict[str, Any]:
        """The configuration as `GET /stream/info` states it (conformance/worker.md)."""
        idle_s = None if self.episode_idle is None else self.episode_idle * self.scale
        return {
            "declaration": self.declaration,
            "rate": self.rate,
            "episode_idle": self.episode_idle,
            "limits": {
                "MAX_STREAM_FRAMES": self.limits.frames,
                "MAX_STREAM_BYTES": self.limits.bytes,
                "MAX_WORKER_STREAM_BYTES": self.limits.worker_bytes,
                "MAX_EPISODES": self.limits.episodes,
            },
            "stream_wait_s": stream_wait_s(),
            "wait_s": self.wait_s,
            "episode_idle_s": idle_s,
            "time_scale": self.scale,
        }


def unavailable(reason: str, message: str) -> Reply:
    """A 503 answer in the shape of a StreamError body; spec/stream.md defines no error for it (worker.md)."""
    return Reply(UNAVAILABLE, {"error": {"code": "unavailable", "message": message, "details": {"reason": reason}}})


def refusal(error: StreamError) -> Reply:
    return Reply(error.status, error.body())


Checked = CheckedPost | CheckedAct | StreamError
"""A post's or an act's body after the keeper's stateless check: what the keeper applies, or its refusal."""


def checked(endpoint: str, body: Any) -> Checked:
    """The stateless half of the keeper's work on an `observe` or `act` body (`check_observe`, `check_act`), frames
    held compact (seq_io.reference.held); the refusal is returned, not raised, so that it can cross a pipe as a
    value and be answered by the host in its turn."""
    try:
        return check_observe(body, compact) if endpoint == "observe" else check_act(body, compact)
    except StreamError as error:
        return error


class KeeperHost:
    """The keeper of one configuration, its clock, and the requests of its waiting acts."""

    def __init__(self, config: StreamConfig, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.config = config
        self.keeper = Keeper.of(
            config.declaration, config.rate, limits=config.limits, episode_idle=config.episode_idle, store=compact
        )  # ScheduleError when `of` refuses (STR-SETUP); frames held as their text (seq_io.reference.held)
        self._clock = clock
        self._start = clock()
        self._scale = config.scale
        self._waiters: dict[str, asyncio.Future[Reply]] = {}
        self._deadlines: OrderedDict[str, float] = OrderedDict()  # episode → keeper deadline, earliest first
        self._waiting_sizes: dict[str, int] = {}  # episode → the size of its waiting act's inputs
        self.waiting_bytes = 0
        self._timer: asyncio.TimerHandle | None = None
        self._sweeper: asyncio.Task[None] | None = None
        self.closed: Reply | None = None
        self.last_used = clock()

    # -- the clock ---------------------------------------------------------------------------------------------

    def now(self) -> float:
        """The keeper's clock: real seconds since the start, divided by the scale (never decreasing)."""
        return (self._clock() - self._start) / self._scale

    def _real(self, keeper_time: float) -> float:
        return self._start + keeper_time * self._scale

    # -- requests ----------------------------------------------------------------------------------------------

    def observe(self, body: Any) -> Reply:
        """One POST /observe body → 200 {"through": N} or the refusal (STR-POST-*)."""
        return self.observe_checked(checked("observe", body))

    def observe_checked(self, post: Checked) -> Reply:
        """`observe` of a body already checked (`checked`, perhaps in another process)."""
        if self.closed is not None:
            return self.closed
        self.last_used = self._clock()
        try:
            now = self.now()
            if not isinstance(post, CheckedPost):
                self.keeper.tick(now)  # a refused body still applies the time that passed, as `Keeper.post`
                raise _refused(post)
            return Reply(200, {"through": self.keeper.post_checked(post, now)})
        except StreamError as error:
            return refusal(error)
        finally:
            self._deliver()

    async def act(self, body: Any) -> Reply:
        """One POST /act body → 200 {"outputs": handed} at once or after its wait, or the refusal (STR-ACT-*)."""
        return await self.act_checked(checked("act", body))

    async def act_checked(self, act: Checked) -> Reply:
        """`act` of a body already checked (`checked`, perhaps in another process)."""
        if self.closed is not None:
            return self.closed
        self.last_used = self._clock()
        now = self.now()
        try:
            if not isinstance(act, CheckedAct):
                self.keeper.tick(now)  # as `Keeper.act`
                raise _refused(act)
            acted = self.keeper.act_checked(act, now)
        except StreamError as error:
            return refusal(error)
        finally:
            # What this call decided for other acts (an act of this very episode whose deadline passed just before
            # this one arrived, among them) is answered before this act's own waiter exists.
            self._deliver()
        if not acted.waiting:
            return Reply(200, {"outputs": acted.handed})
        episode_id = act.episode_id
        assert episode_id is not None  # an act that waits carried an episode id
        inputs_size = self.keeper.waiting_size(episode_id)
        if self.waiting_bytes + inputs_size > self.config.max_waiting_bytes:
            self.keeper.withdraw(episode_id)
            return unavailable(
                "waiting_full",
                f"the acts waiting in this worker already hold {self.waiting_bytes} bytes of inputs; this one "
                f"({inputs_size} bytes) would pass --max-waiting-bytes ({self.config.max_waiting_bytes}); post its "
                "missing frames first, or try again in a moment",
            )
        self._waiting_sizes[episode_id] = inputs_size
        self.waiting_bytes += inputs_size
        waiter: asyncio.Future[Reply] = asyncio.get_running_loop().create_future()
        self._waiters[episode_id] = waiter
        self._deadlines[episode_id] = now + self.keeper.wait_s  # the keeper's own sum (STR-CLOCK)
        self._arm()
        return await asyncio.shield(waiter)  # a client that goes away does not take the keeper's act with it

    def waiting(self) -> list[str]:
        """The episodes whose act waits, earliest deadline first (the test endpoint `/stream/waiting`)."""
        return list(self._deadlines)

    # -- what the keeper decided for acts that wait --------------------------------------------------------------

    def _deliver(self) -> None:
        """Answer the acts the last keeper call decided, then set the timer for the earliest deadline left."""
        for answer in self.keeper.take_events().answers:
            self._deadlines.pop(answer.episode_id, None)
            self.waiting_bytes -= self._waiting_sizes.pop(answer.episode_id, 0)
            waiter = self._waiters.pop(answer.episode_id, None)
            reply = refusal(answer.error) if answer.error is not None else Reply(200, {"outputs": answer.handed})
            if waiter is not None and not waiter.done():
                waiter.set_result(reply)
        self._arm()

    def _arm(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self._deadlines and self.closed is None:
            deadline = next(iter(self._deadlines.values()))
            loop = asyncio.get_running_loop()
            # loop.time() is time.monotonic(); a deadline is passed only strictly after it, so aim just past it.
            delay = max(0.0, self._real(deadline) - self._clock()) + 0.0005
            self._timer = loop.call_later(delay, self._tick)

    def _tick(self) -> None:
        self._timer = None
        if self.closed is None:
            self.keeper.tick(self.now())
            self._deliver()

    async def sweep(self, every_s: float) -> None:
        """Tick the keeper every `every_s` real seconds so that idle episodes free their frames (STR-IDLE)."""
        while self.closed is None:
            await asyncio.sleep(every_s)
            if self.closed is None:
                self.keeper.tick(self.now())
                self._deliver()

    def start_sweeping(self) -> None:
        if self.config.episode_idle is not None and self._sweeper is None:
            every = min(1.0, max(0.05, self.config.episode_idle * self._scale / 4))
            self._sweeper = asyncio.get_running_loop().create_task(self.sweep(every))

    def close(self, reply: Reply) -> None:
        """Refuse every later request with `reply` and answer every waiting act with it now."""
        self.closed = reply
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self._sweeper is not None:
            self._sweeper.cancel()
        for waiter in self._waiters.values():
            if not waiter.done():
                waiter.set_result(reply)
        self._waiters.clear()
        self._deadlines.clear()
        self._waiting_sizes.clear()
        self.waiting_bytes = 0


def _refused(given: Checked) -> StreamError:
    """The refusal a check gave; a check of the other endpoint's kind is a bug of the caller."""
    assert isinstance(given, StreamError), f"{type(given).__name__} checked for the wrong endpoint"
    return given


def observe_format() -> str:
    return str(load_spec().contract["observe_format"])

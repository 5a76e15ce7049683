"""A robot's events (plan, observe, drop, act), the worker's answers and failures, and clock readings → the requests
a robot SDK's uploader sends (`POST /observe` bodies and `POST /act` bodies, each with its reading), as
spec/uploader.md defines them (its `UPL-…` rules).

WHY it is shaped this way:

- Pure: no I/O, no threads, no clock of its own. Every event comes with the clock reading `now`, and what the
  passing of time decides (a retry falling due) happens at the start of the next event, at the reading it fell due
  (UPL-CLOCK). So the conformance testee (a virtual clock moved by `advance` events) and a real-time HTTP driver
  (which asks `next_due` when to wake up) drive the same object; each instance holds one episode and nothing is
  global, so several can run side by side.
- One moment per retry: spec/uploader.md leaves the moment within a retry's window free (§ 9); this uploader always
  takes the window's start, b_k after the end of attempt k, so that its requests are a function of its events.
- The schedule is not re-derived: `of`, `wanted` and `reads_past` are seq_io.reference.schedule's, and a refusal of
  `of` is its ScheduleError, as for a keeper (spec/stream.md STR-SETUP). `wanted` is computed once per pair of
  (last act, planned act), since every observation between two acts asks the same question.
- Items are kept per number: pending frames in a dict (a number is sent in at most one item, UPL-ONCE) and pending
  skips with whether each is urgent, since only a frame or an urgent skip starts a post (UPL-POST-PROMPT).
- Bodies are JSON values as a wire parser builds them; the uploader shares, never copies, the robot's inputs (a
  frame cut to keys is a new object holding the same member values), so callers treat them as immutable.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from seq_io.reference import schedule as sch
from seq_io.reference.schedule import Keys
from seq_io.reference.spec_data import load_spec, load_uploader_constants

EVENTS = ("plan", "observe", "drop", "act", "answer", "fail", "advance")
"""The events of spec/uploader.md § 2, each a one-member object (conformance/protocol.md, kind uploader)."""

FORMATS_HEADER = "Seq-Accept-Formats"
"""The answer header that lists the stream formats a worker accepts (spec/stream.md STR-HTTP)."""

ENDED_STATUS = 410
"""`stream.episode-ended`: the worker ended the episode (UPL-ENDED)."""
LOST_STATUSES = (400, 413)
"""`stream.invalid-body`, `stream.invalid-skipped` (UPL-REFUSED) and `stream.frames-over-limit` (UPL-OVER-LIMIT):
the post would be refused again, so it is lost (UPL-LOST)."""
HANDED_STATUS = 200
"""The act was handed over: the last act moves to it (spec/uploader.md § 5)."""


@dataclass
class _Post:
    """The one post of the episode in flight or backing off (UPL-POST-ONE): its body, the attempt last sent or about
    to be sent, and, while backing off, the reading at which that attempt is due."""

    body: dict[str, Any]
    attempt: int
    due: float | None = None


def cut(observation: Any, keys: Keys) -> Any:
    """UPL-CUT, as `envelope` cuts (spec/schedule.md ENV-CUT, ENV-WHOLE): an object observation reduced to the
    listed members it has; the whole observation when the keys are null or it is not an object."""
    if keys is None or not isinstance(observation, dict):
        return observation
    return {key: observation[key] for key in keys if key in observation}


def deeper_than(value: Any, limit: int) -> bool:
    """Whether the own depth of a value (spec/stream.md STR-DEPTH: the most of its own arrays and objects enclosing
    one of its values; 0 for a scalar, `[]` and `{}`) is above `limit`. Walked with a stack, so a value nested
    deeper than Python's recursion limit is measured too, and the walk stops at the first value found too deep."""
    work: list[tuple[Any, int]] = [(value, 0)]
    while work:
        item, enclosed = work.pop()
        if isinstance(item, dict | list) and item:
            inner = enclosed + 1
            if inner > limit:
                return True
            work.extend((child, inner) for child in (item.values() if isinstance(item, dict) else item))
    return False


def lists_observe_format(headers: object) -> bool:
    """Whether an answer's headers list the observe format (UPL-FORMATS): the header's name matched without regard
    to case, its value a comma-separated list whose items are compared after trimming spaces and tabs. Headers given as
    anything but an object hold no header."""
    if not isinstance(headers, dict):
        return False
    wanted_name = FORMATS_HEADER.casefold()
    values = [value for name, value in headers.items() if isinstance(name, str) and name.casefold() == wanted_name]
    observe_format = str(load_spec().contract["observe_format"])
    return any(
        isinstance(value, str) and observe_format in (item.strip(" \t") for item in value.split(","))
        for value in values
    )


def _status_class(status: object) -> int:
    """The hundreds of an HTTP status (2 for 204), or 0 for a value that is not an integer status."""
    if isinstance(status, bool) or not isinstance(status, int | float) or not float(status).is_integer():
        return 0
    return int(status) // 100


class Uploader:
    """One episode's uploader (spec/uploader.md): `event` applies one event and returns the requests it sent."""

    def __init__(self, declaration: Any, rate: Any, episode_id: str, backlog: int | None = None) -> None:
        """UPL-SETUP: `of(declaration, rate)` once (its ScheduleError when it refuses), `when_behind` from the
        declaration, the backlog (MAX_STREAM_FRAMES by default); ValueError for an episode id or a backlog out of
        their ranges."""
        frames_limit = int(load_spec().limits["MAX_STREAM_FRAMES"])
        if backlog is None:
            backlog = frames_limit
        if isinstance(backlog, bool) or not isinstance(backlog, int) or not 1 <= backlog <= frames_limit:
            raise ValueError(f"the backlog is an integer from 1 to {frames_limit} (UPL-SETUP); got {backlog!r}")
        if not isinstance(episode_id, str) or not 1 <= len(episode_id) <= 256:
            raise ValueError(f"the episode id is a string of 1 to 256 code points (UPL-SETUP); got {episode_id!r}")
        self._schedule = sch.of(declaration, rate)
        self._constants = load_uploader_constants()
        self._episode_id = episode_id
        self._backlog = backlog
        when_behind = declaration.get("when_behind", "wait") if isinstance(declaration, dict) else "wait"
        self._drop_oldest = when_behind == "drop_oldest"
        self._streaming = sch.reads_past(self._schedule)  # UPL-STREAM-OFF; UPL-FORMATS turns it off later
        self._ended = False
        self._t_prev: int = -1
        self._plan: int | None = None
        self._wanted: tuple[int, int, dict[int, Keys]] | None = None  # (t_prev, T, wanted as step → keys)
        self._frames: dict[int, Any] = {}  # pending frames: number → inputs, cut
        self._skips: dict[int, bool] = {}  # pending skips: number → urgent
        self._post: _Post | None = None
        self._act: int | None = None  # the step of the act in flight
        self._clock = -math.inf

    @property
    def ended(self) -> bool:
        """Whether the worker ended the episode (UPL-ENDED): the uploader then sends nothing more."""
        return self._ended

    @property
    def last_act(self) -> int:
        """`t_prev`: the step of the last act the worker handed over (answered 200), -1 before the first
        (spec/uploader.md § 5)."""
        return self._t_prev

    def next_due(self) -> float | None:
        """The reading at which the backing-off post's retry is due (the start of its window), or None."""
        return None if self._post is None else self._post.due

    def event(self, event: dict[str, Any], now: float) -> list[dict[str, Any]]:
        """Apply one event (conformance/protocol.md, kind uploader) at the clock reading `now` (for `advance`, the
        reading after it) → the requests sent, in order, each `{"at": reading, "observe" or "act": body}`. A
        retry that fell due since the previous event is sent first, at the reading it fell due. ValueError when
        the clock goes back, or for an event that is not one of spec/uploader.md § 2."""
        if not isinstance(event, dict) or len(event) != 1 or next(iter(event)) not in EVENTS:
            raise ValueError(f"an event is an object with exactly one of {', '.join(EVENTS)}; got {event!r}")
        if not now >= self._clock or math.isinf(now):
            raise ValueError(
                f"the clock went back from {self._clock} to {now}, or is not finite; readings must not decrease"
                " (UPL-CLOCK)"
            )
        self._clock = now
        if self._ended:
            return []  # UPL-EVENTS: an uploader whose episode ended ignores every later event
        sent = self._send_due_retry(now)
        name, value = next(iter(event.items()))
        if name == "plan":
            self._plan = value
        elif name == "observe":
            sent += self._on_observation(value["n"], value["inputs"], True, now)
        elif name == "drop":
            sent += self._on_observation(value, None, False, now)
        elif name == "act":
            sent += self._on_act(value["t"], value["inputs"], now)
        elif name == "answer":
            sent += self._on_answer(value, now)
        elif name == "fail":
            sent += self._on_failure(value["to"], now)
        return sent

    # -- what to upload (spec/uploader.md § 3) --------------------------------------------------------------

    def _wanted_now(self) -> dict[int, Keys]:
        """wanted(s, t_prev, T) as step → keys, for the last act and the planned one (UPL-WANTED)."""
        if self._plan is None:
            raise ValueError("an observation came before any plan: the robot plans its next act first (UPL-EVENTS)")
        cached = self._wanted
        if cached is None or cached[:2] != (self._t_prev, self._plan):
            cached = (self._t_prev, self._plan, dict(sch.wanted(self._schedule, self._t_prev, self._plan)))
            self._wanted = cached
        return cached[2]

    def _on_observation(self, number: int, inputs: Any, made: bool, now: float) -> list[dict[str, Any]]:
        """An observation made (`made`) or lost → one pending item, the backlog applied, a post if one is due."""
        if not self._streaming:
            return []  # UPL-STREAM-OFF, UPL-FORMATS
        wanted = self._wanted_now()
        if number not in wanted:
            self._skips[number] = False  # UPL-SKIP-UNWANTED: lazy
        elif not made:
            self._skips[number] = True  # UPL-DROPPED: urgent
        else:
            frame = cut(inputs, wanted[number])  # UPL-CUT
            if deeper_than(frame, self._constants.max_post_depth):
                self._skips[number] = True  # UPL-DEPTH: urgent
            else:
                self._frames[number] = frame
        self._apply_backlog()
        return self._send_if_due(now)

    def _apply_backlog(self) -> None:
        """UPL-BEHIND: under drop_oldest, the lowest pending frames become urgent skips until the backlog holds."""
        while self._drop_oldest and len(self._frames) > self._backlog:
            oldest = min(self._frames)
            del self._frames[oldest]
            self._skips[oldest] = True

    # -- when to post (spec/uploader.md § 4) ----------------------------------------------------------------

    def _send_if_due(self, now: float) -> list[dict[str, Any]]:
        """UPL-POST-ONE, UPL-POST-PROMPT, UPL-POST-BATCH: every pending item in one post, when none is in flight
        or backing off and pending holds a frame or an urgent skip."""
        if not self._streaming or self._post is not None:
            return []
        if not self._frames and not any(self._skips.values()):
            return []
        body: dict[str, Any] = {"episode_id": self._episode_id}
        if self._frames:
            body["frames"] = [{"seq": number, "inputs": inputs} for number, inputs in self._frames.items()]
        if self._skips:
            body["skipped"] = list(self._skips)
        self._frames, self._skips = {}, {}
        self._post = _Post(body, attempt=1)
        return [{"at": now, "observe": body}]

    def _send_due_retry(self, now: float) -> list[dict[str, Any]]:
        """UPL-RETRY-BACKOFF: the backing-off post's next attempt, when its reading has come, sent at that reading."""
        post = self._post
        if post is None or post.due is None or post.due > now:
            return []
        at, post.due = post.due, None
        return [{"at": at, "observe": post.body}]

    def _retry_or_give_up(self, post: _Post, now: float) -> list[dict[str, Any]]:
        """UPL-RETRY, UPL-GIVE-UP: attempt k ended without success at `now`; back off b_k, or after the last
        attempt the post is lost (UPL-LOST)."""
        constants = self._constants
        if post.attempt >= constants.attempts:
            return self._lose(post, now)
        backoff = constants.first_backoff_s * constants.backoff_factor ** (post.attempt - 1)
        self._post = _Post(post.body, post.attempt + 1, due=now + backoff)
        return []

    def _lose(self, post: _Post, now: float) -> list[dict[str, Any]]:
        """UPL-LOST: a post given up or refused 400 or 413 that carried a frame → its numbers, frames and skips
        alike, join pending as urgent skips, and pending is sent at once; one that carried only skips is dropped,
        so a loss never repeats itself."""
        if post.body.get("frames"):
            for frame in post.body["frames"]:
                self._skips[frame["seq"]] = True
            for number in post.body.get("skipped", ()):
                self._skips[number] = True
        return self._send_if_due(now)

    # -- the act and the answers (spec/uploader.md §§ 5, 6) --------------------------------------------------

    def _on_act(self, t: int, inputs: Any, now: float) -> list[dict[str, Any]]:
        """UPL-ACT-BODY, UPL-ACT-ONCE: one act request at once, whatever posts are on their way."""
        self._act = t
        return [{"at": now, "act": {"episode_id": self._episode_id, "seq": t, "inputs": inputs}}]

    def _stream_off(self) -> None:
        """UPL-FORMATS: no further post; pending items and a backing-off post are dropped (a post in flight stays
        in flight, so that its answer is still recognised, but is never sent again)."""
        self._streaming = False
        self._frames, self._skips = {}, {}
        if self._post is not None and self._post.due is not None:
            self._post = None

    def _end(self) -> None:
        """UPL-ENDED: nothing more is sent for the episode."""
        self._ended = True
        self._frames, self._skips, self._post, self._act = {}, {}, None, None

    def _on_answer(self, answer: dict[str, Any], now: float) -> list[dict[str, Any]]:
        status = answer.get("status")
        headers = answer["headers"] if "headers" in answer else {FORMATS_HEADER: load_spec().contract["observe_format"]}
        listed = lists_observe_format(headers)
        if answer.get("to") == "act":
            if self._act is None:
                return []  # no act in flight: ignored (conformance/protocol.md)
            t, self._act = self._act, None
            if status == ENDED_STATUS:
                self._end()
                return []
            if _status_class(status) in (2, 4) and not listed:
                self._stream_off()
            if status == HANDED_STATUS:
                self._t_prev = t  # spec/uploader.md § 5
            return []
        post = self._post
        if post is None or post.due is not None:
            return []  # no post in flight: ignored (a backing-off post is not in flight)
        self._post = None
        return self._on_post_answer(post, status, listed, now)

    def _on_post_answer(self, post: _Post, status: object, listed: bool, now: float) -> list[dict[str, Any]]:
        """The table of spec/uploader.md § 6, column "to a post"."""
        status_class = _status_class(status)
        if status == ENDED_STATUS:
            self._end()
            return []
        if not self._streaming:
            return []  # an act's answer turned the stream off while this post was in flight
        if status_class in (2, 4) and not listed:
            self._stream_off()
            return []
        if status_class == 2:
            return self._send_if_due(now)  # done
        if status in LOST_STATUSES:
            return self._lose(post, now)  # UPL-REFUSED, UPL-OVER-LIMIT
        if status_class == 4:
            self._stream_off()  # UPL-FORMATS: a worker that does not keep the stream
            return []
        return self._retry_or_give_up(post, now)  # a 5xx, or a status § 6 does not name

    def _on_failure(self, to: object, now: float) -> list[dict[str, Any]]:
        """A request in flight failed without an answer: an act's is the robot's to retry (UPL-ACT-ONCE), a post's
        is retried (UPL-RETRY)."""
        if to == "act":
            self._act = None
            return []
        post = self._post
        if post is None or post.due is not None:
            return []
        self._post = None
        return self._retry_or_give_up(post, now) if self._streaming else []

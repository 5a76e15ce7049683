"""An uploader scenario (declaration, rate, episode id, backlog, events) → the requests spec/uploader.md makes an
uploader send during each event, each event's decided again from the whole history before it.

WHY it is shaped this way: the uploader vectors need expectations that do not come from the code they check (the
reference uploader, a state machine, which this file never reads). So this model carries no state from one event to the
next but the log itself (the events, and the requests it already sent): at every event it asks the rules again, by
scanning that log, what holds now: the plan and the last handed-over act (spec/uploader.md § 5), whether the episode
ended (UPL-ENDED) or the stream is off (UPL-STREAM-OFF, UPL-FORMATS), which item each observation made (§ 3), what is
pending (every item made since the last fresh post, the backlog applied in closed form: the newest `backlog` frames stay
frames, UPL-BEHIND), whether a post is in flight or backing off and when its retry is due (§ 6). It is quadratic on
purpose, and checks UPL-ONCE on what it sent. What the model does not decide (a 1xx or 3xx status, a 2xx other than 200
that lists the format, a 409 to a post, a header named twice) and an event placed inside a retry's window
(conformance/README.md, kind `uploader`) raise `Unjudgeable`, so no vector can depend on them. `wanted` and `of` are
seq_io.reference.schedule's: the schedule is not what these vectors test.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from seq_io.reference.schedule import Schedule, ScheduleError, of, reads_past, wanted
from seq_io.reference.spec_data import default_spec_root

_SPEC = default_spec_root()
_CONSTANTS: dict[str, Any] = json.loads((_SPEC / "uploader.json").read_text(encoding="utf-8"))
_CONTRACT: dict[str, Any] = json.loads((_SPEC / "contract.json").read_text(encoding="utf-8"))
ATTEMPTS: int = _CONSTANTS["UPLOAD_ATTEMPTS"]
FIRST_BACKOFF_S: float = _CONSTANTS["UPLOAD_FIRST_BACKOFF_S"]
BACKOFF_FACTOR: float = _CONSTANTS["UPLOAD_BACKOFF_FACTOR"]
BACKOFF_SPREAD: float = _CONSTANTS["UPLOAD_BACKOFF_SPREAD"]
MAX_POST_DEPTH: int = _CONSTANTS["MAX_POST_DEPTH"]
OBSERVE_FORMAT: str = _CONTRACT["observe_format"]
MAX_STREAM_FRAMES: int = _CONTRACT["limits"]["MAX_STREAM_FRAMES"]
FORMAT_HEADER = "seq-accept-formats"

Window = tuple[float, float]


class Unjudgeable(ValueError):
    """A scenario spec/uploader.md leaves open at one event, or one the vectors promise never to hold."""


@dataclass(frozen=True)
class Item:
    """What one number sends (spec/uploader.md § 1): a frame with its inputs, or a skip, urgent or lazy."""

    n: int
    frame: bool
    inputs: Any = None
    urgent: bool = True


@dataclass(frozen=True)
class Sent:
    """A request the model sent: during which event, at which reading (or window), and what."""

    event: int
    kind: str
    at: float | Window
    items: tuple[Item, ...] = ()
    attempt: int = 1
    seq: int = -1
    inputs: Any = None

    def expectation(self) -> dict[str, Any]:
        """The request as a vector's `expect` writes it: frames by ascending seq, skips ascending, `at` always."""
        if self.kind == "act":
            request: dict[str, Any] = {"act": {"seq": self.seq, "inputs": self.inputs}}
        else:
            frames = [{"seq": i.n, "inputs": i.inputs} for i in sorted(self.items, key=lambda i: i.n) if i.frame]
            skipped = sorted(i.n for i in self.items if not i.frame)
            body: dict[str, Any] = {}
            if frames:
                body["frames"] = frames
            if skipped:
                body["skipped"] = skipped
            request = {"post": body}
        at = self.at
        request["at"] = {"from": at[0], "to": at[1]} if isinstance(at, tuple) else at
        return request


@dataclass(frozen=True)
class Answer:
    """How the worker ended one request: an answer (a status and headers) or a failure (status None)."""

    event: int
    status: int | None
    headers: dict[str, str]

    @property
    def retried(self) -> bool:
        """A failure or a 5xx: the post is retried (UPL-RETRY); it says nothing about the format."""
        return self.status is None or 500 <= self.status <= 599

    def lists_format(self) -> bool:
        """The `Seq-Accept-Formats` header, its name in any case, lists the observe format (UPL-FORMATS)."""
        values = [value for name, value in self.headers.items() if name.lower() == FORMAT_HEADER]
        if len(values) > 1:
            raise Unjudgeable(f"event {self.event}: the answer names the format header twice")
        return bool(values) and OBSERVE_FORMAT in [part.strip(" ") for part in values[0].split(",")]


def lost(request: Sent, answer: Answer) -> bool:
    """UPL-LOST: the answer makes the request a lost post: refused 400 (UPL-REFUSED) or 413 (UPL-OVER-LIMIT), or
    its last attempt failed or was answered 5xx (UPL-GIVE-UP)."""
    if request.kind != "post":
        return False
    return answer.status in (400, 413) or (answer.retried and request.attempt >= ATTEMPTS)


def own_depth(value: Any) -> int:
    """The most arrays and objects of the value's own enclosing one of its values (spec/stream.md STR-DEPTH)."""
    children = list(value.values()) if isinstance(value, dict) else value if isinstance(value, list) else []
    return 1 + max(own_depth(child) for child in children) if children else 0


def cut(observation: Any, keys: tuple[str, ...] | None) -> Any:
    """UPL-CUT: the listed members of an object observation; null keys or another value: the observation whole."""
    if keys is None or not isinstance(observation, dict):
        return observation
    return {name: value for name, value in observation.items() if name in keys}


class History:
    """One scenario's log: its events, and the requests sent during the events played so far."""

    def __init__(self, scenario: dict[str, Any], schedule: Schedule | None) -> None:
        declaration = scenario["declaration"]
        self.events: list[dict[str, Any]] = []
        self.sent: list[Sent] = []
        self.schedule = schedule
        self.streaming = reads_past(schedule)
        self.drop_oldest = isinstance(declaration, dict) and declaration.get("when_behind") == "drop_oldest"
        self.backlog: int = scenario.get("backlog", MAX_STREAM_FRAMES)
        self._items: dict[int, Item | None] = {}
        self._wanted: dict[tuple[int, int], dict[int, tuple[str, ...] | None]] = {}

    # -- the log, read again at every question ------------------------------------------------------------------

    def clock(self, upto: int) -> float:
        """The virtual clock after event `upto` (-1: before the first): each advance one binary64 addition."""
        reading = 0.0
        for event in self.events[: upto + 1]:
            if "advance" in event:
                reading += float(event["advance"])
        return reading

    def answer_to(self, request: Sent, upto: int) -> Answer | None:
        """The first answer or failure to the request's kind after it was sent, at or before event `upto`."""
        for index in range(request.event + 1, min(upto, len(self.events) - 1) + 1):
            event = self.events[index]
            if "answer" in event and event["answer"]["to"] == request.kind:
                answer = event["answer"]
                return Answer(
                    index, int(answer["status"]), answer.get("headers", {"Seq-Accept-Formats": OBSERVE_FORMAT})
                )
            if "fail" in event and event["fail"]["to"] == request.kind:
                return Answer(index, None, {})
        return None

    def answered(self, upto: int) -> list[tuple[Sent, Answer]]:
        pairs = [(request, self.answer_to(request, upto)) for request in self.sent]
        return [(request, answer) for request, answer in pairs if answer is not None]

    def ended(self, upto: int) -> bool:
        """UPL-ENDED: a request was answered 410 at or before event `upto`."""
        return any(answer.status == 410 for _, answer in self.answered(upto))

    def stream_off(self, upto: int) -> bool:
        """UPL-STREAM-OFF, UPL-FORMATS: no post will ever be sent after event `upto`."""
        if not self.streaming:
            return True
        for request, answer in self.answered(upto):
            status = answer.status
            if status is None or status >= 500:
                continue
            self.check_status(request, answer)
            if not answer.lists_format():
                return True
            if request.kind == "post" and 400 <= status <= 499 and status not in (400, 410, 413):
                return True
        return False

    def check_status(self, request: Sent, answer: Answer) -> None:
        status = answer.status
        assert status is not None
        if status < 200 or 300 <= status < 400:
            raise Unjudgeable(f"event {answer.event}: spec/uploader.md § 6 says nothing of a {status} answer")
        if status in range(201, 300) and answer.lists_format():
            raise Unjudgeable(f"event {answer.event}: a {status} that lists the format is not in § 6's table")
        if request.kind == "post" and status == 409:
            raise Unjudgeable(f"event {answer.event}: § 6 gives no meaning to a 409 answer to a post")

    def t_prev(self, upto: int) -> int:
        """spec/uploader.md § 5: the step of the act whose 200 came last, at or before event `upto`; -1 before any."""
        handed = [
            (answer.event, r.seq) for r, answer in self.answered(upto) if r.kind == "act" and answer.status == 200
        ]
        return max(handed)[1] if handed else -1

    def plan(self, upto: int) -> int:
        plans = [event["plan"] for event in self.events[: upto + 1] if "plan" in event]
        if not plans:
            raise Unjudgeable(f"event {upto}: an observation before any plan (UPL-EVENTS)")
        return int(plans[-1])

    def item(self, index: int) -> Item | None:
        """The item the observation or drop of event `index` made (§ 3), or None when it made none."""
        if index not in self._items:
            self._items[index] = self._made(index)
        return self._items[index]

    def _made(self, index: int) -> Item | None:
        event = self.events[index]
        if not ("observe" in event or "drop" in event) or self.stream_off(index - 1) or self.ended(index - 1):
            return None
        n = int(event["observe"]["n"] if "observe" in event else event["drop"])
        listed = self.wanted(self.t_prev(index - 1), self.plan(index))
        if n not in listed:
            return Item(n, frame=False, urgent=False)  # UPL-SKIP-UNWANTED
        if "drop" in event:
            return Item(n, frame=False)  # UPL-DROPPED
        inputs = cut(event["observe"]["inputs"], listed[n])
        if own_depth(inputs) > MAX_POST_DEPTH:
            return Item(n, frame=False)  # UPL-DEPTH
        return Item(n, frame=True, inputs=inputs)

    def wanted(self, t_prev: int, t_next: int) -> dict[int, tuple[str, ...] | None]:
        """UPL-WANTED: step → keys of `wanted(s, t_prev, T)` (spec/schedule.md § 7), computed once per pair."""
        if (t_prev, t_next) not in self._wanted:
            listed = [] if self.schedule is None else wanted(self.schedule, t_prev, t_next)
            self._wanted[(t_prev, t_next)] = {step: None if keys is None else tuple(keys) for step, keys in listed}
        return self._wanted[(t_prev, t_next)]

    def pending(self, upto: int) -> list[Item]:
        """What is pending after event `upto`: every item made since the last fresh post (UPL-POST-BATCH), the
        backlog applied (UPL-BEHIND), and the numbers of a post lost since then, when it carried a frame (UPL-LOST)."""
        fresh = [request.event for request in self.sent if request.kind == "post" and request.attempt == 1]
        since = max((event for event in fresh if event < upto), default=-1)
        made = [item for index in range(since + 1, upto + 1) if (item := self.item(index)) is not None]
        frames = sorted(item.n for item in made if item.frame)
        if self.drop_oldest and len(frames) > self.backlog:
            dropped = set(frames[: len(frames) - self.backlog])
            made = [Item(item.n, frame=False) if item.n in dropped else item for item in made]
        for request, answer in self.answered(upto):
            if lost(request, answer) and since < answer.event and any(item.frame for item in request.items):
                made += [Item(item.n, frame=False) for item in request.items]
        return made

    def backing_off(self, upto: int) -> tuple[Sent, Window] | None:
        """The post waiting for its retry after event `upto`, with the retry's window (UPL-RETRY-BACKOFF)."""
        posts = [request for request in self.sent if request.kind == "post"]
        if not posts:
            return None
        answer = self.answer_to(posts[-1], upto)
        if answer is None or not answer.retried or posts[-1].attempt >= ATTEMPTS:
            return None
        start = FIRST_BACKOFF_S * BACKOFF_FACTOR ** (posts[-1].attempt - 1)
        failed_at = self.clock(answer.event)
        return posts[-1], (failed_at + start, failed_at + BACKOFF_SPREAD * start)

    def post_in_flight(self, upto: int) -> bool:
        posts = [request for request in self.sent if request.kind == "post"]
        return bool(posts) and self.answer_to(posts[-1], upto) is None

    # -- one event ------------------------------------------------------------------------------------------------

    def play(self, event: dict[str, Any]) -> list[Sent]:
        """Append one event and return what the rules make the uploader send during it."""
        index = len(self.events)
        self.events.append(event)
        before = len(self.sent)
        if self.ended(index - 1):
            return []  # UPL-ENDED: every later event is ignored
        now = self.clock(index)
        if "act" in event:  # UPL-ACT-BODY, UPL-ACT-ONCE
            self.sent.append(Sent(index, "act", now, seq=int(event["act"]["t"]), inputs=event["act"]["inputs"]))
        if self.stream_off(index) or self.ended(index):
            return self.sent[before:]
        waiting = self.backing_off(index)
        if waiting is not None:
            self._retry(index, *waiting)
        elif not self.post_in_flight(index):
            pending = self.pending(index)
            if any(item.frame or item.urgent for item in pending):  # UPL-POST-PROMPT
                self.sent.append(Sent(index, "post", now, items=tuple(pending)))
                self._check_once()
        return self.sent[before:]

    def _retry(self, index: int, post: Sent, window: Window) -> None:
        """UPL-RETRY: the same body, sent during the advance that passes its window."""
        start, end = window
        after = self.clock(index)
        if after < start:
            return
        if after < end:
            raise Unjudgeable(f"event {index} ends inside the retry window [{start!r}, {end!r}]")
        self.sent.append(Sent(index, "post", window, items=post.items, attempt=post.attempt + 1))

    def _check_once(self) -> None:
        """UPL-ONCE: a number goes in one fresh post, except the skips a lost post declares again (UPL-LOST)."""
        declared_again = {
            item.n
            for request, answer in self.answered(len(self.events) - 1)
            if lost(request, answer)
            for item in request.items
        }
        seen: set[int] = set()
        for request in (r for r in self.sent if r.kind == "post" and r.attempt == 1):
            for item in request.items:
                assert item.n not in seen or (item.n in declared_again and not item.frame), (
                    f"number {item.n} sent twice"
                )
                seen.add(item.n)


def start(scenario: dict[str, Any]) -> History | dict[str, str]:
    """UPL-SETUP: the uploader's history, or `{"error": <rule>}` when `of` refuses the declaration."""
    rate = scenario.get("rate")
    try:
        schedule = of(scenario["declaration"], None if rate is None else rate)
    except ScheduleError as refusal:
        return {"error": refusal.rule}
    return History(scenario, schedule)


def play(scenario: dict[str, Any]) -> list[list[dict[str, Any]]] | dict[str, str]:
    """The requests of each event in a vector's `expect` form (`at` always written), or the setup's refusal."""
    history = start(scenario)
    if isinstance(history, dict):
        return history
    return [[sent.expectation() for sent in history.play(event)] for event in scenario["events"]]
